/**
 * A confirmation is about one text and one request count. A tool that reads local text when
 * the call names none (the triage: the active editor's selection or document) reads it while
 * its confirmation is prepared; the run that follows the user's yes uses that same text, not
 * whatever editor is active by then, and the call that was prepared (whose run keeps the
 * count the confirmation showed as its ceiling), not a fresh one. Kept per call (tool and
 * input), for the next run of that call only.
 *
 * Pure Node: no `vscode` import.
 */
import type { AgentTool, PreparedCall, ToolContext } from './toolKit';
import { invokeTool } from './tools';

type LocalText = { text: string; source: string };
type Kept = { read?: LocalText; call: PreparedCall };

/** `ctx` with another `localText`; its getters (the request layer) still read the live context. */
function withLocalText(ctx: ToolContext, localText: ToolContext['localText']): ToolContext {
  return Object.create(ctx, { localText: { value: localText, enumerable: true } }) as ToolContext;
}

export class ConfirmedCalls {
  private readonly kept = new Map<string, Kept>();

  /** At most `max` confirmations waiting for their run (a declined one is never run). */
  constructor(private readonly max = 4) {}

  private static key(tool: AgentTool, input: unknown): string {
    return `${tool.name}\u0000${JSON.stringify(input) ?? ''}`;
  }

  /** Prepares the confirmation of a call whose cost is known after a local scan; keeps the text it read. */
  async prepare(
    tool: AgentTool,
    input: unknown,
    ctx: ToolContext,
    signal?: AbortSignal,
  ): Promise<PreparedCall> {
    if (!tool.prepareLocal) return tool.prepare(input, ctx);
    let read: LocalText | undefined;
    const base = ctx.localText;
    const reading = base ? withLocalText(ctx, async (file, s) => (read = await base(file, s))) : ctx;
    const call = await tool.prepareLocal(input, reading, signal);
    const key = ConfirmedCalls.key(tool, input);
    this.kept.delete(key);
    this.kept.set(key, { ...(read ? { read } : {}), call });
    while (this.kept.size > this.max) this.kept.delete(this.kept.keys().next().value!);
    return call;
  }

  /**
   * Runs a call: the call its confirmation showed (its text, its request count as a
   * ceiling), when one was prepared; else as given.
   */
  run(tool: AgentTool, input: unknown, ctx: ToolContext, signal?: AbortSignal): Promise<string> {
    const key = ConfirmedCalls.key(tool, input);
    const confirmed = this.kept.get(key);
    this.kept.delete(key);
    if (!confirmed) return invokeTool(tool, input, ctx, signal);
    const read = confirmed.read;
    return invokeTool(tool, input, read ? withLocalText(ctx, async () => read) : ctx, signal, confirmed.call);
  }
}
