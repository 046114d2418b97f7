/**
 * The IANA special-purpose registries, tested at their edges: for every row, the first and the
 * last address of the block and the addresses just outside it, with the expected verdict written
 * out by hand (an independent statement of the registries, not a recomputation of the table).
 * Then the embedded-IPv4 forms (IPv4-mapped, NAT64, 6to4), CIDR blocks, and the table itself.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  classifyCidr,
  classifyIp,
  IANA_REGISTRY_SNAPSHOT,
  IPV4_ROWS,
  IPV6_ROWS,
  parseAddress,
  parseCidr,
} from '../../../src/core/privacy';
import { canonicalIp } from '../../../src/core/detect';

/** [address, globally reachable, reason contains (null: no reason, plain global unicast)]. */
type Case = [string, boolean, string | null];

const GLOBAL: null = null;

const IPV4_CASES: Record<string, Case[]> = {
  '0.0.0.0/8': [
    ['0.0.0.0', false, '"This host on this network"'],
    ['0.0.0.1', false, '"This network"'],
    ['0.255.255.255', false, '"This network"'],
    ['1.0.0.0', true, GLOBAL],
  ],
  '0.0.0.0/32': [
    ['0.0.0.0', false, 'RFC 1122'],
    ['0.0.0.1', false, 'RFC 791'],
  ],
  '10.0.0.0/8': [
    ['9.255.255.255', true, GLOBAL],
    ['10.0.0.0', false, 'Private-Use (RFC 1918)'],
    ['10.255.255.255', false, 'Private-Use (RFC 1918)'],
    ['11.0.0.0', true, GLOBAL],
  ],
  '100.64.0.0/10': [
    ['100.63.255.255', true, GLOBAL],
    ['100.64.0.0', false, 'Shared Address Space (RFC 6598)'],
    ['100.127.255.255', false, 'Shared Address Space'],
    ['100.128.0.0', true, GLOBAL],
  ],
  '127.0.0.0/8': [
    ['126.255.255.255', true, GLOBAL],
    ['127.0.0.0', false, 'Loopback'],
    ['127.255.255.255', false, 'Loopback'],
    ['128.0.0.0', true, GLOBAL],
  ],
  '169.254.0.0/16': [
    ['169.253.255.255', true, GLOBAL],
    ['169.254.0.0', false, 'Link Local (RFC 3927)'],
    ['169.254.255.255', false, 'Link Local'],
    ['169.255.0.0', true, GLOBAL],
  ],
  '172.16.0.0/12': [
    ['172.15.255.255', true, GLOBAL],
    ['172.16.0.0', false, 'Private-Use'],
    ['172.31.255.255', false, 'Private-Use'],
    ['172.32.0.0', true, GLOBAL],
  ],
  '192.0.0.0/24': [
    ['191.255.255.255', true, GLOBAL],
    ['192.0.0.0', false, 'IPv4 Service Continuity Prefix'],
    ['192.0.0.255', false, 'IETF Protocol Assignments'],
    ['192.0.1.0', true, GLOBAL],
  ],
  '192.0.0.0/29': [
    ['192.0.0.0', false, 'IPv4 Service Continuity Prefix (RFC 7335)'],
    ['192.0.0.7', false, 'IPv4 Service Continuity Prefix'],
    ['192.0.0.8', false, 'IPv4 dummy address'],
  ],
  '192.0.0.8/32': [
    ['192.0.0.7', false, 'Service Continuity'],
    ['192.0.0.8', false, 'IPv4 dummy address (RFC 7600)'],
    ['192.0.0.9', true, 'Port Control Protocol Anycast'],
  ],
  '192.0.0.9/32': [
    ['192.0.0.8', false, 'dummy'],
    ['192.0.0.9', true, 'Port Control Protocol Anycast (RFC 7723)'],
    ['192.0.0.10', true, 'Traversal Using Relays around NAT Anycast'],
  ],
  '192.0.0.10/32': [
    ['192.0.0.9', true, 'Port Control Protocol'],
    ['192.0.0.10', true, 'Traversal Using Relays around NAT Anycast (RFC 8155)'],
    ['192.0.0.11', false, 'IETF Protocol Assignments'],
  ],
  '192.0.0.170/32': [
    ['192.0.0.169', false, 'IETF Protocol Assignments'],
    ['192.0.0.170', false, 'NAT64/DNS64 Discovery'],
    ['192.0.0.171', false, 'NAT64/DNS64 Discovery'],
  ],
  '192.0.0.171/32': [
    ['192.0.0.171', false, 'NAT64/DNS64 Discovery'],
    ['192.0.0.172', false, 'IETF Protocol Assignments'],
  ],
  '192.0.2.0/24': [
    ['192.0.1.255', true, GLOBAL],
    ['192.0.2.0', false, 'Documentation (TEST-NET-1) (RFC 5737)'],
    ['192.0.2.255', false, 'TEST-NET-1'],
    ['192.0.3.0', true, GLOBAL],
  ],
  '192.31.196.0/24': [
    ['192.31.195.255', true, GLOBAL],
    ['192.31.196.0', true, 'AS112-v4 (RFC 7535)'],
    ['192.31.196.255', true, 'AS112-v4'],
    ['192.31.197.0', true, GLOBAL],
  ],
  '192.52.193.0/24': [
    ['192.52.192.255', true, GLOBAL],
    ['192.52.193.0', true, 'AMT (RFC 7450)'],
    ['192.52.193.255', true, 'AMT'],
    ['192.52.194.0', true, GLOBAL],
  ],
  '192.88.99.0/24': [
    ['192.88.98.255', true, GLOBAL],
    ['192.88.99.0', false, 'Deprecated (6to4 Relay Anycast) (RFC 7526)'],
    ['192.88.99.255', false, 'Deprecated (6to4 Relay Anycast)'],
    ['192.88.100.0', true, GLOBAL],
  ],
  '192.88.99.2/32': [
    ['192.88.99.1', false, 'Deprecated'],
    ['192.88.99.2', false, '6a44-relay anycast address (RFC 6751)'],
    ['192.88.99.3', false, 'Deprecated'],
  ],
  '192.168.0.0/16': [
    ['192.167.255.255', true, GLOBAL],
    ['192.168.0.0', false, 'Private-Use'],
    ['192.168.255.255', false, 'Private-Use'],
    ['192.169.0.0', true, GLOBAL],
  ],
  '192.175.48.0/24': [
    ['192.175.47.255', true, GLOBAL],
    ['192.175.48.0', true, 'Direct Delegation AS112 Service (RFC 7534)'],
    ['192.175.48.255', true, 'Direct Delegation AS112 Service'],
    ['192.175.49.0', true, GLOBAL],
  ],
  '198.18.0.0/15': [
    ['198.17.255.255', true, GLOBAL],
    ['198.18.0.0', false, 'Benchmarking (RFC 2544)'],
    ['198.19.255.255', false, 'Benchmarking'],
    ['198.20.0.0', true, GLOBAL],
  ],
  '198.51.100.0/24': [
    ['198.51.99.255', true, GLOBAL],
    ['198.51.100.0', false, 'TEST-NET-2'],
    ['198.51.100.255', false, 'TEST-NET-2'],
    ['198.51.101.0', true, GLOBAL],
  ],
  '203.0.113.0/24': [
    ['203.0.112.255', true, GLOBAL],
    ['203.0.113.0', false, 'TEST-NET-3'],
    ['203.0.113.255', false, 'TEST-NET-3'],
    ['203.0.114.0', true, GLOBAL],
  ],
  '240.0.0.0/4': [
    ['239.255.255.255', false, 'Multicast'],
    ['240.0.0.0', false, 'Reserved (RFC 1112, Section 4)'],
    ['255.255.255.254', false, 'Reserved'],
    ['255.255.255.255', false, 'Limited Broadcast'],
  ],
  '255.255.255.255/32': [
    ['255.255.255.254', false, 'Reserved'],
    ['255.255.255.255', false, 'Limited Broadcast (RFC 8190, RFC 919 Section 7)'],
  ],
  '224.0.0.0/4': [
    ['223.255.255.255', true, GLOBAL],
    ['224.0.0.0', false, 'Multicast (RFC 5771)'],
    ['239.255.255.255', false, 'Multicast'],
    ['240.0.0.0', false, 'Reserved'],
  ],
};

