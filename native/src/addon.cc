// Node-API surface of the native core. Every function validates its
// arguments and throws a JavaScript error instead of crashing: a malformed
// image must never take the worker down.
#include <napi.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <string>

#include "bmp.h"
#include "jpeg.h"
#include "ort_runner.h"
#include "preprocess.h"


// The first byte of a typed array's view. Napi::TypedArray::ArrayBuffer()
// fails on a SharedArrayBuffer (the tensor slots pipeline workers write
// into), so ask Node-API for the view's own data pointer instead.
static void* TypedArrayData(Napi::Env env, const Napi::TypedArray& array) {
  napi_typedarray_type type;
  size_t length;
  void* data = nullptr;
  napi_value buffer;
  size_t offset;
  NAPI_THROW_IF_FAILED(env, napi_get_typedarray_info(env, array, &type, &length, &data, &buffer, &offset), nullptr);
  return data;
}

namespace {

bool ThrowIf(Napi::Env env, bool failed, const std::string& message) {
  if (failed) Napi::TypeError::New(env, message).ThrowAsJavaScriptException();
  return failed;
}

// decodeBmp(bytes: Uint8Array, maxPixels: number) -> { width, height, channels: 3, data: Buffer }
Napi::Value DecodeBmp(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (ThrowIf(env, info.Length() < 2 || !info[0].IsTypedArray() || !info[1].IsNumber(),
              "decodeBmp(bytes: Uint8Array, maxPixels: number)")) {
    return env.Undefined();
  }
  Napi::Uint8Array bytes = info[0].As<Napi::Uint8Array>();
  const double maxPixels = info[1].As<Napi::Number>().DoubleValue();

  sense::BmpInfo bmp;
  std::string err = sense::ReadBmpInfo(bytes.Data(), bytes.ByteLength(), &bmp);
  if (err.empty() && static_cast<double>(bmp.width) * bmp.height > maxPixels) {
    err = "image is " + std::to_string(bmp.width) + "x" + std::to_string(bmp.height) +
          " pixels, over the limit of " + std::to_string(static_cast<long long>(maxPixels));
  }
  if (!err.empty()) {
    Napi::Error::New(env, err).ThrowAsJavaScriptException();
    return env.Undefined();
  }
  Napi::Buffer<uint8_t> out = Napi::Buffer<uint8_t>::New(env, static_cast<size_t>(bmp.width) * bmp.height * 3);
  err = sense::DecodeBmp(bytes.Data(), bytes.ByteLength(), bmp, out.Data());
  if (!err.empty()) {
    Napi::Error::New(env, err).ThrowAsJavaScriptException();
    return env.Undefined();
  }
  Napi::Object result = Napi::Object::New(env);
  result.Set("width", bmp.width);
  result.Set("height", bmp.height);
  result.Set("channels", 3);
  result.Set("data", out);
  return result;
}

// decodeJpeg(bytes: Uint8Array, maxPixels: number, boxWidth: number, boxHeight: number, letterbox: boolean,
//            into?: Uint8Array)
//   -> { width, height, pixelsWidth, pixelsHeight, channels: 3, data: Buffer | Uint8Array } | null
// RGB pixels of the image's rectangle in a boxWidth x boxHeight input (0 x 0: the whole image at its own size)
// (pixelsWidth x pixelsHeight): DCT scaling (1, 1/2, 1/4, 1/8) to the
// smallest size covering it, a triangle-filter reduce for the rest, EXIF
// orientation applied; width/height are the full displayed size. null: not
// decoded here (no libturbojpeg, CMYK, ICC profile, 12-bit, an image to
// enlarge): use sharp. Throws on an unreadable file, a libjpeg warning, or
// over maxPixels (checked before any pixel is decoded). With `into` (any
// typed array over an ArrayBuffer or a SharedArrayBuffer) big enough, the
// pixels are written at its start and `data` is `into` itself: a caller that
// keeps decoded images in reused shared memory skips an allocation and a copy.
Napi::Value DecodeJpeg(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (ThrowIf(env, info.Length() < 5 || !info[0].IsTypedArray() || !info[1].IsNumber() || !info[2].IsNumber() ||
                       !info[3].IsNumber() || !info[4].IsBoolean(),
              "decodeJpeg(bytes: Uint8Array, maxPixels: number, boxWidth: number, boxHeight: number, letterbox: boolean)")) {
    return env.Undefined();
  }
  Napi::TypedArray array = info[0].As<Napi::TypedArray>();
  sense::JpegTarget target;
  target.boxWidth = info[2].As<Napi::Number>().Int32Value();
  target.boxHeight = info[3].As<Napi::Number>().Int32Value();
  target.letterbox = info[4].As<Napi::Boolean>().Value();
  if (ThrowIf(env, array.TypedArrayType() != napi_uint8_array, "bytes must be a Uint8Array") ||
      ThrowIf(env, target.boxWidth < 0 || target.boxHeight < 0 || (target.boxWidth == 0) != (target.boxHeight == 0),
              "invalid box dimensions")) {
    return env.Undefined();
  }
  const bool hasInto = info.Length() > 5 && !info[5].IsUndefined();
  if (ThrowIf(env, hasInto && (!info[5].IsTypedArray() || info[5].As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array),
              "into must be a Uint8Array")) {
    return env.Undefined();
  }
  const uint8_t* bytes = static_cast<const uint8_t*>(TypedArrayData(env, array));
  if (env.IsExceptionPending()) return env.Undefined();
  const size_t size = array.ByteLength();
  const double maxPixels = info[1].As<Napi::Number>().DoubleValue();

  sense::JpegImage image;
  std::string err;
  const sense::JpegStatus status = sense::ReadJpegHeader(bytes, size, maxPixels, target, &image, &err);
  if (status == sense::JpegStatus::kDeclined) return env.Null();
  if (status == sense::JpegStatus::kFailed) {
    Napi::Error::New(env, err).ThrowAsJavaScriptException();
    return env.Undefined();
  }
  const size_t pixelBytes = static_cast<size_t>(image.pixelsWidth) * image.pixelsHeight * image.channels;
  Napi::Value data;
  uint8_t* pixels = nullptr;
  if (hasInto && info[5].As<Napi::TypedArray>().ByteLength() >= pixelBytes) {
    data = info[5];
    pixels = static_cast<uint8_t*>(TypedArrayData(env, info[5].As<Napi::TypedArray>()));
    if (env.IsExceptionPending()) return env.Undefined();
  } else {
    Napi::Buffer<uint8_t> out = Napi::Buffer<uint8_t>::New(env, pixelBytes);
    data = out;
    pixels = out.Data();
  }
  if (!sense::DecodeJpegPixels(bytes, size, image, pixels, &err)) {
    Napi::Error::New(env, err).ThrowAsJavaScriptException();
    return env.Undefined();
  }
  Napi::Object result = Napi::Object::New(env);
  result.Set("width", image.width);
  result.Set("height", image.height);
  result.Set("pixelsWidth", image.pixelsWidth);
  result.Set("pixelsHeight", image.pixelsHeight);
  result.Set("channels", image.channels);
  result.Set("data", data);
  return result;
}

int IntField(const Napi::Object& o, const char* key) { return o.Get(key).As<Napi::Number>().Int32Value(); }

bool ReadTriple(const Napi::Object& o, const char* key, float out[3]) {
  Napi::Value v = o.Get(key);
  if (!v.IsArray()) return false;
  Napi::Array a = v.As<Napi::Array>();
  if (a.Length() != 3) return false;
  for (uint32_t i = 0; i < 3; i++) {
    Napi::Value e = a.Get(i);
    if (!e.IsNumber()) return false;
    out[i] = e.As<Napi::Number>().FloatValue();
  }
  return true;
}

// preprocess(src: Uint8Array, srcWidth, srcHeight, srcChannels, dst: Float32Array | Uint16Array | Uint8Array, spec)
// spec = { dstWidth, dstHeight, rectX, rectY, rectWidth, rectHeight, bgr, nhwc, mul[3], add[3], pad[3],
//          crop?: { x, y, width, height } (the part of src resampled; the whole of it when absent) }
// A Uint16Array destination receives IEEE half floats; a Uint8Array one the
// pixel values, not normalised (mul and add are not used).
Napi::Value Preprocess(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const char* usage = "preprocess(src: Uint8Array, srcWidth, srcHeight, srcChannels, dst: Float32Array|Uint16Array|Uint8Array, spec)";
  if (ThrowIf(env, info.Length() < 6 || !info[0].IsTypedArray() || !info[1].IsNumber() || !info[2].IsNumber() ||
                       !info[3].IsNumber() || !info[4].IsTypedArray() || !info[5].IsObject(),
              usage)) {
    return env.Undefined();
  }
  Napi::TypedArray srcArray = info[0].As<Napi::TypedArray>();
  Napi::TypedArray dstArray = info[4].As<Napi::TypedArray>();
  Napi::Object o = info[5].As<Napi::Object>();

  sense::PreprocessSpec s;
  s.srcWidth = info[1].As<Napi::Number>().Int32Value();
  s.srcHeight = info[2].As<Napi::Number>().Int32Value();
  s.srcChannels = info[3].As<Napi::Number>().Int32Value();
  const char* keys[] = {"dstWidth", "dstHeight", "rectX", "rectY", "rectWidth", "rectHeight"};
  for (const char* k : keys) {
    if (ThrowIf(env, !o.Get(k).IsNumber(), std::string("spec.") + k + " must be a number")) return env.Undefined();
  }
  s.dstWidth = IntField(o, "dstWidth");
  s.dstHeight = IntField(o, "dstHeight");
  s.rectX = IntField(o, "rectX");
  s.rectY = IntField(o, "rectY");
  s.rectWidth = IntField(o, "rectWidth");
  s.rectHeight = IntField(o, "rectHeight");
  s.bgr = o.Get("bgr").ToBoolean();
  s.nhwc = o.Get("nhwc").ToBoolean();
  float pad[3];
  if (ThrowIf(env, !ReadTriple(o, "mul", s.mul) || !ReadTriple(o, "add", s.add) || !ReadTriple(o, "pad", pad),
              "spec.mul, spec.add and spec.pad must be arrays of 3 numbers")) {
    return env.Undefined();
  }
  for (int i = 0; i < 3; i++) s.pad[i] = static_cast<uint8_t>(pad[i] < 0 ? 0 : pad[i] > 255 ? 255 : pad[i]);
  Napi::Value crop = o.Get("crop");
  if (!crop.IsUndefined()) {
    const char* cropKeys[] = {"x", "y", "width", "height"};
    for (const char* k : cropKeys) {
      if (ThrowIf(env, !crop.IsObject() || !crop.As<Napi::Object>().Get(k).IsNumber(),
                  std::string("spec.crop.") + k + " must be a number")) {
        return env.Undefined();
      }
    }
    Napi::Object c = crop.As<Napi::Object>();
    s.cropX = IntField(c, "x");
    s.cropY = IntField(c, "y");
    s.cropWidth = IntField(c, "width");
    s.cropHeight = IntField(c, "height");
    if (ThrowIf(env, s.cropWidth <= 0 || s.cropHeight <= 0 || s.cropX < 0 || s.cropY < 0 ||
                         s.cropX + s.cropWidth > s.srcWidth || s.cropY + s.cropHeight > s.srcHeight,
                "spec.crop must lie inside the source")) {
      return env.Undefined();
    }
  }

  const napi_typedarray_type dstType = dstArray.TypedArrayType();
  const sense::ElementType type = dstType == napi_uint16_array  ? sense::ElementType::kFloat16
                                  : dstType == napi_uint8_array ? sense::ElementType::kUint8
                                                                : sense::ElementType::kFloat32;
  if (ThrowIf(env, srcArray.TypedArrayType() != napi_uint8_array, "src must be a Uint8Array") ||
      ThrowIf(env, type == sense::ElementType::kFloat32 && dstType != napi_float32_array,
              "dst must be a Float32Array, a Uint16Array (float16) or a Uint8Array (pixels)") ||
      ThrowIf(env, s.srcWidth <= 0 || s.srcHeight <= 0 || s.srcChannels < 1 || s.srcChannels > 4,
              "invalid source dimensions") ||
      ThrowIf(env, srcArray.ByteLength() < static_cast<size_t>(s.srcWidth) * s.srcHeight * s.srcChannels,
              "src is smaller than srcWidth*srcHeight*srcChannels") ||
      ThrowIf(env, s.dstWidth <= 0 || s.dstHeight <= 0, "invalid destination dimensions") ||
      ThrowIf(env, dstArray.ElementLength() != static_cast<size_t>(s.dstWidth) * s.dstHeight * 3,
              "dst must hold dstWidth*dstHeight*3 elements") ||
      ThrowIf(env, s.rectWidth <= 0 || s.rectHeight <= 0 || s.rectX < 0 || s.rectY < 0 ||
                       s.rectX + s.rectWidth > s.dstWidth || s.rectY + s.rectHeight > s.dstHeight,
              "the image rectangle must lie inside the destination")) {
    return env.Undefined();
  }
  const uint8_t* src = static_cast<const uint8_t*>(TypedArrayData(env, srcArray));
  void* dst = static_cast<uint8_t*>(TypedArrayData(env, dstArray));
  sense::Preprocess(src, s, dst, type);
  return env.Undefined();
}

// trimMemory(): gives the free memory of glibc's heaps back to the system.
// Freed blocks below glibc's mmap threshold stay in its heaps, and the
// threshold rises to the largest block freed so far (up to 32 MiB): after
// one large request body, bodies of a few MiB come from a heap, where a
// small allocation made meanwhile keeps the memory around them from being
// returned (a server idle after a flood stayed at gigabytes). malloc_trim
// releases every free page of every heap (madvise), not only the top; the
// server calls it when it has been idle for a while (http/memory-trim.ts),
// so requests never pay for it. Answers whether memory was released.
Napi::Value TrimMemory(const Napi::CallbackInfo& info) {
#if defined(__GLIBC__)
  return Napi::Boolean::New(info.Env(), malloc_trim(0) != 0);
#else
  return Napi::Boolean::New(info.Env(), false);
#endif
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  // What it was built from (CMakeLists.txt): the loader refuses a build of other sources.
  exports.Set("sourcesDigest", Napi::String::New(env, SENSE_SOURCES_DIGEST));
  exports.Set("trimMemory", Napi::Function::New(env, TrimMemory, "trimMemory"));
  exports.Set("decodeBmp", Napi::Function::New(env, DecodeBmp, "decodeBmp"));
  exports.Set("decodeJpeg", Napi::Function::New(env, DecodeJpeg, "decodeJpeg"));
  // Whether decodeJpeg can decode at all (built with turbojpeg.h, libturbojpeg opened).
  exports.Set("hasJpegDecoder", Napi::Boolean::New(env, sense::JpegAvailable()));
  exports.Set("jpegDecoderMissing", Napi::String::New(env, sense::JpegUnavailableReason()));
  // Whether it was built with turbojpeg.h at all (false: npm run build:native brings it, where the header is).
  exports.Set("jpegDecoderBuilt", Napi::Boolean::New(env, sense::JpegBuiltIn()));
  exports.Set("preprocess", Napi::Function::New(env, Preprocess, "preprocess"));
  // The native runner: ortOpen() and class OrtSession (ort_runner.cc).
  sense::InitOrtSession(env, exports);
  return exports;
}

}  // namespace

NODE_API_MODULE(sense_native, Init)
