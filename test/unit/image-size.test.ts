// The image's size counted in a body streamed past unkept (src/inference/pipeline/image-size.ts).
import { describe, expect, it } from 'vitest';
import { imageSizeCounter } from '../../src/inference/pipeline/image-size.js';

/** Feeds `body` in chunks of `size` bytes. */
function count(kind: 'multipart' | 'json', contentType: string, body: Buffer, size: number): number | undefined {
  const counter = imageSizeCounter(kind, contentType);
  for (let i = 0; i < body.length; i += size) counter.feed(body.subarray(i, i + size));
  return counter.result();
}

const boundary = '----formdata-xyz';
const multipart = (file: Buffer) =>
  Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="after"\r\n\r\nxx\r\n--${boundary}--\r\n`),
  ]);

describe('multipart', () => {
  const type = `multipart/form-data; boundary=${boundary}`;
  it('counts the file part alone, however the body is cut into chunks', () => {
    // the file holds a near-delimiter: CRLF and dashes that are not the boundary
    const file = Buffer.concat([
      Buffer.alloc(1000, 7),
      Buffer.from(`\r\n--${boundary.slice(0, -1)}`),
      Buffer.alloc(333, 9),
    ]);
    const body = multipart(file);
    for (const size of [1, 2, 3, 7, 64, 1000, body.length])
      expect(count('multipart', type, body, size)).toBe(file.length);
  });

  it('knows nothing without a file part or a boundary', () => {
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"\r\n\r\nabc\r\n--${boundary}--\r\n`,
    );
    expect(count('multipart', type, body, 10)).toBeUndefined();
    expect(count('multipart', 'multipart/form-data', body, 10)).toBeUndefined();
  });
});

describe('JSON', () => {
  it('counts what the base64 "image" string decodes to, data: URL header aside', () => {
    const image = Buffer.alloc(1001, 5);
    const base64 = image.toString('base64'); // ends with "=="
    for (const value of [base64, `data:image/png;base64,${base64}`]) {
      const body = Buffer.from(JSON.stringify({ name: 'the "image" key', image: value, more: 1 }));
      for (const size of [1, 5, 100, body.length]) expect(count('json', 'application/json', body, size)).toBe(1001);
    }
  });

  it('knows nothing without an "image" string', () => {
    expect(count('json', 'application/json', Buffer.from('{"picture": "abcd"}'), 4)).toBeUndefined();
    expect(count('json', 'application/json', Buffer.from('{"image": 12}'), 4)).toBeUndefined();
  });
});