const F = 'ffff:ffff:ffff:ffff:ffff:ffff';

const IPV6_CASES: Record<string, Case[]> = {
  '::1/128': [
    ['::', false, 'Unspecified Address'],
    ['::1', false, 'Loopback Address (RFC 4291)'],
    ['::2', false, 'Reserved by IETF'],
  ],
  '::/128': [
    ['::', false, 'Unspecified Address (RFC 4291)'],
    ['::1', false, 'Loopback'],
  ],
  '::ffff:0:0/96': [
    ['::fffe:ffff:ffff', false, 'Reserved by IETF'],
    ['::ffff:0.0.0.0', false, 'IPv4-mapped Address (RFC 4291) embedding 0.0.0.0: "This host'],
    ['::ffff:255.255.255.255', false, 'embedding 255.255.255.255: Limited Broadcast'],
    ['::1:0:0:0', false, 'Reserved by IETF'],
  ],
  '64:ff9b::/96': [
    ['64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff', false, 'Reserved by IETF'],
    ['64:ff9b::', false, 'IPv4-IPv6 Translat. (RFC 6052) embedding 0.0.0.0'],
    ['64:ff9b::ffff:ffff', false, 'embedding 255.255.255.255'],
    ['64:ff9b::1:0:0', false, 'Reserved by IETF'],
  ],
  '64:ff9b:1::/48': [
    ['64:ff9b:0:ffff:ffff:ffff:ffff:ffff', false, 'Reserved by IETF'],
    ['64:ff9b:1::', false, 'IPv4-IPv6 Translat. (RFC 8215)'],
    ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', false, 'RFC 8215'],
    ['64:ff9b:2::', false, 'Reserved by IETF'],
  ],
  '100::/64': [
    ['ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', false, 'Reserved by IETF'],
    ['100::', false, 'Discard-Only Address Block (RFC 6666)'],
    ['100::ffff:ffff:ffff:ffff', false, 'Discard-Only'],
    ['100:0:0:1::', false, 'Dummy IPv6 Prefix'],
  ],
  '100:0:0:1::/64': [
    ['100::ffff:ffff:ffff:ffff', false, 'Discard-Only'],
    ['100:0:0:1::', false, 'Dummy IPv6 Prefix (RFC 9780)'],
    ['100::1:ffff:ffff:ffff:ffff', false, 'Dummy IPv6 Prefix'],
    ['100:0:0:2::', false, 'Reserved by IETF'],
  ],
  '2001::/23': [
    [`2000:${F}:ffff`, true, GLOBAL],
    ['2001::', false, 'TEREDO'],
    [`2001:1ff:${F}`, false, 'IETF Protocol Assignments (RFC 2928)'],
    ['2001:200::', true, GLOBAL],
  ],
  '2001::/32': [
    ['2001::', false, 'TEREDO (RFC 4380, RFC 8190)'],
    [`2001:0:${F}`, false, 'TEREDO'],
    ['2001:1::', false, 'IETF Protocol Assignments'],
  ],
  '2001:1::1/128': [
    ['2001:1::', false, 'IETF Protocol Assignments'],
    ['2001:1::1', true, 'Port Control Protocol Anycast (RFC 7723)'],
    ['2001:1::2', true, 'Traversal Using Relays around NAT Anycast'],
  ],
  '2001:1::2/128': [
    ['2001:1::2', true, 'Traversal Using Relays around NAT Anycast (RFC 8155)'],
    ['2001:1::3', true, 'DNS-SD Service Registration Protocol Anycast'],
  ],
  '2001:1::3/128': [
    ['2001:1::3', true, 'DNS-SD Service Registration Protocol Anycast (RFC 9665)'],
    ['2001:1::4', false, 'IETF Protocol Assignments'],
  ],
  '2001:2::/48': [
    [`2001:1:${F}`, false, 'IETF Protocol Assignments'],
    ['2001:2::', false, 'Benchmarking (RFC 5180, RFC Errata 1752)'],
    ['2001:2:0:ffff:ffff:ffff:ffff:ffff', false, 'Benchmarking'],
    ['2001:2:1::', false, 'IETF Protocol Assignments'],
  ],
  '2001:3::/32': [
    [`2001:2:${F}`, false, 'IETF Protocol Assignments'],
    ['2001:3::', true, 'AMT (RFC 7450)'],
    [`2001:3:${F}`, true, 'AMT'],
    ['2001:4::', false, 'IETF Protocol Assignments'],
  ],
  '2001:4:112::/48': [
    ['2001:4:111:ffff:ffff:ffff:ffff:ffff', false, 'IETF Protocol Assignments'],
    ['2001:4:112::', true, 'AS112-v6 (RFC 7535)'],
    ['2001:4:112:ffff:ffff:ffff:ffff:ffff', true, 'AS112-v6'],
    ['2001:4:113::', false, 'IETF Protocol Assignments'],
  ],
  '2001:10::/28': [
    [`2001:f:${F}`, false, 'IETF Protocol Assignments'],
    ['2001:10::', false, 'Deprecated (previously ORCHID) (RFC 4843)'],
    [`2001:1f:${F}`, false, 'Deprecated (previously ORCHID)'],
    ['2001:20::', true, 'ORCHIDv2'],
  ],
  '2001:20::/28': [
    [`2001:1f:${F}`, false, 'ORCHID'],
    ['2001:20::', true, 'ORCHIDv2 (RFC 7343)'],
    [`2001:2f:${F}`, true, 'ORCHIDv2'],
    ['2001:30::', true, 'Drone Remote ID'],
  ],
  '2001:30::/28': [
    ['2001:30::', true, 'Drone Remote ID Protocol Entity Tags (DETs) Prefix (RFC 9374)'],
    [`2001:3f:${F}`, true, 'DETs'],
    ['2001:40::', false, 'IETF Protocol Assignments'],
  ],
  '2001:db8::/32': [
    [`2001:db7:${F}`, true, GLOBAL],
    ['2001:db8::', false, 'Documentation (RFC 3849)'],
    [`2001:db8:${F}`, false, 'Documentation (RFC 3849)'],
    ['2001:db9::', true, GLOBAL],
  ],
  '2002::/16': [
    [`2001:ffff:${F}`, true, GLOBAL],
    ['2002::', false, '6to4 (RFC 3056) embedding 0.0.0.0'],
    [`2002:ffff:${F}`, false, '6to4 (RFC 3056) embedding 255.255.255.255'],
    ['2003::', true, GLOBAL],
  ],
  '2620:4f:8000::/48': [
    ['2620:4f:7fff:ffff:ffff:ffff:ffff:ffff', true, GLOBAL],
    ['2620:4f:8000::', true, 'Direct Delegation AS112 Service (RFC 7534)'],
    ['2620:4f:8000:ffff:ffff:ffff:ffff:ffff', true, 'AS112'],
    ['2620:4f:8001::', true, GLOBAL],
  ],
  '3fff::/20': [
    [`3ffe:ffff:${F}`, true, GLOBAL],
    ['3fff::', false, 'Documentation (RFC 9637)'],
    [`3fff:fff:${F}`, false, 'Documentation (RFC 9637)'],
    ['3fff:1000::', true, GLOBAL],
  ],
  '5f00::/16': [
    [`5eff:ffff:${F}`, false, 'Reserved by IETF'],
    ['5f00::', false, 'Segment Routing (SRv6) SIDs (RFC 9602)'],
    [`5f00:ffff:${F}`, false, 'SRv6'],
    ['5f01::', false, 'Reserved by IETF'],
  ],
  'fc00::/7': [
    [`fbff:ffff:${F}`, false, 'Reserved by IETF'],
    ['fc00::', false, 'Unique-Local (RFC 4193, RFC 8190)'],
    [`fdff:ffff:${F}`, false, 'Unique-Local'],
    ['fe00::', false, 'Reserved by IETF'],
  ],
  'fe80::/10': [
    [`fe7f:ffff:${F}`, false, 'Reserved by IETF'],
    ['fe80::', false, 'Link-Local Unicast (RFC 4291)'],
    [`febf:ffff:${F}`, false, 'Link-Local Unicast'],
    ['fec0::', false, 'Site-Local (deprecated)'],
  ],
  'ff00::/8': [
    [`feff:ffff:${F}`, false, 'Site-Local'],
    ['ff00::', false, 'Multicast (RFC 4291)'],
    [`ffff:ffff:${F}`, false, 'Multicast'],
  ],
  'fec0::/10': [
    [`febf:ffff:${F}`, false, 'Link-Local'],
    ['fec0::', false, 'Site-Local (deprecated) (RFC 3879)'],
    [`feff:ffff:${F}`, false, 'Site-Local'],
    ['ff00::', false, 'Multicast'],
  ],
  '::/3': [
    ['::3', false, 'Reserved by IETF (outside Global Unicast 2000::/3)'],
    [`1fff:ffff:${F}`, false, 'Reserved by IETF'],
    ['2000::', true, GLOBAL],
  ],
  '4000::/2': [
    [`3fff:ffff:${F}`, true, GLOBAL],
    ['4000::', false, 'Reserved by IETF'],
    [`7fff:ffff:${F}`, false, 'Reserved by IETF'],
    ['8000::', false, 'Reserved by IETF'],
  ],
  '8000::/1': [
    ['8000::', false, 'Reserved by IETF'],
    [`ffff:ffff:${F}`, false, 'Multicast'],
  ],
};

