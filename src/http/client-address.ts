// Who is at the other end of a connection: uWS's binary peer address as
// canonical text, and the client's address behind a number of trusted
// reverse proxies (TRUST_PROXY, passed in by the caller rather than read from
// a global). Pure functions over addresses: throttles, the access log and
// the metrics guard key on what they return.
import { internalReason } from '../lib/ip-ranges.js';

/**
 * The address throttles key on. Behind `trusted` proxies, each appends the
 * address it received from to X-Forwarded-For, so the client is the entry
 * that many places from the end; anything further left is the client's own
 * claim and could be forged. Without a header (a direct call) the peer.
 */
export function clientAddress(peer: string, forwardedFor: string | undefined, trusted: number): string {
  if (trusted === 0 || !forwardedFor) return peer;
  const hops = forwardedFor
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  return hops[Math.max(0, hops.length - trusted)] ?? peer;
}

/**
 * An address as people write it. uWS writes IPv6 in full (a dual-stack
 * listener sees IPv4 clients as 0000:…:ffff:7f00:0001): compressed here, and
 * IPv4-mapped addresses as plain IPv4, so one client is one throttle key.
 */
export function canonicalAddress(raw: string): string {
  if (!raw.includes(':')) return raw;
  let compressed: string;
  try {
    compressed = new URL(`http://[${raw}]/`).hostname.slice(1, -1);
  } catch {
    return raw;
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compressed);
  if (!mapped) return compressed;
  const high = parseInt(mapped[1]!, 16);
  const low = parseInt(mapped[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * The canonical text of an address as uWS gives it in binary (4 or 16
 * bytes): IPv4 dotted, IPv4-mapped IPv6 (a dual-stack listener's IPv4
 * clients) as IPv4, other IPv6 compressed (RFC 5952) — canonicalAddress
 * without parsing text.
 */
export function addressText(bytes: Uint8Array): string {
  if (bytes.length === 4) return `${bytes[0]}.${bytes[1]}.${bytes[2]}.${bytes[3]}`;
  if (bytes.length !== 16) return '';
  let mapped = bytes[10] === 0xff && bytes[11] === 0xff;
  for (let i = 0; i < 10 && mapped; i++) if (bytes[i] !== 0) mapped = false;
  if (mapped) return `${bytes[12]}.${bytes[13]}.${bytes[14]}.${bytes[15]}`;
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i]! << 8) | bytes[i + 1]!);
  // The longest run of two or more zero groups becomes "::" (the first of equals).
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j;
  }
  const hex = (from: number, to: number) =>
    groups
      .slice(from, to)
      .map((g) => g.toString(16))
      .join(':');
  return bestStart < 0 ? hex(0, 8) : `${hex(0, bestStart)}::${hex(bestStart + bestLength, 8)}`;
}

/** 127.0.0.0/8 or ::1 (and their IPv4-carrying IPv6 forms), by the same ranges the webhook guard uses. */
export function isLoopback(address: string): boolean {
  return internalReason(address) === 'loopback';
}
