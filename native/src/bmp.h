// BMP decoding. libvips (and so sharp) has no BMP loader, so the server
// decodes BMP here: uncompressed 24/32-bit, BI_BITFIELDS 16/32-bit, and
// 1/4/8-bit palettes, bottom-up and top-down rows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sense {

struct BmpInfo {
  int32_t width = 0;
  int32_t height = 0;  // always positive; topDown says the row order
  bool topDown = false;
  uint16_t bitsPerPixel = 0;
  uint32_t compression = 0;
  uint32_t dataOffset = 0;
  uint32_t masks[4] = {0, 0, 0, 0};  // R, G, B, A for BI_BITFIELDS
  std::vector<uint8_t> palette;        // RGB triples
};

// Reads and validates the headers. Returns an empty string on success,
// otherwise a human-readable reason ("truncated header", ...).
std::string ReadBmpInfo(const uint8_t* data, size_t size, BmpInfo* info);

// Decodes into packed RGB (3 bytes a pixel, rows top to bottom).
// `out` must hold width*height*3 bytes. Returns "" or the reason it failed.
std::string DecodeBmp(const uint8_t* data, size_t size, const BmpInfo& info, uint8_t* out);

}  // namespace sense
