#!/usr/bin/env bash
# Runs the GPU benchmark from a bundle made by bench/gpu/bundle.sh, on a host
# with an NVIDIA driver and CUDA 13 user-space libraries (pip's nvidia-*
# wheels, as PyTorch installs them) but no Node.js and no network.
#
#   bench/gpu/device-bench.sh PARTS_DIR RESULTS_DIR [PROVIDER...]
#
# 1. unpacks the bundle into $WORK_DIR (default /tmp/sense-gpu) and wires it
#    into this checkout (node_modules, the native addon, bench/.cache);
# 2. prints the GPU and checks each PROVIDER (default: cuda webgpu) with
#    bench/gpu/session-check.ts: loads?, same output as the CPU?, ms per run;
# 3. runs `bench pipeline` with the first provider that loaded (the demo
#    pipeline, the detector and the colour classifier on the GPU, against the
#    same work as separate requests: child stages' 1.5 x target, which a
#    2-core CPU host cannot show) unless PIPELINE_BENCH=0;
# 4. runs `bench oip` with it (predict against the inference protocol's ways
#    in, tensors in against the GPU's model limit) unless OIP_BENCH=0, with
#    OIP_ARGS as its options;
# 5. runs `bench batching` on the YOLOv8n-sized model with it: the model
#    limit at batch 1, 8 and 32 rewritten (uint8 in, candidates out) and as it
#    is, the per-stage times, 16/64/256 clients; then FP16 against it.
# Every report is copied to RESULTS_DIR as soon as it is written, so a run cut
# short by its time limit keeps the ones before.
# BENCH_ARGS overrides the batching benchmark's options (several runs:
# separate their option sets with ';'; empty: none); BENCH_SKIP=1 stops after 2.
set -uo pipefail
cd "$(dirname "$0")/../.."
parts=${1:?usage: device-bench.sh PARTS_DIR RESULTS_DIR [PROVIDER...]}
results=${2:?usage: device-bench.sh PARTS_DIR RESULTS_DIR [PROVIDER...]}
shift 2
providers=("$@")
[ ${#providers[@]} -gt 0 ] || providers=(cuda webgpu)
work=${WORK_DIR:-/tmp/sense-gpu}
started=$(date +%s)
say() { echo "[device-bench +$(($(date +%s) - started))s] $*"; }
mkdir -p "$results"

if [ ! -x "$work/bundle/node" ]; then
  say "unpacking $(cat "$parts"/part-* | wc -c) bytes"
  mkdir -p "$work"
  cat "$parts"/part-* | xz -dc -T0 | tar -x -C "$work" || { say "the bundle did not unpack"; exit 1; }
fi
b=$work/bundle
export PATH="$b:$PATH"
rm -rf node_modules && ln -s "$b/node_modules" node_modules
mkdir -p native/build/Release
cp "$b/sense_native.node" native/build/Release/
rm -rf bench/.cache && cp -r "$b/cache" bench/.cache
# The npm onnxruntime-node, kept aside so a provider build can replace it
# (a bundle made with --cuda-only has none: the CUDA build serves every provider).
[ -e "$b/ort-default" ] || { mkdir -p "$b/ort-default" && { [ ! -d "$b/node_modules/onnxruntime-node" ] || mv "$b/node_modules/onnxruntime-node" "$b/ort-default/"; }; }
use_ort() { # default | cuda
  rm -rf "$b/node_modules/onnxruntime-node"
  if [ -d "$b/ort-cuda/onnxruntime-node" ] && { [ "$1" = cuda ] || [ ! -d "$b/ort-default/onnxruntime-node" ]; }; then
    ln -s "$b/ort-cuda/onnxruntime-node" "$b/node_modules/onnxruntime-node"
  else
    ln -s "$b/ort-default/onnxruntime-node" "$b/node_modules/onnxruntime-node"
  fi
}

# CUDA user-space libraries from pip's nvidia-* wheels, then the driver's.
nvidia_dirs=$(python3 -c 'import nvidia; print(" ".join(nvidia.__path__))' 2>/dev/null || true)
libdirs=$(find $nvidia_dirs -name 'lib*.so*' -printf '%h\n' 2>/dev/null | sort -u | paste -sd: -)
export LD_LIBRARY_PATH="$b/lib:${libdirs}:/usr/local/nvidia/lib64:/usr/local/nvidia/lib:${LD_LIBRARY_PATH:-}"
# The WebGPU provider (Dawn) needs a Vulkan loader and the NVIDIA ICD.
if [ -d "$b/debs" ] && ! ldconfig -p | grep -q libvulkan.so.1; then
  for f in "$b"/debs/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES=$icd
say "node $(node --version); $(nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1)"
say "CUDA libraries from: ${libdirs:-none found}"
# The production JPEG path, or the figures are not production's.
if node -e "process.exit(require('./native/build/Release/sense_native.node').hasJpegDecoder ? 0 : 1)"; then
  say "JPEG decoder: libturbojpeg ($b/lib)"
else
  say "JPEG decoder: sharp only (libturbojpeg.so.0 did not load): the decode figures would not be production's"; exit 1
fi

chosen=
for p in "${providers[@]}"; do
  use_ort "$([ "$p" = cuda ] && echo cuda || echo default)"
  say "session check: $p (onnxruntime-node $(node -p "require('./node_modules/onnxruntime-node/package.json').version"))"
  line=$(timeout 120 node --import tsx bench/gpu/session-check.ts bench/.cache/yolov8n "$p" 2>&1 | tail -5)
  echo "$line" | tee -a "$results/session-check.txt"
  if [ -z "$chosen" ] && echo "$line" | grep -q "^$p: loaded"; then chosen=$p; fi
done
[ -n "$chosen" ] || { say "no GPU provider loaded"; exit 1; }
[ "${BENCH_SKIP:-0}" = 1 ] && exit 0

use_ort "$([ "$chosen" = cuda ] && echo cuda || echo default)"
# A benchmark whose report is bench/results/$1, the rest its arguments.
bench() {
  local report=$1
  shift
  say "bench $* --ep $chosen"
  node --import tsx bench/cli.ts "$@" --ep "$chosen" --out "$report" 2>&1 | tee -a "$results/bench.log"
  cp "bench/results/$report" "$results/" 2>/dev/null
}
[ "${PIPELINE_BENCH:-1}" = 1 ] && bench "pipeline-gpu-$chosen.md" pipeline --duration 8 --warmup 2
# shellcheck disable=SC2086
[ "${OIP_BENCH:-1}" = 1 ] && bench "oip-gpu-$chosen.md" oip ${OIP_ARGS:---clients 16,64 --duration 4 --warmup 1 --reps 2}
# One batching benchmark per ';'-separated set of options, each with its own report.
common="--model yolov8n --duration 4 --warmup 2 --workers $(nproc)"
IFS=';' read -ra runs <<<"${BENCH_ARGS-$common --concurrency 16,64,256 --reps 2 --model-batches 1,8,32 --compare-rewrite;$common --concurrency 16,64 --reps 1 --model-batches 1,8 --precision fp16}"
for i in "${!runs[@]}"; do
  # shellcheck disable=SC2086
  bench "batching-gpu-$chosen-$((i + 1)).md" batching ${runs[$i]}
done
say "done"
