/**
 * The `.odinq` files a run names (files, or folders searched for `*.odinq`), parsed by the
 * editor's parser and checked by its diagnostics: a run starts only when every hunt is free
 * of errors, and a problem is reported as `file:line:column: message`.
 *
 * Plain Node: no `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkQuery, parseHuntFile, type HuntQuery } from '../core/hunts';

/** Files larger than this are refused (the editor's limit for workspace hunts). */
const MAX_FILE_BYTES = 1024 * 1024;
const MAX_FILES = 2000;
const SKIP_DIRS = new Set(['node_modules', '.git']);

export interface LoadedHunt {
  /** The file, relative to the root, with `/` separators (what SARIF and the baseline name). */
  file: string;
  /** 1-based line of the hunt's header. */
  line: number;
  query: HuntQuery;
  /** The hunt's name, with `#2`, `#3` for a name repeated in the same file. */
  key: string;
}

export interface LoadedFile {
  file: string;
  hunts: LoadedHunt[];
}

/** A problem a person fixes in a file: where, and what. */
export interface FileIssue {
  file: string;
  line: number;
  column: number;
  message: string;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    readonly issues: FileIssue[] = [],
  ) {
    super(message);
  }
}

/** 1-based line and column of `offset` in `text`. */
export function lineCol(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** Posix path of `abs` relative to `root`. */
export function relativePath(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join('/');
}

function walk(dir: string, out: string[]): void {
  const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const e of entries) {
    if (out.length > MAX_FILES) return;
    const p = path.join(dir, e.name);
    if (e.isDirectory() && !SKIP_DIRS.has(e.name)) walk(p, out);
    else if (e.isFile() && e.name.endsWith('.odinq')) out.push(p);
  }
}

/** The `.odinq` files under `paths`, sorted and each once; a path that does not exist is a usage error. */
export function findHuntFiles(paths: readonly string[], root: string): string[] {
  const found: string[] = [];
  for (const p of paths) {
    const abs = path.resolve(root, p);
    const st = fs.statSync(abs, { throwIfNoEntry: false });
    if (!st) throw new UsageError(`${p}: no such file or folder`);
    if (st.isDirectory()) walk(abs, found);
    else found.push(abs);
  }
  if (found.length > MAX_FILES)
    throw new UsageError(`more than ${MAX_FILES} .odinq files: name fewer folders`);
  const unique = [...new Set(found)].sort();
  if (unique.length === 0) throw new UsageError(`no .odinq files in ${paths.join(', ')}`);
  return unique;
}

/** Parses and checks every file; throws a UsageError listing every problem, by file and line. */
export function loadHunts(files: readonly string[], root: string): LoadedFile[] {
  const issues: FileIssue[] = [];
  const out: LoadedFile[] = [];
  for (const abs of files) {
    const file = relativePath(root, abs);
    const st = fs.statSync(abs);
    if (st.size > MAX_FILE_BYTES) {
      issues.push({ file, line: 1, column: 1, message: `larger than ${MAX_FILE_BYTES} bytes` });
      continue;
    }
    const text = fs.readFileSync(abs, 'utf8');
    const parsed = parseHuntFile(text);
    for (const p of parsed.problems) issues.push({ file, ...lineCol(text, p.start), message: p.message });
    const seen = new Map<string, number>();
    const hunts: LoadedHunt[] = [];
    for (const q of parsed.queries) {
      if (q.kind)
        for (const d of checkQuery(q.body, q.kind))
          if (d.severity === 'error')
            issues.push({
              file,
              ...lineCol(text, q.bodyStart + d.start),
              message: `${q.name}: ${d.message}`,
            });
      const n = (seen.get(q.name) ?? 0) + 1;
      seen.set(q.name, n);
      hunts.push({
        file,
        line: lineCol(text, q.headerStart).line,
        query: q,
        key: n === 1 ? q.name : `${q.name}#${n}`,
      });
    }
    if (parsed.queries.length === 0 && parsed.problems.length === 0)
      issues.push({
        file,
        line: 1,
        column: 1,
        message: 'no hunts in this file (a hunt starts with "@hosts Name")',
      });
    out.push({ file, hunts });
  }
  if (issues.length)
    throw new UsageError(
      issues.length === 1 ? '1 problem in the hunt files' : `${issues.length} problems in the hunt files`,
      issues,
    );
  return out;
}
