// The data every detection rule reads: word lists, defang markers, schemes, limits. Each rule
// is stated here once; the scanner (src/core/detect/*) and the reference detector the tests
// hold it to (test/unit/detect/reference.ts) both read these tables. To add a word, add it here
// and a test case (docs/detection.md).

function words(list: string): readonly string[] {
  return list.split(' ');
}

/** Runs longer than this are blobs (hashes, base64, minified identifiers): never analysed. */
export const MAX_RUN = 1024;

// ---------------------------------------------------------------- defanged forms

/** A defang marker: how it is written (letters in any case) and what it stands for. */
export interface Marker {
  written: string;
  means: string;
  /** Continues a run between two letters or digits (`evil[.]com`, `1.2.3[.]4`, `2001[:]db8::1`). */
  inRun: boolean;
}

export const MARKERS: readonly Marker[] = [
  { written: '[.]', means: '.', inRun: true },
  { written: '(.)', means: '.', inRun: true },
  { written: '{.}', means: '.', inRun: true },
  { written: '[dot]', means: '.', inRun: true },
  { written: '(dot)', means: '.', inRun: true },
  { written: '{dot}', means: '.', inRun: true },
  { written: '[:]', means: ':', inRun: true },
  // Before a host, never inside one: `hxxp[://]evil.com`, `user[at]evil.com`.
  { written: '[://]', means: '://', inRun: false },
  { written: '[at]', means: '@', inRun: false },
  { written: '(at)', means: '@', inRun: false },
  { written: '[@]', means: '@', inRun: false },
];

/** The markers that continue a run. */
export const RUN_MARKERS: readonly Marker[] = MARKERS.filter((m) => m.inRun);

/** Defanged URL schemes and what they stand for: `hxxps://evil.com` is `https://evil.com`. */
export const DEFANGED_SCHEMES: Readonly<Record<string, string>> = {
  hxxp: 'http',
  hxxps: 'https',
  hxxxp: 'http',
  hxxxps: 'https',
  hxtp: 'http',
  hxtps: 'https',
  htxp: 'http',
  htxps: 'https',
  fxp: 'ftp',
  fxps: 'ftps',
};

// ---------------------------------------------------------------- numbers that are not addresses

/** A dotted quad right after one of these (and `/`, `=`, `:`, quotes or spaces) is a version. */
export const VERSION_WORDS: readonly string[] = words('version');

/**
 * Words after which a dotted quad numbers a part of a document, not a host: `Section 2.8.3.2`,
 * `Figure 1.1.2.3`, `Step 4.1.1.2`, also abbreviated with a dot (`Sect. 4.1.2.3`). Not `table`:
 * `ip route add ... table 10.0.0.1` is networking. `§ 2.8.3.2` counts too.
 */
export const NUMBERING_WORDS: readonly string[] = words(
  'section sections sect sec chapter clause paragraph para appendix annex figure fig step',
);

/** The ISO 8601 time shape (`d`: a digit) whose runs hold nothing: `2025-11-21T08:30:01.120Z`. */
export const ISO_TIME_SHAPE = 'dddd-dd-ddTdd:dd:dd';

// ---------------------------------------------------------------- names that are not hosts

/**
 * ICANN TLDs that are also common file extensions. A name ending in one of them (`setup.py`,
 * `README.md`, `main.rs`, `App.java`, `libc.so`, `bundle.js.map`, `main.tf`) is taken as a
 * domain only with URL, e-mail or defang context, a `www.` label, or a multi-label public suffix
 * (`com.pl`, `co.in`).
 */
export const FILE_EXTENSION_TLDS: ReadonlySet<string> = new Set(
  words('py sh md rs pl ps zip mov cc java mm pm ml in so map data tf properties mk cr mo'),
);

/**
 * ICANN TLDs that are also common property and method names (`user.name`, `node.id`,
 * `logger.info`, `res.data`, `e.target`). In `code` mode they need the same context as file
 * extensions; in `text` mode (logs, prose) they are accepted. A hyphen in the name counts as
 * context too, since identifiers cannot contain one.
 */
export const MEMBER_NAME_TLDS: ReadonlySet<string> = new Set(
  words(
    'name id info data link map app dev new run page style top one show zone host email date events ' +
      'tools group team site live click play save sale search store shop cloud media design support ' +
      'help video photo photos game games stream review download watch center global guide today work ' +
      'works pro world is it in to as at by me my no do so call fail read open target next phone city ' +
      'country post author build directory auto money cash pay bank fund market trade red green blue ' +
      'black pink orange network web direct express fast best cool fun report reviews chat social ' +
      'community now here company bar foo cat dog fish car life tips how wiki news blog press art film ' +
      'movie music audio party cards travel family kids care health energy school training mobile ' +
      'parts select total case channel final free hot like plus rest room safe secure spot star talk ' +
      'tech tube vote win you ink buy box book bot services jobs day tz place lat menu tab analytics ' +
      'deal gift delivery credit loan exchange security club space fit fly',
  ),
);

/**
 * TLDs that are not words in code: the legacy generic TLDs. In `code` mode every other TLD of
 * three letters or more (the new gTLDs: `.compare`, `.zero`, `.cloud`, `.dev` ...) is treated as
 * a possible member name, like MEMBER_NAME_TLDS; two-letter country codes are not, unless listed
 * there (`.id`, `.is`, `.to`).
 */
export const CODE_SAFE_TLDS: ReadonlySet<string> = new Set(words('com net org edu gov mil int biz arpa'));

/** First labels that are code receivers, never host names: `this.foo.bar`, `self.user.name`. */
export const RECEIVERS: ReadonlySet<string> = new Set(
  words(
    'this self super cls window document console process module exports globalthis math json object ' +
      'array promise react vscode props args kwargs opts req res ctx evt err np pd torch tf sys ' +
      'navigator obj that',
  ),
);

/** First labels of reverse-DNS identifiers (`com.example.app`, `org.apache.commons`). */
export const REVERSE_DNS_HEADS: ReadonlySet<string> = new Set(words('com org net edu gov io'));
