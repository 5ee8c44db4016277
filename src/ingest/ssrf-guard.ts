// The SSRF guard of rule webhooks: a tenant chooses the URL, so without it a
// webhook could reach the server's own network (loopback services, cloud
// metadata at 169.254.169.254, private subnets). The check runs on the
// addresses the host name RESOLVES to, not on the name, and the request then
// connects to the address that was checked (see pinnedLookup), so a DNS
// answer that changes between the check and the connection (DNS rebinding)
// cannot swap it. Redirects are never followed (the caller does not follow
// them), so a public host cannot bounce the request inward either.
//
// WEBHOOK_ALLOWED_HOSTS lets chosen internal destinations through (tests,
// on-premises receivers): host names, compared with the URL's host, and
// IP addresses or CIDR ranges, compared with the resolved addresses.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/** A destination the guard refuses: permanent, the same URL fails the same way on a retry. */
export class BlockedDestinationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlockedDestinationError';
  }
}

interface Range {
  /** 4 or 6 */
  family: number;
  base: bigint;
  bits: number;
  label: string;
}

function v4ToBigInt(address: string): bigint {
  return address.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

/** An IPv6 address (any textual form, with a dotted IPv4 tail) as a 128-bit number. */
function v6ToBigInt(address: string): bigint {
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

function inRange(family: number, value: bigint, range: Range): boolean {
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

/** IPv6 forms that carry an IPv4 address, which is what they reach: mapped, compatible, NAT64, 6to4. */
function embeddedV4(value: bigint): bigint | undefined {
  if (value >> 32n === 0xffffn) return value & 0xffffffffn; // ::ffff:a.b.c.d
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
    const entry = raw.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
    if (entry === '') continue;
    if (isIP(entry.split('/')[0]!) !== 0) ranges.push(parseRange(entry, 'allowed'));
    else if (HOSTNAME.test(entry)) hosts.add(entry.replace(/\.$/, ''));
    else throw new Error(`"${raw}" is not a host name, an IP address or a CIDR range`);
  }
  return { hosts, ranges };
}

function allowedAddress(address: string, allow: AllowList): boolean {
  const family = isIP(address);
  const value = family === 4 ? v4ToBigInt(address) : v6ToBigInt(address);
  const v4 = family === 6 ? embeddedV4(value) : undefined;
  return allow.ranges.some((r) => inRange(family, value, r) || (v4 !== undefined && inRange(4, v4, r)));
}

export interface CheckedDestination {
  address: string;
  family: number;
}

type Resolver = (host: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/**
 * Resolves the URL's host and checks every address it resolves to (one
 * internal answer is enough to refuse: the connection could use any of them).
 * Returns the address to connect to. Throws BlockedDestinationError for an
 * internal destination not allowed; DNS errors pass through (they may be
 * temporary).
 */
export async function checkDestination(url: URL, allow: AllowList, resolver: Resolver = systemResolver): Promise<CheckedDestination> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase().replace(/\.$/, '');
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await resolver(host);
  if (addresses.length === 0) throw new Error(`${host} resolves to no address`);
  if (!allow.hosts.has(host)) {
    for (const { address } of addresses) {
      const reason = internalReason(address);
      if (reason !== undefined && !allowedAddress(address, allow)) {
        throw new BlockedDestinationError(
          `blocked: ${host}${literal ? '' : ` resolves to ${address}, which`} is an internal address (${reason}); WEBHOOK_ALLOWED_HOSTS can allow it`,
        );
      }
    }
  }
  return { address: addresses[0]!.address, family: addresses[0]!.family };
}

/** A `lookup` for http(s).request that answers with the checked address only: no second DNS query. */
export function pinnedLookup(destination: CheckedDestination): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: destination.address, family: destination.family }]);
    else callback(null, destination.address, destination.family);
  }) as LookupFunction;
}
