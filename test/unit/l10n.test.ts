/**
 * Localisation: every user-visible string of the manifest is a `%key%` of
 * package.nls.json, every user-visible string of the code goes through `vscode.l10n.t`
 * (whose messages are l10n/bundle.l10n.json, written by `node scripts/l10n.mjs`), and each
 * second language translates every key and keeps its placeholders, icons, command links and
 * code spans. The language models' `modelDescription` stays English on purpose.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { english, l10n, useTranslator } from '../../src/core/text/l10n';
import * as esbuild from 'esbuild';
import ts from 'typescript';
import { isToChart } from '../../src/common/charts/protocol';
import { isToMap } from '../../src/common/map/protocol';
import { isToWebview, type HostView, type WhoisView } from '../../src/common/protocol';
import { isToTriageView } from '../../src/common/triage/protocol';
import { wordsMessage } from '../../src/common/words';
import { LightDocument, type LightElement } from '../support/lightDom';
import { findTool, invokeTool, toolErrorText } from '../../src/agent';
import { toolContext } from './agent/support';
import { hostNotFoundCard } from '../../src/core/cards/hoverCard';
import { RISK_BAND_LABEL } from '../../src/core/exploitation/bands';
import { Gate } from '../../src/core/gate';
import { KINDS } from '../../src/core/search/kinds';

const root = join(__dirname, '..', '..', '..');
const json = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(root, file), 'utf8')) as Record<string, unknown>;
const pkg = json('package.json') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const nls = json('package.nls.json') as Record<string, string>;
/** Names that are not words: the brand. */
const NOT_WORDS = new Set(['ODIN']);
/** The second languages (file suffixes); each must be complete. */
const LANGUAGES = ['de'];

/** Each user-visible string of the manifest with where it is. */
function manifestStrings(): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  const add = (where: string, v: unknown): void => {
    if (Array.isArray(v)) v.forEach((x, i) => add(`${where}[${i}]`, x));
    else if (v !== undefined) out.push([where, v]);
  };
  const c = pkg.contributes;
  add('displayName', pkg.displayName);
  add('description', pkg.description);
  add('capabilities.untrustedWorkspaces.description', pkg.capabilities?.untrustedWorkspaces?.description);
  for (const cmd of c.commands) {
    add(`${cmd.command}.title`, cmd.title);
    add(`${cmd.command}.shortTitle`, cmd.shortTitle);
    add(`${cmd.command}.category`, cmd.category);
  }
  for (const t of c.languageModelTools) {
    add(`${t.name}.displayName`, t.displayName);
    add(`${t.name}.userDescription`, t.userDescription);
  }
  add('configuration.title', c.configuration.title);
  for (const [k, p] of Object.entries<Record<string, unknown>>(c.configuration.properties)) {
    for (const f of [
      'description',
      'markdownDescription',
      'enumDescriptions',
      'markdownEnumDescriptions',
      'deprecationMessage',
      'markdownDeprecationMessage',
    ])
      add(`${k}.${f}`, p[f]);
  }
  for (const w of c.walkthroughs) {
    add(`${w.id}.title`, w.title);
    add(`${w.id}.description`, w.description);
    for (const s of w.steps) {
      add(`${w.id}.${s.id}.title`, s.title);
      add(`${w.id}.${s.id}.description`, s.description);
      add(`${w.id}.${s.id}.altText`, s.media?.altText);
    }
  }
  for (const list of Object.values<Array<Record<string, unknown>>>(c.viewsContainers))
    for (const v of list) add(`${String(v.id)}.title`, v.title);
  for (const list of Object.values<Array<Record<string, unknown>>>(c.views))
    for (const v of list) add(`${String(v.id)}.name`, v.name);
  c.viewsWelcome.forEach((v: { view: string; contents: string }, i: number) =>
    add(`viewsWelcome[${i}] ${v.view}`, v.contents),
  );
  return out;
}

