/** Banner text of the non-HTTP protocols, as a scanner records it. */
import type { ProductSpec } from './catalog';
import type { Rng } from './random';
import type { HostCtx } from './services';

export function bannerFor(rng: Rng, p: ProductSpec, v: string, ctx: HostCtx, extra: string): string {
  const name = ctx.name;
  switch (p.module) {
    case 'smtp':
      return p.key === 'exim'
        ? `220 ${name} ESMTP Exim ${v} ${ctx.httpDate}\r\n250-${name} Hello scanner\r\n250-SIZE 52428800\r\n250-PIPELINING\r\n250-STARTTLS\r\n250 HELP`
        : p.key === 'exchange'
          ? `220 ${name} Microsoft ESMTP MAIL Service ready at ${ctx.httpDate}\r\n250-${name} Hello\r\n250-SIZE 37748736\r\n250-STARTTLS\r\n250 CHUNKING`
          : `220 ${name} ESMTP Postfix (${extra || 'Debian/GNU'})\r\n250-${name}\r\n250-PIPELINING\r\n250-SIZE 10240000\r\n250-STARTTLS\r\n250-ENHANCEDSTATUSCODES\r\n250 8BITMIME`;
    case 'ftp':
      return p.key === 'vsftpd'
        ? `220 (vsFTPd ${v})\r\n530 Please login with USER and PASS.`
        : p.key === 'proftpd'
          ? `220 ProFTPD ${v} Server (Debian) [::ffff:${ctx.ip}]`
          : `220---------- Welcome to Pure-FTPd [privsep] [TLS] ----------\r\n220-You are user number 1 of 50 allowed.\r\n220 This is a private system - No anonymous login`;
    case 'mysql':
      return p.key === 'mariadb'
        ? `5.5.5-${v}-MariaDB-0+deb10u1\r\nCapabilities flags: 63486\r\nAuth Plugin Name: mysql_native_password`
        : `${v}-0ubuntu0.18.04.1\r\nProtocol: 10\r\nCapabilities flags: 65535\r\nAuth Plugin Name: mysql_native_password`;
    case 'postgres':
      return `FATAL:  no pg_hba.conf entry for host "198.51.100.7", user "postgres", database "postgres", SSL off\r\nserver_version: ${v}`;
    case 'redis':
      return `# Server\r\nredis_version:${v}\r\nredis_mode:standalone\r\nos:Linux 5.4.0-${rng.int(40, 190)}-generic x86_64\r\narch_bits:64\r\nprocess_id:${rng.int(100, 9999)}\r\ntcp_port:6379\r\nuptime_in_days:${rng.int(1, 900)}\r\n# Keyspace\r\ndb0:keys=${rng.int(1, 90000)},expires=0`;
    case 'rdp':
      return `Remote Desktop Protocol\r\n  OS: Windows ${v.startsWith('6.1') ? 'Server 2008 R2' : v.startsWith('10.0.14393') ? 'Server 2016' : 'Server 2019'} (${v})\r\n  NetBIOS Computer Name: WIN-${rng.hex(8).toUpperCase()}\r\n  NLA: ${rng.chance(0.5) ? 'enabled' : 'disabled'}`;
    case 'dns':
      return p.key === 'bind'
        ? `version.bind: "${v}-RedHat-${v}-26.P2.el7"\r\nrecursion: ${rng.chance(0.3) ? 'enabled' : 'disabled'}`
        : `version.bind: "dnsmasq-${v}"`;
    case 'imap':
      return `* OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ STARTTLS AUTH=PLAIN] Dovecot (Ubuntu) ready.`;
    case 'pop3':
      return `+OK Dovecot (Ubuntu) ready.`;
    case 'mongodb':
      return `MongoDB Server Information\r\n{"version": "${v}", "gitVersion": "${rng.hex(40)}", "maxBsonObjectSize": 16777216, "ok": 1.0}`;
    case 'elasticsearch':
      return `{"name":"node-${rng.int(1, 9)}","cluster_name":"elasticsearch","cluster_uuid":"${rng.hex(22)}","version":{"number":"${v}","build_flavor":"default"},"tagline":"You Know, for Search"}`;
    case 'telnet':
      return `\r\n\r\nBusyBox v${v} (2015-03-12 10:23:11 CST) built-in shell (ash)\r\nEnter 'help' for a list of built-in commands.\r\n\r\nlogin: `;
    case 'smb':
      return `SMB Status:\r\n  Authentication: disabled\r\n  SMB Version: 2\r\n  OS: Unix\r\n  Software: Samba ${v}\r\n  Shares: print$, IPC$, public`;
    case 'vnc':
      return `RFB 003.008\r\nAuthentication: ${rng.chance(0.2) ? 'None' : 'VNC Authentication'}`;
    case 'memcached':
      return `STAT pid ${rng.int(100, 9999)}\r\nSTAT uptime ${rng.int(1000, 9999999)}\r\nSTAT version ${v}\r\nSTAT curr_connections 10`;
    case 'mqtt':
      return `MQTT Connection Code: ${rng.chance(0.5) ? 0 : 5}\r\nTopics:\r\n  $SYS/broker/version: mosquitto version ${v}`;
    case 'ntp':
      return `NTP\r\n  Version: 4\r\n  Stratum: ${rng.int(1, 4)}\r\n  System: ntpd ${v}`;
    case 'snmp':
      return `SNMP:\r\n  Versions: 1, 2c\r\n  sysDescr: Linux gw-${rng.hex(4)} 3.10.14 #1 SMP\r\n  Engine: net-snmp ${v}`;
    default:
      return '';
  }
}