function check([ip, global, reason]: Case): void {
  const c = classifyIp(ip);
  assert.equal(c.global, global, `${ip}: ${c.reason}`);
  if (reason === null) assert.equal(c.reason, undefined, `${ip}: ${c.reason}`);
  else assert.ok(c.reason?.includes(reason), `${ip}: "${c.reason}" should include "${reason}"`);
}

void describe('IANA registry boundaries', () => {
  void it(`pins the snapshot date (${IANA_REGISTRY_SNAPSHOT})`, () => {
    assert.match(IANA_REGISTRY_SNAPSHOT, /^\d{4}-\d{2}-\d{2}$/);
  });

  void it('has a boundary case list for every row, and no list without a row', () => {
    assert.deepEqual(IPV4_ROWS.map((r) => r.block).sort(), Object.keys(IPV4_CASES).sort());
    assert.deepEqual(IPV6_ROWS.map((r) => r.block).sort(), Object.keys(IPV6_CASES).sort());
  });

  for (const [block, cases] of [...Object.entries(IPV4_CASES), ...Object.entries(IPV6_CASES)]) {
    void it(block, () => cases.forEach(check));
  }

  void it('records the "Globally Reachable" column as the registries state it', () => {
    const reachable = [...IPV4_ROWS, ...IPV6_ROWS]
      .filter((r) => r.globallyReachable === true)
      .map((r) => r.block);
    assert.deepEqual(reachable.sort(), [
      '192.0.0.10/32',
      '192.0.0.9/32',
      '192.175.48.0/24',
      '192.31.196.0/24',
      '192.52.193.0/24',
      '2001:1::1/128',
      '2001:1::2/128',
      '2001:1::3/128',
      '2001:20::/28',
      '2001:30::/28',
      '2001:3::/32',
      '2001:4:112::/48',
      '2620:4f:8000::/48',
      '64:ff9b::/96',
    ]);
    const na = [...IPV4_ROWS, ...IPV6_ROWS].filter((r) => r.globallyReachable === null).map((r) => r.block);
    assert.deepEqual(na.sort(), ['192.88.99.0/24', '2001:10::/28', '2001::/32', '2002::/16']);
  });

  void it('every block is a network address (no host bits) written in canonical form', () => {
    for (const r of [...IPV4_ROWS, ...IPV6_ROWS]) {
      const [addr] = r.block.split('/');
      // As the registries spell them; RFC 5952 would write the mapped block with a dotted tail.
      assert.equal(canonicalIp(addr), addr === '::ffff:0:0' ? '::ffff:0.0.0.0' : addr, r.block);
      assert.equal(parseCidr(r.block)?.base, parseAddress(addr)?.base, `${r.block} has host bits`);
    }
  });
});

