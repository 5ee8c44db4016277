// The S3 request signature against AWS's own worked example (the SigV4
// documentation's "GET Object" with a Range header), and the encodings the
// model store's keys need.
import { describe, expect, it } from 'vitest';
import { EMPTY_PAYLOAD_SHA256, signS3Request } from '../../src/lib/aws-sigv4.js';

const EXAMPLE = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
};

describe('AWS Signature Version 4 for S3', () => {
  it("signs AWS's GET Object example as AWS does", () => {
    const headers = signS3Request(
      {
        method: 'GET',
        url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
        headers: { Range: 'bytes=0-9' },
        payloadSha256: EMPTY_PAYLOAD_SHA256,
      },
      EXAMPLE,
      new Date('2013-05-24T00:00:00Z'),
    );
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
    expect(headers).toMatchObject({
      host: 'examplebucket.s3.amazonaws.com',
      'x-amz-date': '20130524T000000Z',
      range: 'bytes=0-9',
    });
  });

  it('signs a different request differently: the path, the query and the payload are all covered', () => {
    const sign = (url: string, payload = EMPTY_PAYLOAD_SHA256) =>
      signS3Request(
        { method: 'GET', url: new URL(url), payloadSha256: payload },
        EXAMPLE,
        new Date('2013-05-24T00:00:00Z'),
      ).authorization;
    const base = sign('http://127.0.0.1:9000/bucket/models/a/model.onnx');
    expect(sign('http://127.0.0.1:9000/bucket/models/b/model.onnx')).not.toBe(base);
    expect(sign('http://127.0.0.1:9000/bucket/models/a/model.onnx?list-type=2')).not.toBe(base);
    expect(sign('http://127.0.0.1:9000/bucket/models/a/model.onnx', 'a'.repeat(64))).not.toBe(base);
    // an encoded path is signed as the same path written plainly
    expect(sign('http://127.0.0.1:9000/bucket/models%2Fa/model.onnx')).not.toBe(base);
    expect(sign('http://127.0.0.1:9000/bucket/a%20b')).toBe(sign('http://127.0.0.1:9000/bucket/a b'));
  });
});
