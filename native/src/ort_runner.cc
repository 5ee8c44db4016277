#include "ort_runner.h"

#include <dlfcn.h>

#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "onnxruntime_c_api.h"

namespace sense {
namespace {

// The runtime, once per process: every thread's copy of the addon shares it.
struct Runtime {
  std::mutex mutex;
  void* library = nullptr;
  const OrtApi* api = nullptr;
  OrtEnv* env = nullptr;
  std::string version;
  std::string error;
};

Runtime& TheRuntime() {
  static Runtime runtime;
  return runtime;
}

// An OrtStatus as a message (and the status released); empty when ok.
std::string Message(const OrtApi* api, OrtStatus* status) {
  if (status == nullptr) return "";
  std::string text = api->GetErrorMessage(status);
  api->ReleaseStatus(status);
  return text.empty() ? "ONNX Runtime error" : text;
}

bool Open(const std::string& path, std::string* error) {
  Runtime& rt = TheRuntime();
  std::lock_guard<std::mutex> lock(rt.mutex);
  if (rt.api != nullptr) return true;
  // The same file onnxruntime-node loaded is the same library: dlopen
  // answers its handle, and ORT's process-wide environment is shared.
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (library == nullptr) {
    *error = std::string("cannot open ") + path + ": " + dlerror();
    return false;
  }
  using GetApiBase = const OrtApiBase* (*)();
  auto getApiBase = reinterpret_cast<GetApiBase>(dlsym(library, "OrtGetApiBase"));
  if (getApiBase == nullptr) {
    *error = path + " has no OrtGetApiBase";
    return false;
  }
  const OrtApiBase* base = getApiBase();
  const OrtApi* api = base->GetApi(ORT_API_VERSION);
  if (api == nullptr) {
    *error = std::string("ONNX Runtime ") + base->GetVersionString() + " is older than the C API version " +
             std::to_string(ORT_API_VERSION) + " the runner was built for";
    return false;
  }
  OrtEnv* env = nullptr;
  std::string failed = Message(api, api->CreateEnv(ORT_LOGGING_LEVEL_WARNING, "sense", &env));
  if (!failed.empty()) {
    *error = "cannot create the ONNX Runtime environment: " + failed;
    return false;
  }
  rt.library = library;
  rt.api = api;
  rt.env = env;
  rt.version = base->GetVersionString();
  return true;
}

const char* TypeName(ONNXTensorElementDataType type) {
  switch (type) {
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT: return "float32";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8: return "uint8";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8: return "int8";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT16: return "uint16";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT16: return "int16";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32: return "int32";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64: return "int64";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL: return "bool";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16: return "float16";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE: return "float64";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT32: return "uint32";
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT64: return "uint64";
    default: return "unsupported";
  }
}

size_t ElementSize(ONNXTensorElementDataType type) {
  switch (type) {
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8:
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8:
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL: return 1;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT16:
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT16:
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16: return 2;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT:
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32:
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT32: return 4;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64:
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE:
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT64: return 8;
    default: return 0;
  }
}

ONNXTensorElementDataType TypeOf(const std::string& name) {
  static const std::pair<const char*, ONNXTensorElementDataType> kTypes[] = {
      {"float32", ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT},   {"uint8", ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8},
      {"int8", ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8},       {"int32", ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32},
      {"int64", ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64},     {"bool", ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL},
      {"float16", ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16}, {"float64", ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE},
  };
  for (const auto& t : kTypes)
    if (name == t.first) return t.second;
  return ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
}

struct ValueInfo {
  std::string name;
  ONNXTensorElementDataType type = ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
  std::vector<int64_t> shape;
  std::vector<std::string> symbols;
};

// A page-locked (CUDA) or plain host buffer the runner copies an input into.
struct HostBuffer {
  void* data = nullptr;
  size_t bytes = 0;
};

class OrtSessionWrap : public Napi::ObjectWrap<OrtSessionWrap> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "OrtSession",
                       {InstanceMethod("run", &OrtSessionWrap::Run), InstanceMethod("release", &OrtSessionWrap::Release),
                        InstanceAccessor("inputs", &OrtSessionWrap::Inputs, nullptr),
                        InstanceAccessor("outputs", &OrtSessionWrap::Outputs, nullptr),
                        InstanceAccessor("provider", &OrtSessionWrap::Provider, nullptr)});
  }

  explicit OrtSessionWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<OrtSessionWrap>(info) {
    Napi::Env env = info.Env();
    Runtime& rt = TheRuntime();
    api_ = rt.api;
    if (api_ == nullptr) {
      Napi::Error::New(env, "ortOpen() first").ThrowAsJavaScriptException();
      return;
    }
    if (info.Length() < 2 || !info[1].IsObject() || !(info[0].IsString() || info[0].IsTypedArray())) {
      Napi::TypeError::New(env, "new OrtSession(source: string | Uint8Array, options)").ThrowAsJavaScriptException();
      return;
    }
    Napi::Object o = info[1].As<Napi::Object>();
    provider_ = o.Has("provider") ? o.Get("provider").ToString().Utf8Value() : "cpu";
    deviceId_ = o.Has("deviceId") ? o.Get("deviceId").ToNumber().Int32Value() : 0;
    pinned_ = o.Has("pinned") && o.Get("pinned").ToBoolean().Value();
    const int threads = o.Has("intraOpThreads") ? o.Get("intraOpThreads").ToNumber().Int32Value() : 1;

    OrtSessionOptions* options = nullptr;
    if (Fail(env, api_->CreateSessionOptions(&options))) return;
    std::string error = Configure(options, threads, o);
    if (error.empty()) {
      OrtStatus* status;
      if (info[0].IsString()) {
        status = api_->CreateSession(rt.env, info[0].As<Napi::String>().Utf8Value().c_str(), options, &session_);
      } else {
        Napi::TypedArray bytes = info[0].As<Napi::TypedArray>();
        const uint8_t* data = static_cast<const uint8_t*>(bytes.ArrayBuffer().Data()) + bytes.ByteOffset();
        status = api_->CreateSessionFromArray(rt.env, data, bytes.ByteLength(), options, &session_);
      }
      error = Message(api_, status);
    }
    api_->ReleaseSessionOptions(options);
    if (error.empty()) error = ReadMetadata();
    if (error.empty()) error = Message(api_, api_->CreateIoBinding(session_, &binding_));
    if (error.empty()) error = MemoryInfos();
    if (!error.empty()) {
      Napi::Error::New(env, error).ThrowAsJavaScriptException();
      Close();
    }
  }

  ~OrtSessionWrap() override { Close(); }

 private:
  // Threads, graph optimisation, and the execution provider with its options.
  std::string Configure(OrtSessionOptions* options, int threads, const Napi::Object& o) {
    std::string error = Message(api_, api_->SetIntraOpNumThreads(options, threads < 1 ? 1 : threads));
    if (error.empty()) error = Message(api_, api_->SetInterOpNumThreads(options, 1));
    if (error.empty()) error = Message(api_, api_->SetSessionExecutionMode(options, ORT_SEQUENTIAL));
    if (error.empty()) error = Message(api_, api_->SetSessionGraphOptimizationLevel(options, ORT_ENABLE_ALL));
    if (!error.empty() || provider_ == "cpu") return error;
    if (provider_ != "cuda") return "the native runner drives the cpu and cuda providers, not " + provider_;
    // CUDA: options by ONNX Runtime's own names (device_id, cudnn_conv_algo_search,
    // enable_cuda_graph, use_tf32, gpu_mem_limit, arena_extend_strategy, ...).
    std::vector<std::string> keys{"device_id"}, values{std::to_string(deviceId_)};
    if (o.Has("cuda") && o.Get("cuda").IsObject()) {
      Napi::Object cuda = o.Get("cuda").As<Napi::Object>();
      Napi::Array names = cuda.GetPropertyNames();
      for (uint32_t i = 0; i < names.Length(); i++) {
        const std::string key = names.Get(i).ToString().Utf8Value();
        keys.push_back(key);
        values.push_back(cuda.Get(key).ToString().Utf8Value());
      }
    }
    std::vector<const char*> k, v;
    for (size_t i = 0; i < keys.size(); i++) {
      k.push_back(keys[i].c_str());
      v.push_back(values[i].c_str());
    }
    OrtCUDAProviderOptionsV2* cuda = nullptr;
    error = Message(api_, api_->CreateCUDAProviderOptions(&cuda));
    if (error.empty()) error = Message(api_, api_->UpdateCUDAProviderOptions(cuda, k.data(), v.data(), k.size()));
    if (error.empty()) error = Message(api_, api_->SessionOptionsAppendExecutionProvider_CUDA_V2(options, cuda));
    if (cuda != nullptr) api_->ReleaseCUDAProviderOptions(cuda);
    return error.empty() ? "" : "cuda: " + error;
  }

  std::string ReadInfo(bool input, size_t index, ValueInfo* out) {
    OrtAllocator* allocator = nullptr;
    std::string error = Message(api_, api_->GetAllocatorWithDefaultOptions(&allocator));
    char* name = nullptr;
    if (error.empty()) error = Message(api_, input ? api_->SessionGetInputName(session_, index, allocator, &name)
                                                   : api_->SessionGetOutputName(session_, index, allocator, &name));
    if (!error.empty()) return error;
    out->name = name;
    Message(api_, api_->AllocatorFree(allocator, name));
    OrtTypeInfo* typeInfo = nullptr;
    error = Message(api_, input ? api_->SessionGetInputTypeInfo(session_, index, &typeInfo)
                                : api_->SessionGetOutputTypeInfo(session_, index, &typeInfo));
    if (!error.empty()) return error;
    const OrtTensorTypeAndShapeInfo* tensor = nullptr;
    error = Message(api_, api_->CastTypeInfoToTensorInfo(typeInfo, &tensor));
    if (error.empty() && tensor == nullptr) error = "\"" + out->name + "\" is not a tensor";
    size_t rank = 0;
    if (error.empty()) error = Message(api_, api_->GetTensorElementType(tensor, &out->type));
    if (error.empty()) error = Message(api_, api_->GetDimensionsCount(tensor, &rank));
    if (error.empty()) {
      out->shape.resize(rank);
      std::vector<const char*> symbols(rank, nullptr);
      error = Message(api_, api_->GetDimensions(tensor, out->shape.data(), rank));
      if (error.empty()) error = Message(api_, api_->GetSymbolicDimensions(tensor, symbols.data(), rank));
      for (const char* s : symbols) out->symbols.push_back(s != nullptr ? s : "");
    }
    api_->ReleaseTypeInfo(typeInfo);
    return error;
  }

  std::string ReadMetadata() {
    size_t inputs = 0, outputs = 0;
    std::string error = Message(api_, api_->SessionGetInputCount(session_, &inputs));
    if (error.empty()) error = Message(api_, api_->SessionGetOutputCount(session_, &outputs));
    inputs_.resize(inputs);
    outputs_.resize(outputs);
    for (size_t i = 0; error.empty() && i < inputs; i++) error = ReadInfo(true, i, &inputs_[i]);
    for (size_t i = 0; error.empty() && i < outputs; i++) error = ReadInfo(false, i, &outputs_[i]);
    return error;
  }

  // Where inputs are read from and outputs written to: page-locked memory
  // for a CUDA session asked to pin (the copies to and from the device run
  // at full speed, without a staging copy), plain host memory otherwise.
  std::string MemoryInfos() {
    std::string error = Message(api_, api_->CreateCpuMemoryInfo(OrtDeviceAllocator, OrtMemTypeDefault, &cpu_));
    if (!error.empty() || !(pinned_ && provider_ == "cuda")) return error;
    error = Message(api_, api_->CreateMemoryInfo("CudaPinned", OrtDeviceAllocator, deviceId_, OrtMemTypeCPUOutput, &host_));
    if (error.empty()) error = Message(api_, api_->CreateAllocator(session_, host_, &hostAllocator_));
    return error.empty() ? "" : "pinned memory: " + error;
  }

  bool Fail(Napi::Env env, OrtStatus* status) {
    std::string error = Message(api_, status);
    if (error.empty()) return false;
    Napi::Error::New(env, error).ThrowAsJavaScriptException();
    return true;
  }

  Napi::Value Describe(Napi::Env env, const std::vector<ValueInfo>& list) {
    Napi::Array out = Napi::Array::New(env, list.size());
    for (size_t i = 0; i < list.size(); i++) {
      Napi::Object o = Napi::Object::New(env);
      o.Set("name", list[i].name);
      o.Set("type", TypeName(list[i].type));
      Napi::Array shape = Napi::Array::New(env, list[i].shape.size());
      for (size_t d = 0; d < list[i].shape.size(); d++) {
        const int64_t dim = list[i].shape[d];
        if (dim >= 0) shape.Set(d, Napi::Number::New(env, static_cast<double>(dim)));
        else if (!list[i].symbols[d].empty()) shape.Set(d, list[i].symbols[d]);
        else shape.Set(d, Napi::Number::New(env, -1));
      }
      o.Set("shape", shape);
      out.Set(i, o);
    }
    return out;
  }

  Napi::Value Inputs(const Napi::CallbackInfo& info) { return Describe(info.Env(), inputs_); }
  Napi::Value Outputs(const Napi::CallbackInfo& info) { return Describe(info.Env(), outputs_); }
  Napi::Value Provider(const Napi::CallbackInfo& info) { return Napi::String::New(info.Env(), provider_); }

  // The buffer an input is copied into before binding (pinned sessions only), grown as needed.
  HostBuffer* Staging(size_t index, size_t bytes, std::string* error) {
    if (staging_.size() <= index) staging_.resize(index + 1);
    HostBuffer& buffer = staging_[index];
    if (buffer.bytes < bytes) {
      if (buffer.data != nullptr) Message(api_, api_->AllocatorFree(hostAllocator_, buffer.data));
      buffer = HostBuffer{};
      *error = Message(api_, api_->AllocatorAlloc(hostAllocator_, bytes, &buffer.data));
      if (!error->empty()) return nullptr;
      buffer.bytes = bytes;
    }
    return &buffer;
  }

  // run(feeds): every input bound (pinned: copied into page-locked memory
  // first; else the JavaScript memory itself, valid for this synchronous
  // call), every output bound to host memory, run, outputs copied out.
  Napi::Value Run(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (session_ == nullptr) {
      Napi::Error::New(env, "the session was released").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    if (info.Length() < 1 || !info[0].IsArray()) {
      Napi::TypeError::New(env, "run(feeds: [{ name, type, dims, data }])").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    Napi::Array feeds = info[0].As<Napi::Array>();
    api_->ClearBoundInputs(binding_);
    api_->ClearBoundOutputs(binding_);
    std::vector<OrtValue*> values;
    std::string error;
    for (uint32_t i = 0; error.empty() && i < feeds.Length(); i++) {
      Napi::Value entry = feeds.Get(i);
      if (!entry.IsObject() || !entry.As<Napi::Object>().Get("dims").IsArray() || !entry.As<Napi::Object>().Get("data").IsTypedArray()) {
        error = "feed " + std::to_string(i) + " is not { name, type, dims: number[], data: TypedArray }";
        break;
      }
      Napi::Object feed = entry.As<Napi::Object>();
      const std::string name = feed.Get("name").ToString().Utf8Value();
      const ONNXTensorElementDataType type = TypeOf(feed.Get("type").ToString().Utf8Value());
      Napi::Array dimsArray = feed.Get("dims").As<Napi::Array>();
      Napi::TypedArray data = feed.Get("data").As<Napi::TypedArray>();
      std::vector<int64_t> dims;
      size_t elements = 1;
      for (uint32_t d = 0; d < dimsArray.Length(); d++) {
        dims.push_back(dimsArray.Get(d).ToNumber().Int64Value());
        elements *= static_cast<size_t>(dims.back());
      }
      const size_t bytes = elements * ElementSize(type);
      if (type == ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED || bytes != data.ByteLength()) {
        error = "input \"" + name + "\": its data does not match its type and dims";
        break;
      }
      void* source = static_cast<uint8_t*>(data.ArrayBuffer().Data()) + data.ByteOffset();
      const OrtMemoryInfo* where = cpu_;
      if (hostAllocator_ != nullptr) {
        HostBuffer* staging = Staging(i, bytes, &error);
        if (staging == nullptr) break;
        std::memcpy(staging->data, source, bytes);
        source = staging->data;
        where = host_;
      }
      OrtValue* value = nullptr;
      error = Message(api_, api_->CreateTensorWithDataAsOrtValue(where, source, bytes, dims.data(), dims.size(), type, &value));
      if (error.empty()) {
        values.push_back(value);
        error = Message(api_, api_->BindInput(binding_, name.c_str(), value));
      }
    }
    for (size_t i = 0; error.empty() && i < outputs_.size(); i++) {
      error = Message(api_, api_->BindOutputToDevice(binding_, outputs_[i].name.c_str(), host_ != nullptr ? host_ : cpu_));
    }
    if (error.empty()) error = Message(api_, api_->RunWithBinding(session_, nullptr, binding_));
    Napi::Array result = Napi::Array::New(env);
    if (error.empty()) error = CopyOutputs(env, result);
    for (OrtValue* v : values) api_->ReleaseValue(v);
    if (!error.empty()) {
      Napi::Error::New(env, error).ThrowAsJavaScriptException();
      return env.Undefined();
    }
    return result;
  }

  std::string CopyOutputs(Napi::Env env, Napi::Array result) {
    OrtAllocator* allocator = nullptr;
    std::string error = Message(api_, api_->GetAllocatorWithDefaultOptions(&allocator));
    OrtValue** outputs = nullptr;
    size_t count = 0;
    if (error.empty()) error = Message(api_, api_->GetBoundOutputValues(binding_, allocator, &outputs, &count));
    if (!error.empty()) return error;
    for (size_t i = 0; i < count; i++) {
      OrtValue* value = outputs[i];
      if (error.empty()) {
        OrtTensorTypeAndShapeInfo* shape = nullptr;
        ONNXTensorElementDataType type = ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
        size_t rank = 0, elements = 0;
        void* data = nullptr;
        error = Message(api_, api_->GetTensorTypeAndShape(value, &shape));
        if (error.empty()) error = Message(api_, api_->GetTensorElementType(shape, &type));
        if (error.empty()) error = Message(api_, api_->GetDimensionsCount(shape, &rank));
        std::vector<int64_t> dims(rank);
        if (error.empty()) error = Message(api_, api_->GetDimensions(shape, dims.data(), rank));
        if (error.empty()) error = Message(api_, api_->GetTensorShapeElementCount(shape, &elements));
        if (shape != nullptr) api_->ReleaseTensorTypeAndShapeInfo(shape);
        if (error.empty() && ElementSize(type) == 0) error = "output \"" + outputs_[i].name + "\" has an unsupported type";
        if (error.empty() && elements > 0) error = Message(api_, api_->GetTensorMutableData(value, &data));
        if (error.empty()) {
          const size_t bytes = elements * ElementSize(type);
          Napi::ArrayBuffer buffer = Napi::ArrayBuffer::New(env, bytes);
          if (bytes > 0) std::memcpy(buffer.Data(), data, bytes);
          Napi::Array jsDims = Napi::Array::New(env, rank);
          for (size_t d = 0; d < rank; d++) jsDims.Set(d, Napi::Number::New(env, static_cast<double>(dims[d])));
          Napi::Object o = Napi::Object::New(env);
          o.Set("name", outputs_[i].name);
          o.Set("type", TypeName(type));
          o.Set("dims", jsDims);
          o.Set("data", buffer);
          result.Set(static_cast<uint32_t>(i), o);
        }
      }
      api_->ReleaseValue(value);
    }
    allocator->Free(allocator, outputs);
    return error;
  }

  Napi::Value Release(const Napi::CallbackInfo& info) {
    Close();
    return info.Env().Undefined();
  }

  void Close() {
    if (api_ == nullptr) return;
    for (HostBuffer& b : staging_)
      if (b.data != nullptr) Message(api_, api_->AllocatorFree(hostAllocator_, b.data));
    staging_.clear();
    if (hostAllocator_ != nullptr) api_->ReleaseAllocator(hostAllocator_);
    if (binding_ != nullptr) api_->ReleaseIoBinding(binding_);
    if (session_ != nullptr) api_->ReleaseSession(session_);
    if (host_ != nullptr) api_->ReleaseMemoryInfo(host_);
    if (cpu_ != nullptr) api_->ReleaseMemoryInfo(cpu_);
    hostAllocator_ = nullptr;
    binding_ = nullptr;
    session_ = nullptr;
    host_ = nullptr;
    cpu_ = nullptr;
  }

  const OrtApi* api_ = nullptr;
  OrtSession* session_ = nullptr;
  OrtIoBinding* binding_ = nullptr;
  OrtMemoryInfo* cpu_ = nullptr;
  OrtMemoryInfo* host_ = nullptr;
  OrtAllocator* hostAllocator_ = nullptr;
  std::vector<HostBuffer> staging_;
  std::vector<ValueInfo> inputs_, outputs_;
  std::string provider_;
  int deviceId_ = 0;
  bool pinned_ = false;
};

}  // namespace

Napi::Value OrtOpen(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString()) {
    Napi::TypeError::New(env, "ortOpen(libraryPath: string)").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  std::string error;
  if (!Open(info[0].As<Napi::String>().Utf8Value(), &error)) {
    Napi::Error::New(env, error).ThrowAsJavaScriptException();
    return env.Undefined();
  }
  Napi::Object result = Napi::Object::New(env);
  result.Set("version", TheRuntime().version);
  result.Set("apiVersion", ORT_API_VERSION);
  return result;
}

void InitOrtSession(Napi::Env env, Napi::Object exports) {
  exports.Set("ortOpen", Napi::Function::New(env, OrtOpen, "ortOpen"));
  exports.Set("OrtSession", OrtSessionWrap::Define(env));
}

}  // namespace sense
