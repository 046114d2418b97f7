/**
 * The MCP server's policy of the moment: the lookups mode, workspace trust and privacy lists
 * of the VS Code window that started it. VS Code starts the server once and keeps it
 * running; its environment is fixed at start. So the extension writes the gate's settings to
 * a small file in its global storage (`writePolicyFile`, again on every change) and names the
 * file in `ODIN_POLICY_FILE`; the server reads it on every tool call (`readPolicyFile`).
 * A file that is missing, unreadable or not exactly this shape means nothing is sent.
 *
 * The rule itself stays in the gate (src/core/gate): the file carries the settings the gate
 * decides on, never a decision. Plain Node: no `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GateSettings, LookupsMode } from '../../core/gate';

/** The file's format version (a newer or older file is not read: nothing is sent). */
export const POLICY_VERSION = 1;

const MODES: readonly LookupsMode[] = ['onHover', 'onCommand', 'off'];
const MAX_BYTES = 256 * 1024;

/** The settings of the gate as the file holds them. */
export function policyText(s: GateSettings): string {
  return `${JSON.stringify({
    version: POLICY_VERSION,
    mode: s.mode,
    trusted: s.trusted,
    userAllow: [...(s.userAllow ?? [])],
    userDeny: [...(s.userDeny ?? [])],
    workspaceDeny: [...(s.workspaceDeny ?? [])],
  })}\n`;
}

/**
 * Writes the settings atomically (a temporary file in the same folder, then a rename), so a
 * reader sees the old file or the new one, never half of one. Readable by the user only.
 */
export async function writePolicyFile(file: string, s: GateSettings): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
  try {
    await fs.promises.writeFile(tmp, policyText(s), { mode: 0o600 });
    await fs.promises.rename(tmp, file);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}

function strings(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.length <= 10_000 && v.every((x) => typeof x === 'string') ? v : undefined;
}

/** The settings in `file`, or why they cannot be read (then nothing may be sent). Synchronous. */
export function readPolicyFile(file: string): { settings: GateSettings } | { error: string } {
  let text: string;
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > MAX_BYTES) return { error: 'the policy file is not a small file' };
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { error: code === 'ENOENT' ? 'the policy file is missing' : 'the policy file cannot be read' };
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { error: 'the policy file is not JSON' };
  }
  const o = (v && typeof v === 'object' ? v : {}) as Record<string, unknown>;
  const userAllow = strings(o.userAllow);
  const userDeny = strings(o.userDeny);
  const workspaceDeny = strings(o.workspaceDeny);
  if (
    o.version !== POLICY_VERSION ||
    !MODES.includes(o.mode as LookupsMode) ||
    typeof o.trusted !== 'boolean' ||
    !userAllow ||
    !userDeny ||
    !workspaceDeny
  ) {
    return { error: 'the policy file is not in the expected format' };
  }
  return {
    settings: { mode: o.mode as LookupsMode, trusted: o.trusted, userAllow, userDeny, workspaceDeny },
  };
}

/**
 * `ODIN_LOOKUPS` for the server run by hand: unset means on; otherwise only a known "on"
 * spelling (`on`, `onHover`, `onCommand`, `true`, `1`, `yes`, any case, spaces ignored) is
 * on. Anything else, `OFF`, ` off `, `false`, `0`, `disabled`, an empty value or a typo, is
 * off: a setting meant to stop sending fails closed.
 */
export function lookupsFromEnv(value: string | undefined): 'on' | 'off' {
  if (value === undefined) return 'on';
  return ['on', 'onhover', 'oncommand', 'true', '1', 'yes'].includes(value.trim().toLowerCase())
    ? 'on'
    : 'off';
}
