/**
 * Example queries, taken from the real examples of the service (docs/odin-facts.md, "Query
 * language") and a few built the same way. Shown in the query input when it is empty.
 */
import { l10n } from '../text/l10n';

export type QueryTarget = 'hosts' | 'buckets' | 'files';

export interface QueryExample {
  query: string;
  description: string;
}

/** An example whose description is worded when shown (not at load). */
function example(query: string, description: () => string): QueryExample {
  return {
    query,
    get description() {
      return description();
    },
  };
}

export const EXAMPLES: Record<QueryTarget, QueryExample[]> = {
  hosts: [
    // l10n: English, query syntax
    example('services.port:443 AND asn.number:AS13335', () => l10n.t('HTTPS hosts in Cloudflare’s network')),
    // l10n: English, query syntax
    example("banner:tls AND location.country_name:'United States'", () =>
      l10n.t('TLS hosts in the United States'),
    ),
    // l10n: English, query syntax
    example(
      '(last_updated_at:["2024-07-08T02:41:15.528Z" TO *] AND services.port:80) OR asn.number:AS63949',
      () => l10n.t('Recently seen port-80 hosts, or Akamai/Linode'),
    ),
    // l10n: English, query syntax
    example('services.cve.id:"CVE-2021-44228"', () => l10n.t('Hosts with Log4Shell')),
    // l10n: English, query syntax
    example('services.product:nginx AND location.country_code:DE', () => l10n.t('nginx in Germany')),
    // l10n: English, query syntax
    example('services.modules.http.title:"Index of /"', () => l10n.t('Open directory listings')),
  ],
  buckets: [
    // l10n: English, query syntax
    example('provider: aws AND file_cat_count.src: [10 TO *]', () =>
      l10n.t('AWS buckets with 10+ source files'),
    ),
    // l10n: English, query syntax
    example('labels:credential', () => l10n.t('Buckets holding credentials')),
    // l10n: English, query syntax
    example('provider:gcp AND categories:dbdump', () => l10n.t('GCP buckets with database dumps')),
  ],
  files: [
    // l10n: English, query syntax
    example('provider: aws AND name: prod AND ext: ".db"', () => l10n.t('Production database files on AWS')),
    // l10n: English, query syntax
    example('label:credential', () => l10n.t('Files labelled as credentials')),
    // l10n: English, query syntax
    example('ext:".env"', () => l10n.t('Environment files')),
  ],
};
