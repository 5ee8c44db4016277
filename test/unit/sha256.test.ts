// The digests are one-shot (crypto.hash); keys stored before were made a
// part at a time with a Hash object. These pin that both give the same
// bytes, so a retry sent across an upgrade still finds its stored key.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256, sha256OfParts } from '../../src/lib/sha256.js';

function incremental(parts: readonly string[], encoding: 'hex' | 'base64url'): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  return hash.digest(encoding);
}

describe('sha256', () => {
  it('digests text as UTF-8 and bytes as they are, in hex or base64url', () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256(Buffer.from('abc'), 'base64url')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
    expect(sha256('é')).toBe(createHash('sha256').update(Buffer.from('é', 'utf8')).digest('hex'));
  });

  it('digests parts exactly as hashing them one after another, each ended by U+0000', () => {
    const cases: string[][] = [
      [],
      [''],
      ['', ''],
      ['ab', 'c'],
      ['a', 'bc'],
      ['client-1', '42', 'ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0'],
      ['température', '日本', '😀'],
      // lone surrogates at a part's end and the next one's start: encoded one by one, never joined into a pair
      ['a\uD83D', '\uDE00b'],
      ['\uD83D', '\uDE00'],
    ];
    for (const parts of cases)
      for (const encoding of ['hex', 'base64url'] as const)
        expect(sha256OfParts(parts, encoding), JSON.stringify(parts)).toBe(incremental(parts, encoding));
    expect(sha256OfParts(['ab', 'c'])).not.toBe(sha256OfParts(['a', 'bc']));
  });
});
