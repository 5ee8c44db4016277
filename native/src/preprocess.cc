#include "preprocess.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

namespace sense {

uint16_t FloatToHalf(float value) {
  uint32_t f;
  std::memcpy(&f, &value, 4);
  const uint32_t sign = (f >> 16) & 0x8000u;
  int32_t exponent = static_cast<int32_t>((f >> 23) & 0xFF) - 127 + 15;
  uint32_t mantissa = f & 0x7FFFFFu;
  if (((f >> 23) & 0xFF) == 0xFF) {  // inf / nan
    return static_cast<uint16_t>(sign | 0x7C00u | (mantissa ? 0x200u : 0u));
  }
  if (exponent >= 31) return static_cast<uint16_t>(sign | 0x7C00u);  // overflow -> inf
  if (exponent <= 0) {  // subnormal or zero
    if (exponent < -10) return static_cast<uint16_t>(sign);
    mantissa |= 0x800000u;
    const int shift = 14 - exponent;
    uint32_t half = mantissa >> shift;
    const uint32_t rest = mantissa & ((1u << shift) - 1);
    const uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1u))) half++;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(exponent) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) half++;  // round to nearest even
  return static_cast<uint16_t>(sign | half);
}

namespace {

template <typename T>
inline T Convert(float v);
template <>
inline float Convert<float>(float v) { return v; }
template <>
inline uint16_t Convert<uint16_t>(float v) { return FloatToHalf(v); }

// A tensor element from a pixel value: normalised into float or half, or
// for a uint8 tensor the pixel itself (rounded where it was interpolated),
// left for the model's own first nodes to normalise.
template <typename Out>
inline Out Element(float v, float mul, float add) {
  if constexpr (std::is_same_v<Out, uint8_t>) {
    (void)mul;
    (void)add;
    return static_cast<uint8_t>(v <= 0.f ? 0.f : v >= 255.f ? 255.f : v + 0.5f);
  } else {
    return Convert<Out>(v * mul + add);
  }
}

// The same for a pixel taken as it is (no interpolation): a uint8 tensor
// copies it.
template <typename Out>
inline Out Element(uint8_t v, float mul, float add) {
  if constexpr (std::is_same_v<Out, uint8_t>) {
    (void)mul;
    (void)add;
    return v;
  } else {
    return Convert<Out>(static_cast<float>(v) * mul + add);
  }
}

// Source sampling positions along one axis for a bilinear resize (pixel
// centres aligned, as OpenCV's INTER_LINEAR and libvips do).
struct Axis {
  std::vector<int> i0, i1;
  std::vector<float> w1;
  Axis(int srcLen, int dstLen) : i0(dstLen), i1(dstLen), w1(dstLen) {
    const double scale = static_cast<double>(srcLen) / dstLen;
    for (int d = 0; d < dstLen; d++) {
      double s = (d + 0.5) * scale - 0.5;
      if (s < 0) s = 0;
      int a = static_cast<int>(s);
      if (a > srcLen - 1) a = srcLen - 1;
      const int b = std::min(a + 1, srcLen - 1);
      i0[d] = a;
      i1[d] = b;
      w1[d] = static_cast<float>(s - a);
    }
  }
};

template <typename Out, bool kNhwc>
void Run(const uint8_t* src, const PreprocessSpec& s, Out* dst) {
  const int W = s.dstWidth, H = s.dstHeight;
  const size_t plane = static_cast<size_t>(W) * H;
  // Tensor channel k takes RGB channel order[k].
  const int order[3] = {s.bgr ? 2 : 0, 1, s.bgr ? 0 : 2};
  float mul[3], add[3];
  Out padOut[3];
  for (int k = 0; k < 3; k++) {
    mul[k] = s.mul[order[k]];
    add[k] = s.add[order[k]];
    padOut[k] = Element<Out>(s.pad[order[k]], mul[k], add[k]);
  }
  // Which source byte holds each RGB channel (grey images repeat one byte).
  const int sc = s.srcChannels;
  int srcOffset[3];
  for (int k = 0; k < 3; k++) srcOffset[k] = sc >= 3 ? order[k] : 0;

  auto store = [&](int x, int y, int k, Out v) {
    if (kNhwc) {
      dst[(static_cast<size_t>(y) * W + x) * 3 + k] = v;
    } else {
      dst[plane * k + static_cast<size_t>(y) * W + x] = v;
    }
  };
  auto fillPad = [&](int y, int x0, int x1) {
    if (x1 <= x0) return;
    if (kNhwc) {
      Out* out = dst + (static_cast<size_t>(y) * W + x0) * 3;
      for (int x = 0; x < x1 - x0; x++)
        for (int k = 0; k < 3; k++) out[x * 3 + k] = padOut[k];
    } else {
      for (int k = 0; k < 3; k++) {
        Out* out = dst + plane * k + static_cast<size_t>(y) * W;
        std::fill(out + x0, out + x1, padOut[k]);
      }
    }
  };

  const bool cropped = s.cropWidth > 0;
  const int cw = cropped ? s.cropWidth : s.srcWidth, ch = cropped ? s.cropHeight : s.srcHeight;
  const bool identity = s.rectWidth == cw && s.rectHeight == ch;
  const Axis ax(cw, s.rectWidth);
  const Axis ay(ch, s.rectHeight);
  const size_t srcStride = static_cast<size_t>(s.srcWidth) * sc;
  if (cropped) src += srcStride * s.cropY + static_cast<size_t>(s.cropX) * sc;

  for (int y = 0; y < H; y++) {
    const int ry = y - s.rectY;
    if (ry < 0 || ry >= s.rectHeight) {
      fillPad(y, 0, W);
      continue;
    }
    fillPad(y, 0, s.rectX);
    if (identity) {
      // Row by row, and plane by plane for NCHW: every store sequential.
      const uint8_t* row = src + srcStride * ry;
      if (kNhwc) {
        Out* out = dst + (static_cast<size_t>(y) * W + s.rectX) * 3;
        for (int rx = 0; rx < s.rectWidth; rx++) {
          const uint8_t* p = row + static_cast<size_t>(rx) * sc;
          for (int k = 0; k < 3; k++) out[rx * 3 + k] = Element<Out>(p[srcOffset[k]], mul[k], add[k]);
        }
      } else {
        for (int k = 0; k < 3; k++) {
          Out* out = dst + plane * k + static_cast<size_t>(y) * W + s.rectX;
          const uint8_t* p = row + srcOffset[k];
          for (int rx = 0; rx < s.rectWidth; rx++) out[rx] = Element<Out>(p[static_cast<size_t>(rx) * sc], mul[k], add[k]);
        }
      }
    } else {
      const uint8_t* r0 = src + srcStride * ay.i0[ry];
      const uint8_t* r1 = src + srcStride * ay.i1[ry];
      const float wy = ay.w1[ry];
      for (int rx = 0; rx < s.rectWidth; rx++) {
        const size_t c0 = static_cast<size_t>(ax.i0[rx]) * sc;
        const size_t c1 = static_cast<size_t>(ax.i1[rx]) * sc;
        const float wx = ax.w1[rx];
        for (int k = 0; k < 3; k++) {
          const int o = srcOffset[k];
          const float top = r0[c0 + o] + (r0[c1 + o] - r0[c0 + o]) * wx;
          const float bottom = r1[c0 + o] + (r1[c1 + o] - r1[c0 + o]) * wx;
          const float v = top + (bottom - top) * wy;
          store(s.rectX + rx, y, k, Element<Out>(v, mul[k], add[k]));
        }
      }
    }
    fillPad(y, s.rectX + s.rectWidth, W);
  }
}

}  // namespace

void Preprocess(const uint8_t* src, const PreprocessSpec& spec, void* dst, ElementType type) {
  if (type == ElementType::kUint8) {
    if (spec.nhwc) Run<uint8_t, true>(src, spec, static_cast<uint8_t*>(dst));
    else Run<uint8_t, false>(src, spec, static_cast<uint8_t*>(dst));
  } else if (type == ElementType::kFloat16) {
    if (spec.nhwc) Run<uint16_t, true>(src, spec, static_cast<uint16_t*>(dst));
    else Run<uint16_t, false>(src, spec, static_cast<uint16_t*>(dst));
  } else {
    if (spec.nhwc) Run<float, true>(src, spec, static_cast<float*>(dst));
    else Run<float, false>(src, spec, static_cast<float*>(dst));
  }
}

}  // namespace sense
