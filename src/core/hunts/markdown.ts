/**
 * ```odinq fences in Markdown (incident write-ups): each fence is read as a `.odinq` file;
 * a fence without a header line is one hosts query. Offsets are into the Markdown text.
 * Pure: no VS Code.
 */
import { parseHuntFile, type FileProblem, type HuntFile, type HuntQuery } from './file';
import { l10n } from '../text/l10n';

const OPEN = /^( {0,3})(`{3,}|~{3,})[ \t]*odinq\b[^\n`]*$/i;

function shiftQuery(q: HuntQuery, d: number): HuntQuery {
  return {
    ...q,
    headerStart: q.headerStart + d,
    headerEnd: q.headerEnd + d,
    kindStart: q.kindStart + d,
    kindEnd: q.kindEnd + d,
    bodyStart: q.bodyStart + d,
    bodyEnd: q.bodyEnd + d,
    options: q.options.map((o) => ({ ...o, start: o.start + d, end: o.end + d })),
  };
}

function shiftProblem(p: FileProblem, d: number): FileProblem {
  return {
    ...p,
    start: p.start + d,
    end: p.end + d,
    ...(p.fix ? { fix: { ...p.fix, start: p.fix.start + d, end: p.fix.end + d } } : {}),
  };
}

/** The queries of every ```odinq fence of `text`, numbered across the document. */
export function parseMarkdownHunts(text: string): HuntFile {
  const out: HuntFile = { queries: [], problems: [] };
  const lineRe = /[^\n]*(\n|$)/g;
  let fence: { marker: string; openStart: number; contentStart: number; line: number } | undefined;
  let lineNo = 0;
  for (let m = lineRe.exec(text); m && m[0] !== ''; m = lineRe.exec(text)) {
    const start = m.index;
    const line = m[0].replace(/\r?\n$/, '');
    if (!fence) {
      const open = OPEN.exec(line);
      if (open)
        fence = { marker: open[2], openStart: start, contentStart: start + m[0].length, line: lineNo };
    } else if (
      new RegExp(`^ {0,3}${fence.marker[0] === '`' ? '`' : '~'}{${fence.marker.length},}\\s*$`).test(line)
    ) {
      addFence(out, text.slice(fence.contentStart, start), fence.contentStart, fence.openStart, fence.line);
      fence = undefined;
    }
    lineNo++;
  }
  return out;
}

function addFence(
  out: HuntFile,
  content: string,
  contentStart: number,
  openStart: number,
  line: number,
): void {
  const hasHeader = /^[ \t]*@/m.test(content.replace(/^[ \t]*#.*$/gm, ''));
  if (hasHeader) {
    const f = parseHuntFile(content);
    for (const q of f.queries)
      out.queries.push({ ...shiftQuery(q, contentStart), index: out.queries.length });
    out.problems.push(...f.problems.map((p) => shiftProblem(p, contentStart)));
    return;
  }
  // A bare query: one hosts query whose "header" is the fence's opening line.
  // l10n: English, a header's syntax (its name is worded)
  const header = `@hosts ${l10n.t('Query at line {0}', line + 1)}\n`;
  const f = parseHuntFile(header + content);
  const q = shiftQuery(f.queries[0], contentStart - header.length);
  out.queries.push({
    ...q,
    index: out.queries.length,
    headerStart: openStart,
    headerEnd: openStart,
    kindStart: openStart,
    kindEnd: openStart,
  });
}
