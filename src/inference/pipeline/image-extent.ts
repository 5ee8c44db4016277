// Where an image's own bytes end: decoders stop at the image's end marker
// and ignore whatever follows it, so a body can carry megabytes after a
// small picture. What keeps an image (platform/kept-frames.ts) keeps only
// its own bytes, found by walking the format's structure: JPEG's segments
// and entropy-coded data up to EOI, PNG's chunks up to IEND, GIF's blocks up
// to its trailer, WebP's RIFF length, BMP's pixel array (and embedded
// profile), TIFF's directories and the strips, tiles and values they point
// at. Undefined when the structure breaks off or is not one of these: no
// end can be told.
import type { ImageFormat } from './image-format.js';

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + ((b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!);
const u32le = (b: Uint8Array, i: number) => ((b[i + 3]! << 24) >>> 0) + ((b[i + 2]! << 16) | (b[i + 1]! << 8) | b[i]!);

/** The length of the image at the start of `bytes`, up to its end; undefined when no end can be told. */
export function imageExtent(bytes: Uint8Array, format: ImageFormat): number | undefined {
  const end = EXTENTS[format](bytes);
  return end !== undefined && end <= bytes.length ? end : undefined;
}

const EXTENTS: Record<ImageFormat, (bytes: Uint8Array) => number | undefined> = {
  jpeg: jpegExtent,
  png: pngExtent,
  gif: gifExtent,
  webp: webpExtent,
  bmp: bmpExtent,
  tiff: tiffExtent,
};

/** Segments after SOI, each scan's entropy-coded data (where 0xFF is followed by 0x00 or a restart marker), up to EOI. */
function jpegExtent(b: Uint8Array): number | undefined {
  let i = 2;
  while (i < b.length) {
    if (b[i] !== 0xff) return undefined;
    while (b[i] === 0xff) i++; // fill bytes
    const marker = b[i++];
    if (marker === undefined) return undefined;
    if (marker === 0xd9) return i; // EOI
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue; // no length
    if (i + 2 > b.length) return undefined;
    const length = u16be(b, i);
    if (length < 2) return undefined;
    i += length;
    if (marker !== 0xda) continue;
    // SOS: the scan's data runs to the next marker that is not a stuffed byte or a restart.
    while (i + 1 < b.length && !(b[i] === 0xff && b[i + 1] !== 0x00 && (b[i + 1]! < 0xd0 || b[i + 1]! > 0xd7))) i++;
    if (i + 1 >= b.length) return undefined;
  }
  return undefined;
}

/** The signature, then chunks (length, type, data, CRC) up to IEND's. */
function pngExtent(b: Uint8Array): number | undefined {
  let i = 8;
  while (i + 12 <= b.length) {
    const length = u32be(b, i);
    const isEnd = b[i + 4] === 0x49 && b[i + 5] === 0x45 && b[i + 6] === 0x4e && b[i + 7] === 0x44; // IEND
    i += 12 + length;
    if (isEnd) return i;
  }
  return undefined;
}

/** Sub-blocks (a size byte, then as many bytes) until one of size 0; the index after it. */
function skipSubBlocks(b: Uint8Array, i: number): number | undefined {
  while (i < b.length) {
    const size = b[i]!;
    i += 1 + size;
    if (size === 0) return i;
  }
  return undefined;
}

/** The header and screen descriptor (with its colour table), then extensions and images up to the trailer (0x3B). */
function gifExtent(b: Uint8Array): number | undefined {
  if (b.length < 13) return undefined;
  let i: number | undefined = 13 + (b[10]! & 0x80 ? 3 << ((b[10]! & 7) + 1) : 0);
  while (i !== undefined && i < b.length) {
    const introducer = b[i];
    if (introducer === 0x3b) return i + 1;
    if (introducer === 0x21) {
      i = skipSubBlocks(b, i + 2); // the label, then its data
    } else if (introducer === 0x2c) {
      if (i + 10 > b.length) return undefined;
      const flags = b[i + 9]!;
      i += 10 + (flags & 0x80 ? 3 << ((flags & 7) + 1) : 0) + 1; // descriptor, local colour table, LZW code size
      i = skipSubBlocks(b, i);
    } else {
      return undefined;
    }
  }
  return undefined;
}

/** The RIFF container's length, padded to even. */
function webpExtent(b: Uint8Array): number | undefined {
  if (b.length < 12) return undefined;
  const size = u32le(b, 4);
  return 8 + size + (size & 1);
}

/** Where the pixel array starts, plus its size (computed for uncompressed bitmaps, stated for compressed ones), or a V5 header's profile after it. */
function bmpExtent(b: Uint8Array): number | undefined {
  if (b.length < 26) return undefined;
  const pixelsAt = u32le(b, 10);
  const headerSize = u32le(b, 14);
  if (headerSize === 12) {
    const rowBytes = Math.ceil((u16le(b, 18) * u16le(b, 24)) / 32) * 4;
    return pixelsAt + rowBytes * u16le(b, 20);
  }
  if (headerSize < 40 || b.length < 54) return undefined;
  const width = u32le(b, 18) | 0;
  const height = Math.abs(u32le(b, 22) | 0);
  const bitsPerPixel = u16le(b, 28);
  const compression = u32le(b, 30);
  const stated = u32le(b, 34);
  // BI_RGB, BI_BITFIELDS, BI_ALPHABITFIELDS: rows of whole 32-bit words; others (RLE, JPEG, PNG) state their size.
  const pixels =
    compression === 0 || compression === 3 || compression === 6
      ? Math.ceil((Math.abs(width) * bitsPerPixel) / 32) * 4 * height
      : stated;
  let end = pixelsAt + pixels;
  if (headerSize >= 124 && b.length >= 14 + 124) {
    const profileAt = u32le(b, 14 + 112);
    const profileSize = u32le(b, 14 + 116);
    if (profileSize > 0) end = Math.max(end, 14 + profileAt + profileSize);
  }
  return end;
}

/** Bytes per value of each TIFF field type (1 BYTE ... 13 IFD). */
const TIFF_TYPE_BYTES = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4];
/** Fields whose values are offsets of data whose lengths another field gives: strips (273, 279), tiles (324, 325), JPEG tables (513, 514). */
const TIFF_DATA = new Map([
  [273, 279],
  [324, 325],
  [513, 514],
]);
/** Fields whose values are offsets of further directories: SubIFDs, EXIF, GPS, Interoperability. */
const TIFF_DIRECTORIES = new Set([330, 34665, 34853, 40965]);
/** The fields whose values are read: every offset and length above. */
const TIFF_WATCHED = new Set([...TIFF_DATA.keys(), ...TIFF_DATA.values(), ...TIFF_DIRECTORIES]);
/** At most this many directories are walked (a loop of offsets ends here). */
const TIFF_MAX_DIRECTORIES = 256;

