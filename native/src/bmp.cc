#include "bmp.h"

#include <cstring>

namespace sense {
namespace {

constexpr uint32_t kBiRgb = 0;
constexpr uint32_t kBiBitfields = 3;
constexpr uint32_t kBiAlphaBitfields = 6;

uint16_t U16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint32_t U32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}
int32_t I32(const uint8_t* p) { return static_cast<int32_t>(U32(p)); }

// Expands a channel selected by `mask` to 8 bits (e.g. the 5-bit fields of 16-bit BMPs).
struct MaskChannel {
  uint32_t mask = 0;
  int shift = 0;
  uint32_t max = 0;
  explicit MaskChannel(uint32_t m) : mask(m) {
    if (m == 0) return;
    while (((m >> shift) & 1u) == 0) shift++;
    max = m >> shift;
  }
  uint8_t operator()(uint32_t px) const {
    if (mask == 0) return 0;
    uint32_t v = (px & mask) >> shift;
    return static_cast<uint8_t>((v * 255u + max / 2) / max);
  }
};

bool MaskIsContiguous(uint32_t m) {
  if (m == 0) return true;
  while ((m & 1u) == 0) m >>= 1;
  return (m & (m + 1)) == 0;
}

}  // namespace

std::string ReadBmpInfo(const uint8_t* data, size_t size, BmpInfo* info) {
  if (size < 26 || data[0] != 'B' || data[1] != 'M') return "truncated header";
  info->dataOffset = U32(data + 10);
  const uint32_t dibSize = U32(data + 14);
  const bool core = dibSize == 12;
  if (!core && dibSize != 40 && dibSize != 52 && dibSize != 56 && dibSize != 64 && dibSize != 108 &&
      dibSize != 124) {
    return "unsupported BMP header size " + std::to_string(dibSize);
  }
  if (size < 14ull + dibSize) return "truncated header";

  uint16_t planes;
  uint32_t colorsUsed = 0;
  int64_t height;
  if (core) {
    info->width = U16(data + 18);
    height = U16(data + 20);
    planes = U16(data + 22);
    info->bitsPerPixel = U16(data + 24);
    info->compression = kBiRgb;
  } else {
    info->width = I32(data + 18);
    height = I32(data + 22);
    planes = U16(data + 26);
    info->bitsPerPixel = U16(data + 28);
    info->compression = U32(data + 30);
    colorsUsed = U32(data + 46);
  }
  if (planes != 1) return "invalid BMP: planes must be 1";
  if (info->width <= 0 || height == 0 || height == INT32_MIN) return "invalid BMP dimensions";
  info->topDown = height < 0;
  info->height = static_cast<int32_t>(height < 0 ? -height : height);

  const uint16_t bpp = info->bitsPerPixel;
  const uint32_t comp = info->compression;
  if (comp == kBiRgb) {
    if (bpp != 1 && bpp != 4 && bpp != 8 && bpp != 16 && bpp != 24 && bpp != 32) {
      return "unsupported BMP bit depth " + std::to_string(bpp);
    }
  } else if (comp == kBiBitfields || comp == kBiAlphaBitfields) {
    if (bpp != 16 && bpp != 32) return "invalid BMP: bitfields need 16 or 32 bits per pixel";
  } else {
    return "unsupported BMP compression " + std::to_string(comp) + " (only uncompressed and bitfields are supported)";
  }

  // Channel masks: defaults for BI_RGB, else from the header or right after it.
  if (bpp == 16 && comp == kBiRgb) {
    info->masks[0] = 0x7C00; info->masks[1] = 0x03E0; info->masks[2] = 0x001F; info->masks[3] = 0;
  } else if (comp == kBiBitfields || comp == kBiAlphaBitfields) {
    const size_t maskCount = comp == kBiAlphaBitfields ? 4 : 3;
    const size_t at = 14 + 40;  // both for INFO + trailing masks and for V2..V5 headers
    if (size < at + 4 * maskCount) return "truncated header";
    for (size_t i = 0; i < maskCount; i++) info->masks[i] = U32(data + at + 4 * i);
    for (int i = 0; i < 3; i++) {
      if (info->masks[i] == 0 || !MaskIsContiguous(info->masks[i])) return "invalid BMP channel masks";
    }
  }

  if (bpp <= 8) {
    const uint32_t maxColors = 1u << bpp;
    uint32_t count = colorsUsed == 0 ? maxColors : colorsUsed;
    if (count > maxColors) return "invalid BMP palette size";
    const size_t entry = core ? 3 : 4;
    size_t at = 14 + dibSize;
    if (!core && dibSize == 40 && (comp == kBiBitfields || comp == kBiAlphaBitfields)) at += 12;
    if (at + entry * count > size) return "truncated palette";
    info->palette.resize(static_cast<size_t>(maxColors) * 3, 0);
    for (uint32_t i = 0; i < count; i++) {
      const uint8_t* e = data + at + entry * i;
      info->palette[i * 3 + 0] = e[2];
      info->palette[i * 3 + 1] = e[1];
      info->palette[i * 3 + 2] = e[0];
    }
  }

  const uint64_t stride = ((static_cast<uint64_t>(bpp) * info->width + 31) / 32) * 4;
  const uint64_t needed = static_cast<uint64_t>(info->dataOffset) + stride * info->height;
  if (info->dataOffset < 14ull + dibSize || needed > size) return "truncated pixel data";
  return "";
}

std::string DecodeBmp(const uint8_t* data, size_t size, const BmpInfo& info, uint8_t* out) {
  (void)size;  // bounds were checked by ReadBmpInfo
  const int w = info.width;
  const int h = info.height;
  const uint16_t bpp = info.bitsPerPixel;
  const size_t stride = ((static_cast<size_t>(bpp) * w + 31) / 32) * 4;
  const MaskChannel r(info.masks[0]), g(info.masks[1]), b(info.masks[2]);
  const bool bitfields = info.compression != kBiRgb || bpp == 16;

  for (int y = 0; y < h; y++) {
    const int srcRow = info.topDown ? y : (h - 1 - y);
    const uint8_t* row = data + info.dataOffset + stride * static_cast<size_t>(srcRow);
    uint8_t* dst = out + static_cast<size_t>(y) * w * 3;
    if (bpp == 24) {
      for (int x = 0; x < w; x++, row += 3, dst += 3) {
        dst[0] = row[2]; dst[1] = row[1]; dst[2] = row[0];
      }
    } else if (bpp == 32 && !bitfields) {
      for (int x = 0; x < w; x++, row += 4, dst += 3) {
        dst[0] = row[2]; dst[1] = row[1]; dst[2] = row[0];
      }
    } else if (bpp == 32 || bpp == 16) {
      const int bytes = bpp / 8;
      for (int x = 0; x < w; x++, row += bytes, dst += 3) {
        const uint32_t px = bytes == 4 ? U32(row) : U16(row);
        dst[0] = r(px); dst[1] = g(px); dst[2] = b(px);
      }
    } else {  // 1, 4, 8-bit palette
      const int perByte = 8 / bpp;
      const uint8_t mask = static_cast<uint8_t>((1u << bpp) - 1);
      for (int x = 0; x < w; x++, dst += 3) {
        const uint8_t byte = row[x / perByte];
        const int shift = 8 - bpp * (x % perByte + 1);
        const uint8_t idx = static_cast<uint8_t>((byte >> shift) & mask);
        std::memcpy(dst, &info.palette[static_cast<size_t>(idx) * 3], 3);
      }
    }
  }
  return "";
}

}  // namespace sense
