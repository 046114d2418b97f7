/** The field catalogues (endpoints 15, 16, 17). */
import type { Dataset, FieldDescriptor } from './records';

const HOST_FIELDS: [string, string, boolean][] = [
  ['ip', 'general', false],
  ['is_ipv4', 'general', false],
  ['is_ipv6', 'general', false],
  ['is_vuln', 'general', false],
  ['last_updated_at', 'general', false],
  ['banner', 'general', false],
  ['scan_id', 'general', true],
  ['services_hash', 'general', true],
  ['asn.number', 'asn', false],
  ['asn.organization', 'asn', false],
  ['asn.country_code', 'asn', false],
  ['location.city', 'location', false],
  ['location.country_code', 'location', false],
  ['location.country_name', 'location', false],
  ['location.continent', 'location', false],
  ['location.postal_code', 'location', false],
  ['location.network', 'location', false],
  ['location.geo_point', 'location', true],
  ['services.port', 'services', false],
  ['services.name', 'services', false],
  ['services.product', 'services', false],
  ['services.version', 'services', false],
  ['services.protocol', 'services', false],
  ['services.tunnel', 'services', false],
  ['services.extra_info', 'services', false],
  ['services._meta.category', 'services', false],
  ['services.cve.id', 'services', false],
  ['services.cve.severity', 'services', false],
  ['services.cve.score', 'services', true],
  ['services.softwares.vendor', 'services', false],
  ['services.softwares.product', 'services', false],
  ['services.softwares.version', 'services', false],
  ['services.modules.http.title', 'services', false],
  ['services.modules.http.status_code', 'services', false],
  ['services.modules.http.headers.server', 'services', false],
  ['services.modules.http.body_murmur', 'services', true],
  ['services.modules.http.component', 'services', false],
  ['services.modules.tls.certificate.subject.common_name', 'services', true],
  ['services.modules.tls.certificate.subject_alt_name.dns_names', 'services', true],
  ['services.modules.tls.certificate.issuer.organization', 'services', true],
  ['services.modules.tls.fingerprint_sha256', 'services', true],
  ['services.modules.tls.tags', 'services', false],
  ['services.modules.ssh.banner', 'services', false],
  ['services.modules.ssh.key.fingerprint_sha256', 'services', true],
  ['services.modules.ftp.banner', 'services', false],
  ['services.modules.smtp.banner', 'services', false],
  ['tags.name', 'tags', false],
  ['tags.pretty_name', 'tags', false],
  ['hostnames.name', 'hostnames', false],
  ['domains.name', 'domains', false],
  ['domains.web_server', 'domains', false],
  ['whois.organization', 'whois', false],
  ['whois.descr', 'whois', false],
  ['whois.network', 'whois', false],
  ['whois.raw', 'whois', true],
];

const DISPLAY: Record<string, string> = {
  general: 'General',
  asn: 'ASN',
  location: 'Location',
  services: 'Services',
  tags: 'Tags',
  hostnames: 'Hostnames',
  domains: 'Domains',
  whois: 'Whois',
  bucket: 'Bucket',
  file: 'File',
  file_cat_count: 'File Categories',
};

function fd(name: string, category: string, locked: boolean): FieldDescriptor {
  return { name, category, display_category: DISPLAY[category] ?? category, is_locked: locked };
}

export function fieldCatalogues(): Dataset['fields'] {
  const all = HOST_FIELDS.map(([n, c, l]) => fd(n, c, l));
  const hosts: Record<string, FieldDescriptor[]> = { all };
  for (const f of all) (hosts[f.category] ??= []).push(f);
  const buckets = [
    fd('name', 'bucket', false),
    fd('provider', 'bucket', false),
    fd('region', 'bucket', false),
    fd('labels', 'bucket', false),
    fd('categories', 'bucket', false),
    fd('files', 'bucket', false),
    fd('new_files', 'bucket', false),
    fd('sensitive_files', 'bucket', true),
    fd('owner_id', 'bucket', true),
    fd('ins_at', 'bucket', false),
    fd('scan_at', 'bucket', false),
    fd('last_found_at', 'bucket', false),
    fd('age_in_days', 'bucket', false),
    ...['img', 'aud', 'vid', 'font', 'doc', 'src', 'web', 'bkup', 'dbdump'].map((c) =>
      fd(`file_cat_count.${c}`, 'file_cat_count', c === 'dbdump'),
    ),
  ];
  const files = [
    fd('name', 'file', false),
    fd('path', 'file', false),
    fd('ext', 'file', false),
    fd('bucket', 'file', false),
    fd('provider', 'file', false),
    fd('category', 'file', false),
    fd('label', 'file', false),
    fd('size', 'file', false),
    fd('url', 'file', true),
    fd('ins_at', 'file', false),
  ];
  return { hosts, buckets, files };
}
