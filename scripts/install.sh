#!/usr/bin/env bash
# The install, shared by CI (.ci/run) and the Docker image (Dockerfile): the
# system packages the native addon builds with, then `npm ci`.
#
#   scripts/install.sh [npm ci options]     e.g. --omit=dev
#
# Run as root on a machine without cmake/g++ (it uses apt-get), or as any user
# where they are installed.
set -euo pipefail
cd "$(dirname "$0")/.."

# The native addon builds with cmake and a C++17 compiler (Debian packages),
# and with libturbojpeg when present: its JPEG fast path. That one is
# optional (without it the addon still builds and sharp decodes every JPEG),
# so failing to install it alone does not stop the install.
export DEBIAN_FRONTEND=noninteractive
if ! command -v cmake >/dev/null || ! command -v g++ >/dev/null; then
  apt-get update -qq
  apt-get install -y -qq cmake g++ make libturbojpeg0-dev >/dev/null
elif [ ! -e /usr/include/turbojpeg.h ]; then
  { apt-get update -qq && apt-get install -y -qq libturbojpeg0-dev; } >/dev/null 2>&1 ||
    echo "libturbojpeg0-dev could not be installed: JPEG decoding stays with sharp" >&2
fi

# Cameras' streams are read by ffmpeg (Debian's package). Without it the
# server still runs; each stream then says `retrying` with the reason.
if ! command -v ffmpeg >/dev/null; then
  { apt-get update -qq && apt-get install -y -qq --no-install-recommends ffmpeg; } >/dev/null 2>&1 ||
    echo "ffmpeg could not be installed: cameras' streams will not run until it is (apt-get install ffmpeg)" >&2
fi

# onnxruntime-node's postinstall would download the CUDA/TensorRT providers
# (hundreds of MB, and a failed install offline). npm 11 skips it through
# package.json's allowScripts; older npm (Node 20's own npm 10) runs it, and
# this variable makes it a no-op. Set ONNXRUNTIME_NODE_INSTALL=cuda12 to get
# them (docs/OPERATIONS.md: GPUs).
export ONNXRUNTIME_NODE_INSTALL="${ONNXRUNTIME_NODE_INSTALL:-skip}"
# A dependency that falls back to compiling with node-gyp (bufferutil and
# utf-8-validate ship linux-x64 prebuilds, so none does today) finds Node's
# headers here instead of downloading them. node-gyp reads this variable; as
# an npm_config_* variable npm would warn that "nodedir" is unknown to it.
if [ -z "${npm_package_config_node_gyp_nodedir:-}" ] && [ -e /usr/include/node/node_api.h ]; then
  export npm_package_config_node_gyp_nodedir=/usr
fi

npm ci --no-audit --no-fund "$@"
