/** The query schemas of host, bucket and file search: field aliases and free-text fields. */
import type { BucketRecord, FileRecord, HostRecord } from '../records';
import { type Schema, valuesAt } from '../query/evaluate';

const textCache = new WeakMap<object, string>();
function freeText<T extends object>(fields: string[]): (r: T) => string {
  return (r) => {
    let s = textCache.get(r);
    if (s === undefined) {
      s = fields
        .flatMap((f) => valuesAt(r, f))
        .join('\n')
        .toLowerCase();
      textCache.set(r, s);
    }
    return s;
  };
}

export const HOST_SCHEMA: Schema<HostRecord> = {
  aliases: {
    port: 'services.port',
    product: 'services.product',
    service: 'services.name',
    version: 'services.version',
    cve: 'services.cve.id',
    'cve.id': 'services.cve.id',
    'services.cve': 'services.cve.id',
    severity: 'services.cve.severity',
    country: 'location.country_code',
    country_code: 'location.country_code',
    city: 'location.city',
    asn: 'asn.number',
    org: 'asn.organization',
    hostname: 'hostnames.name',
    hostnames: 'hostnames.name',
    domain: 'domains.name',
    tag: 'tags.name',
    tags: 'tags.name',
    title: 'services.modules.http.title',
    'http.title': 'services.modules.http.title',
    'services.banner': 'services.modules.*.banner',
  },
  freeText: freeText<HostRecord>([
    'ip',
    'hostnames.name',
    'domains.name',
    'asn.number',
    'asn.organization',
    'location.city',
    'location.country_name',
    'location.country_code',
    'services.name',
    'services.product',
    'services.version',
    'services.modules.http.title',
    'services.cve.id',
    'tags.name',
    'banner',
    'whois.organization',
  ]),
};

export const BUCKET_SCHEMA: Schema<BucketRecord> = {
  aliases: { label: 'labels', category: 'categories', bucket: 'name', bucket_name: 'name' },
  freeText: freeText<BucketRecord>(['name', 'provider', 'region', 'labels', 'categories']),
};

export const FILE_SCHEMA: Schema<FileRecord> = {
  aliases: { labels: 'label', categories: 'category', extension: 'ext', bucket_name: 'bucket' },
  freeText: freeText<FileRecord>(['name', 'path', 'bucket', 'ext', 'category', 'label', 'provider']),
};
