// One pass from decoded pixels to a model input tensor: bilinear resize into
// a target rectangle (the letterbox), padding around it, channel order,
// normalisation, layout (NCHW/NHWC) and element type (float32/float16, or
// uint8 pixels for a model that normalises them itself).
#pragma once

#include <cstddef>
#include <cstdint>

namespace sense {

struct PreprocessSpec {
  int srcWidth = 0, srcHeight = 0, srcChannels = 3;  // 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA
  // The part of the source that is resampled (a detection's crop for a
  // child stage); cropWidth 0 means the whole source. Rows keep the whole
  // source's stride, so a crop is read in place, never copied.
  int cropX = 0, cropY = 0, cropWidth = 0, cropHeight = 0;
  int dstWidth = 0, dstHeight = 0;                    // the tensor's spatial size
  int rectX = 0, rectY = 0, rectWidth = 0, rectHeight = 0;  // where the image lands in it
  bool bgr = false;   // channel order of the tensor
  bool nhwc = false;  // layout of the tensor
  // Normalisation per RGB channel: value = pixel * mul[c] + add[c].
  float mul[3] = {1.f / 255.f, 1.f / 255.f, 1.f / 255.f};
  float add[3] = {0.f, 0.f, 0.f};
  uint8_t pad[3] = {114, 114, 114};  // RGB pixel value of the letterbox border
};

enum class ElementType { kFloat32, kFloat16, kUint8 };

// `dst` holds dstWidth*dstHeight*3 elements of `type`: float, IEEE half
// floats stored as uint16_t, or uint8 pixel values (no normalisation: the
// model's graph does it, see src/inference/graph/input-prefix.ts).
void Preprocess(const uint8_t* src, const PreprocessSpec& spec, void* dst, ElementType type);

uint16_t FloatToHalf(float value);

}  // namespace sense