/**
 * The furthest byte any directory, out-of-line value, strip or tile
 * reaches (classic TIFF; BigTIFF has no end told here).
 */
function tiffExtent(b: Uint8Array): number | undefined {
  if (b.length < 8 || b[2] === 0x2b || b[3] === 0x2b) return undefined;
  const little = b[0] === 0x49;
  const u16 = little ? u16le : u16be;
  const u32 = little ? u32le : u32be;
  let end = 8;
  const pending = [u32(b, 4)];
  const seen = new Set<number>();
  while (pending.length > 0) {
    const at = pending.pop()!;
    if (at === 0 || seen.has(at)) continue;
    if (seen.size >= TIFF_MAX_DIRECTORIES || at + 2 > b.length) return undefined;
    seen.add(at);
    const count = u16(b, at);
    const after = at + 2 + count * 12;
    if (after + 4 > b.length) return undefined;
    end = Math.max(end, after + 4);
    pending.push(u32(b, after));
    const values = new Map<number, number[]>();
    for (let e = at + 2; e < after; e += 12) {
      const tag = u16(b, e);
      const type = u16(b, e + 2);
      const n = u32(b, e + 4);
      const size = (TIFF_TYPE_BYTES[type] ?? 1) * n;
      const valueAt = size > 4 ? u32(b, e + 8) : e + 8;
      if (valueAt + size > b.length) return undefined;
      end = Math.max(end, valueAt + size);
      if (TIFF_WATCHED.has(tag)) {
        const read = type === 3 ? (k: number) => u16(b, valueAt + k * 2) : (k: number) => u32(b, valueAt + k * 4);
        values.set(
          tag,
          Array.from({ length: n }, (_, k) => read(k)),
        );
      }
    }
    for (const [offsetsTag, lengthsTag] of TIFF_DATA) {
      const offsets = values.get(offsetsTag) ?? [];
      const lengths = values.get(lengthsTag) ?? [];
      for (let k = 0; k < offsets.length; k++) end = Math.max(end, offsets[k]! + (lengths[k] ?? 0));
    }
    for (const tag of TIFF_DIRECTORIES) pending.push(...(values.get(tag) ?? []));
  }
  return end;
}