void describe('addresses that embed IPv4', () => {
  const cases: Case[] = [
    ['::ffff:8.8.8.8', true, 'IPv4-mapped Address (RFC 4291) embedding 8.8.8.8'],
    ['::ffff:10.1.2.3', false, 'embedding 10.1.2.3: Private-Use (RFC 1918)'],
    ['::ffff:127.0.0.1', false, 'Loopback'],
    ['::ffff:192.0.0.9', true, 'Port Control Protocol Anycast'],
    ['::ffff:0a01:0203', false, 'Private-Use'],
    ['64:ff9b::8.8.8.8', true, 'IPv4-IPv6 Translat. (RFC 6052) embedding 8.8.8.8'],
    ['64:ff9b::10.1.2.3', false, 'embedding 10.1.2.3: Private-Use'],
    ['64:ff9b::a9fe:a9fe', false, 'embedding 169.254.169.254: Link Local'],
    ['64:ff9b::c000:221', false, 'embedding 192.0.2.33: Documentation (TEST-NET-1)'],
    ['2002:808:808::1', true, '6to4 (RFC 3056) embedding 8.8.8.8'],
    ['2002:a01:203::', false, '6to4 (RFC 3056) embedding 10.1.2.3: Private-Use'],
    ['2002:a01:203:ffff:ffff:ffff:ffff:ffff', false, 'embedding 10.1.2.3'],
    ['2002:c0a8:101::1', false, 'embedding 192.168.1.1'],
    ['2002:7f00:1::', false, 'embedding 127.0.0.1: Loopback'],
    ['2002:e000:1::', false, 'embedding 224.0.0.1: Multicast'],
  ];
  for (const c of cases) void it(c[0], () => check(c));
});

