/**
 * A seeded change of the data between runs, so "what's new" can be tested: a few hosts and
 * buckets disappear and a few new ones appear (copies of existing records under a new IP or
 * name, seen just now), and on a few hosts a port opens, a port closes or a CVE appears
 * (what a snapshot diff reports). Deterministic for a seed; the shared base dataset is never
 * mutated: the change is a new Dataset that shares the untouched records.
 */
import type { BucketRecord, Dataset, HostRecord, ServiceRecord } from './dataset';
import { FIXTURE_HOSTS } from './fixtures';
import { Rng } from './random';

export interface ChangeSummary {
  seed: number;
  hostsAdded: string[];
  hostsRemoved: string[];
  bucketsAdded: string[];
  bucketsRemoved: string[];
  /** `ip port/protocol` of services that opened or closed on hosts kept. */
  servicesOpened: string[];
  servicesClosed: string[];
  /** `ip CVE-id` of CVEs that appeared on a service of a host kept. */
  cvesAdded: string[];
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
    servicesOpened: [],
    servicesClosed: [],
    cvesAdded: [],
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
    const changed = fixed ? h : changeServices(h, rng, rate, ds, summary);
    if (changed !== h) {
      hostByIp.set(h.ip, changed);
      hostTime.set(changed, hostTime.get(h) ?? 0);
      hostTime.delete(h);
    }
    kept.push(changed);
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

/** Ports a change opens: remote access and databases, the exposures hunts look for. */
const OPENED_PORTS = [3389, 23, 11211, 6379, 9200];

/** `h` with a port opened, a port closed or a CVE added (each at `rate`), or `h` itself. */
function changeServices(
  h: HostRecord,
  rng: Rng,
  rate: number,
  ds: Dataset,
  summary: ChangeSummary,
): HostRecord {
  let services: ServiceRecord[] = h.services;
  if (rng.chance(rate)) {
    const port = rng.pick(OPENED_PORTS);
    const donor = ds.hosts[rng.int(0, ds.hosts.length - 1)].services.find((s) => s.port === port);
    if (donor && !services.some((s) => s.port === port)) {
      services = [...services, { ...donor }];
      summary.servicesOpened.push(`${h.ip} ${port}/${donor.protocol}`);
    }
  }
  if (services.length > 1 && rng.chance(rate)) {
    const gone = services[services.length - 1];
    services = services.slice(0, -1);
    summary.servicesClosed.push(`${h.ip} ${gone.port}/${gone.protocol}`);
  }
  if (services.length > 0 && rng.chance(rate)) {
    const donor = ds.hosts[rng.int(0, ds.hosts.length - 1)].services.flatMap((s) => s.cve)[0];
    if (donor && !services.some((s) => s.cve.some((c) => c.id === donor.id))) {
      services = [{ ...services[0], cve: [...services[0].cve, donor] }, ...services.slice(1)];
      summary.cvesAdded.push(`${h.ip} ${donor.id}`);
    }
  }
  return services === h.services ? h : { ...h, services, is_vuln: services.some((s) => s.cve.length > 0) };
}
