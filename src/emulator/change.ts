/**
 * A seeded change of the data between runs, so "what's new" can be tested: a few hosts and
 * buckets disappear and a few new ones appear (copies of existing records under a new IP or
 * name, seen just now). Deterministic for a seed; the shared base dataset is never mutated:
 * the change is a new Dataset that shares the untouched records.
 */
import type { BucketRecord, Dataset, HostRecord } from './dataset';
import { FIXTURE_HOSTS } from './fixtures';
import { Rng } from './random';

export interface ChangeSummary {
  seed: number;
  hostsAdded: string[];
  hostsRemoved: string[];
  bucketsAdded: string[];
  bucketsRemoved: string[];
}

const FIXED = new Set<string>(Object.values(FIXTURE_HOSTS));

/** `ds` after the change of `seed`: about `rate` of hosts and buckets gone, as many new. */
export function changeDataset(
  ds: Dataset,
  seed: number,
  rate = 0.03,
): { dataset: Dataset; summary: ChangeSummary } {
  const rng = Rng.derive(seed, 'change');
  const summary: ChangeSummary = {
    seed,
    hostsAdded: [],
    hostsRemoved: [],
    bucketsAdded: [],
    bucketsRemoved: [],
  };
  const hostByIp = new Map(ds.hostByIp);
  const hostTime = new Map(ds.hostTime);
  const usedTimes = new Set(hostTime.values());
  const kept: HostRecord[] = [];
  const added: HostRecord[] = [];
  let now = Math.max(Date.now(), ...usedTimes) + 1;
  for (const h of ds.hosts) {
    const fixed = FIXED.has(h.ip);
    if (!fixed && rng.chance(rate)) {
      summary.hostsRemoved.push(h.ip);
      hostByIp.delete(h.ip);
      hostTime.delete(h);
      continue;
    }
    kept.push(h);
    if (!fixed && h.is_ipv4 && rng.chance(rate)) {
      const parts = h.ip.split('.').map(Number);
      parts[3] = (parts[3] + 1 + rng.int(0, 200)) % 254 || 1;
      const ip = parts.join('.');
      if (hostByIp.has(ip)) continue;
      while (usedTimes.has(now)) now++;
      usedTimes.add(now);
      const copy: HostRecord = {
        ...h,
        ip,
        last_updated_at: new Date(now).toISOString(),
        scan_id: h.scan_id + 1,
      };
      hostByIp.set(ip, copy);
      hostTime.set(copy, now);
      added.push(copy);
      summary.hostsAdded.push(ip);
    }
  }
  const hosts = [...added, ...kept].sort((a, b) => (hostTime.get(b) ?? 0) - (hostTime.get(a) ?? 0));
  const buckets: BucketRecord[] = [];
  for (const b of ds.buckets) {
    if (rng.chance(rate)) {
      summary.bucketsRemoved.push(b.name);
      continue;
    }
    buckets.push(b);
    if (rng.chance(rate)) {
      const name = `${b.name}-${seed.toString(36)}${rng.int(10, 99)}`;
      buckets.unshift({ ...b, name, ins_at: new Date().toISOString(), url: b.url.replace(b.name, name) });
      summary.bucketsAdded.push(name);
    }
  }
  return { dataset: { ...ds, hosts, hostByIp, hostTime, buckets }, summary };
}
