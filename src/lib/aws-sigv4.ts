// AWS Signature Version 4 for S3 requests, signed in the Authorization
// header: what every S3-compatible store (AWS, MinIO, Ceph, R2, GCS's
// interoperability mode) accepts. Only what the model store sends: a method,
// a path, a query, headers and the payload's SHA-256.
import { createHmac } from 'node:crypto';
import { sha256 } from './sha256.js';

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export interface RequestToSign {
  method: string;
  /** the URL the request goes to (its host, path and query are signed) */
  url: URL;
  /** headers to send and sign besides host, x-amz-date and x-amz-content-sha256 */
  headers?: Record<string, string>;
  /** hex SHA-256 of the body (EMPTY_PAYLOAD_SHA256 for none) */
  payloadSha256: string;
}

export const EMPTY_PAYLOAD_SHA256 = sha256('');

const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();

/** RFC 3986 percent-encoding, as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
const encode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The path as S3 signs it: each segment encoded once, slashes kept. */
function canonicalPath(url: URL): string {
  return url.pathname
    .split('/')
    .map((segment) => encode(decodeURIComponent(segment)))
    .join('/');
}

function canonicalQuery(url: URL): string {
  return [...url.searchParams]
    .map(([k, v]) => [encode(k), encode(v)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** `2013-05-24T00:00:00.000Z` → `20130524T000000Z` */
const amzDate = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/**
 * The headers to send: the request's own, with host, x-amz-date,
 * x-amz-content-sha256 and the Authorization that signs them all.
 */
export function signS3Request(
  request: RequestToSign,
  credentials: S3Credentials,
  now = new Date(),
): Record<string, string> {
  const datetime = amzDate(now);
  const day = datetime.slice(0, 8);
  const headers: Record<string, string> = {
    ...Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v.trim()])),
    host: request.url.host,
    'x-amz-date': datetime,
    'x-amz-content-sha256': request.payloadSha256,
  };
  const names = Object.keys(headers).sort();
  const canonicalRequest = [
    request.method.toUpperCase(),
    canonicalPath(request.url),
    canonicalQuery(request.url),
    names.map((n) => `${n}:${headers[n]}\n`).join(''),
    names.join(';'),
    request.payloadSha256,
  ].join('\n');
  const scope = `${day}/${credentials.region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', datetime, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(
    hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), credentials.region), 's3'),
    'aws4_request',
  );
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex');
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope},SignedHeaders=${names.join(';')},Signature=${signature}`,
  };
}
