#include "reduce.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sense {
namespace {

constexpr int kBits = 14;  // fixed-point weights: 1.0 == 1 << kBits
constexpr int kOne = 1 << kBits;

// Taps of one axis: output d reads n consecutive source pixels from
// first[d] with weights w[d * n .. d * n + n). Taps past an edge are folded
// onto the edge pixel, so every window lies inside the source.
struct Taps {
  int n = 1;
  std::vector<int> first;
  std::vector<int32_t> w;

  Taps(int srcLen, int dstLen, double scale) : first(dstLen) {
    const double support = std::max(1.0, scale);  // triangle half-width, source pixels
    const int span = static_cast<int>(std::ceil(2 * support)) + 1;
    n = std::min(span, srcLen);
    w.assign(static_cast<size_t>(dstLen) * n, 0);
    std::vector<double> raw(span);
    for (int d = 0; d < dstLen; d++) {
      const double centre = (d + 0.5) * scale - 0.5;
      const int lo = static_cast<int>(std::floor(centre - support)) + 1;
      double sum = 0;
      for (int k = 0; k < span; k++) {
        raw[k] = std::max(0.0, 1.0 - std::fabs(lo + k - centre) / support);
        sum += raw[k];
      }
      const int f = std::clamp(lo, 0, srcLen - n);
      first[d] = f;
      int32_t* wd = &w[static_cast<size_t>(d) * n];
      if (sum <= 0) {  // cannot happen with support >= 1; never divide by zero
        wd[std::clamp(static_cast<int>(std::lround(centre)), 0, srcLen - 1) - f] = kOne;
        continue;
      }
      std::vector<double> fold(n, 0.0);
      for (int k = 0; k < span; k++) fold[std::clamp(lo + k, 0, srcLen - 1) - f] += raw[k] / sum;
      // Quantise, then give the rounding error to the heaviest tap so that
      // the weights sum to exactly one (flat areas stay exactly flat).
      int total = 0, heaviest = 0;
      for (int k = 0; k < n; k++) {
        wd[k] = static_cast<int32_t>(std::lround(fold[k] * kOne));
        total += wd[k];
        if (wd[k] > wd[heaviest]) heaviest = k;
      }
      wd[heaviest] += kOne - total;
    }
  }
};

// The weights are positive and sum to one: a weighted sum never leaves 0-255.
inline uint8_t Round(int32_t v) { return static_cast<uint8_t>((v + (kOne >> 1)) >> kBits); }

// The horizontal pass. With SSE2 (every x86-64) one pmaddwd weighs the
// three channels of a tap at once; loading 4 bytes a tap reads one byte
// past the pixel, so rows must be followed by at least one readable byte.
template <int N>
void HorizontalRgb(const uint8_t* src, int srcW, int rows, const Taps& tx, uint8_t* dst, int dstW) {
  const int n = N > 0 ? N : tx.n;  // N > 0: the tap count known at compile time (unrolled)
  for (int y = 0; y < rows; y++) {
    const uint8_t* in = src + static_cast<size_t>(y) * srcW * 3;
    uint8_t* out = dst + static_cast<size_t>(y) * dstW * 3;
    for (int x = 0; x < dstW; x++) {
      const uint8_t* p = in + static_cast<size_t>(tx.first[x]) * 3;
      const int32_t* w = &tx.w[static_cast<size_t>(x) * n];
#if defined(__SSE2__)
      const __m128i zero = _mm_setzero_si128();
      __m128i acc = _mm_set1_epi32(kOne >> 1);
      for (int k = 0; k < n; k++) {
        int32_t bytes;
        std::memcpy(&bytes, p + k * 3, 4);
        // [r g b _] as 32-bit lanes (16-bit values, zero high halves) times [w 0 w 0 ...]
        const __m128i px = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(bytes), zero), zero);
        acc = _mm_add_epi32(acc, _mm_madd_epi16(px, _mm_set1_epi32(w[k])));
      }
      acc = _mm_srai_epi32(acc, kBits);
      const uint32_t rgb = static_cast<uint32_t>(_mm_cvtsi128_si32(_mm_packus_epi16(_mm_packs_epi32(acc, zero), zero)));
      out[x * 3] = static_cast<uint8_t>(rgb);
      out[x * 3 + 1] = static_cast<uint8_t>(rgb >> 8);
      out[x * 3 + 2] = static_cast<uint8_t>(rgb >> 16);
#else
      int32_t sum[3] = {0, 0, 0};
      for (int k = 0; k < n; k++)
        for (int c = 0; c < 3; c++) sum[c] += p[k * 3 + c] * w[k];
      for (int c = 0; c < 3; c++) out[x * 3 + c] = Round(sum[c]);
#endif
    }
  }
}

