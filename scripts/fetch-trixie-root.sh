#!/usr/bin/env bash
# A minimal Debian 13 (trixie, glibc 2.41) root in .cache/trixie, for
# test/e2e/uws-upstream.test.ts: on a Debian 12 host (glibc 2.36) the
# uWebSockets.js build for Node 22/24 only loads inside it. Made with
# debootstrap --variant=minbase (installed when missing) from DEBIAN_MIRROR
# (default http://deb.debian.org/debian), within 180 s; needs root (chroot).
# Like fetch-node-versions.sh it never fails: without the root that test is
# skipped. Usage: bash scripts/fetch-trixie-root.sh
set -uo pipefail
cd "$(dirname "$0")/.."
root=.cache/trixie
[ -x "$root/usr/bin/env" ] && exit 0
if [ "$(id -u)" != 0 ] || [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
  echo "fetch-trixie-root: needs root on linux-x64, skipped" >&2
  exit 0
fi
if ! command -v debootstrap >/dev/null; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; } >/dev/null 2>&1
fi
rm -rf "$root.partial"
if command -v debootstrap >/dev/null &&
  timeout 180 debootstrap --variant=minbase trixie "$root.partial" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >/dev/null 2>&1; then
  mv "$root.partial" "$root"
else
  rm -rf "$root.partial"
  echo "fetch-trixie-root: no Debian 13 root (debootstrap missing, offline or too slow); its test is skipped" >&2
fi
exit 0
