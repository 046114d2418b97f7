import * as vscode from 'vscode';
import { detectAt, type DetectOptions } from '../../core/detect';
import { HOVER_COMMAND_IDS } from '../../core/hoverCard';
import { config } from '../config';
import type { Ctx } from '../ctx';
import { isCancellation } from '../errors';
import { buildCard } from './lookups';
import type { Indicator } from './policy';

/** Languages read as prose/logs: member-like names (`user.name`) count as host names there. */
const TEXT_LANGUAGES = new Set(['log', 'plaintext', 'markdown', 'csv', 'tsv', 'jsonl', 'Log']);

/** Every document a person can hover: files, unsaved buffers, remote and virtual files. */
export const HOVER_SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file' },
  { scheme: 'untitled' },
  { scheme: 'vscode-remote' },
  { scheme: 'vscode-vfs' },
  { scheme: 'git' },
];

/** The indicator under `position` and its range, reading only that line (bounded by detectAt). */
export function indicatorAt(
  document: vscode.TextDocument,
  position: vscode.Position,
): { indicator: Indicator; range: vscode.Range } | undefined {
  const line = document.lineAt(position.line).text;
  const mode: DetectOptions['mode'] = TEXT_LANGUAGES.has(document.languageId) ? 'text' : 'code';
  const hit = detectAt(line, position.character, { mode });
  if (!hit) return undefined;
  return { indicator: hit, range: new vscode.Range(position.line, hit.start, position.line, hit.end) };
}

/** A Markdown string that can run our hover commands and nothing else: no HTML, no icons. */
export function hoverMarkdown(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(text, false);
  md.isTrusted = { enabledCommands: [...HOVER_COMMAND_IDS] };
  md.supportHtml = false;
  md.supportThemeIcons = false;
  return md;
}

export class OdinHoverProvider implements vscode.HoverProvider {
  constructor(private readonly ctx: Ctx) {}

  async provideHover(
    document: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.Hover | undefined> {
    if (!config.hoverEnabled() || token.isCancellationRequested) return undefined;
    const found = indicatorAt(document, position);
    if (!found) return undefined;
    // The hover closing (mouse moved on) aborts our wait; the request layer aborts the
    // request itself once no other hover still waits for the same answer.
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    try {
      const card = await buildCard(this.ctx, {
        indicator: found.indicator,
        explicit: false,
        signal: controller.signal,
      });
      if (token.isCancellationRequested) return undefined;
      return new vscode.Hover(hoverMarkdown(card), found.range);
    } catch (err) {
      if (isCancellation(err) || token.isCancellationRequested) return undefined;
      this.ctx.log.error(err instanceof Error ? err : String(err));
      return undefined;
    } finally {
      sub.dispose();
    }
  }
}
