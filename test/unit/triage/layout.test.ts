// The triage view's responsive layout: at each width tier of media/details.css the row grid
// has exactly one track per cell shown there (a column of src/webview/triage/columns.ts of
// that priority or higher, plus the row buttons from the medium tier up). A column added or
// re-prioritised without its track would shift every cell after it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = join(__dirname, '..', '..', '..', '..');
const css = readFileSync(join(root, 'media', 'details.css'), 'utf8');
const columns = readFileSync(join(root, 'src', 'webview', 'triage', 'columns.ts'), 'utf8');
const main = readFileSync(join(root, 'src', 'webview', 'triage', 'main.ts'), 'utf8');

/** Tracks of a grid-template-columns value (spaces inside parentheses do not split). */
function tracks(value: string): number {
  let depth = 0;
  let n = 0;
  let inTrack = false;
  for (const ch of value.trim()) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (/\s/.test(ch) && depth === 0) inTrack = false;
    else if (!inTrack) {
      inTrack = true;
      n++;
    }
  }
  return n;
}

/** The `.trow` grid template of the base rule (media = '') or of the @media (max-width: Npx) block. */
function template(maxWidth?: number): string {
  let scope = css;
  if (maxWidth !== undefined) {
    const at = css.indexOf(`@media (max-width: ${maxWidth}px)`);
    assert.ok(at >= 0, `a tier at ${maxWidth}px`);
    scope = css.slice(at, css.indexOf('\n}\n', at));
  }
  const m = /\.trow \{[^}]*?grid-template-columns:\s*([^;]+);/.exec(scope);
  assert.ok(m, `grid-template-columns of .trow${maxWidth ? ` under ${maxWidth}px` : ''}`);
  return m[1]!;
}

const prios = [...columns.matchAll(/prio: ([123]),?\s*\}/g)].map((m) => Number(m[1]));
const buttonsPrio = Number(/class: 'tcell p(\d) actions'/.exec(main)?.[1]);

describe('triage view layout', () => {
  it('has a priority for every column and for the row buttons', () => {
    assert.ok(prios.length >= 12, `columns with a priority: ${prios.length}`);
    assert.equal(buttonsPrio, 2);
  });
  for (const [tier, maxWidth, shown] of [
    ['wide', undefined, 3],
    ['medium', 1419, 2],
    ['narrow', 759, 1],
  ] as const) {
    it(`${tier}: one track per cell shown`, () => {
      const cells = prios.filter((p) => p <= shown).length + (buttonsPrio <= shown ? 1 : 0);
      assert.equal(tracks(template(maxWidth)), cells);
    });
  }
  it('the narrow tier keeps indicator, verdict, CVEs and CVSS', () => {
    for (const label of ['Indicator', 'Verdict', 'CVEs', 'CVSS'])
      assert.equal(
        new RegExp(`label: \\(\\) => (?:l10n\\.t\\()?'${label}'[\\s\\S]*?prio: (\\d)`).exec(columns)?.[1],
        '1',
        label,
      );
  });
});
