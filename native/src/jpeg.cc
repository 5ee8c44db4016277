#include "jpeg.h"

#include "reduce.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#ifdef SENSE_HAVE_TURBOJPEG
#include <dlfcn.h>
#include <turbojpeg.h>
#endif

namespace sense {
namespace {

bool IsStartOfFrame(uint8_t code) {
  // SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC).
  return code >= 0xC0 && code <= 0xCF && code != 0xC4 && code != 0xC8 && code != 0xCC;
}

}  // namespace

int ExifOrientation(const uint8_t* t, size_t n) {
  if (n < 8) return 1;
  bool le;
  if (t[0] == 'I' && t[1] == 'I') {
    le = true;
  } else if (t[0] == 'M' && t[1] == 'M') {
    le = false;
  } else {
    return 1;
  }
  auto u16 = [&](size_t o) -> uint32_t { return le ? t[o] | (t[o + 1] << 8) : (t[o] << 8) | t[o + 1]; };
  auto u32 = [&](size_t o) -> uint32_t {
    return le ? static_cast<uint32_t>(t[o]) | (static_cast<uint32_t>(t[o + 1]) << 8) |
                    (static_cast<uint32_t>(t[o + 2]) << 16) | (static_cast<uint32_t>(t[o + 3]) << 24)
              : (static_cast<uint32_t>(t[o]) << 24) | (static_cast<uint32_t>(t[o + 1]) << 16) |
                    (static_cast<uint32_t>(t[o + 2]) << 8) | static_cast<uint32_t>(t[o + 3]);
  };
  if (u16(2) != 42) return 1;
  size_t ifd = u32(4);
  // libexif (and so libvips) finds the tag in IFD0, or else in IFD1.
  for (int k = 0; k < 2 && ifd != 0; k++) {
    if (ifd < 8 || ifd + 2 > n) return 1;
    const size_t count = u16(ifd);
    const size_t entries = ifd + 2;
    if (entries + count * 12 > n) return 1;
    for (size_t i = 0; i < count; i++) {
      const size_t e = entries + i * 12;
      if (u16(e) != 0x0112) continue;
      const uint32_t type = u16(e + 2);
      const uint32_t values = u32(e + 4);
      const uint32_t v = values < 1 ? 0 : type == 3 ? u16(e + 8) : type == 4 ? u32(e + 8) : 0;
      return v >= 1 && v <= 8 ? static_cast<int>(v) : 1;
    }
    const size_t next = entries + count * 12;
    if (next + 4 > n) return 1;
    ifd = u32(next);
  }
  return 1;
}

JpegMarkers ScanJpegMarkers(const uint8_t* d, size_t n) {
  JpegMarkers m;
  if (n < 4 || d[0] != 0xFF || d[1] != 0xD8) return m;
  size_t p = 2;
  while (p + 1 < n) {
    if (d[p] != 0xFF) break;  // not at a marker: leave the rest to libjpeg
    const uint8_t code = d[p + 1];
    if (code == 0xFF) {  // fill byte
      p++;
      continue;
    }
    p += 2;
    if (code == 0xD8 || code == 0x01 || (code >= 0xD0 && code <= 0xD7)) continue;  // no length field
    if (code == 0xDA || code == 0xD9) break;  // first scan / end of image
    if (p + 2 > n) break;
    const size_t len = (static_cast<size_t>(d[p]) << 8) | d[p + 1];
    if (len < 2 || p + len > n) break;
    const uint8_t* seg = d + p + 2;
    const size_t segLen = len - 2;
    if (code == 0xE1 && segLen >= 6 && std::memcmp(seg, "Exif\0\0", 6) == 0) {
      // libvips keeps the last Exif segment it meets.
      m.orientation = ExifOrientation(seg + 6, segLen - 6);
    } else if (code == 0xE2 && segLen >= 12 && std::memcmp(seg, "ICC_PROFILE\0", 12) == 0) {
      m.icc = true;
    } else if (IsStartOfFrame(code) && segLen >= 1 && m.precision == 0) {
      m.precision = seg[0];
    }
    p += len;
  }
  return m;
}

#ifdef SENSE_HAVE_TURBOJPEG

namespace {

// libturbojpeg is opened at run time, not linked: an addon built where the
// library was installed still loads (BMP, preprocessing) on a machine that
// lacks it, and JPEG then simply stays with sharp.
struct TurboJpeg {
  /** why JPEG stays with sharp, when it does */
  const char* missing = nullptr;
  decltype(&tjInitDecompress) initDecompress = nullptr;
  decltype(&tjDecompressHeader3) decompressHeader3 = nullptr;
  decltype(&tjDecompress2) decompress2 = nullptr;
  decltype(&tjGetErrorStr2) getErrorStr2 = nullptr;
  decltype(&tjDestroy) destroy = nullptr;
  bool ok = false;
};

template <typename F>
void Bind(void* library, const char* name, F* fn) {
  *fn = reinterpret_cast<F>(dlsym(library, name));
}

const TurboJpeg& Tj() {
  static const TurboJpeg tj = [] {
    TurboJpeg t;
    void* library = nullptr;
    for (const char* name : {"libturbojpeg.so.0", "libturbojpeg.so"}) {
      if ((library = dlopen(name, RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
    }
    if (library == nullptr) {
      t.missing = "libturbojpeg.so.0 is not installed on this machine (Debian: apt-get install libturbojpeg0)";
      return t;
    }
    Bind(library, "tjInitDecompress", &t.initDecompress);
    Bind(library, "tjDecompressHeader3", &t.decompressHeader3);
    Bind(library, "tjDecompress2", &t.decompress2);
    Bind(library, "tjGetErrorStr2", &t.getErrorStr2);
    Bind(library, "tjDestroy", &t.destroy);
    t.ok = t.initDecompress && t.decompressHeader3 && t.decompress2 && t.getErrorStr2 && t.destroy;
    if (!t.ok) t.missing = "the libturbojpeg.so.0 found lacks the TurboJPEG 2 API";
    return t;  // the library stays open for the life of the process
  }();
  return tj;
}

// One decompressor per thread (each worker thread loads the addon), made on
// first use and replaced after a failure rather than trusted again.
struct Decompressor {
  tjhandle handle = nullptr;
  ~Decompressor() { Reset(); }
  tjhandle Get() {
    if (handle == nullptr && Tj().ok) handle = Tj().initDecompress();
    return handle;
  }
  void Reset() {
    if (handle != nullptr) Tj().destroy(handle);
    handle = nullptr;
  }
};
thread_local Decompressor decompressor;

std::string TjError(tjhandle handle) {
  const char* text = handle != nullptr ? Tj().getErrorStr2(handle) : "cannot initialise libturbojpeg";
  std::string message = text != nullptr ? text : "decoding failed";
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  return message;
}

// Copies RGB `src` (w x h as stored) into `dst` with the EXIF orientation
// applied: dst(x, y) = src[base + x * stepX + y * stepY] (in pixels).
void Orient(const uint8_t* src, int w, int h, int orientation, uint8_t* dst) {
  const ptrdiff_t W = w, H = h;
  ptrdiff_t base = 0, stepX = 1, stepY = W;
  switch (orientation) {
    case 2: base = W - 1; stepX = -1; stepY = W; break;                  // mirror horizontally
    case 3: base = (H - 1) * W + W - 1; stepX = -1; stepY = -W; break;   // rotate 180
    case 4: base = (H - 1) * W; stepX = 1; stepY = -W; break;            // mirror vertically
    case 5: base = 0; stepX = W; stepY = 1; break;                       // transpose
    case 6: base = (H - 1) * W; stepX = -W; stepY = 1; break;            // rotate 90 clockwise
    case 7: base = (H - 1) * W + W - 1; stepX = -W; stepY = -1; break;   // transverse
    case 8: base = W - 1; stepX = W; stepY = -1; break;                  // rotate 270 clockwise
    default: break;
  }
  const int outW = orientation >= 5 ? h : w;
  const int outH = orientation >= 5 ? w : h;
  for (int y = 0; y < outH; y++) {
    ptrdiff_t s = base + y * stepY;
    uint8_t* row = dst + static_cast<size_t>(y) * outW * 3;
    for (int x = 0; x < outW; x++, s += stepX) {
      const uint8_t* p = src + s * 3;
      row[x * 3] = p[0];
      row[x * 3 + 1] = p[1];
      row[x * 3 + 2] = p[2];
    }
  }
}

// Averages boxX x boxY blocks of RGB `src` (w x h, rows `stride` bytes
// apart) into `dst` (bw x bh = ceil(w / boxX) x ceil(h / boxY)), the last
// partial blocks filled with their edge pixels, rounded as libvips' shrink.
void BoxShrinkRgb(const uint8_t* src, int w, int h, size_t stride, int boxX, int boxY, uint8_t* dst, int bw, int bh) {
  const int64_t n = static_cast<int64_t>(boxX) * boxY;
  for (int y = 0; y < bh; y++) {
    for (int x = 0; x < bw; x++) {
      int64_t sum[3] = {0, 0, 0};
      for (int j = 0; j < boxY; j++) {
        const uint8_t* row = src + static_cast<size_t>(std::min(y * boxY + j, h - 1)) * stride;
        for (int i = 0; i < boxX; i++) {
          const uint8_t* p = row + static_cast<size_t>(std::min(x * boxX + i, w - 1)) * 3;
          sum[0] += p[0];
          sum[1] += p[1];
          sum[2] += p[2];
        }
      }
      uint8_t* q = dst + (static_cast<size_t>(y) * bw + x) * 3;
      for (int k = 0; k < 3; k++) q[k] = static_cast<uint8_t>((sum[k] + n / 2) / n);
    }
  }
}

}  // namespace

bool JpegAvailable() { return Tj().ok; }

bool JpegBuiltIn() { return true; }

const char* JpegUnavailableReason() { return Tj().ok ? "" : Tj().missing; }

JpegStatus ReadJpegHeader(const uint8_t* data, size_t size, double maxPixels, const JpegTarget& target,
                          JpegImage* image, std::string* error) {
  const JpegMarkers markers = ScanJpegMarkers(data, size);
  tjhandle handle = decompressor.Get();
  if (handle == nullptr) return JpegStatus::kDeclined;
  int w = 0, h = 0, subsamp = 0, colorspace = 0;
  if (Tj().decompressHeader3(handle, data, static_cast<unsigned long>(size), &w, &h, &subsamp, &colorspace) != 0) {
    *error = TjError(handle);
    decompressor.Reset();
    return JpegStatus::kFailed;
  }
  // sharp converts these to sRGB through colour profiles; leave them to it.
  if (markers.icc || colorspace == TJCS_CMYK || colorspace == TJCS_YCCK ||
      (markers.precision != 0 && markers.precision != 8)) {
    return JpegStatus::kDeclined;
  }
  if (w <= 0 || h <= 0) {
    *error = "invalid JPEG dimensions";
    return JpegStatus::kFailed;
  }
  if (static_cast<double>(w) * h > maxPixels) {
    *error = "image is " + std::to_string(w) + "x" + std::to_string(h) + " pixels, over the limit of " +
             std::to_string(static_cast<long long>(maxPixels));
    return JpegStatus::kFailed;
  }
  const int o = markers.orientation;
  const bool swap = o >= 5;
  image->orientation = o;
  image->storedWidth = w;
  image->storedHeight = h;
  image->width = swap ? h : w;
  image->height = swap ? w : h;
  image->channels = 3;  // greyscale too: sharp's raw output of a greyscale JPEG is RGB

  // The rectangle the image will occupy in the model input, as
  // src/inference/pipeline/letterbox.ts places it (display orientation).
  int rectW = target.boxWidth, rectH = target.boxHeight;
  if (target.boxWidth == 0 && target.boxHeight == 0) {
    // The whole image at its own size (a version with child stages crops
    // its detections from these pixels): no DCT scaling, no reduce.
    rectW = image->width;
    rectH = image->height;
  } else if (target.letterbox) {
    const double ratio = std::min(static_cast<double>(target.boxWidth) / image->width,
                                  static_cast<double>(target.boxHeight) / image->height);
    rectW = std::min(target.boxWidth, std::max(1, static_cast<int>(std::floor(image->width * ratio + 0.5))));
    rectH = std::min(target.boxHeight, std::max(1, static_cast<int>(std::floor(image->height * ratio + 0.5))));
  }
  // Enlarging is left to sharp (small images: cheap there, and its
  // interpolation is what the models have seen).
  if (rectW > image->width || rectH > image->height) return JpegStatus::kDeclined;
  image->pixelsWidth = rectW;
  image->pixelsHeight = rectH;
  const int needW = swap ? rectH : rectW;  // as stored
  const int needH = swap ? rectW : rectH;
  // The DCT scale sharp picks (its shrink-on-load, pipeline.cc), so that
  // both paths reduce the same pixels: 1/8, 1/4 or 1/2, the largest not over
  // the smaller of the two axes' shrinks, halved when that shrink's integer
  // part is the scale itself. An exact 2x, 4x or 8x is thus never left to
  // the DCT alone: a scaled IDCT keeps more of the high frequencies than a
  // full decode reduced by the triangle filter, tens of levels apart at some
  // pixels of a textured photograph.
  const double shrink = std::min(static_cast<double>(w) / needW, static_cast<double>(h) / needH);
  int denom = shrink >= 8 ? 8 : shrink >= 4 ? 4 : shrink >= 2 ? 2 : 1;
  if (denom > 1 && static_cast<int>(shrink) == denom) denom /= 2;
  image->scaleDenom = denom;
  image->decodeWidth = (w + denom - 1) / denom;
  image->decodeHeight = (h + denom - 1) / denom;
  // libvips keeps whole scaled pixels only: the partial last column or row
  // of a DCT-scaled image is dropped (1281x721 at 1/2 is 640x360, not 641x361).
  image->keptWidth = w / denom;
  image->keptHeight = h / denom;
  return JpegStatus::kOk;
}

bool DecodeJpegPixels(const uint8_t* data, size_t size, const JpegImage& image, uint8_t* out, std::string* error) {
  tjhandle handle = decompressor.Get();
  if (handle == nullptr) {
    *error = TjError(handle);
    return false;
  }
  constexpr size_t c = 3;  // RGB
  const bool swap = image.orientation >= 5;
  const int needW = swap ? image.pixelsHeight : image.pixelsWidth;  // as stored
  const int needH = swap ? image.pixelsWidth : image.pixelsHeight;
  const bool resize = image.keptWidth != needW || image.keptHeight != needH;
  // The kept pixels alone, without a partial last column or row.
  const bool crop = !resize && (image.decodeWidth != needW || image.decodeHeight != needH);
  const bool orient = image.orientation != 1;

  std::vector<uint8_t> decoded, reduced;
  uint8_t* decodeTo = out;
  if (resize || orient || crop) {
    decoded.resize(static_cast<size_t>(image.decodeWidth) * image.decodeHeight * c);
    decodeTo = decoded.data();
  }
  // Any libjpeg warning (truncated data, corrupt segments...) stops the
  // decode: sharp then decides what such a file gives, as it always has.
  int flags = TJFLAG_STOPONWARNING;
#ifdef TJFLAG_LIMITSCANS
  flags |= TJFLAG_LIMITSCANS;  // progressive files with pathological scan counts
#endif
  // Asked for exactly the 1/scaleDenom size, tjDecompress2 picks that scale.
  if (Tj().decompress2(handle, data, static_cast<unsigned long>(size), decodeTo, image.decodeWidth, 0,
                    image.decodeHeight, TJPF_RGB, flags) != 0) {
    *error = TjError(handle);
    decompressor.Reset();
    return false;
  }
  const size_t stride = static_cast<size_t>(image.decodeWidth) * c;
  const uint8_t* stored = decodeTo;  // needW x needH, packed, from here on
  if (resize || crop) {
    uint8_t* to = out;
    if (orient) {
      reduced.resize(static_cast<size_t>(needW) * needH * c);
      to = reduced.data();
    }
    if (resize) {
      // From the kept pixels (rows of the decoded width), as libvips reduces:
      // with its reducing gap of 2, a reduction of 4x or more on an axis
      // begins with a box average by its integer part, edge pixels repeated.
      const double scaleX = static_cast<double>(image.keptWidth) / needW;
      const double scaleY = static_cast<double>(image.keptHeight) / needH;
      const int boxX = std::max(1, static_cast<int>(scaleX / 2));
      const int boxY = std::max(1, static_cast<int>(scaleY / 2));
      if (boxX > 1 || boxY > 1) {
        const int bw = (image.keptWidth + boxX - 1) / boxX;
        const int bh = (image.keptHeight + boxY - 1) / boxY;
        std::vector<uint8_t> boxed(static_cast<size_t>(bw) * bh * c);
        BoxShrinkRgb(decodeTo, image.keptWidth, image.keptHeight, stride, boxX, boxY, boxed.data(), bw, bh);
        ReduceRgb(boxed.data(), bw, bh, static_cast<size_t>(bw) * c, scaleX / boxX, scaleY / boxY, to, needW, needH);
      } else {
        ReduceRgb(decodeTo, image.keptWidth, image.keptHeight, stride, scaleX, scaleY, to, needW, needH);
      }
    } else {
      for (int y = 0; y < needH; y++) {
        std::memcpy(to + static_cast<size_t>(y) * needW * c, decodeTo + y * stride, static_cast<size_t>(needW) * c);
      }
    }
    stored = to;
  }
  if (orient) Orient(stored, needW, needH, image.orientation, out);
  return true;
}

#else  // no libturbojpeg: every JPEG goes to sharp

bool JpegAvailable() { return false; }

bool JpegBuiltIn() { return false; }

const char* JpegUnavailableReason() {
  return "the native addon was built without turbojpeg.h (Debian: apt-get install libturbojpeg0-dev, then npm run build:native)";
}

JpegStatus ReadJpegHeader(const uint8_t*, size_t, double, const JpegTarget&, JpegImage*, std::string*) {
  return JpegStatus::kDeclined;
}

bool DecodeJpegPixels(const uint8_t*, size_t, const JpegImage&, uint8_t*, std::string* error) {
  *error = "built without libturbojpeg";
  return false;
}

#endif

}  // namespace sense
