/** Exposed buckets and the files in them (files join buckets by name). */
import { BUCKET_WORDS, FILE_KINDS, PROVIDER_REGIONS, WORDS_A, WORDS_B } from './catalog';
import { DAY, iso } from './clock';
import { FIXTURE_BUCKETS } from './fixtures';
import { hostile } from './hostile';
import { Rng } from './random';
import type { BucketRecord, FileRecord } from './records';

export function bucketsAndFiles(
  seed: number,
  count: number,
  anchor: number,
  domains: string[],
): { buckets: BucketRecord[]; files: FileRecord[] } {
  const buckets: BucketRecord[] = [];
  const files: FileRecord[] = [];
  const names = new Set<string>();
  const providers = ['aws', 'aws', 'aws', 'gcp', 'gcp', 'do', 'linode'];
  const addBucket = (i: number, name: string, provider: string, hostileText: boolean): void => {
    const rng = Rng.derive(seed, 'bucket', i);
    const region = rng.pick(PROVIDER_REGIONS[provider]);
    const base = bucketBaseUrl(name, provider, region);
    const sample = rng.int(2, 14);
    const catCount: Record<string, number> = {};
    const labels = new Set<string>();
    let sensitive = 0;
    const insAt = anchor - rng.int(1, 900) * DAY - rng.int(0, DAY - 1);
    for (let f = 0; f < sample; f++) {
      const kind = rng.pick(FILE_KINDS);
      const label = kind.labels.length > 0 && rng.chance(0.7) ? rng.pick(kind.labels) : '';
      if (label) labels.add(label);
      const stem = hostileText && f === 0 ? `${hostile('invoice')}` : rng.pick(kind.names);
      const dir = rng.pick(['', 'backup/', 'exports/2024/', 'uploads/', 'db/', 'www/']);
      const fname = `${stem}${kind.ext === '.env' && stem === '.env' ? '' : kind.ext}`;
      const path = `${dir}${fname}`;
      files.push({
        name: fname,
        path,
        bucket: name,
        provider,
        region,
        url: `${base}/${encodeURI(path)}`,
        ext: kind.ext,
        category: kind.category,
        label,
        size: rng.int(200, 2_000_000_000),
        ins_at: iso(insAt + rng.int(0, 30) * DAY),
        last_modified: iso(insAt - rng.int(0, 400) * DAY),
      });
      catCount[kind.category] = (catCount[kind.category] ?? 0) + rng.int(1, 400);
      if (label) sensitive++;
    }
    const total = Object.values(catCount).reduce((a, b) => a + b, 0);
    const scan = anchor - rng.int(0, 20) * DAY - rng.int(0, DAY - 1);
    buckets.push({
      name,
      provider,
      region,
      owner_id:
        provider === 'aws' ? rng.hex(64) : provider === 'gcp' ? `project-${rng.int(100000, 999999)}` : '',
      open: true,
      deleted: rng.chance(0.05),
      labels: [...labels].sort(),
      categories: Object.keys(catCount).sort(),
      files: total,
      new_files: rng.int(0, Math.min(50, total)),
      sensitive_files: sensitive * rng.int(1, 20),
      file_cat_count: catCount,
      age_in_days: Math.floor((anchor - insAt) / DAY),
      ins_at: iso(insAt),
      scan_at: iso(scan),
      prev_scan_at: iso(scan - rng.int(5, 30) * DAY),
      last_found_at: iso(scan),
      last_open_at: iso(scan),
      url: base,
    });
  };
  addBucket(-1, FIXTURE_BUCKETS.corp, 'aws', false);
  addBucket(-2, FIXTURE_BUCKETS.hostile, 'do', true);
  names.add(FIXTURE_BUCKETS.corp);
  names.add(FIXTURE_BUCKETS.hostile);
  for (let i = 0; buckets.length < count + 2; i++) {
    const rng = Rng.derive(seed, 'bucket-name', i);
    const owner = rng.chance(0.6)
      ? domains[rng.int(0, domains.length - 1)].split('.')[0]
      : `${rng.pick(WORDS_A)}${rng.pick(WORDS_B)}`;
    const name = `${owner}-${rng.pick(BUCKET_WORDS)}${rng.chance(0.3) ? `-${rng.int(1, 99)}` : ''}`;
    if (names.has(name)) continue;
    names.add(name);
    addBucket(i, name, rng.pick(providers), false);
  }
  return { buckets, files };
}

function bucketBaseUrl(name: string, provider: string, region: string): string {
  switch (provider) {
    case 'aws':
      return `https://${name}.s3.${region}.amazonaws.com`;
    case 'gcp':
      return `https://storage.googleapis.com/${name}`;
    case 'do':
      return `https://${name}.${region}.digitaloceanspaces.com`;
    default:
      return `https://${name}.${region}.linodeobjects.com`;
  }
}
