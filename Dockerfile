# syntax=docker/dockerfile:1
# The server as a container: built with the install CI runs (scripts/install.sh),
# compiled to JavaScript (npm run build), run as an unprivileged user with its
# data (embedded PostgreSQL, uploaded models, JWT secret) in the /data volume.
#
#   docker build -t sense-inference .
#   docker run -d -p 8080:8080 -p 8000:8000 -v sense-data:/data --name sense sense-inference
#   docker logs sense    # the credentials printed once at first start
#
# Node 22 on Debian 13 (glibc 2.41): the server then runs on the upstream
# uWebSockets.js build, whose parser answers HTTP/1.0 505, an HTTP/1.1 request
# without Host 400 and one with more than 100 headers 431 (the Node 20 fork
# drops them unanswered; test/e2e/uws-upstream.test.ts), and Node 20 is past
# its end of life.

# The base images: Node 22 on Debian 13. CI builds with local stand-ins
# (scripts/container-check.sh: where no registry answers); users keep these.
ARG BASE_IMAGE=node:22-trixie
ARG RUNTIME_IMAGE=node:22-trixie-slim

# --- build: compiler, cmake and dev dependencies (Vite for the web console) ----
FROM ${BASE_IMAGE} AS build
WORKDIR /app
# Dependencies first, so that a change under src/ reuses this layer. The root
# package's install script builds the addon, so native/ comes with them.
COPY package.json package-lock.json ./
# npm's prepare step runs build-web.mjs, which leaves the console for later
# (web/ is not here yet): it is built below, with the sources.
COPY scripts/install.sh scripts/build-web.mjs scripts/
COPY native native
# apt-get cmake/g++/libturbojpeg0-dev, then npm ci (as root: this stage only).
RUN scripts/install.sh
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs scripts/build.mjs
COPY src src
COPY web web
RUN npm run build \
 && npm run build:web \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf native/build/CMakeFiles native/build/*.ninja native/build/.ninja_*

# --- runtime: node, libturbojpeg for the native JPEG path, ffmpeg for cameras' streams, the compiled app
FROM ${RUNTIME_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends libturbojpeg0 ffmpeg \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 sense \
 && useradd --system --uid 10001 --gid sense --home-dir /data --no-create-home --shell /usr/sbin/nologin sense \
 && mkdir -p /data \
 && chown sense:sense /data \
 && chmod 700 /data
WORKDIR /app
# Owned by root, read-only to the server: only /data is written.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/native/build/Release/sense_native.node ./native/build/Release/sense_native.node
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
COPY models ./models
# The gRPC front end loads its service definition at start (src/grpc/inference-proto.ts).
COPY proto/inference.proto ./proto/inference.proto

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    MODELS_DIR=/app/models
VOLUME ["/data"]
# 8000 and 8001: the Open Inference Protocol's REST and gRPC ports (OIP_HTTP_PORT, OIP_GRPC_PORT);
# 1883: MQTT for devices (MQTT_PORT). 0 switches any of them off.
EXPOSE 8080 8000 8001 1883
USER sense:sense
# Ready = the database answers and the model versions found at start have loaded, one Active (docs/OPERATIONS.md: Running the server).
HEALTHCHECK --interval=15s --timeout=5s --start-period=90s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/v2/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains requests in flight and stops PostgreSQL (SHUTDOWN_TIMEOUT_MS,
# 15 s by default): give `docker stop` more than that, e.g. --stop-timeout 30.
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=64", "dist/main.js"]
