/**
 * SARIF 2.1.0 for GitHub code scanning: one run per hunt file (its own category,
 * `automationDetails.id`), one rule per hunt, one result per finding anchored to the hunt's
 * header line. `partialFingerprints` hold the finding's fingerprint (file, hunt, subject; no
 * line), so a hunt moved within its file keeps its alerts. Baselined findings are results
 * with `baselineState: "unchanged"` and an accepted suppression carrying the entry's reason.
 *
 * Plain Node: no `vscode` import.
 */
import type { Finding } from './findings';
import type { RunReport } from './run';
import { VERSION } from './session';

export const FINGERPRINT_KEY = 'odinHuntFinding/v1';
const SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** A rule id from a hunt's name: stable, readable, unique within its file. */
export function ruleIdOf(kind: string, key: string): string {
  const slug = key
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `odin/${kind}/${slug || 'hunt'}`;
}

export function sarifCategory(file: string): string {
  return `odin-hunt/${file}/`;
}

function result(f: Finding, ruleIndex: number, ruleId: string): object {
  return {
    ruleId,
    ruleIndex,
    level: f.level,
    message: { text: `${f.hunt}: ${f.title}` },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: f.file, uriBaseId: '%SRCROOT%', index: 0 },
          region: { startLine: f.line },
        },
      },
    ],
    partialFingerprints: { [FINGERPRINT_KEY]: f.fingerprint },
    baselineState: f.state === 'baselined' ? 'unchanged' : 'new',
    ...(f.state === 'baselined' && f.baseline
      ? {
          suppressions: [
            {
              kind: 'external',
              status: 'accepted',
              justification: `${f.baseline.reason} (until ${f.baseline.expires}, added by ${f.baseline.addedBy})`,
            },
          ],
        }
      : {}),
    properties: { subject: f.subject, hunt: f.hunt, state: f.state, facts: f.facts },
  };
}

/** The SARIF log as text chunks: a result per chunk, never the whole log as one string. */
export function* sarifChunks(report: RunReport): Generator<string> {
  const log = toSarif(report, false) as { runs: Array<Record<string, unknown>> } & Record<string, unknown>;
  const { runs, ...head } = log;
  const top = JSON.stringify(head);
  yield `${top.slice(0, -1)},"runs":[\n`;
  for (const [i, run] of runs.entries()) {
    const { results: _none, ...rest } = run;
    const text = JSON.stringify(rest);
    yield `${i ? ',\n' : ''}${text.slice(0, -1)},"results":[\n`;
    const outcomes = report.outcomes.filter((o) => o.hunt.file === report.files[i].file);
    let first = true;
    for (const [ruleIndex, o] of outcomes.entries())
      for (const f of o.findings) {
        yield `${first ? '' : ',\n'}${JSON.stringify(result(f, ruleIndex, ruleIdOf(o.hunt.query.kind ?? 'hunt', o.hunt.key)))}`;
        first = false;
      }
    yield '\n]}';
  }
  yield '\n]}\n';
}

export function toSarif(report: RunReport, withResults = true): object {
  const runs = report.files.map((file) => {
    const outcomes = report.outcomes.filter((o) => o.hunt.file === file.file);
    const rules = outcomes.map((o) => ({
      id: ruleIdOf(o.hunt.query.kind ?? 'hunt', o.hunt.key),
      name: o.hunt.key,
      shortDescription: { text: `ODIN hunt: ${o.hunt.key}` },
      fullDescription: { text: `${o.hunt.query.kind ?? ''} query: ${o.hunt.query.query}`.slice(0, 1000) },
      help: {
        text: `Found by the ${o.hunt.query.kind ?? ''} hunt "${o.hunt.key}" in ${file.file} (line ${o.hunt.line}). Each result is one match of its query in ODIN's scan data.`,
      },
      defaultConfiguration: { level: 'warning' },
      properties: { tags: ['security', 'odin', o.hunt.query.kind ?? 'hunt'] },
    }));
    const results = withResults
      ? outcomes.flatMap((o, i) => o.findings.map((f) => result(f, i, rules[i].id)))
      : [];
    const notices = outcomes
      .filter(
        (o) =>
          o.status === 'skipped' || o.status === 'partial' || o.status === 'refused' || o.status === 'failed',
      )
      .map((o) => ({
        level: o.status === 'failed' ? 'error' : 'warning',
        message: { text: `${o.hunt.key}: ${o.status}: ${o.reason ?? ''}` },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: o.hunt.file, uriBaseId: '%SRCROOT%', index: 0 },
              region: { startLine: o.hunt.line },
            },
          },
        ],
      }));
    return {
      tool: {
        driver: {
          name: 'odin-hunt',
          semanticVersion: VERSION,
          informationUri: 'https://github.com/odin-community/odin-vscode',
          rules,
        },
      },
      automationDetails: { id: sarifCategory(file.file) },
      artifacts: [{ location: { uri: file.file, uriBaseId: '%SRCROOT%' } }],
      invocations: [
        {
          executionSuccessful: notices.length === 0 && !report.problem,
          toolExecutionNotifications: notices,
        },
      ],
      results,
      columnKind: 'utf16CodeUnits',
    };
  });
  return { $schema: SCHEMA, version: '2.1.0', runs };
}
