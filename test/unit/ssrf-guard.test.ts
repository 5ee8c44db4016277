// The SSRF guard of rule webhooks without a server: which addresses are
// internal (IPv4, IPv6, and IPv6 forms that carry an IPv4 address), the
// allow-list, and that the check is made on what a name resolves to.
import { describe, expect, it } from 'vitest';
import {
  BlockedDestinationError,
  checkDestination,
  internalReason,
  NOTHING_ALLOWED,
  parseAllowList,
  pinnedLookup,
} from '../../src/platform/rules/ssrf-guard.js';

describe('internalReason', () => {
  it('classifies IPv4', () => {
    const internal = [
      '127.0.0.1',
      '127.255.255.254',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.255',
      '0.0.0.0',
      '224.0.0.1',
      '239.255.255.250',
      '255.255.255.255',
      '198.18.0.1',
      '192.0.0.8',
    ];
    for (const a of internal) expect(internalReason(a), a).toBeDefined();
    expect(internalReason('127.0.0.1')).toBe('loopback');
    expect(internalReason('169.254.169.254')).toMatch(/metadata/);
    const external = [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '172.15.255.255',
      '100.128.0.1',
      '100.63.255.255',
      '11.0.0.1',
      '193.0.0.1',
    ];
    for (const a of external) expect(internalReason(a), a).toBeUndefined();
  });

  it('classifies IPv6', () => {
    const internal = [
      '::1',
      '::',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '2001:db8::1',
      '0:0:0:0:0:0:0:1',
    ];
    for (const a of internal) expect(internalReason(a), a).toBeDefined();
    expect(internalReason('::1')).toBe('loopback');
    expect(internalReason('fd00::1')).toBe('unique-local');
    for (const a of ['2606:4700:4700::1111', '2a00:1450:4007:80e::200e']) expect(internalReason(a), a).toBeUndefined();
  });

  it('sees the IPv4 address inside mapped, compatible, NAT64 and 6to4 IPv6 forms', () => {
    for (const a of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::FFFF:169.254.169.254',
      '::ffff:10.1.2.3',
      '::127.0.0.1',
      '64:ff9b::10.0.0.1',
      '2002:7f00:1::1',
      '2002:a9fe:a9fe::',
    ]) {
      expect(internalReason(a), a).toBeDefined();
    }
    expect(internalReason('::ffff:127.0.0.1')).toBe('loopback');
    // IPv4-translated (::ffff:0:a.b.c.d) and local-use NAT64 (64:ff9b:1::/48) reach IPv4 too.
    expect(internalReason('::ffff:0:7f00:1')).toBe('loopback');
    expect(internalReason('::ffff:0:169.254.169.254')).toMatch(/metadata/);
    expect(internalReason('64:ff9b:1::a00:1')).toBeDefined();
    for (const a of ['::ffff:8.8.8.8', '::ffff:0:808:808', '64:ff9b::808:808', '2002:808:808::1'])
      expect(internalReason(a), a).toBeUndefined();
  });
});

describe('checkDestination', () => {
  const resolving =
    (...addresses: string[]) =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('refuses internal IP literals and names that resolve to any internal address', async () => {
    await expect(checkDestination(new URL('http://127.0.0.1:9/x'), NOTHING_ALLOWED)).rejects.toThrow(
      BlockedDestinationError,
    );
    await expect(checkDestination(new URL('http://[::1]/'), NOTHING_ALLOWED)).rejects.toThrow(/loopback/);
    await expect(checkDestination(new URL('http://[::ffff:169.254.169.254]/'), NOTHING_ALLOWED)).rejects.toThrow(
      BlockedDestinationError,
    );
    await expect(checkDestination(new URL('http://localhost/'), NOTHING_ALLOWED)).rejects.toThrow(
      BlockedDestinationError,
    );
    // one internal answer among public ones is enough
    await expect(
      checkDestination(new URL('https://rebind.example/'), NOTHING_ALLOWED, resolving('8.8.8.8', '10.0.0.5')),
    ).rejects.toThrow(/resolves to 10\.0\.0\.5/);
    await expect(
      checkDestination(new URL('https://hooks.example/'), NOTHING_ALLOWED, resolving('93.184.216.34')),
    ).resolves.toEqual({ address: '93.184.216.34', family: 4 });
  });

  it('lets the allow-list through, by host name or by resolved address', async () => {
    const allow = parseAllowList(['127.0.0.1', '10.1.0.0/16', 'Intranet.Local', '[fd00::1]']);
    await expect(checkDestination(new URL('http://127.0.0.1:9/'), allow)).resolves.toEqual({
      address: '127.0.0.1',
      family: 4,
    });
    await expect(checkDestination(new URL('http://a.example/'), allow, resolving('10.1.2.3'))).resolves.toMatchObject({
      address: '10.1.2.3',
    });
    await expect(checkDestination(new URL('http://a.example/'), allow, resolving('10.2.0.1'))).rejects.toThrow(
      BlockedDestinationError,
    );
    await expect(
      checkDestination(new URL('http://intranet.local/'), allow, resolving('192.168.5.5')),
    ).resolves.toMatchObject({ address: '192.168.5.5' });
    await expect(checkDestination(new URL('http://[fd00::1]/'), allow)).resolves.toMatchObject({ address: 'fd00::1' });
    await expect(checkDestination(new URL('http://[::ffff:127.0.0.1]/'), allow)).resolves.toMatchObject({ family: 6 });
    expect(() => parseAllowList(['10.0.0.0/33'])).toThrow(/prefix/);
    expect(() => parseAllowList(['http://x'])).toThrow(/not a host name/);
  });

  it('pins the connection to the checked address', () => {
    const lookup = pinnedLookup({ address: '93.184.216.34', family: 4 }) as unknown as (
      h: string,
      o: object,
      cb: (...a: unknown[]) => void,
    ) => void;
    const answers: unknown[] = [];
    lookup('evil.example', {}, (...a) => answers.push(a));
    lookup('evil.example', { all: true }, (...a) => answers.push(a));
    expect(answers).toEqual([
      [null, '93.184.216.34', 4],
      [null, [{ address: '93.184.216.34', family: 4 }]],
    ]);
  });
});
