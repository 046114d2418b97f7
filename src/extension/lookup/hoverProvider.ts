import * as vscode from 'vscode';
import { detectAt, type DetectOptions } from '../../core/detect';
import { isHostnameSyntax } from '../../core/detect/domain';
import { specialDomain } from '../../core/privacy';
import { HOVER_COMMAND_IDS } from '../../core/cards/hoverCard';
import { config } from '../shared/config';
import type { Ctx } from '../ctx';
import { toAbortSignal } from '../shared/abort';
import { isCancellation } from '../shared/errors';
import { buildCard, cardStep } from './lookups';
import type { Indicator } from './policy';

/**
 * Languages read as prose, logs or data: there is no member access in them, so a name under a
 * TLD that is also a word (`host: api.example.cloud`, `user.name`) counts as a host name.
 */
export const TEXT_LANGUAGES = new Set([
  'log',
  // l10n: English, not words (a language id)
  'Log',
  'plaintext',
  'markdown',
  'csv',
  'tsv',
  'jsonl',
  'json',
  'jsonc',
  'yaml',
  'toml',
  'ini',
  'properties',
  'dotenv',
]);

/** The indicator under `position` and its range, reading only that line (bounded by detectAt). */
export function indicatorAt(
  document: vscode.TextDocument,
  position: vscode.Position,
): { indicator: Indicator; range: vscode.Range } | undefined {
  const line = document.lineAt(position.line).text;
  const mode: DetectOptions['mode'] = TEXT_LANGUAGES.has(document.languageId) ? 'text' : 'code';
  const hit = detectAt(line, position.character, { mode }) ?? internalNameAt(line, position.character);
  if (!hit) return undefined;
  return { indicator: hit, range: new vscode.Range(position.line, hit.start, position.line, hit.end) };
}

const NAME_CHAR = /[A-Za-z0-9.-]/;
const MAX_NAME = 253;

/**
 * An internal or special-use name under the cursor (`db.corp.internal`, `nas.lan`,
 * `printer.local`): the detector only reports names that could be looked up, but a hover
 * on one of these should still say why nothing is sent. Reads at most 253 characters
 * either side of the cursor.
 */
export function internalNameAt(line: string, offset: number): Indicator | undefined {
  let start = offset;
  let end = offset;
  while (start > 0 && offset - start < MAX_NAME && NAME_CHAR.test(line[start - 1])) start--;
  while (end < line.length && end - offset < MAX_NAME && NAME_CHAR.test(line[end])) end++;
  let raw = line.slice(start, end);
  const trimmed = raw.replace(/^[.-]+/, '');
  start += raw.length - trimmed.length;
  raw = trimmed.replace(/[.-]+$/, '');
  end = start + raw.length;
  if (!raw.includes('.') || offset < start || offset > end) return undefined;
  const value = raw.toLowerCase();
  if (!isHostnameSyntax(value) || !specialDomain(value)) return undefined;
  return { kind: 'domain', start, end, raw, value, defanged: false };
}

/** The hover commands a card may run (one frozen copy: every card enables the same). */
const HOVER_TRUST = Object.freeze({ enabledCommands: Object.freeze([...HOVER_COMMAND_IDS]) });

/** A Markdown string that can run our hover commands and nothing else: no HTML, no icons. */
export function hoverMarkdown(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(text, false);
  md.isTrusted = HOVER_TRUST;
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
    // Local facts and fresh cached answers: no await, no request.
    const step = cardStep(this.ctx, { indicator: found.indicator });
    if ('card' in step) return new vscode.Hover(hoverMarkdown(step.card), found.range);
    // The hover closing (mouse moved on) aborts our wait; the request layer aborts the
    // request itself once no other hover still waits for the same answer.
    try {
      const card = await toAbortSignal(token, (signal) =>
        buildCard(this.ctx, { indicator: found.indicator, signal }, step),
      );
      if (token.isCancellationRequested) return undefined;
      return new vscode.Hover(hoverMarkdown(card), found.range);
    } catch (err) {
      if (isCancellation(err) || token.isCancellationRequested) return undefined;
      this.ctx.log.error(err instanceof Error ? err : String(err));
      return undefined;
    }
  }
}
