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
import { CodedError, revivable } from '../../errors.js';
import { embeddedV4, inRange, internalReason, v4ToBigInt, v6ToBigInt, type AllowList } from '../../lib/ip-ranges.js';

/** A destination the guard refuses: permanent, the same URL fails the same way on a retry. */
export class BlockedDestinationError extends CodedError {
  readonly code = 'WEBHOOK_BLOCKED';
  constructor(message: string) {
    super(message);
    this.name = 'BlockedDestinationError';
  }
  static {
    revivable('WEBHOOK_BLOCKED', ({ message }) => new BlockedDestinationError(message));
  }
}

export { internalReason, NOTHING_ALLOWED, parseAllowList, type AllowList } from '../../lib/ip-ranges.js';

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
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/**
 * Resolves the URL's host and checks every address it resolves to (one
 * internal answer is enough to refuse: the connection could use any of them).
 * Returns the address to connect to. Throws BlockedDestinationError for an
 * internal destination not allowed; DNS errors pass through (they may be
 * temporary).
 */
export async function checkDestination(
  url: URL,
  allow: AllowList,
  resolver: Resolver = systemResolver,
  /** the setting that allows internal destinations, named in the refusal */
  setting = 'WEBHOOK_ALLOWED_HOSTS',
): Promise<CheckedDestination> {
  const host = url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
    .replace(/\.$/, '');
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await resolver(host);
  if (addresses.length === 0) throw new Error(`${host} resolves to no address`);
  if (!allow.hosts.has(host)) {
    for (const { address } of addresses) {
      const reason = internalReason(address);
      if (reason !== undefined && !allowedAddress(address, allow)) {
        throw new BlockedDestinationError(
          `blocked: ${host}${literal ? '' : ` resolves to ${address}, which`} is an internal address (${reason}); ${setting} can allow it`,
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