void HorizontalRgb(const uint8_t* src, int srcW, int rows, const Taps& tx, uint8_t* dst, int dstW) {
  switch (tx.n) {  // the DCT leaves reductions under 2: 3 to 6 taps
    case 3: HorizontalRgb<3>(src, srcW, rows, tx, dst, dstW); break;
    case 4: HorizontalRgb<4>(src, srcW, rows, tx, dst, dstW); break;
    case 5: HorizontalRgb<5>(src, srcW, rows, tx, dst, dstW); break;
    case 6: HorizontalRgb<6>(src, srcW, rows, tx, dst, dstW); break;
    default: HorizontalRgb<0>(src, srcW, rows, tx, dst, dstW); break;
  }
}

// One output row of the vertical pass: out[i] = sum over taps of w[k] * rows[k][i].
void VerticalRow(const uint8_t* const* rows, const int32_t* w, int n, size_t len, uint8_t* out) {
  size_t i = 0;
#if defined(__SSE2__)
  // 16 bytes at a time, taps in pairs: 16-bit [a0 b0 a1 b1 ...] times [wa wb wa wb ...]
  // (pmaddwd) sums two taps into 32-bit lanes, kept in registers throughout.
  const __m128i zero = _mm_setzero_si128();
  const __m128i half = _mm_set1_epi32(kOne >> 1);
  for (; i + 16 <= len; i += 16) {
    __m128i acc0 = half, acc1 = half, acc2 = half, acc3 = half;
    for (int k = 0; k < n; k += 2) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows[k] + i));
      const bool pair = k + 1 < n;
      const __m128i b = pair ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows[k + 1] + i)) : zero;
      const __m128i wk = _mm_set1_epi32(((pair ? w[k + 1] : 0) << 16) | (w[k] & 0xFFFF));
      const __m128i a16lo = _mm_unpacklo_epi8(a, zero), a16hi = _mm_unpackhi_epi8(a, zero);
      const __m128i b16lo = _mm_unpacklo_epi8(b, zero), b16hi = _mm_unpackhi_epi8(b, zero);
      acc0 = _mm_add_epi32(acc0, _mm_madd_epi16(_mm_unpacklo_epi16(a16lo, b16lo), wk));
      acc1 = _mm_add_epi32(acc1, _mm_madd_epi16(_mm_unpackhi_epi16(a16lo, b16lo), wk));
      acc2 = _mm_add_epi32(acc2, _mm_madd_epi16(_mm_unpacklo_epi16(a16hi, b16hi), wk));
      acc3 = _mm_add_epi32(acc3, _mm_madd_epi16(_mm_unpackhi_epi16(a16hi, b16hi), wk));
    }
    acc0 = _mm_srai_epi32(acc0, kBits);
    acc1 = _mm_srai_epi32(acc1, kBits);
    acc2 = _mm_srai_epi32(acc2, kBits);
    acc3 = _mm_srai_epi32(acc3, kBits);
    const __m128i packed = _mm_packus_epi16(_mm_packs_epi32(acc0, acc1), _mm_packs_epi32(acc2, acc3));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), packed);
  }
#endif
  for (; i < len; i++) {
    int32_t sum = 0;
    for (int k = 0; k < n; k++) sum += rows[k][i] * w[k];
    out[i] = Round(sum);
  }
}

}  // namespace

void ReduceRgb(const uint8_t* src, int srcW, int srcH, size_t srcStride, double scaleX, double scaleY, uint8_t* dst,
               int dstW, int dstH) {
  const Taps tx(srcW, dstW, scaleX);
  const Taps ty(srcH, dstH, scaleY);
  const size_t stride = static_cast<size_t>(srcW) * 3;
  // Vertical first, over whole rows (contiguous, so it vectorises), into
  // dstH rows of full width; then horizontal on those few rows.
  std::vector<uint8_t> columns(stride * dstH + 16);  // + slack: HorizontalRgb reads a byte past
  std::vector<const uint8_t*> rows(ty.n);
  for (int y = 0; y < dstH; y++) {
    for (int k = 0; k < ty.n; k++) rows[k] = src + static_cast<size_t>(ty.first[y] + k) * srcStride;
    VerticalRow(rows.data(), &ty.w[static_cast<size_t>(y) * ty.n], ty.n, stride, columns.data() + static_cast<size_t>(y) * stride);
  }
  HorizontalRgb(columns.data(), srcW, dstH, tx, dst, dstW);
}

}  // namespace sense