void describe('strict parsing in the classifier', () => {
  for (const bad of [
    '012.0.0.1',
    '0x7f.0.0.1',
    '127.1',
    '017700000001',
    '2130706433',
    '1.2.3.4.5',
    '',
    ' ',
    '::ffff:01.2.3.4',
    '[::1]',
    '1::2::3',
  ]) {
    void it(`rejects ${JSON.stringify(bad)}`, () => {
      const c = classifyIp(bad);
      assert.equal(c.global, false);
      assert.match(c.reason ?? '', /not a valid IP address/);
    });
  }

  void it('ignores a zone id and accepts upper case and full forms', () => {
    assert.equal(classifyIp('fe80::1%eth0').reason, 'Link-Local Unicast (RFC 4291)');
    assert.equal(classifyIp('2606:4700:4700:0000:0000:0000:0000:1111').global, true);
    assert.equal(classifyIp('2001:DB8::1').global, false);
  });
});

void describe('CIDR blocks: global only if every address is', () => {
  const cases: Case[] = [
    ['8.8.8.0/24', true, GLOBAL],
    ['10.0.0.0/8', false, 'Private-Use'],
    ['10.1.2.0/24', false, 'Private-Use'],
    ['0.0.0.0/0', false, 'includes 0.0.0.0/8'],
    ['8.0.0.0/7', true, GLOBAL],
    ['8.0.0.0/5', false, 'includes 10.0.0.0/8'],
    ['192.0.0.8/30', false, 'includes 192.0.0.8/32'],
    ['192.0.0.9/32', true, 'Port Control Protocol Anycast'],
    ['192.0.0.0/16', false, 'includes 192.0.0.0/24'],
    ['192.31.196.0/23', true, GLOBAL],
    ['2606:4700::/32', true, GLOBAL],
    ['2001:db8::/32', false, 'Documentation'],
    ['2000::/3', false, 'includes 2001::/23'],
    ['::/0', false, 'includes '],
    ['64:ff9b::808:800/120', true, 'embedding 8.8.8.0/24'],
    ['64:ff9b::a00:0/104', false, 'embedding 10.0.0.0/8: Private-Use'],
    ['64:ff9b::/96', false, 'embedding 0.0.0.0/0'],
    ['64:ff9b::/64', false, 'includes 64:ff9b::/96'],
    ['2002:808:808::/48', true, 'embedding 8.8.8.8'],
    ['2002:808::/32', true, 'embedding 8.8.0.0/16'],
    ['2002::/16', false, 'embedding 0.0.0.0/0'],
    ['::ffff:0:0/96', false, 'embedding 0.0.0.0/0'],
  ];
  for (const [cidr, global, reason] of cases) {
    void it(cidr, () => {
      const c = classifyCidr(cidr);
      assert.equal(c.global, global, `${cidr}: ${c.reason}`);
      if (reason === null) assert.equal(c.reason, undefined);
      else assert.ok(c.reason?.includes(reason), `${cidr}: "${c.reason}" should include "${reason}"`);
    });
  }

  void it('rejects invalid prefixes strictly', () => {
    for (const bad of [
      '10.0.0.0/33',
      '10.0.0.0/08',
      '10.0.0.0/',
      '10.0.0.0/-1',
      '2001:db8::/129',
      '10/8',
      '10.0.0.0/8/8',
    ]) {
      assert.equal(classifyCidr(bad).global, false, bad);
      assert.match(classifyCidr(bad).reason ?? '', /not a valid CIDR/, bad);
    }
  });

  void it('clears host bits before classifying', () => {
    assert.equal(classifyCidr('10.0.12.5/24').reason, 'Private-Use (RFC 1918)');
    assert.equal(classifyCidr('8.8.8.8/24').global, true);
  });
});
