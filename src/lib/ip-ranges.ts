// IP address arithmetic for the webhook guard and its settings: addresses
// as numbers, CIDR ranges, the internal ranges (loopback, private,
// link-local, ...) and IPv6 forms that carry an IPv4 address, and the
// WEBHOOK_ALLOWED_HOSTS allow list. Pure functions: configuration validates
// the setting with them, platform/rules/ssrf-guard.ts applies them.
import { isIP } from 'node:net';

export interface Range {
  /** 4 or 6 */
  family: number;
  base: bigint;
  bits: number;
  label: string;
}

export function v4ToBigInt(address: string): bigint {
  return address.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

/** An IPv6 address (any textual form, with a dotted IPv4 tail) as a 128-bit number. */
export function v6ToBigInt(address: string): bigint {
  let text = address.split('%')[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = v4ToBigInt(dotted[1]!);
    text = text.slice(0, -dotted[1]!.length) + `${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const missing = 8 - headParts.length - tailParts.length;
  const parts = tail === undefined ? headParts : [...headParts, ...Array<string>(missing).fill('0'), ...tailParts];
  return parts.reduce((n, part) => (n << 16n) | BigInt(parseInt(part || '0', 16)), 0n);
}

function parseRange(cidr: string, label: string): Range {
  const [address, prefix] = cidr.split('/');
  const family = isIP(address ?? '');
  if (family === 0) throw new Error(`"${cidr}" is not an IP address or CIDR range`);
  const max = family === 4 ? 32 : 128;
  const bits = prefix === undefined ? max : Number(prefix);
  if (!/^\d{1,3}$/.test(prefix ?? String(max)) || bits > max) throw new Error(`"${cidr}" has a bad prefix length`);
  const value = family === 4 ? v4ToBigInt(address!) : v6ToBigInt(address!);
  return { family, base: value >> BigInt(max - bits), bits, label };
}

export function inRange(family: number, value: bigint, range: Range): boolean {
  if (family !== range.family) return false;
  const max = family === 4 ? 32 : 128;
  return value >> BigInt(max - range.bits) === range.base;
}

const INTERNAL: readonly Range[] = [
  ['0.0.0.0/8', 'unspecified ("this network")'],
  ['10.0.0.0/8', 'private (RFC 1918)'],
  ['100.64.0.0/10', 'carrier-grade NAT (RFC 6598)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local (cloud metadata)'],
  ['172.16.0.0/12', 'private (RFC 1918)'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', '6to4 relay anycast'],
  ['192.168.0.0/16', 'private (RFC 1918)'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved (and broadcast)'],
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['100::/64', 'discard-only'],
  ['2001::/32', 'Teredo tunnel'],
  ['2001:db8::/32', 'documentation'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
].map(([cidr, label]) => parseRange(cidr!, label!));

/** IPv6 forms that carry an IPv4 address, which is what they reach: mapped, translated, compatible, NAT64, 6to4. */
export function embeddedV4(value: bigint): bigint | undefined {
  if (value >> 32n === 0xffffn) return value & 0xffffffffn; // ::ffff:a.b.c.d
  if (value >> 32n === 0xffff0000n) return value & 0xffffffffn; // ::ffff:0:a.b.c.d (IPv4-translated, RFC 2765)
  if (value >> 80n === v6ToBigInt('64:ff9b:1::') >> 80n) return value & 0xffffffffn; // local-use NAT64 (RFC 8215)
  if (value >> 32n === 0n && value > 1n) return value; // ::a.b.c.d (deprecated "compatible")
  if (value >> 32n === v6ToBigInt('64:ff9b::') >> 32n) return value & 0xffffffffn; // NAT64
  if (value >> 112n === 0x2002n) return (value >> 80n) & 0xffffffffn; // 6to4
  return undefined;
}

/** Why an address is internal ("loopback", "private (RFC 1918)", ...), or undefined for a public one. */
export function internalReason(address: string): string | undefined {
  const family = isIP(address.split('%')[0]!);
  if (family === 0) return 'not an IP address';
  let value = family === 4 ? v4ToBigInt(address) : v6ToBigInt(address);
  let fam = family;
  if (family === 6) {
    const v4 = embeddedV4(value);
    if (v4 !== undefined) {
      value = v4;
      fam = 4;
    }
  }
  return INTERNAL.find((range) => inRange(fam, value, range))?.label;
}

/** What WEBHOOK_ALLOWED_HOSTS lets through despite being internal. */
export interface AllowList {
  hosts: ReadonlySet<string>;
  ranges: readonly Range[];
}

export const NOTHING_ALLOWED: AllowList = { hosts: new Set(), ranges: [] };

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*\.?$/;

/** Parses the entries of WEBHOOK_ALLOWED_HOSTS; throws on one that is neither a host name nor an address/CIDR. */
export function parseAllowList(entries: readonly string[]): AllowList {
  const hosts = new Set<string>();
  const ranges: Range[] = [];
  for (const raw of entries) {
    const entry = raw
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1');
    if (entry === '') continue;
    if (isIP(entry.split('/')[0]!) !== 0) ranges.push(parseRange(entry, 'allowed'));
    else if (HOSTNAME.test(entry)) hosts.add(entry.replace(/\.$/, ''));
    else throw new Error(`"${raw}" is not a host name, an IP address or a CIDR range`);
  }
  return { hosts, ranges };
}
