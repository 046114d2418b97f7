/**
 * Realistic samples with the exact expected detections, in order: web server, auth and firewall
 * logs, VPC flow logs, JSON logs, infrastructure code and configs, application code, a lock file
 * and a defanged threat report. Each detection's range must slice back to its raw text, and the
 * raws must appear in the text in the listed order.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Detection, detect } from '../../../src/core/detect';

type Row = [
  kind: Detection['kind'],
  raw: string,
  value: string,
  extra?: { port?: number; defanged?: boolean },
];

function expectRows(text: string, expected: Row[]): void {
  const found = detect(text);
  let from = 0;
  for (const d of found) {
    assert.equal(text.slice(d.start, d.end), d.raw);
    assert.equal(d.start, text.indexOf(d.raw, from), `${d.raw} is the next occurrence`);
    from = d.end;
  }
  assert.deepEqual(
    found.map((d): Row => {
      const extra: { port?: number; defanged?: boolean } = {};
      if (d.port !== undefined) extra.port = d.port;
      if (d.defanged) extra.defanged = true;
      return Object.keys(extra).length > 0 ? [d.kind, d.raw, d.value, extra] : [d.kind, d.raw, d.value];
    }),
    expected,
  );
}

const NGINX = `203.0.113.7 - - [21/Nov/2025:08:14:03 +0000] "GET /static/app.css?v=1.2.3 HTTP/1.1" 200 18211 "https://shop.acme-logistics.com/cart" "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"
2a01:4f8:c17:b8f::2 - alice [21/Nov/2025:08:14:05 +0000] "POST /api/v1/login HTTP/2.0" 401 153 "-" "curl/8.5.0"`;

const APACHE = `91.198.174.192 - - [20/Nov/2025:23:01:12 +0100] "GET /wiki/Main_Page HTTP/1.1" 200 84211 "https://www.northwind-traders.net/" "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0"
[Thu Nov 20 23:05:01.123456 2025] [proxy:error] [pid 1234:tid 5678] (111)Connection refused: AH00957: http: attempt to connect to 127.0.0.1:8080 (localhost:8080) failed [client 45.33.32.156:51234]`;

const SSHD = `Nov 21 03:12:01 bastion sshd[20114]: Invalid user admin from 185.220.101.34 port 51422
Nov 21 03:20:40 bastion sshd[20388]: Accepted publickey for deploy from 10.0.12.5 port 53344 ssh2: ED25519 SHA256:7hR0nS0m3F1ng3rPr1nt
Nov 21 03:41:02 bastion sshd[20790]: Connection closed by 2001:db8:85a3::8a2e:370:7334 port 60112 [preauth]`;

const IPTABLES = `Nov 21 05:00:01 edge kernel: [812345.112233] [UFW BLOCK] IN=eth0 OUT= MAC=02:42:ac:11:00:02:02:42:ac:11:00:01:08:00 SRC=185.220.101.34 DST=10.0.0.5 LEN=44 TOS=0x00 PREC=0x00 TTL=241 ID=54321 PROTO=TCP SPT=43210 DPT=3389 WINDOW=1024 RES=0x00 SYN URGP=0
Nov 21 05:04:12 edge kernel: [812596.223344] IPTABLES-DROP: IN=eth0 OUT= SRC=2a01:4f8:c17:b8f::2 DST=2001:db8::10 LEN=80 TC=0 HOPLIMIT=56 FLOWLBL=0 PROTO=TCP SPT=40001 DPT=22
-A INPUT -s 192.168.0.0/16 -p tcp -m tcp --dport 22 -j ACCEPT`;

const VPCFLOW = `version account-id interface-id srcaddr dstaddr srcport dstport protocol packets bytes start end action log-status
2 123456789012 eni-0a1b2c3d4e5f67890 10.0.1.25 45.33.32.156 49152 443 6 12 4410 1732172400 1732172460 ACCEPT OK
2 123456789012 eni-0f9e8d7c6b5a43210 10.0.2.14 169.254.169.254 40200 80 6 4 840 1732172460 1732172520 ACCEPT OK
2 123456789012 eni-0f9e8d7c6b5a43210 - - - - - - - 1732172520 1732172580 - NODATA`;

const JSON = `{"ts":"2025-11-21T08:30:01.120Z","level":"info","msg":"request","client_ip":"104.16.132.229","host":"api.acme-logistics.com","path":"/v2/shipments","status":200,"ms":41}
{"ts":"2025-11-21T08:30:05.771Z","level":"error","msg":"upstream timeout","upstream":"db.corp.internal:5432","peer":"10.0.3.9","resolver":"2606:4700:4700::1111","referrer":"http://secure-login-paypa1.com/verify"}`;

const TERRAFORM = `resource "aws_security_group_rule" "ssh" {
  type        = "ingress"
  cidr_blocks = ["203.0.113.0/24", "10.20.0.0/16"]
  ipv6_cidr_blocks = ["::/0"]
}

resource "aws_route53_record" "www" {
  name    = "www.acme-logistics.com"
  records = ["198.51.100.10"]
  zone_id = aws_route53_zone.main.zone_id
}`;

const K8S = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shipments
  annotations:
    prometheus.io/scrape: "true"
spec:
  template:
    spec:
      hostAliases:
        - ip: "10.0.3.10"
          hostnames: ["db.acme-logistics.com"]
      containers:
        - name: app
          image: ghcr.io/acme/shipments:1.4.2
          env:
            - name: UPSTREAM
              value: https://api.northwind-traders.net:8443/v2`;

const NGINXCONF = `server {
    listen 80;
    listen [::]:80;
    listen [2001:db8::5]:443 ssl;
    server_name shop.acme-logistics.com www.shop.acme-logistics.com;
    location /api/ {
        proxy_pass http://10.0.4.17:3000;
        proxy_set_header X-Real-IP $remote_addr;
        allow 192.168.0.0/16;
        deny all;
    }
    resolver 1.1.1.1 [2606:4700:4700::1111] valid=300s;
}`;

const PYTHON = `import os.path
import requests

API = "https://api.acme-logistics.com/v2"
RESOLVERS = ["8.8.8.8", "2001:4860:4860::8888"]

def fetch(self, host="db.corp.internal"):
    self.session.headers.update({"Host": "shop.acme-logistics.com"})
    print(os.path.join(self.base, "setup.py"), self.user.name)
    return requests.get(API + "/health", timeout=5.0)`;

const TYPESCRIPT = `import * as vscode from 'vscode';
import { readFile } from './util/fs.ts';

const origin = '45.33.32.156';
export const config = { publicSite: 'https://shop.acme-logistics.com', metrics: 'http://[fe80::1c2a:3bff:fe4d:5e6f]:9100/metrics' };
console.log(window.location.href, this.foo.bar, document.title);
const v = semver.parse('v2.0.1'); // also see 1.3.6.1.4.1 and README.md`;

const LOCK = `    "node_modules/tldts": {
      "version": "7.0.19",
      "resolved": "https://registry.npmjs.org/tldts/-/tldts-7.0.19.tgz",
      "integrity": "sha512-8PWx8tvC4jDB39BQw1m4x8y5MH1BcQ5xHeL2n7UVFulMPH/3Q0uiamahFJ3lXA0zO2SUyRXuVVbWSDmstlt9YA==",
      "license": "MIT"
    },`;

const THREAT = `On 2025-11-19 the actor staged payloads at hxxps://cdn-update[.]evil-payload[.]xyz/gate.php and hxxp://185.220.101[.]34/a.sh. The C2 resolved to 193[.]42[.]33[.]7 and secure-login-paypa1(dot)com; exfiltration went to 2001:db8:dead:beef::1337 (sinkholed). Contact: soc[at]acme-logistics[.]com. Hashes: 44d88612fea8a8f36de82e1278abb02f.`;

void describe('detect: realistic samples', () => {
  void it('an nginx access log', () => {
    expectRows(NGINX, [
      ['ipv4', '203.0.113.7', '203.0.113.7'],
      ['domain', 'shop.acme-logistics.com', 'shop.acme-logistics.com'],
      ['ipv6', '2a01:4f8:c17:b8f::2', '2a01:4f8:c17:b8f::2'],
    ]);
  });

  void it('an Apache access and error log', () => {
    expectRows(APACHE, [
      ['ipv4', '91.198.174.192', '91.198.174.192'],
      ['domain', 'www.northwind-traders.net', 'www.northwind-traders.net'],
      ['ipv4', '127.0.0.1', '127.0.0.1', { port: 8080 }],
      ['ipv4', '45.33.32.156', '45.33.32.156', { port: 51234 }],
    ]);
  });

  void it('sshd auth lines', () => {
    expectRows(SSHD, [
      ['ipv4', '185.220.101.34', '185.220.101.34'],
      ['ipv4', '10.0.12.5', '10.0.12.5'],
      ['ipv6', '2001:db8:85a3::8a2e:370:7334', '2001:db8:85a3::8a2e:370:7334'],
    ]);
  });

  void it('iptables / ufw lines and a rule', () => {
    expectRows(IPTABLES, [
      ['ipv4', '185.220.101.34', '185.220.101.34'],
      ['ipv4', '10.0.0.5', '10.0.0.5'],
      ['ipv6', '2a01:4f8:c17:b8f::2', '2a01:4f8:c17:b8f::2'],
      ['ipv6', '2001:db8::10', '2001:db8::10'],
      ['cidr', '192.168.0.0/16', '192.168.0.0/16'],
    ]);
  });

  void it('AWS VPC flow logs', () => {
    expectRows(VPCFLOW, [
      ['ipv4', '10.0.1.25', '10.0.1.25'],
      ['ipv4', '45.33.32.156', '45.33.32.156'],
      ['ipv4', '10.0.2.14', '10.0.2.14'],
      ['ipv4', '169.254.169.254', '169.254.169.254'],
    ]);
  });

  void it('JSON log lines', () => {
    expectRows(JSON, [
      ['ipv4', '104.16.132.229', '104.16.132.229'],
      ['domain', 'api.acme-logistics.com', 'api.acme-logistics.com'],
      ['ipv4', '10.0.3.9', '10.0.3.9'],
      ['ipv6', '2606:4700:4700::1111', '2606:4700:4700::1111'],
      ['domain', 'secure-login-paypa1.com', 'secure-login-paypa1.com'],
    ]);
  });

  void it('Terraform', () => {
    expectRows(TERRAFORM, [
      ['cidr', '203.0.113.0/24', '203.0.113.0/24'],
      ['cidr', '10.20.0.0/16', '10.20.0.0/16'],
      ['cidr', '::/0', '::/0'],
      ['domain', 'www.acme-logistics.com', 'www.acme-logistics.com'],
      ['ipv4', '198.51.100.10', '198.51.100.10'],
    ]);
  });

  void it('a Kubernetes manifest', () => {
    expectRows(K8S, [
      ['domain', 'prometheus.io', 'prometheus.io'],
      ['ipv4', '10.0.3.10', '10.0.3.10'],
      ['domain', 'db.acme-logistics.com', 'db.acme-logistics.com'],
      ['domain', 'ghcr.io', 'ghcr.io'],
      ['domain', 'api.northwind-traders.net', 'api.northwind-traders.net', { port: 8443 }],
    ]);
  });

  void it('an nginx config', () => {
    expectRows(NGINXCONF, [
      ['ipv6', '::', '::', { port: 80 }],
      ['ipv6', '2001:db8::5', '2001:db8::5', { port: 443 }],
      ['domain', 'shop.acme-logistics.com', 'shop.acme-logistics.com'],
      ['domain', 'www.shop.acme-logistics.com', 'www.shop.acme-logistics.com'],
      ['ipv4', '10.0.4.17', '10.0.4.17', { port: 3000 }],
      ['cidr', '192.168.0.0/16', '192.168.0.0/16'],
      ['ipv4', '1.1.1.1', '1.1.1.1'],
      ['ipv6', '2606:4700:4700::1111', '2606:4700:4700::1111'],
    ]);
  });

  void it('Python code', () => {
    expectRows(PYTHON, [
      ['domain', 'api.acme-logistics.com', 'api.acme-logistics.com'],
      ['ipv4', '8.8.8.8', '8.8.8.8'],
      ['ipv6', '2001:4860:4860::8888', '2001:4860:4860::8888'],
      ['domain', 'shop.acme-logistics.com', 'shop.acme-logistics.com'],
    ]);
  });

  void it('TypeScript code', () => {
    expectRows(TYPESCRIPT, [
      ['ipv4', '45.33.32.156', '45.33.32.156'],
      ['domain', 'shop.acme-logistics.com', 'shop.acme-logistics.com'],
      ['ipv6', 'fe80::1c2a:3bff:fe4d:5e6f', 'fe80::1c2a:3bff:fe4d:5e6f', { port: 9100 }],
    ]);
  });

  void it('package-lock lines', () => {
    expectRows(LOCK, [['domain', 'registry.npmjs.org', 'registry.npmjs.org']]);
  });

  void it('a defanged threat-report paragraph', () => {
    expectRows(THREAT, [
      ['domain', 'cdn-update[.]evil-payload[.]xyz', 'cdn-update.evil-payload.xyz', { defanged: true }],
      ['ipv4', '185.220.101[.]34', '185.220.101.34', { defanged: true }],
      ['ipv4', '193[.]42[.]33[.]7', '193.42.33.7', { defanged: true }],
      ['domain', 'secure-login-paypa1(dot)com', 'secure-login-paypa1.com', { defanged: true }],
      ['ipv6', '2001:db8:dead:beef::1337', '2001:db8:dead:beef::1337'],
      ['domain', 'acme-logistics[.]com', 'acme-logistics.com', { defanged: true }],
    ]);
  });
});
