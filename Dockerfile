# syntax=docker/dockerfile:1
# check=error=true;experimental=all
#
# One Dockerfile, one target per deployable process:
#
#   docker build --target odds    -t pokerodds/odds .
#   docker build --target wallet  -t pokerodds/wallet .
#   docker build --target table   -t pokerodds/table .
#   docker build --target gateway -t pokerodds/gateway .
#
# Stages: `build` compiles every workspace with the full dev toolchain; `<target>-deps` installs that
# workspace's production dependencies only (plus common's); the final targets copy those, the
# compiled dist/ folders and proto/ (read at run time for gRPC server reflection) onto a distroless
# Node 24 LTS image: no shell, no package manager, uid 65532. The launcher, the developer commands
# (tools/) and the embedded FerretDB are for local development and never go into an image.
#
# Pin the bases by digest in the release pipeline (NODE_IMAGE=node:24-trixie-slim@sha256:...,
# RUNTIME_IMAGE=gcr.io/distroless/nodejs24-debian13:nonroot@sha256:...; see deploy/k8s/README.md).
# Changing Node's major is these two lines. The distroless name carries the major and the Debian
# release: the published ones are listed in the README of GoogleContainerTools/distroless (its
# nodejs/config.bzl builds them). Distroless builds Node images on Debian 13 only (its Debian 12
# Node images stopped in early 2026), so the build stage uses Debian 13 (trixie) too.
# The comments directly above ARG and FROM follow Docker's "# <name> <description>" convention,
# which `docker buildx build --call=targets` shows.

# NODE_IMAGE is the Node 24 image with npm that builds; it never ships.
ARG NODE_IMAGE=node:24-trixie-slim
# RUNTIME_IMAGE is distroless Node 24: node and its libraries only, running as 65532.
ARG RUNTIME_IMAGE=gcr.io/distroless/nodejs24-debian13:nonroot

# Package manifests alone first, so dependency layers are rebuilt only when a manifest or the lock
# file changes (npm ci needs every workspace's manifest to check the lock file).

# manifests holds the package manifests and the lock file.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false
COPY package.json package-lock.json ./
COPY common/package.json common/
COPY services/odds/package.json services/odds/
COPY services/wallet/package.json services/wallet/
COPY services/table/package.json services/table/
COPY audit/package.json audit/
COPY api/package.json api/
COPY gateway/package.json gateway/
COPY tools/package.json tools/
COPY launcher/package.json launcher/
COPY web/package.json web/
COPY fairness/package.json fairness/