test('every user-visible string of package.json is a %key% of package.nls.json (the brand aside)', () => {
  const strings = manifestStrings();
  assert.ok(strings.length > 100, `only ${strings.length} strings found: the walk is broken`);
  const raw = strings.filter(([, v]) => typeof v !== 'string' || (!/^%.+%$/.test(v) && !NOT_WORDS.has(v)));
  assert.deepEqual(raw, [], 'strings to move into package.nls.json');
  const missing = strings
    .map(([, v]) => String(v))
    .filter((v) => /^%.+%$/.test(v) && !(v.slice(1, -1) in nls));
  assert.deepEqual(missing, [], 'keys package.nls.json does not have');
});

test('package.nls.json has no key package.json does not use', () => {
  const text = readFileSync(join(root, 'package.json'), 'utf8');
  assert.deepEqual(
    Object.keys(nls).filter((k) => !text.includes(`"%${k}%"`)),
    [],
  );
});

test("the tools' modelDescription stays English for the model (not a %key%)", () => {
  for (const t of pkg.contributes.languageModelTools) {
    assert.ok(!/^%.+%$/.test(String(t.modelDescription)), t.name);
  }
});

/** What a translation must keep: placeholders, icons, command links and `code` spans. */
function fixedParts(text: string): string[] {
  return [...text.matchAll(/\{\d+\}|\$\([\w-]+\)|\(command:[^)]*\)|`[^`]*`/g)].map((m) => m[0]).sort();
}

function checkTranslation(english: Record<string, string>, file: string): void {
  const other = json(file) as Record<string, string>;
  assert.deepEqual(
    Object.keys(english).filter((k) => typeof other[k] !== 'string' || other[k].trim() === ''),
    [],
    `${file}: keys without a translation`,
  );
  assert.deepEqual(
    Object.keys(other).filter((k) => !(k in english)),
    [],
    `${file}: keys the English file does not have`,
  );
  const broken = Object.keys(english).filter(
    (k) => fixedParts(english[k]).join('\n') !== fixedParts(other[k]).join('\n'),
  );
  assert.deepEqual(
    broken.map((k) => `${k}: ${fixedParts(english[k]).join(' ')} ≠ ${fixedParts(other[k]).join(' ')}`),
    [],
    `${file}: translations that lost or changed a placeholder, icon, command link or code span`,
  );
}

for (const lang of LANGUAGES) {
  test(`package.nls.${lang}.json translates every key and keeps placeholders, links and code`, () => {
    checkTranslation(nls, `package.nls.${lang}.json`);
  });
  test(`l10n/bundle.l10n.${lang}.json translates every message and keeps placeholders and icons`, () => {
    checkTranslation(
      json('l10n/bundle.l10n.json') as Record<string, string>,
      `l10n/bundle.l10n.${lang}.json`,
    );
  });
}

test('l10n/bundle.l10n.json holds exactly the messages of the code (node scripts/l10n.mjs writes it)', () => {
  const messages = JSON.parse(
    execFileSync(process.execPath, [join(root, 'scripts', 'l10n.mjs'), '--print'], { encoding: 'utf8' }),
  ) as string[];
  const bundle = json('l10n/bundle.l10n.json');
  assert.deepEqual(Object.keys(bundle).sort(), messages, 'run `node scripts/l10n.mjs`');
  for (const m of messages) assert.equal(bundle[m], m);
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return name.endsWith('.ts') ? [p] : [];
  });
}

test('a placeholder inside an argument (scan data) is not expanded again; plain Node speaks English', () => {
  assert.equal(english('ODIN: {0} and {1}', '{1}{0}', 'x'), 'ODIN: {1}{0} and x');
  assert.equal(english('{0} of {2}', 'a'), 'a of {2}');
  assert.equal(l10n.t('Load {0} more', 50), 'Load 50 more');
});

// ---------------------------------------------------------------- the pages' words (src/webview)
//
// The pages write their own text through `l10n.t` of core/text/l10n.ts, translated by the
// `words` message the webview kit posts (common/words.ts). The scan below reads the pages and
// the modules of src/common they render with the TypeScript compiler (the webview's own
// tsconfig), and finds literals that reach the page as text: the arguments of a function
// whose parameter is a text (`label`, `title`, `children`, ... of dom.ts and the pages' own
// helpers: the compiler says which function a call reaches), `title` / `aria-label` /
// `placeholder` / `label` properties, `.textContent` / `.title` / ... assignments,
// `setAttribute('aria-label' | 'title' | 'placeholder', ...)`, and a sentence anywhere.

/** Parameters whose argument a page shows as text. */
const TEXT_PARAMS = new Set([
  'label',
  'title',
  'text',
  'textContent',
  'message',
  'children',
  'columns',
  'rows',
  'heading',
  'caption',
  'placeholder',
  'note',
]);
/** Properties (object literals, `attrs`) and assignments that reach the page as text. */
const TEXT_PROPS = new Set([
  'title',
  'aria-label',
  'placeholder',
  'alt',
  'label',
  'ariaLabel',
  'textContent',
  'innerText',
  'aria-valuetext',
  'aria-roledescription',
]);
/** Acronyms and names read the same in every language (a literal of only these is not a word). */
const SAME_IN_EVERY_LANGUAGE = /^[\s\p{P}\p{S}\d]*(?:(?:ODIN|[A-Z]{2,5}s?)[\s\p{P}\p{S}\d]*)*$/u;

interface PageWord {
  file: string;
  line: number;
  text: string;
}

/** Whether a literal's own text (outside `${…}`) is a word a person reads. */
function isWord(body: string): boolean {
  return /\p{L}{2}/u.test(body) && !SAME_IN_EVERY_LANGUAGE.test(body);
}

/** A sentence wherever it is: a capitalised word, a space, a lower-case word (not a CSS class list). */
const SENTENCE = /(?:^|[^\w-])[A-Z][a-z]*,? [a-z]{2,}(?![\w-]*\s*[:=])/;

function scanPageWords(program: ts.Program, files: ts.SourceFile[]): PageWord[] {
  const checker = program.getTypeChecker();
  const found: PageWord[] = [];
  const seen = new Set<ts.Node>();
  const report = (node: ts.Node, text: string): void => {
    if (seen.has(node)) return;
    seen.add(node);
    const sf = node.getSourceFile();
    found.push({
      file: relative(root, sf.fileName).split('\\').join('/'),
      line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1,
      text: text.slice(0, 60),
    });
  };
  /** The literals an expression shows (through conditionals, `??`, templates, arrays): not into calls. */
  const literals = (e: ts.Node | undefined): void => {
    if (!e) return;
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) {
      if (isWord(e.text)) report(e, e.getText());
    } else if (ts.isTemplateExpression(e)) {
      const own = [e.head.text, ...e.templateSpans.map((s) => s.literal.text)].join(' ');
      if (isWord(own)) report(e, e.getText());
      for (const s of e.templateSpans) literals(s.expression);
    } else if (ts.isConditionalExpression(e)) {
      literals(e.whenTrue);
      literals(e.whenFalse);
    } else if (ts.isBinaryExpression(e)) {
      literals(e.left);
      literals(e.right);
    } else if (
      ts.isParenthesizedExpression(e) ||
      ts.isAsExpression(e) ||
      ts.isSpreadElement(e) ||
      ts.isNonNullExpression(e)
    ) {
      literals(e.expression);
    } else if (ts.isArrayLiteralExpression(e)) {
      e.elements.forEach(literals);
    } else if (
      // `['Port', 'Name'].map((c) => h('th', null, c))`: the labels of a list (its lower-case
      // single words are class names or ids).
      ts.isCallExpression(e) &&
      ts.isPropertyAccessExpression(e.expression) &&
      e.expression.name.text === 'map' &&
      ts.isArrayLiteralExpression(e.expression.expression)
    ) {
      for (const x of e.expression.expression.elements)
        if ((ts.isStringLiteral(x) || ts.isNoSubstitutionTemplateLiteral(x)) && /[A-Z ]/.test(x.text))
          literals(x);
    }
  };
  const paramName = (call: ts.CallExpression, i: number): string | undefined => {
    const decl = checker.getResolvedSignature(call)?.getDeclaration();
    if (!decl || !('parameters' in decl)) return undefined;
    const params = decl.parameters;
    const p = params[i] ?? (params.at(-1)?.dotDotDotToken ? params.at(-1) : undefined);
    return p && ts.isIdentifier(p.name) ? p.name.text : undefined;
  };
  const propName = (n: ts.PropertyName | ts.MemberName): string | undefined =>
    ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isPrivateIdentifier(n) ? n.text : undefined;
  const isL10nCall = (call: ts.CallExpression): boolean =>
    /^(?:l10n\.t|english)$/.test(call.expression.getText());
  for (const sf of files) {
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
      if (ts.isCallExpression(node)) {
        if (isL10nCall(node)) return; // its message is the key; its arguments are values
        const callee = node.expression.getText();
        if (/\.setAttribute$/.test(callee) && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
          if (TEXT_PROPS.has(node.arguments[0].text)) literals(node.arguments[1]);
        } else if (/(?:^|\.)createTextNode$/.test(callee)) {
          literals(node.arguments[0]);
        } else {
          node.arguments.forEach((a, i) => {
            const name = paramName(node, i);
            if (name && TEXT_PARAMS.has(name)) literals(a);
          });
        }
      } else if (ts.isPropertyAssignment(node)) {
        const name = propName(node.name);
        if (name && TEXT_PROPS.has(name)) literals(node.initializer);
      } else if (
        ts.isBinaryExpression(node) &&
        node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
        ts.isPropertyAccessExpression(node.left) &&
        TEXT_PROPS.has(node.left.name.text)
      ) {
        literals(node.right);
      } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
        if (SENTENCE.test(node.text)) report(node, node.getText());
      } else if (ts.isTemplateExpression(node)) {
        const own = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
        if (SENTENCE.test(own)) report(node, node.getText());
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

/** The pages' program (src/webview/tsconfig.json) with extra in-memory files (the blindness sample). */
function pagesProgram(extra: Record<string, string> = {}): ts.Program {
  const dir = join(root, 'src', 'webview');
  const config = ts.readConfigFile(join(dir, 'tsconfig.json'), (f) => ts.sys.readFile(f));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, dir);
  const host = ts.createCompilerHost(parsed.options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getSourceFile = (f, lang, ...rest) =>
    f in extra ? ts.createSourceFile(f, extra[f], lang, true) : getSourceFile(f, lang, ...rest);
  host.fileExists = (f) => f in extra || fileExists(f);
  return ts.createProgram([...parsed.fileNames, ...Object.keys(extra)], parsed.options, host);
}

/** What the page scan reads: every page file and the modules of src/common (the pages render them). */
function pageFiles(program: ts.Program): ts.SourceFile[] {
  const inside = (f: string, ...dir: string[]): boolean => !relative(join(root, ...dir), f).startsWith('..');
  return program
    .getSourceFiles()
    .filter(
      (sf) =>
        !sf.isDeclarationFile &&
        (inside(sf.fileName, 'src', 'webview') || inside(sf.fileName, 'src', 'common')) &&
        !sf.fileName.endsWith('.generated.ts'),
    );
}

const SAMPLE = join(root, 'src', 'webview', 'l10nSample.ts');
const SAMPLE_TEXT = `
import { button, h, section } from './dom';
import { l10n } from '../core/text/l10n';
const el = h('p', { title: 'Bare title' }, 'Bare child', l10n.t('Wrapped {0}', 'arg value'), 'CVE');
el.textContent = 'Bare text';
el.setAttribute('aria-label', 'Bare label');
el.className = 'badge badge-vuln';
button('Bare button', undefined, () => undefined);
section('Bare section', undefined, () => el);
h('input', { attrs: { placeholder: 'Bare placeholder' } });
h('tr', null, ...['', 'Bare column', 'port'].map((c) => h('th', null, c)));
export const x = [el, 'A sentence anywhere', 'Enter', el.dataset.ok ? 'yes' : \`\${el.id} more\`];
h('p', null, el.hidden ? 'yes' : 'no');
`;

let programs: { real: ts.Program } | undefined;
const program = (): ts.Program => (programs ??= { real: pagesProgram({ [SAMPLE]: SAMPLE_TEXT }) }).real;

test('the pages write what a person reads through l10n.t (no bare word at a DOM site or sentence)', () => {
  const found = scanPageWords(
    program(),
    pageFiles(program()).filter((sf) => sf.fileName !== SAMPLE),
  );
  assert.deepEqual(
    found.map((w) => `${w.file}:${w.line}: ${w.text}`),
    [],
    'wrap these in l10n.t of core/text/l10n.ts (then run node scripts/l10n.mjs and translate them)',
  );
});

test('the page scan finds a bare word at each kind of site (it is not blind)', () => {
  const sample = program().getSourceFile(SAMPLE);
  assert.ok(sample);
  assert.deepEqual(
    scanPageWords(program(), [sample])
      .map((w) => w.text)
      .sort(),
    [
      "'Bare title'",
      "'Bare child'",
      "'Bare text'",
      "'Bare label'",
      "'Bare button'",
      "'Bare section'",
      "'Bare placeholder'",
      "'Bare column'",
      "'A sentence anywhere'",
      "'yes'",
      "'no'",
    ].sort(),
  );
});

// ---------------------------------------------------------------- a page renders its words

/** The host and whois pages' modules with the page's own l10n (one bundle: one translator). */
interface PageModules {
  HostPage: new (root: unknown, ctx: unknown) => { showHost(h: HostView): void };
  WhoisPage: new (root: unknown, ctx: unknown) => { show(w: WhoisView): void };
  useWords(words: Record<string, string>): void;
  useTranslator(t: (m: string, ...a: Array<string | number | boolean>) => string): void;
  english: (m: string, ...a: Array<string | number | boolean>) => string;
}

let pageModules: PageModules | undefined;
/** Bundles the pages' modules as the page bundle does (esbuild), run in this process over a light DOM. */
function loadPages(): PageModules {
  if (pageModules) return pageModules;
  const out = esbuild.buildSync({
    stdin: {
      contents: [
        "export { HostPage } from './hostPage';",
        "export { WhoisPage } from './whoisPage';",
        "export { useWords } from '../common/words';",
        "export { useTranslator, english } from '../core/text/l10n';",
      ].join('\n'),
      resolveDir: join(root, 'src', 'webview'),
      loader: 'ts',
    },
    bundle: true,
    format: 'cjs',
    platform: 'neutral',
    write: false,
    logLevel: 'silent',
  });
  const module = { exports: {} as PageModules };
  new Function('module', 'exports', out.outputFiles[0]!.text)(module, module.exports);
  return (pageModules = module.exports);
}

/** Renders `draw` into a fresh light DOM (the page's globals set for the call) and returns its root. */
function renderPage(draw: (root: LightElement, ctx: unknown) => void): LightElement {
  const g = globalThis as unknown as { document?: unknown };
  const before = g.document;
  const doc = new LightDocument();
  g.document = doc;
  try {
    const root = doc.createElement('main');
    const ctx = {
      post: () => undefined,
      requests: { request: () => new Promise(() => undefined) },
      rendered: () => undefined,
    };
    draw(root, ctx);
    return root;
  } finally {
    g.document = before;
  }
}

const WHOIS: WhoisView = {
  domain: 'example.com',
  registrar: { name: 'Registrar <b>Inc</b>' },
  expires: '2026-12-01',
  daysToExpiry: 5,
  expiryWarningDays: 30,
  status: ['clientTransferProhibited'],
  nameServers: ['ns1.example.com'],
  contacts: [{ role: 'technical', fields: [] }],
  history: [
    { index: 0, date: '2024-01-01', changes: [] },
    {
      index: 1,
      date: '2025-01-01',
      changes: [{ field: 'registrar', kind: 'changed', before: 'A', after: 'B' }],
    },
  ],
};
const HOST: HostView = {
  ip: '203.0.113.7',
  tags: [],
  modules: [],
  dates: [],
  services: [],
  hostBanners: [],
  hostnames: [],
  domains: [],
  cves: [],
  isVuln: true,
} as unknown as HostView;

const GERMAN = json('l10n/bundle.l10n.de.json') as Record<string, string>;

test('the whois and host pages render in English without words, and in German with the German bundle', () => {
  const pages = loadPages();
  try {
    pages.useTranslator(pages.english);
    const whoisEn = renderPage((root, ctx) => new pages.WhoisPage(root, ctx).show(WHOIS)).readable;
    const hostEn = renderPage((root, ctx) => new pages.HostPage(root, ctx).showHost(HOST)).readable;
    for (const w of [
      'Contacts',
      'Compare with previous',
      'Expires in 5 days (2026-12-01).',
      'Technical',
      'Whois actions',
    ])
      assert.ok(whoisEn.includes(w), `English whois page: ${w}`);
    for (const w of [
      'Services',
      'No services seen on this host.',
      'Vulnerable',
      'Search Similar',
      'Host actions',
    ])
      assert.ok(hostEn.includes(w), `English host page: ${w}`);

    pages.useWords(GERMAN);
    const whoisDe = renderPage((root, ctx) => new pages.WhoisPage(root, ctx).show(WHOIS)).readable;
    const hostDe = renderPage((root, ctx) => new pages.HostPage(root, ctx).showHost(HOST)).readable;
    for (const w of [
      'Kontakte',
      'Mit vorherigem vergleichen',
      'Läuft in 5 Tagen ab (2026-12-01).',
      'Technisch',
      'Whois-Aktionen',
    ])
      assert.ok(whoisDe.includes(w), `German whois page: ${w}`);
    for (const w of [
      'Dienste',
      'Auf diesem Host wurden keine Dienste gesehen.',
      'Verwundbar',
      'Ähnliche suchen',
      'Host-Aktionen',
    ])
      assert.ok(hostDe.includes(w), `German host page: ${w}`);
    for (const w of ['Contacts', 'Compare with previous', 'Whois actions'])
      assert.ok(!whoisDe.includes(w), w);
    for (const w of ['Services', 'Search Similar', 'Host actions']) assert.ok(!hostDe.includes(w), w);
    // Scan data stays text, never translated or parsed: the registrar's name is as it came.
    assert.ok(whoisDe.includes('Registrar: Registrar <b>Inc</b>'));
  } finally {
    pages.useTranslator(pages.english);
  }
});

test('the words message: a record of strings, without a prototype; anything else is refused by every page', () => {
  const words = { Contacts: 'Kontakte', ['__proto__']: 'x' };
  const parsed = wordsMessage({ type: 'words', words: JSON.parse(JSON.stringify(words)) });
  assert.ok(parsed);
  assert.equal(Object.getPrototypeOf(parsed.words), null);
  assert.equal(parsed.words.Contacts, 'Kontakte');
  for (const bad of [
    { type: 'words', words: { a: 1 } },
    { type: 'words', words: ['a'] },
    { type: 'words', words: 'Kontakte' },
    { type: 'words', words: {}, extra: true },
  ]) {
    assert.equal(wordsMessage(bad), undefined, JSON.stringify(bad));
    assert.equal(isToWebview(bad), false);
  }
  for (const accepts of [isToWebview, isToChart, isToMap, isToTriageView])
    assert.ok(accepts({ type: 'words', words: { Contacts: 'Kontakte' } }), accepts.name);
});

// ---------------------------------------------------------------------------------------------
// The core's own words: the pure modules that build text for a person (hover
// cards, search kinds, exploitation and triage words, reports, hunts' diagnostics, whois diffs,
// the gate's refusals) word it through `l10n.t` of core/text/l10n.ts. The rule reads every
// string literal and template of those files, wherever it is (a helper's return included),
// through the TypeScript parser: one with a sentence or a capitalised word in its own text
// must be the message of `l10n.t`, or stand under a comment `// l10n: English, <why>` (for
// the model, for the log, a format a machine reads, a name) on its statement or on the
// function or constant that holds it. The same rule reads every file of src/extension (the
// adapters: their message call is `vscode.l10n.t`, or `l10n.t` in a module without vscode),
// tables, helpers, constants and templates included; it replaced a scan of listed call sites
// (`showXMessage(`, `title:`, `.text =`, ...), which saw nothing it does not, bar an all-caps
// acronym at such a site (the same in every language).

/** The core's word modules, as paths under src/core (a folder means every file in it). */
const CORE_WORD_MODULES = [
  'cards',
  'exploitation/bands.ts',
  'exploitation/host.ts',
  'exploitation/text.ts',
  'gate/index.ts',
  'hosts/serviceText.ts',
  'privacy/domain.ts',
  'privacy/policy.ts',
  'hunts',
  'query/completion.ts',
  'query/parser.ts',
  'query/examples.ts',
  'query/query.ts',
  'requests/budget.ts',
  'requests/limiter.ts',
  'requests/pause.ts',
  'results/export.ts',
  'savedSearches',
  'search/catalogue.ts',
  'search/kinds.ts',
  'triage',
  'whois',
];

/**
 * Text a person reads: two words, one capitalised word ("Tags", "Copy"), or a word beside a
 * template's value ("expires ${day}", written `{}` here). A lone lower-case word is not
 * caught: it reads the same as the tokens ('hosts', 'domain') the core passes around.
 */
const WORDS = /[A-Za-z]{2,} +[A-Za-z]{2,}|\b[A-Z][a-z]{2,}\b|[a-z]{3,} +\{\}|\{\} +[a-z]{3,}/;
const ENGLISH_MARK = /\/\/ ?l10n: English\b/;

/** The message call: `l10n.t` of core/text/l10n.ts, or `vscode.l10n.t` in an adapter. */
function isL10nCall(node: ts.Node): node is ts.CallExpression {
  return ts.isCallExpression(node) && /^(?:vscode\.)?l10n\.t$/.test(node.expression.getText());
}

/** Does a `// l10n: English, …` comment stand before this node or one that holds it? */
function markedEnglish(node: ts.Node, text: string): boolean {
  for (let n: ts.Node | undefined = node; n && !ts.isSourceFile(n); n = n.parent) {
    const comments = ts.getLeadingCommentRanges(text, n.getFullStart()) ?? [];
    if (comments.some((c) => ENGLISH_MARK.test(text.slice(c.pos, c.end)))) return true;
  }
  return false;
}

/** The bare words of one core module: `line: literal` for each literal the rule refuses. */
export function bareCoreWords(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isTypeNode(node)) return;
    let own: string | undefined;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) own = node.text;
    else if (ts.isTemplateExpression(node))
      own = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('{}');
    const isMessage = node.parent && isL10nCall(node.parent) && node.parent.arguments[0] === node;
    if (own !== undefined && !isMessage && WORDS.test(own) && !markedEnglish(node, text)) {
      const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
      found.push(`${line}: ${node.getText(file).replace(/\s+/g, ' ').slice(0, 70)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** `l10n.t` calls made while a module loads: they run before activation gives the translator. */
export function wordsAtLoad(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)) return;
    if (isL10nCall(node) && !/\bvscode\.l10n\.t$/.test(node.expression.getText(file))) {
      const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
      found.push(`${line}: ${node.getText(file).slice(0, 70)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function coreWordFiles(): string[] {
  const core = join(root, 'src', 'core');
  return CORE_WORD_MODULES.flatMap((m) => {
    const p = join(core, m);
    return statSync(p).isDirectory() ? sourceFiles(p) : [p];
  }).filter((f) => !f.endsWith('.d.ts'));
}

test("the core's word modules word what a person reads through l10n.t (no bare sentence, helpers included)", () => {
  const files = coreWordFiles();
  assert.ok(files.length > 20, `only ${files.length} word modules found: the list is broken`);
  const found = files.flatMap((f) =>
    bareCoreWords(f, readFileSync(f, 'utf8')).map((w) => `${relative(root, f).split('\\').join('/')}:${w}`),
  );
  assert.deepEqual(
    found,
    [],
    'wrap these in l10n.t of core/text/l10n.ts (then run node scripts/l10n.mjs), or mark them // l10n: English, <why>',
  );
});

/** Files of src/extension the rule skips: the TestApi (words for the tests). */
const EXTENSION_SKIPPED = new Set(['testApi.ts']);

test('src/extension words what a person reads through vscode.l10n.t (the same rule: tables, helpers, templates)', () => {
  const dir = join(root, 'src', 'extension');
  const files = sourceFiles(dir).filter(
    (f) => !EXTENSION_SKIPPED.has(relative(dir, f).split('\\').join('/')),
  );
  assert.ok(files.length > 50, `only ${files.length} files found: the walk is broken`);
  const found = files.flatMap((f) =>
    bareCoreWords(f, readFileSync(f, 'utf8')).map((w) => `${relative(root, f).split('\\').join('/')}:${w}`),
  );
  assert.deepEqual(
    found,
    [],
    'wrap these in vscode.l10n.t (then run node scripts/l10n.mjs and translate them), or mark them // l10n: English, <why>',
  );
});

test('no l10n.t of core/text/l10n.ts runs while a module loads (it would stay English)', () => {
  const found = [
    ...sourceFiles(join(root, 'src', 'core')),
    ...sourceFiles(join(root, 'src', 'extension')),
  ].flatMap((f) => wordsAtLoad(f, readFileSync(f, 'utf8')).map((w) => `${relative(root, f)}:${w}`));
  assert.deepEqual(found, [], 'move these into a function or a getter');
});

test('the words rule is not blind: a bare sentence in a helper, a template, a table, a button', () => {
  const sample = [
    "import { l10n } from '../text/l10n';",
    "function ago(min: number): string { return min < 1 ? 'just now' : `${min} min ago`; }",
    'const until = (day: string): string => `expires ${day}`;',
    "const LABELS = { open: 'Tags', closed: l10n.t('Closed ports') };",
    "export function f(): string { return l10n.t('Open ports ({0})', 3); }",
    '// l10n: English, for the log',
    "function g(): string { return 'cache written to disk'; }",
    "type Kind = 'Host search' | 'other';",
    "const id = 'odin.openHostDetails';",
    "vscode.window.showInformationMessage(vscode.l10n.t('Saved {0}', 1), 'Show Log');",
  ].join('\n');
  assert.deepEqual(bareCoreWords('sample.ts', sample), [
    "2: 'just now'",
    '2: `${min} min ago`',
    '3: `expires ${day}`',
    "4: 'Tags'",
    "10: 'Show Log'",
  ]);
  assert.deepEqual(wordsAtLoad('sample.ts', sample), ["4: l10n.t('Closed ports')"]);
});

test("an agent tool's answer keeps the core's words English while the UI speaks another language", async () => {
  const marked = (message: string, ...args: Array<string | number | boolean>): string =>
    `«${english(message, ...args)}»`;
  useTranslator(marked);
  try {
    // The UI's words go through the translator...
    assert.equal(l10n.t('Copy IP'), '«Copy IP»');
    // ...a tool call's do not: a private address is refused by the core gate's own words.
    const ctx = toolContext('http://127.0.0.1:9', 'test-key');
    const err = await invokeTool(findTool('odin_lookup_host')!, { ip: '10.1.2.3' }, ctx).catch(
      (e: unknown) => e,
    );
    const text = toolErrorText(err);
    assert.match(text, /10\.1\.2\.3 is .*not sent to ODIN/);
    assert.doesNotMatch(text, /«|»/);
    // And the translator is back for the UI after the call.
    assert.equal(l10n.t('Copy IP'), '«Copy IP»');
  } finally {
    useTranslator(english);
  }
});

test('core words read the translator of the moment: tables (getters), cards and refusals', () => {
  useTranslator((message, ...args) => `«${english(message, ...args)}»`);
  try {
    assert.equal(KINDS.hosts.label, '«Host search»');
    assert.equal(RISK_BAND_LABEL.kev, '«KEV (known exploited)»');
    assert.match(hostNotFoundCard('8.8.8.8', { now: 0 }), /«ODIN has no scan data for this address\.»/);
    const refused = new Gate({ mode: 'off', trusted: true }).decide('8.8.8.8', {
      trigger: 'explicit',
      source: 'command',
    });
    assert.ok(!refused.send && /^«8\.8\.8\.8 is not sent to ODIN: lookups are off/.test(refused.message));
  } finally {
    useTranslator(english);
  }
  assert.equal(KINDS.hosts.label, 'Host search');
});
