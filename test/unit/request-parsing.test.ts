// Pure parts of the predict request path: multipart, base64, format sniffing.
import { describe, expect, it } from 'vitest';
import { multipartBoundary, multipartParts } from '../../src/lib/multipart.js';
import { sniffImageFormat } from '../../src/inference/pipeline/image-format.js';
import { decodeBase64, extractImage, predictBodyKind } from '../../src/inference/pipeline/request-body.js';

/** The first part named `field`, as the predict path looks for "file". */
const findMultipartPart = (body: Uint8Array, boundary: string, field: string) =>
  [...multipartParts(body, boundary)].find((p) => p.name === field);

const body = (text: string) => Buffer.from(text, 'latin1');

describe('multipart', () => {
  it('reads the boundary, quoted or not, only from multipart/form-data', () => {
    expect(multipartBoundary('multipart/form-data; boundary=abc')).toBe('abc');
    expect(multipartBoundary('Multipart/Form-Data; charset=utf-8; boundary="a b;c"')).toBe('a b;c');
    expect(multipartBoundary('multipart/mixed; boundary=abc')).toBeUndefined();
    expect(multipartBoundary('multipart/form-data')).toBeUndefined();
  });

  it('finds the named part as a view into the body, binary-safe', () => {
    const raw = body(
      'preamble\r\n--B\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n' +
        '--B\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: image/png\r\n\r\n\x00\r\n--\x01\xff\r\n' +
        '--B--\r\n',
    );
    const part = findMultipartPart(raw, 'B', 'file')!;
    expect(part.filename).toBe('a.bin');
    expect(part.contentType).toBe('image/png');
    expect([...part.data]).toEqual([0, 13, 10, 45, 45, 1, 255]);
    expect(part.data.buffer).toBe(raw.buffer); // no copy
    expect([...multipartParts(raw, 'B')].map((p) => p.name)).toEqual(['note', 'file']);
  });

  it('tells a missing part from a malformed body', () => {
    expect(
      findMultipartPart(body('--B\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--B--'), 'B', 'file'),
    ).toBeUndefined();
    expect(() => findMultipartPart(body('no delimiter'), 'B', 'file')).toThrow('boundary not found');
    expect(() =>
      findMultipartPart(body('--B\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc'), 'B', 'file'),
    ).toThrow('unexpected end of body');
    expect(() => findMultipartPart(body('--B\r\nno colon here\r\n\r\nabc\r\n--B--'), 'B', 'file')).toThrow(
      'malformed part header',
    );
  });
});

describe('base64', () => {
  const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253]);
  it('decodes standard and URL alphabets, padded or not, and MIME line breaks', () => {
    for (const text of [
      bytes.toString('base64'),
      bytes.toString('base64url'),
      bytes.toString('base64').replace(/=+$/, ''),
    ]) {
      expect(decodeBase64(text)).toEqual(bytes);
    }
    const long = Buffer.alloc(300, 7);
    expect(decodeBase64(long.toString('base64').replace(/(.{76})/g, '$1\r\n'))).toEqual(long);
  });

  it('refuses characters outside the alphabet and impossible lengths', () => {
    for (const text of ['abc!', 'ab$d', 'a', 'abcde', 'ab===', 'ab=c']) expect(decodeBase64(text)).toBeUndefined();
  });

  it('accepts data URLs in JSON bodies', () => {
    const json = Buffer.from(JSON.stringify({ image: `data:image/png;base64,${bytes.toString('base64')}` }));
    expect(extractImage('application/json', json, 100)).toEqual(bytes);
  });
});

describe('body kinds and formats', () => {
  it('classifies content types', () => {
    expect(predictBodyKind('multipart/form-data; boundary=x')).toBe('multipart');
    expect(predictBodyKind('application/json; charset=utf-8')).toBe('json');
    expect(predictBodyKind('application/vnd.api+json')).toBe('json');
    expect(predictBodyKind('text/plain')).toBeUndefined();
  });

  it('recognises formats by their bytes only', () => {
    const cases: Array<[number[] | string, string | undefined]> = [
      [[0xff, 0xd8, 0xff, 0xe0], 'jpeg'],
      [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'png'],
      ['GIF89a', 'gif'],
      ['GIF87a', 'gif'],
      ['BM' + '\0'.repeat(30), 'bmp'],
      ['II*\0', 'tiff'],
      ['MM\0*', 'tiff'],
      ['RIFF\0\0\0\0WEBPVP8 ', 'webp'],
      ['RIFF\0\0\0\0WAVEfmt ', undefined],
      ['<svg', undefined],
      ['%PDF-1.7', undefined],
      [[0, 0, 0, 0x1c, 0x66, 0x74, 0x79, 0x70, 0x61, 0x76, 0x69, 0x66], undefined], // AVIF (ftypavif)
      ['BM', undefined], // too short to be a BMP
    ];
    for (const [signature, format] of cases) {
      const bytes = typeof signature === 'string' ? Buffer.from(signature, 'latin1') : Buffer.from(signature);
      expect(sniffImageFormat(bytes)).toBe(format);
    }
  });
});
