// Node-API surface of the native core. Every function validates its
// arguments and throws a JavaScript error instead of crashing: a malformed
// image must never take the worker down.
#include <napi.h>

#include <string>

#include "bmp.h"
#include "preprocess.h"

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

// preprocess(src: Uint8Array, srcWidth, srcHeight, srcChannels, dst: Float32Array | Uint16Array, spec)
// spec = { dstWidth, dstHeight, rectX, rectY, rectWidth, rectHeight, bgr, nhwc, mul[3], add[3], pad[3] }
// A Uint16Array destination receives IEEE half floats.
Napi::Value Preprocess(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const char* usage = "preprocess(src: Uint8Array, srcWidth, srcHeight, srcChannels, dst: Float32Array|Uint16Array, spec)";
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

  const bool fp16 = dstArray.TypedArrayType() == napi_uint16_array;
  if (ThrowIf(env, srcArray.TypedArrayType() != napi_uint8_array, "src must be a Uint8Array") ||
      ThrowIf(env, !fp16 && dstArray.TypedArrayType() != napi_float32_array,
              "dst must be a Float32Array or a Uint16Array (float16)") ||
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
  const uint8_t* src = static_cast<const uint8_t*>(srcArray.ArrayBuffer().Data()) + srcArray.ByteOffset();
  void* dst = static_cast<uint8_t*>(dstArray.ArrayBuffer().Data()) + dstArray.ByteOffset();
  sense::Preprocess(src, s, dst, fp16);
  return env.Undefined();
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("decodeBmp", Napi::Function::New(env, DecodeBmp, "decodeBmp"));
  exports.Set("preprocess", Napi::Function::New(env, Preprocess, "preprocess"));
  return exports;
}

}  // namespace

NODE_API_MODULE(sense_native, Init)
