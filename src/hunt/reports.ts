/**
 * The run's other outputs: JUnit XML (one uniquely named case per finding, a passing case per
 * clean hunt, an error case per hunt not scanned), JSON Lines (one finding per line) and the
 * Markdown summary (the step summary in GitHub Actions). Text from the service (bucket and
 * domain names) is made inert for each format.
 *
 * Plain Node: no `vscode` import.
 */
import { escapeMarkdownSyntax, neutraliseUiText } from '../core/text/inert';
import type { Finding } from './findings';
import type { HuntOutcome, RunReport } from './run';

/** XML text: escaped, and without the characters XML 1.0 cannot hold. */
function xml(text: string): string {
  return neutraliseUiText(text, 2000)
    .replace(/[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function notScanned(o: HuntOutcome): boolean {
  return o.status === 'skipped' || o.status === 'partial' || o.status === 'refused' || o.status === 'failed';
}

export function toJunit(report: RunReport): string {
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  for (const file of report.files) {
    const cases: string[] = [];
    let t = 0;
    let fl = 0;
    let er = 0;
    let sk = 0;
    for (const o of report.outcomes.filter((x) => x.hunt.file === file.file)) {
      const cls = xml(`${file.file}.${o.hunt.key}`);
      const where = `file="${xml(o.hunt.file)}" line="${o.hunt.line}"`;
      for (const f of o.findings) {
        t++;
        const name = xml(`${o.hunt.key} › ${f.subject}`);
        if (f.state === 'baselined') {
          sk++;
          cases.push(
            `    <testcase classname="${cls}" name="${name}" ${where}><skipped message="${xml(`baselined: ${f.baseline?.reason ?? ''} (until ${f.baseline?.expires ?? ''})`)}"/></testcase>`,
          );
        } else {
          fl++;
          cases.push(
            `    <testcase classname="${cls}" name="${name}" ${where}><failure type="${f.state}" message="${xml(f.title)}">${xml(`${f.file}:${f.line}: ${f.hunt}: ${f.title}`)}</failure></testcase>`,
          );
        }
      }
      if (notScanned(o)) {
        t++;
        er++;
        cases.push(
          `    <testcase classname="${cls}" name="${xml(`${o.hunt.key} (${o.status})`)}" ${where}><error type="${o.status}" message="${xml(o.reason ?? o.status)}"/></testcase>`,
        );
      } else if (o.findings.length === 0) {
        t++;
        cases.push(`    <testcase classname="${cls}" name="${xml(o.hunt.key)}" ${where}/>`);
      }
    }
    tests += t;
    failures += fl;
    errors += er;
    skipped += sk;
    suites.push(
      `  <testsuite name="${xml(file.file)}" tests="${t}" failures="${fl}" errors="${er}" skipped="${sk}">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="odin-hunt" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}">\n${suites.join('\n')}\n</testsuites>\n`;
}

export function findingRecord(f: Finding): object {
  return {
    fingerprint: f.fingerprint,
    state: f.state,
    file: f.file,
    line: f.line,
    hunt: f.hunt,
    kind: f.kind,
    subject: f.subject,
    level: f.level,
    title: f.title,
    facts: f.facts,
    ...(f.baseline ? { baseline: f.baseline } : {}),
  };
}

/** One finding per line, as chunks (a long run's findings never become one string). */
export function* jsonlChunks(report: RunReport): Generator<string> {
  for (const o of report.outcomes) for (const f of o.findings) yield `${JSON.stringify(findingRecord(f))}\n`;
}

function md(text: string, max = 200): string {
  return escapeMarkdownSyntax(neutraliseUiText(text, max));
}

const STATUS: Record<HuntOutcome['status'], string> = {
  clean: 'clean',
  found: 'found',
  partial: '**cut short**',
  skipped: '**not scanned**',
  refused: '**refused by the gate**',
  failed: '**failed**',
};

const MAX_LISTED = 50;

/** A hunt's place as a code span (a path reads as written; backticks and bars cannot end it). */
function where(o: HuntOutcome): string {
  return `\`${`${o.hunt.file}:${o.hunt.line}`.replace(/[`|\r\n]/g, '_')}\``;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function toSummary(report: RunReport, headline: string): string {
  const all = report.outcomes.flatMap((o) => o.findings);
  const fresh = all.filter((f) => f.state !== 'baselined');
  const lines = [
    '## ODIN hunts',
    '',
    headline,
    '',
    `${plural(report.outcomes.length, 'hunt')} in ${plural(report.files.length, 'file')}; ${plural(all.length, 'finding')} (${fresh.length} new, ${all.length - fresh.length} baselined); ${plural(report.sent, 'request')} sent${report.budget !== undefined ? ` of a budget of ${report.budget}` : ''}.`,
    '',
    '| Hunt | File | Status | Matches | New | Baselined | Requests |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: |',
  ];
  for (const o of report.outcomes) {
    const n = o.findings.filter((f) => f.state !== 'baselined').length;
    lines.push(
      `| ${md(o.hunt.key)} | ${where(o)} | ${STATUS[o.status]} | ${o.count ?? o.findings.length} | ${n} | ${o.findings.length - n} | ${o.requests} |`,
    );
  }
  const missed = report.outcomes.filter(notScanned);
  if (missed.length) {
    lines.push('', '### Not scanned', '');
    for (const o of missed) lines.push(`- ${md(o.hunt.key)} (${where(o)}): ${md(o.reason ?? o.status, 400)}`);
  }
  if (fresh.length) {
    lines.push('', '### New findings', '');
    for (const f of fresh.slice(0, MAX_LISTED))
      lines.push(
        `- ${f.level === 'error' ? '**error**' : f.level} ${md(f.hunt)}: ${md(f.title, 300)}${f.state === 'expired' ? ' (baseline entry expired)' : ''}`,
      );
    if (fresh.length > MAX_LISTED)
      lines.push(`- … and ${fresh.length - MAX_LISTED} more (see the SARIF or JSONL output)`);
  }
  return `${lines.join('\n')}\n`;
}
