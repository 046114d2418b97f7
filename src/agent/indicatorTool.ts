/**
 * `odin_list_indicators`: the IPs, CIDR blocks and domain names in a text, found locally,
 * each with whether it may be looked up. Sends nothing.
 *
 * Pure Node: no `vscode` import.
 */
import { listIndicators } from '../core/detect/indicators';
import { num, plain, q } from './format';
import type { AgentGate } from './gate';
import { ToolInputError, type Input } from './schema';
import { int, str, tool, type ToolContext } from './toolKit';

/**
 * The largest message the MCP stdio transport reads: the SDK's `ReadBuffer` ends the whole
 * session on a line over 10 MiB (`STDIO_DEFAULT_MAX_BUFFER_SIZE`), so no argument the schemas
 * accept may make a bigger one.
 */
export const MCP_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * Bytes one character of a string argument can take in the JSON-RPC line: `\u0001` (a control
 * character or a lone surrogate) is 6.
 */
export const JSON_BYTES_PER_CHAR = 6;

/**
 * Most characters of text the indicator and triage tools take inline: whatever the characters,
 * the call (with its other arguments) stays at least 64 KiB under one MCP message; a test holds
 * every tool's schema to that. A bigger log is triaged by `file` (in VS Code), which the
 * transport does not carry.
 */
export const MAX_INDICATOR_TEXT = 1_700_000;

/** Most characters of a workspace file the tools read (a big log is fine; a disk image is not). */
export const MAX_FILE_TEXT = 20_000_000;

export const listIndicatorsTool = tool({
  name: 'odin_list_indicators',
  title: 'ODIN: list indicators in text',
  local: true,
  description:
    'Lists the IP addresses, CIDR blocks and domain names in a text (a log, config or threat report; defanged forms like 1.2.3[.]4 are recognised), most frequent first, and says for each whether ODIN may look it up or why it never leaves the machine (private, reserved, internal). Runs locally and sends nothing. Use it before the lookup tools.',
  inputSchema: {
    type: 'object',
    properties: {
      text: {
        type: 'string',
        description: 'The text to scan. Give this, or file.',
        maxLength: MAX_INDICATOR_TEXT,
      },
      file: {
        type: 'string',
        description:
          "In VS Code: a workspace file path to scan instead of text. With neither, the active editor's selection (or whole file) is scanned.",
        maxLength: 1000,
      },
      max: {
        type: 'integer',
        description: 'Most indicators to list (default 50).',
        minimum: 1,
        maximum: 200,
        default: 50,
      },
    },
    additionalProperties: false,
  },
  prepare(input, ctx) {
    const max = int(input, 'max', 50);
    return {
      async run(c, signal) {
        const scan = await localText(input, c, 'scan', signal);
        return indicatorsAnswer(
          await listIndicators(scan.text, { signal, maxUnique: 10_000 }),
          ctx.gate,
          max,
          scan.source,
        );
      },
    };
  },
});

/** The indicator list as text: value, kind, count, and whether it may be looked up. */
export function indicatorsAnswer(
  list: Awaited<ReturnType<typeof listIndicators>>,
  gate: AgentGate,
  max: number,
  source: string,
): string {
  const lines = [
    `Indicators in ${source} (found locally, nothing sent): ${num(list.items.length)} unique${list.truncated ? '+' : ''}, ${num(list.total)} occurrence(s).`,
  ];
  for (const it of list.items.slice(0, max)) {
    const kind = it.kind === 'domain' ? 'domain' : it.kind === 'cidr' ? 'cidr' : 'ip';
    const v = gate.privacy(it.value, kind);
    const verdict = v.allowed ? 'may be looked up' : `never sent: ${v.why ?? v.reason}`;
    lines.push(
      `${q(it.value, 100)} ${it.kind} x${num(it.count)}${it.defanged ? ' (defanged)' : ''}; ${verdict}`,
    );
  }
  if (list.items.length > max) lines.push(`… ${num(list.items.length - max)} more indicator(s) not shown`);
  return plain(lines);
}

/** The text a local tool works on: `text`, else what the surface reads (a file, the editor). */
export async function localText(
  input: Input,
  c: ToolContext,
  verb: 'scan' | 'triage',
  signal?: AbortSignal,
): Promise<{ text: string; source: string }> {
  const text = typeof input.text === 'string' ? input.text : undefined;
  let scan = text === undefined ? undefined : { text, source: 'the text' };
  if (!scan) {
    if (!c.localText) throw new ToolInputError(`Pass the text to ${verb} in "text".`);
    scan = await c.localText(str(input, 'file') || undefined, signal);
  }
  if (scan.text.length > (text === undefined ? MAX_FILE_TEXT : MAX_INDICATOR_TEXT))
    throw new ToolInputError(`The text is too large to ${verb} here.`);
  return scan;
}
