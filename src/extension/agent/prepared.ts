/**
 * What a language-model tool shows in chat before it runs, as plain data: the progress line
 * and, for a call that sends, the confirmation (index.ts makes VS Code's
 * PreparedToolInvocation of it). Plain Node: test/unit/agent/prepared.test.ts runs it in
 * German.
 *
 * A tool is named by its display name in the manifest as VS Code localized it
 * (package.nls.<lang>.json, `displayName` of `languageModelTools`): the one source of the
 * words a person reads. src/agent's `title` is the same name in English, for the MCP server.
 */
import type { AgentTool, ConfirmedCalls, ToolContext } from '../../agent';
import { l10n } from '../../core/text/l10n';

export interface PreparedText {
  /** The progress line in chat. */
  invocation: string;
  /** For a call that sends: the confirmation's title and what is sent (plain text: the adapter escapes it). */
  confirm?: { title: string; sends: string };
}

/** Each declared tool's display name by tool name, from the manifest VS Code hands the extension. */
export function toolDisplayNames(packageJSON: unknown): Map<string, string> {
  const tools = (packageJSON as { contributes?: { languageModelTools?: unknown } } | undefined)?.contributes
    ?.languageModelTools;
  const names = new Map<string, string>();
  if (!Array.isArray(tools)) return names;
  for (const t of tools as Array<{ name?: unknown; displayName?: unknown }>) {
    // An unresolved `%key%` (no translation at all) is no name for a person.
    if (typeof t.name === 'string' && typeof t.displayName === 'string' && !/^%.+%$/.test(t.displayName))
      names.set(t.name, t.displayName);
  }
  return names;
}

/**
 * The chat's words for one call of `tool`, named `name` (its display name): local tools ask
 * nothing, a refused or invalid call sends nothing so asks nothing, a call that sends asks
 * with exactly what it sends; the triage asks after its local scan, with the request count.
 */
export async function preparedText(
  tool: AgentTool,
  name: string,
  input: unknown,
  tools: ToolContext,
  confirmed: ConfirmedCalls,
  signal?: AbortSignal,
): Promise<PreparedText> {
  if (tool.local)
    return {
      invocation: tool.annotations.openWorldHint
        ? l10n.t('{0} (no ODIN request; the public KEV and EPSS feeds may be downloaded first)', name)
        : l10n.t('{0} (local, nothing is sent)', name),
    };
  try {
    const call = tool.prepareLocal
      ? await confirmed.prepare(tool, input, tools, signal)
      : tool.prepare(input, tools);
    if (tool.prepareLocal && !call.sends)
      return {
        invocation: call.note
          ? `${name}: ${call.note}`
          : l10n.t('{0}: nothing is sent (all cached or local)', name),
      };
    return { invocation: name, confirm: { title: name, sends: call.sends ?? '' } };
  } catch {
    // Refused or invalid: nothing will be sent, so there is nothing to confirm.
    return { invocation: l10n.t('{0}: refused, nothing is sent', name) };
  }
}
