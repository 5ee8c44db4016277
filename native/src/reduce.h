// Downsizing with a triangle ("linear") filter whose support grows with the
// reduction, as libvips' reduce with kernel linear (sharp's resize in
// decode-image.ts) does: every source pixel contributes, so nothing aliases
// whatever the ratio (libvips box-averages the integer part of a 4x or
// larger reduction first: jpeg.cc does that before calling this). Used after JPEG
// DCT scaling (jpeg.cc) for the part of the reduction the DCT did not do, at
// the exact rectangle size.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sense {

// RGB: src is srcW x srcH, 3 bytes a pixel, rows srcStride bytes apart
// (at least srcW * 3); dst is dstW x dstH, packed rows.
// Output pixel d along x is centred on source coordinate (d + 0.5) * scaleX - 0.5
// (pixel centres), where scaleX is source pixels per output pixel; it need
// not be srcW / dstW (a DCT-scaled image has a partial last column). A
// scale below 1 interpolates linearly. Edge pixels repeat outwards. Fixed
// point (14-bit weights), SSE2 where available.
void ReduceRgb(const uint8_t* src, int srcW, int srcH, size_t srcStride, double scaleX, double scaleY, uint8_t* dst,
               int dstW, int dstH);

}  // namespace sense
