/**
 * The exploitation feeds on disk: one conditional download per feed at most once a day
 * (ETag / Last-Modified, 304 keeps the copy), kept in the extension's global storage, and
 * parsed from there off the hot path. Plain Node (no `vscode` import), so it is unit tested
 * against the emulator.
 *
 * What is sent: a plain GET of the feed URL with `If-None-Match` / `If-Modified-Since` only.
 * Never the API key, an ODIN header, a CVE id or an address: the request is built here, not
 * by the ODIN client, and carries no data of the user. The URLs pass the one URL rule of the
 * API (`checkBaseUrl`: https, or http to loopback), on every redirect hop too.
 */
import { createReadStream, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { checkBaseUrl } from '../../api/http';
import {
  ExploitationStore,
  isProblem,
  parseEpssGzip,
  parseKev,
  type EpssFeed,
  type FeedProblem,
  type KevFeed,
} from '../../core/exploitation';
import { KEV_MAX_BYTES } from '../../core/exploitation/kev';
import { problem } from '../../core/exploitation/feed';

export type FeedKind = 'kev' | 'epss';
const NAME: Record<FeedKind, 'KEV' | 'EPSS'> = { kev: 'KEV', epss: 'EPSS' };
const FILE: Record<FeedKind, string> = { kev: 'kev.json', epss: 'epss.csv.gz' };
/** Download caps (today: KEV ~1.5 MB, EPSS ~2 MB compressed). */
const MAX_BYTES: Record<FeedKind, number> = { kev: KEV_MAX_BYTES, epss: 64 * 1024 * 1024 };
/** At most one download per feed a day; after a failure, wait an hour before the next try. */
export const REFRESH_MS = 86_400_000;
export const RETRY_AFTER_FAILURE_MS = 3_600_000;
const DOWNLOAD_DEADLINE_MS = 120_000;
const MAX_REDIRECTS = 3;

interface Meta {
  url: string;
  etag?: string;
  lastModified?: string;
  /** When the server last answered 200 or 304 for this URL (epoch ms). */
  checkedAt: number;
}

export type Refresh = 'downloaded' | 'not-modified' | 'fresh' | FeedProblem;

export interface FeedFilesDeps {
  /** A folder of the extension's global storage. */
  dir: string;
  fetch: typeof fetch;
  now?: () => number;
  log?: (msg: string) => void;
}

export class FeedFiles {
  private readonly now: () => number;
  private readonly failedAt = new Map<FeedKind, number>();

  constructor(private readonly deps: FeedFilesDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Is a download due (no copy for this URL, or the last check is a day old)? */
  async due(kind: FeedKind, url: string): Promise<boolean> {
    const failed = this.failedAt.get(kind);
    if (failed !== undefined && this.now() - failed < RETRY_AFTER_FAILURE_MS) return false;
    const meta = await this.meta(kind);
    return (
      !meta || meta.url !== url || this.now() - meta.checkedAt >= REFRESH_MS || !(await this.hasCopy(kind))
    );
  }

  /** Downloads the feed if due (conditionally when a copy of the same URL exists). */
  async refresh(kind: FeedKind, url: string): Promise<Refresh> {
    if (!(await this.due(kind, url))) return 'fresh';
    const result = await this.download(kind, url).catch((e: unknown): FeedProblem =>
      problem('failed', `download failed (${e instanceof Error ? e.message.slice(0, 120) : 'error'})`),
    );
    if (isProblem(result)) {
      this.failedAt.set(kind, this.now());
      this.deps.log?.(`${NAME[kind]} feed: ${result.detail}`);
    } else {
      this.failedAt.delete(kind);
      this.deps.log?.(`${NAME[kind]} feed: ${result}`);
    }
    return result;
  }

  /** Parses the copy on disk; `missing` when there is none. */
  async load(kind: 'kev'): Promise<KevFeed | FeedProblem>;
  async load(kind: 'epss'): Promise<EpssFeed | FeedProblem>;
  async load(kind: FeedKind): Promise<KevFeed | EpssFeed | FeedProblem> {
    const file = this.file(kind);
    if (!(await this.hasCopy(kind))) return problem('missing', 'not downloaded yet');
    try {
      if (kind === 'kev') return parseKev(await fsp.readFile(file, 'utf8'));
      return await parseEpssGzip(createReadStream(file));
    } catch (e) {
      return problem(
        'failed',
        `could not read the copy (${e instanceof Error ? e.message.slice(0, 80) : 'error'})`,
      );
    }
  }

  private file(kind: FeedKind): string {
    return path.join(this.deps.dir, FILE[kind]);
  }

  private async hasCopy(kind: FeedKind): Promise<boolean> {
    return fsp.stat(this.file(kind)).then(
      (s) => s.isFile(),
      () => false,
    );
  }

  private async meta(kind: FeedKind): Promise<Meta | undefined> {
    try {
      const all = JSON.parse(await fsp.readFile(path.join(this.deps.dir, 'feeds.json'), 'utf8')) as unknown;
      const m = (all as Record<string, unknown> | null)?.[kind] as Partial<Meta> | undefined;
      if (!m || typeof m.url !== 'string' || typeof m.checkedAt !== 'number') return undefined;
      const out: Meta = { url: m.url, checkedAt: m.checkedAt };
      if (typeof m.etag === 'string') out.etag = m.etag;
      if (typeof m.lastModified === 'string') out.lastModified = m.lastModified;
      return out;
    } catch {
      return undefined;
    }
  }

  private async writeMeta(kind: FeedKind, meta: Meta): Promise<void> {
    const file = path.join(this.deps.dir, 'feeds.json');
    let all: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(await fsp.readFile(file, 'utf8')) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        all = parsed as Record<string, unknown>;
    } catch {
      // no file yet
    }
    all[kind] = meta;
    await fsp.writeFile(`${file}.tmp`, JSON.stringify(all));
    await fsp.rename(`${file}.tmp`, file);
  }

  private async download(kind: FeedKind, url: string): Promise<Refresh> {
    const meta = await this.meta(kind);
    const sameUrl = meta?.url === url && (await this.hasCopy(kind));
    const headers: Record<string, string> = { accept: '*/*' };
    if (sameUrl && meta?.etag) headers['if-none-match'] = meta.etag;
    if (sameUrl && meta?.lastModified) headers['if-modified-since'] = meta.lastModified;
    const signal = AbortSignal.timeout(DOWNLOAD_DEADLINE_MS);
    let target = url;
    for (let hop = 0; ; hop++) {
      const check = checkBaseUrl(target, `the ${NAME[kind]} feed URL`);
      if (!check.ok) return problem('failed', check.reason);
      const res = await this.deps.fetch(check.url.href, { headers, redirect: 'manual', signal });
      if (res.status >= 300 && res.status < 400 && res.status !== 304) {
        await res.body?.cancel();
        const location = res.headers.get('location');
        if (!location || hop >= MAX_REDIRECTS)
          return problem('failed', `download failed (HTTP ${res.status})`);
        target = new URL(location, check.url).href;
        continue;
      }
      if (res.status === 304 && sameUrl) {
        await res.body?.cancel();
        await this.writeMeta(kind, { ...meta!, checkedAt: this.now() });
        return 'not-modified';
      }
      if (res.status !== 200 || !res.body) {
        await res.body?.cancel();
        return problem('failed', `download failed (HTTP ${res.status})`);
      }
      const declared = Number(res.headers.get('content-length'));
      if (Number.isFinite(declared) && declared > MAX_BYTES[kind]) {
        await res.body.cancel();
        return problem('failed', 'download refused: larger than any copy of this feed');
      }
      await fsp.mkdir(this.deps.dir, { recursive: true });
      const tmp = `${this.file(kind)}.tmp`;
      const out = await fsp.open(tmp, 'w');
      let size = 0;
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          size += chunk.length;
          if (size > MAX_BYTES[kind]) {
            await out.close();
            await fsp.rm(tmp, { force: true });
            return problem('failed', 'download refused: larger than any copy of this feed');
          }
          await out.write(chunk);
        }
      } finally {
        await out.close().catch(() => undefined);
      }
      await fsp.rename(tmp, this.file(kind));
      const next: Meta = { url, checkedAt: this.now() };
      const etag = res.headers.get('etag');
      const lastModified = res.headers.get('last-modified');
      if (etag) next.etag = etag;
      if (lastModified) next.lastModified = lastModified;
      await this.writeMeta(kind, next);
      return 'downloaded';
    }
  }
}

