// The two ways a predict request carries its image: multipart/form-data with
// a `file` part, or a JSON body {"image": "<base64>"}. The main thread only
// classifies the Content-Type; the worker extracts the bytes, so parsing a
// 13 MB JSON body never blocks the event loop. A third kind is the server's
// own, never a client's Content-Type: one element of an Open Inference
// Protocol BYTES input (inference/oip/), the image itself or its base64 text.
import { multipartBoundary, MultipartError, multipartParts } from '../../lib/multipart.js';
import { predictErrors } from '../predict-errors.js';
import { sniffImageFormat } from './image-format.js';

/**
 * The content type of a body that is one image's bytes or their base64
 * text (an Open Inference Protocol BYTES element): predict's route refuses
 * it, as predictBodyKind knows only multipart and JSON.
 */
export const RAW_IMAGE_CONTENT_TYPE = 'application/x-sense-image-element';

export type PredictBodyKind = 'multipart' | 'json';

export function predictBodyKind(contentType: string): PredictBodyKind | undefined {
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  if (type === 'multipart/form-data') return 'multipart';
  if (type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))) return 'json';
  return undefined;
}

/** Largest body worth reading for an image limit: the image plus room for the envelope. */
export function predictBodyLimit(kind: PredictBodyKind, maxImageBytes: number): number {
  const envelope = 64 * 1024;
  return kind === 'multipart' ? maxImageBytes + envelope : Math.ceil(maxImageBytes / 3) * 4 + envelope;
}

/** Returns the image bytes (a view into `body` for multipart) or throws an DomainError. */
export function extractImage(contentType: string, body: Uint8Array, maxImageBytes: number): Uint8Array {
  if (contentType === RAW_IMAGE_CONTENT_TYPE) return fromElement(body, maxImageBytes);
  const kind = predictBodyKind(contentType);
  const image = kind === 'multipart' ? fromMultipart(contentType, body) : kind === 'json' ? fromJson(body) : undefined;
  if (!image) throw predictErrors.notMultipart();
  if (image.byteLength === 0)
    throw predictErrors.emptyImage(kind === 'multipart' ? 'the "file" part' : 'the "image" field');
  if (image.byteLength > maxImageBytes) throw predictErrors.fileTooLarge(image.byteLength);
  return image;
}

/**
 * An image element: its bytes, or base64 text of them (JSON carries BYTES
 * elements as strings, and clients put images there in base64). Bytes no
 * image format starts with and no base64 either go to the decoder as they
 * are, which names them an unknown format.
 */
function fromElement(body: Uint8Array, maxImageBytes: number): Uint8Array {
  if (body.byteLength === 0) throw predictErrors.emptyImage('the image element');
  let image = body;
  if (!sniffImageFormat(body) && body.byteLength <= Math.ceil(maxImageBytes / 3) * 4 + 4) {
    const decoded = decodeBase64(
      stripDataUrl(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1')),
    );
    if (decoded && decoded.byteLength > 0) image = decoded;
  }
  if (image.byteLength > maxImageBytes) throw predictErrors.fileTooLarge(image.byteLength);
  return image;
}

function fromMultipart(contentType: string, body: Uint8Array): Uint8Array {
  const boundary = multipartBoundary(contentType);
  if (!boundary) throw predictErrors.badMultipart('no multipart boundary param in Content-Type');
  try {
    const names: string[] = [];
    for (const part of multipartParts(body, boundary)) {
      if (part.name === 'file') return part.data;
      names.push(part.name);
    }
    throw predictErrors.missingFile(names);
  } catch (error) {
    if (error instanceof MultipartError) throw predictErrors.badMultipart(error.message);
    throw error;
  }
}

function fromJson(body: Uint8Array): Uint8Array {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch (error) {
    throw predictErrors.badJson(`json: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw predictErrors.badJson('json: body must be an object with an "image" field');
  }
  const image = (value as Record<string, unknown>).image;
  if (image === undefined) throw predictErrors.badJson('json: missing "image" field');
  if (typeof image !== 'string') throw predictErrors.badJson('json: "image" must be a base64 string');
  const bytes = decodeBase64(stripDataUrl(image));
  if (!bytes) throw predictErrors.unreadableImage('invalid base64 in "image"');
  return bytes;
}

/** Accepts `data:image/png;base64,....` as well as bare base64. */
function stripDataUrl(text: string): string {
  if (!text.startsWith('data:')) return text;
  const comma = text.indexOf(',');
  return comma > 0 && text.slice(0, comma).endsWith(';base64') ? text.slice(comma + 1) : text;
}

/**
 * Strict base64 (standard or URL alphabet, padding optional). Node's decoder
 * silently skips characters it does not know, so the decoded length is
 * compared with the length the text must produce: any skipped character
 * shows as a shortfall.
 */
export function decodeBase64(text: string): Buffer | undefined {
  const decoded = Buffer.from(text, 'base64');
  if (decoded.length === expectedLength(text)) return decoded;
  if (/\s/.test(text)) {
    const compact = text.replace(/\s+/g, '');
    const retry = Buffer.from(compact, 'base64');
    if (retry.length === expectedLength(compact)) return retry;
  }
  return undefined;
}

function expectedLength(text: string): number {
  let padding = 0;
  while (padding < text.length && text.charCodeAt(text.length - 1 - padding) === 0x3d /* = */) padding++;
  const chars = text.length - padding;
  if (padding > 2 || chars % 4 === 1 || (padding > 0 && (chars + padding) % 4 !== 0)) return -1;
  return Math.floor((chars * 3) / 4);
}