# build compiles every workspace with the full dev toolchain.
FROM manifests AS build
# No install scripts: compiling needs only typescript, and nothing may run code at install time.
RUN npm ci --ignore-scripts
COPY tsconfig.base.json tsconfig.json ./
COPY proto/ proto/
COPY common/ common/
COPY services/ services/
COPY audit/ audit/
COPY api/ api/
COPY gateway/ gateway/
COPY web/ web/
RUN npx tsc -b common services/odds services/wallet services/table audit api gateway
# The web client the gateway serves at `/` (Vite; its own type-check first, against common's
# declarations).
RUN npm run build -w web
# Type declarations and build info are for the compiler only.
RUN find common/dist services/*/dist audit/dist api/dist gateway/dist \( -name '*.d.ts' -o -name '*.d.ts.map' -o -name '.tsbuildinfo' \) -delete

# Production dependencies, one workspace each. The mkdir makes the workspace's own node_modules
# (where npm puts a dependency whose version clashes with the hoisted one) exist even when empty,
# so the COPY below works whatever the lock file's layout.

# odds-deps installs the odds service's production dependencies.
FROM manifests AS odds-deps
RUN npm ci --omit=dev --ignore-scripts -w common -w services/odds && mkdir -p services/odds/node_modules

# wallet-deps installs the wallet service's production dependencies.
FROM manifests AS wallet-deps
RUN npm ci --omit=dev --ignore-scripts -w common -w services/wallet && mkdir -p services/wallet/node_modules

# table-deps installs the table service's production dependencies.
FROM manifests AS table-deps
RUN npm ci --omit=dev --ignore-scripts -w common -w services/table && mkdir -p services/table/node_modules

# gateway-deps installs the gateway's production dependencies (the contract's and the money audit's included).
FROM manifests AS gateway-deps
RUN npm ci --omit=dev --ignore-scripts -w common -w audit -w api -w gateway \
 && mkdir -p audit/node_modules api/node_modules gateway/node_modules

# What every process needs: common (its package.json carries "type": "module" and the exports map)
# and proto/ at /app/proto, where common/dist/grpc/server.js looks for it (../../../proto).

# runtime is the base of every image: distroless Node, common and proto/.
FROM ${RUNTIME_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /src/proto/ proto/
COPY --from=build /src/common/package.json common/
COPY --from=build /src/common/dist/ common/dist/
# distroless's "nonroot", numerically, so Kubernetes can check runAsNonRoot against the image.
USER 65532:65532

# odds is the odds gRPC service image (50051).
FROM runtime AS odds
COPY --from=odds-deps /src/node_modules/ node_modules/
COPY --from=odds-deps /src/services/odds/node_modules/ services/odds/node_modules/
COPY --from=build /src/services/odds/package.json services/odds/
COPY --from=build /src/services/odds/dist/ services/odds/dist/
# gRPC (GRPC_PORT), Prometheus metrics (METRICS_PORT)
EXPOSE 50051 9464 9470
# The base image's entrypoint is node itself. The tracing register module loads nothing unless
# OTEL_* settings turn tracing on (deploy/k8s/README.md, "Traces"). V8's heap may grow to half the
# pod's memory limit: by default Node takes the whole limit for the heap (259 MB in a 256 MiB
# cgroup, measured), so garbage was left to pile up until the kernel killed the pod for the memory
# outside the heap (a soak: the table service's heap at 214 MB, 44 MB of it live, RSS 299 MB).
# The flag needs Node 24.11 or later (the engines range; 22.21 has it too): pin no older image.
CMD ["--max-old-space-size-percentage=50", "--import=/app/common/dist/tracing/register.js", "services/odds/dist/main.js"]

# wallet is the wallet gRPC service image (50052).
FROM runtime AS wallet
COPY --from=wallet-deps /src/node_modules/ node_modules/
COPY --from=wallet-deps /src/services/wallet/node_modules/ services/wallet/node_modules/
COPY --from=build /src/services/wallet/package.json services/wallet/
COPY --from=build /src/services/wallet/dist/ services/wallet/dist/
EXPOSE 50052 9464 9470
CMD ["--max-old-space-size-percentage=50", "--import=/app/common/dist/tracing/register.js", "services/wallet/dist/main.js"]

# table is the table gRPC service image (50053).
FROM runtime AS table
COPY --from=table-deps /src/node_modules/ node_modules/
COPY --from=table-deps /src/services/table/node_modules/ services/table/node_modules/
COPY --from=build /src/services/table/package.json services/table/
COPY --from=build /src/services/table/dist/ services/table/dist/
EXPOSE 50053 9464 9470
CMD ["--max-old-space-size-percentage=50", "--import=/app/common/dist/tracing/register.js", "services/table/dist/main.js"]

# gateway is the HTTP gateway image (8080), with the contract (api/) and the money audit (audit/) it serves.
FROM runtime AS gateway
COPY --from=gateway-deps /src/node_modules/ node_modules/
COPY --from=gateway-deps /src/audit/node_modules/ audit/node_modules/
COPY --from=gateway-deps /src/api/node_modules/ api/node_modules/
COPY --from=gateway-deps /src/gateway/node_modules/ gateway/node_modules/
COPY --from=build /src/audit/package.json audit/
COPY --from=build /src/audit/dist/ audit/dist/
COPY --from=build /src/api/package.json api/
COPY --from=build /src/api/dist/ api/dist/
COPY --from=build /src/gateway/package.json gateway/
COPY --from=build /src/gateway/dist/ gateway/dist/
# The web client's static files, where the gateway looks by default (WEB_ROOT).
COPY --from=build /src/web/dist/ web/dist/
# HTTP (PORT), Prometheus metrics (METRICS_PORT)
EXPOSE 8080 9464
CMD ["--max-old-space-size-percentage=50", "--import=/app/common/dist/tracing/register.js", "gateway/dist/main.js"]