/** What the feeds may do now, from the settings and the one gate (asked by the adapter). */
export interface FeedSettings {
  enabled: boolean;
  kevUrl: string;
  epssUrl: string;
  /** The gate's answer for a download that runs by itself: lookups off and Restricted Mode say no. */
  mayDownload: { ok: true } | { ok: false; reason: string };
}

/**
 * The feeds for the surfaces: `ensure()` loads the copies on disk on first need (never at
 * activation), downloads what is due when the settings and the gate allow it, and keeps the
 * store current; `store` is what is known now, without waiting.
 */
export class Feeds {
  readonly store: ExploitationStore;
  private running: Promise<void> | undefined;
  private loaded = false;
  private checked = 0;

  constructor(
    private readonly files: FeedFiles,
    private readonly settings: () => FeedSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new ExploitationStore(undefined, undefined, now);
  }

  /** The store once loaded (and refreshed if a day old); later calls return at once. */
  async ensure(): Promise<ExploitationStore> {
    if (!this.loaded) await (this.running ??= this.run().finally(() => (this.running = undefined)));
    else if (this.now() - this.checked >= RETRY_AFTER_FAILURE_MS && !this.running)
      this.running = this.run()
        .catch(() => undefined)
        .finally(() => (this.running = undefined));
    return this.store;
  }

  /** The settings or the gate changed: the next `ensure()` reads them again. */
  invalidate(): void {
    this.loaded = false;
  }

  private async run(): Promise<void> {
    const s = this.settings();
    this.checked = this.now();
    if (!s.enabled) {
      const off = problem('off', 'turned off (odin.feeds.enabled)');
      this.store.setKev(off);
      this.store.setEpss(off);
      this.loaded = true;
      return;
    }
    await this.one('kev', s.kevUrl, s.mayDownload);
    await this.one('epss', s.epssUrl, s.mayDownload);
    this.loaded = true;
  }

  private async one(kind: FeedKind, url: string, may: FeedSettings['mayDownload']): Promise<void> {
    let fetched: Refresh | undefined;
    if (may.ok) fetched = await this.files.refresh(kind, url);
    // Parse when nothing is loaded yet or a new copy arrived; otherwise keep what is in memory.
    const current = kind === 'kev' ? this.store.kevStatus() : this.store.epssStatus();
    if (!this.loaded || fetched === 'downloaded' || !('date' in current)) {
      let feed = kind === 'kev' ? await this.files.load('kev') : await this.files.load('epss');
      if (isProblem(feed) && feed.problem === 'missing')
        feed = !may.ok
          ? problem('missing', `not downloaded: ${may.reason}`)
          : isProblem(fetched)
            ? fetched
            : feed;
      if (kind === 'kev') this.store.setKev(feed as KevFeed | FeedProblem);
      else this.store.setEpss(feed as EpssFeed | FeedProblem);
    }
  }
}
