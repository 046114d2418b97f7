export type DetectionKind = 'ipv4' | 'ipv6' | 'cidr' | 'domain';

/** One IP address, CIDR block or host name found in a text. */
export interface Detection {
  kind: DetectionKind;
  /** Offsets into the original text: `text.slice(start, end) === raw`. */
  start: number;
  end: number;
  /**
   * The text as written (defanged forms included). Covers the address only: brackets and the
   * port of `[2001:db8::1]:443` or `1.2.3.4:80` are not part of it; a zone id (`%eth0`) and a
   * prefix length (`/24`) are.
   */
  raw: string;
  /**
   * Refanged and canonical: lower case; IPv4 dotted-quad; IPv6 per RFC 5952 (zone id kept);
   * CIDR as `address/prefix` with the address as written (host bits are not cleared).
   */
  value: string;
  /** Written in a defanged form (`1.2.3[.]4`, `evil(dot)com`, after `hxxp://`). */
  defanged: boolean;
  /** `1.2.3.4:8080`, `example.com:443`, `[::1]:8080`. */
  port?: number;
}

/** Where a list says how it was read (workers or this thread): the extension's `Log.sink`. */
export type ListLog = (level: 'debug' | 'info' | 'warn', message: string) => void;

export interface DetectOptions {
  /** Only these kinds (default: all). */
  kinds?: readonly DetectionKind[];
  /**
   * `code` (default) also rejects names whose TLD is a common member name (`user.name`,
   * `node.id`, `logger.info`) unless the text marks them as hosts (URL, e-mail, defanged,
   * `www.`, a hyphen). `text` (logs, prose, plain text) accepts them.
   */
  mode?: 'code' | 'text';
  /** Stop after this many detections. */
  limit?: number;
}
