// The native runner: one ONNX Runtime session driven through ORT's C API
// (the libonnxruntime.so.1 onnxruntime-node ships, opened at run time), for
// what onnxruntime-node's JavaScript API does not offer: CUDA provider
// options (cuDNN algorithm search, CUDA graphs, TF32, a memory limit),
// page-locked host buffers and I/O binding. Synchronous: an instance thread
// owns the session and blocks on each run, as it does with onnxruntime-node.
#pragma once

#include <napi.h>

namespace sense {

// ortOpen(libraryPath): loads the runtime (once per process) and answers
// { version }; throws with dlopen's or the API version's reason.
Napi::Value OrtOpen(const Napi::CallbackInfo& info);

// class OrtSession: new OrtSession(source: string | Uint8Array, options),
// .inputs / .outputs ([{ name, type, shape }]), .provider,
// .run(feeds: [{ name, type, dims, data }]) -> [{ name, type, dims, data: ArrayBuffer }],
// .release().
void InitOrtSession(Napi::Env env, Napi::Object exports);

}  // namespace sense
