/**
 * Example queries, taken from the real examples of the service (docs/odin-facts.md, "Query
 * language") and a few built the same way. Shown in the query input when it is empty.
 */
export type QueryTarget = 'hosts' | 'buckets' | 'files';

export interface QueryExample {
  query: string;
  description: string;
}

export const EXAMPLES: Record<QueryTarget, QueryExample[]> = {
  hosts: [
    { query: 'services.port:443 AND asn.number:AS13335', description: 'HTTPS hosts in Cloudflare’s network' },
    {
      query: "banner:tls AND location.country_name:'United States'",
      description: 'TLS hosts in the United States',
    },
    {
      query: '(last_updated_at:["2024-07-08T02:41:15.528Z" TO *] AND services.port:80) OR asn.number:AS63949',
      description: 'Recently seen port-80 hosts, or Akamai/Linode',
    },
    { query: 'services.cve.id:"CVE-2021-44228"', description: 'Hosts with Log4Shell' },
    { query: 'services.product:nginx AND location.country_code:DE', description: 'nginx in Germany' },
    { query: 'services.modules.http.title:"Index of /"', description: 'Open directory listings' },
  ],
  buckets: [
    {
      query: 'provider: aws AND file_cat_count.src: [10 TO *]',
      description: 'AWS buckets with 10+ source files',
    },
    { query: 'labels:credential', description: 'Buckets holding credentials' },
    { query: 'provider:gcp AND categories:dbdump', description: 'GCP buckets with database dumps' },
  ],
  files: [
    { query: 'provider: aws AND name: prod AND ext: ".db"', description: 'Production database files on AWS' },
    { query: 'label:credential', description: 'Files labelled as credentials' },
    { query: 'ext:".env"', description: 'Environment files' },
  ],
};
