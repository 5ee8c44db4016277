#!/usr/bin/env bash
# Packs what the GPU benchmark needs on a host that has an NVIDIA driver and
# CUDA 13 user-space libraries but no Node.js and no network: this machine's
# node binary, the production node_modules trimmed to Linux x64, the built
# native addon with the libturbojpeg it opens at run time (production's JPEG
# path: without it sharp decodes every JPEG at full size), the YOLOv8n-sized
# benchmark model and, optionally, an ONNX Runtime build with the CUDA provider. The result is one xz-compressed tar
# split into parts of at most PART_MIB MiB, for hosts that take files in
# pieces; bench/gpu/device-bench.sh unpacks and runs it.
#
#   bench/gpu/bundle.sh OUT_DIR [--ort-cuda DIR [--cuda-only]] [--debs DIR]
#
# --ort-cuda DIR: a directory holding onnxruntime-node (the npm package of the
# ONNX Runtime version the providers were built for, Linux x64 binaries only),
# its onnxruntime-common, and libonnxruntime_providers_{shared,cuda}.so. It is
# packed as ort-cuda/ and device-bench.sh switches to it for --ep cuda.
# --cuda-only: leaves the npm onnxruntime-node out (45 MB): the CUDA build's
# own CPU provider is then the check's reference. With it and the node binary
# stripped, the bundle is about a third smaller, so fewer parts travel.
# --debs DIR: Debian packages unpacked over / on the host before the run, such
# as libvulkan1 for the WebGPU provider (Dawn over Vulkan) where the host has
# the NVIDIA Vulkan driver but no loader.
#
# Needs: npm ci, npm run build:native, and bench/.cache filled by one run here
# (npm run bench -- batching --model yolov8n --reps 1 --duration 1 exports the
# model and fetches the photograph, which the offline host cannot).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: bench/gpu/bundle.sh OUT_DIR [--ort-cuda DIR] [--debs DIR]}
shift
ort_cuda=
cuda_only=
debs=
while [ $# -gt 0 ]; do
  case $1 in
    --ort-cuda) ort_cuda=$2; shift 2 ;;
    --cuda-only) cuda_only=1; shift ;;
    --debs) debs=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
part_mib=${PART_MIB:-40}
[ -z "$cuda_only" ] || [ -n "$ort_cuda" ] || { echo "--cuda-only needs --ort-cuda" >&2; exit 2; }

for need in native/build/Release/sense_native.node bench/.cache/yolov8n/model.onnx bench/.cache/jpeg-1280x720.jpg; do
  [ -e "$need" ] || { echo "missing $need (see the header of this script)" >&2; exit 1; }
done

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
b=$stage/bundle
mkdir -p "$b/node_modules"
cp "$(command -v node)" "$b/node"
# Debian's node carries its debug information: 13 MB nothing here reads.
strip "$b/node" 2>/dev/null || true
cp native/build/Release/sense_native.node "$b/"
# The addon dlopen()s libturbojpeg.so.0; device-bench.sh puts lib/ on LD_LIBRARY_PATH.
node -e "process.exit(require('./native/build/Release/sense_native.node').hasJpegDecoder ? 0 : 1)" ||
  { echo "the addon here has no JPEG decoder (build it with libturbojpeg0-dev installed: rm -rf native/build && npm run build:native)" >&2; exit 1; }
turbojpeg=$(ldconfig -p | awk '/libturbojpeg\.so\.0 / { print $NF; exit }')
[ -n "$turbojpeg" ] || { echo "libturbojpeg.so.0 not found (apt-get install libturbojpeg0)" >&2; exit 1; }
mkdir -p "$b/lib"
cp -L "$turbojpeg" "$b/lib/libturbojpeg.so.0"
cp -r bench/.cache "$b/cache"

# Production dependencies only (npm ls --omit=dev), without the optional
# uWebSockets.js build for newer glibc: the bundled 20.30 build is the one the
# project is tested with, and it is tried first anyway.
npm ls --omit=dev --all --parseable 2>/dev/null | sed "s|^$PWD/||" | grep '^node_modules/' | grep -v '^node_modules/uws-upstream' | sort -u |
  while read -r dir; do
    mkdir -p "$b/$(dirname "$dir")"
    cp -a "$dir" "$b/$dir"
  done
cp -a node_modules/.bin "$b/node_modules/" 2>/dev/null || true
# Binaries for other platforms and Node versions.
find "$b/node_modules/onnxruntime-node/bin/napi-v6" -mindepth 2 -maxdepth 2 ! -path '*/linux/x64' -exec rm -rf {} +
find "$b/node_modules/uWebSockets.js/binaries" -type f ! -name "uws_linux_x64_$(node -p process.versions.modules).node" -delete
rm -rf "$b/node_modules/uWebSockets.js/docs"

if [ -n "$ort_cuda" ]; then
  cp -a "$ort_cuda" "$b/ort-cuda"
fi
if [ -n "$cuda_only" ]; then
  rm -rf "$b/node_modules/onnxruntime-node"
fi
if [ -n "$debs" ]; then
  mkdir -p "$b/debs"
  cp "$debs"/*.deb "$b/debs/"
fi

mkdir -p "$out"
rm -f "$out"/part-*
tar -C "$stage" -cf - bundle | xz -T0 -6 | split -b "${part_mib}M" -d -a 2 - "$out/part-"
ls -l "$out"
