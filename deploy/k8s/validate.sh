#!/usr/bin/env bash
# Offline validation of the images' Dockerfile, of the Prometheus alerting rules and of every
# Kubernetes overlay:
#
#   1. Dockerfile: BuildKit's own linter (the rules of `docker build --check`, experimental ones
#      too) plus the image policy in tools/dockerfile-lint (non-root numeric USER, NODE_ENV,
#      bases with an explicit tag other than latest, no ADD, every tracked source a COPY names in the
#      build context; digests are checked by --release, on the overlay's images only).
#   2. Prometheus alerting rules (deploy/prometheus/): `promtool check rules` on alerts.yaml and
#      `promtool test rules` on its unit tests, alerts.test.yaml.
#   3. Each overlay in overlays/ is rendered with kustomize, then
#      - kubectl-validate checks every object against the Kubernetes 1.30 OpenAPI schemas embedded
#        in it (unknown fields, types, formats, enums; no cluster, no network), and the
#        cert-manager objects (Issuer, Certificate) against cert-manager's own CRDs;
#      - tools/manifest-check strict-decodes every object with client-go's scheme (cert-manager's
#        kinds, which client-go does not know, by their own rules instead), runs the API server's
#        Pod Security Admission ("restricted") on every pod template, and checks this project's
#        rules (namespace, tokens, probes, drain timing, headless gRPC, dns:/// targets, listen
#        hosts, mutual-TLS files from a Secret that a Certificate of the render produces);
#      - kube-score lints for Kubernetes best practice; warnings fail too (it skips kinds it does
#        not know, such as cert-manager's).
#
# The tools are built from the Go module proxy on first use and cached in .cache/k8s-tools/,
# keyed by version (our own tools by a hash of their sources), so later runs build nothing. The
# cert-manager CRDs come from the same proxy: its Go module carries them (deploy/crds/*.yaml), so
# `go mod download` fetches them with no other source; they are cached there too.
# Nothing here needs the network once the cache is warm. Exits non-zero on any finding.
#
# `validate.sh --release` (the release pipeline, after pinning the images: see "Pinning images by
# digest" in README.md) also requires every image of the production overlay's render to be pinned
# by digest (`image: <name>[:<tag>]@sha256:<64 hex>`), and none of its placeholders left (idp.invalid,
# example.com and .net, MongoDB's documentation addresses). Without it both are only listed.
#
# kube-linter, the linter the issue suggests, cannot be used: its module path
# (golang.stackrox.io/kube-linter) is refused by the Go module proxy here (403), and it is not on
# npm or in Debian. kube-score is the Go-installable linter with the same scope.
set -euo pipefail

release=false
case "${1:-}" in
  "") ;;
  --release) release=true ;;
  *)
    echo "usage: validate.sh [--release]" >&2
    exit 2
    ;;
esac

root="$(cd "$(dirname "$0")/../.." && pwd)"
k8s="$root/deploy/k8s"
cache="$root/.cache/k8s-tools"
mkdir -p "$cache"

# Versions. kustomize 5.8.3 needs Go 1.27; 5.8.2 is the newest that builds with Go 1.26.
# kubectl-validate 0.0.4 (its latest release) embeds schemas up to Kubernetes 1.30; the manifests
# need 1.30 or newer anyway (preStop sleep is on by default from 1.30).
KUSTOMIZE=sigs.k8s.io/kustomize/kustomize/v5@v5.8.2
KUBECTL_VALIDATE=sigs.k8s.io/kubectl-validate@v0.0.4
KUBE_SCORE=github.com/zegl/kube-score/cmd/kube-score@v1.20.0
# promtool of Prometheus v3.16.0 (the Go module's tags are v0.3XX.Y for Prometheus v3.XX.Y), the
# newest release; its go.mod asks for Go 1.26.7, which the Go 1.26 here satisfies. Its first build
# took 301 s on two cores (downloading and compiling Prometheus's many dependencies, the cloud
# service discoveries among them; Go's build cache already held those it shares with the tools
# above, client-go and others); from a clean clone once Go's module and build caches hold them, as
# on CI's machine after that first run, 6 s (a link).
PROMTOOL=github.com/prometheus/prometheus/cmd/promtool@v0.316.0
# The cert-manager release whose CRDs the Issuer and Certificate objects are checked against. Its
# module holds the plain CRDs in deploy/crds/ (generated, not Helm templates).
CERT_MANAGER=github.com/cert-manager/cert-manager@v1.21.2
KUBERNETES_VERSION=1.30

export GOFLAGS="${GOFLAGS:--buildvcs=false}"
# Never download a newer Go toolchain behind our back: a tool that needs one fails here, loudly.
export GOTOOLCHAIN=local

step() { printf '\n== %s\n' "$*"; }

# go_tool <module@version>: path of the cached binary, built with `go install` on a miss.
go_tool() {
  local spec="$1" path name dir
  path="${spec%@*}"
  # go install names the binary after the last path element that is not a major version (/v5).
  [[ "$(basename "$path")" =~ ^v[0-9]+$ ]] && path="$(dirname "$path")"
  name="$(basename "$path")"
  dir="$cache/$name@${spec#*@}"
  if [ ! -x "$dir/$name" ]; then
    local started=$SECONDS
    echo "building $spec (first run only)..." >&2
    rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
    if ! GOBIN="$dir.tmp" go install "$spec" >"$dir.tmp/build.log" 2>&1; then
      cat "$dir.tmp/build.log" >&2
      return 1
    fi
    rm -rf "$dir" && mv "$dir.tmp" "$dir"
    echo "built $name in $((SECONDS - started)) s" >&2
  fi
  printf '%s\n' "$dir/$name"
}

# local_tool <dir under tools/>: our own Go programs, keyed by a hash of their sources.
local_tool() {
  local name="$1" src="$k8s/tools/$1" hash dir
  hash="$(cat "$src/go.mod" "$src/go.sum" "$src"/*.go | sha256sum | cut -c1-16)"
  dir="$cache/$name@$hash"
  if [ ! -x "$dir/$name" ]; then
    local started=$SECONDS
    echo "building tools/$name (first run, or its sources changed)..." >&2
    rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
    if ! (cd "$src" && go build -o "$dir.tmp/$name" .) >"$dir.tmp/build.log" 2>&1; then
      cat "$dir.tmp/build.log" >&2
      return 1
    fi
    rm -rf "$dir" && mv "$dir.tmp" "$dir"
    echo "built $name in $((SECONDS - started)) s" >&2
  fi
  printf '%s\n' "$dir/$name"
}

# cert_manager_crds <module@version>: a directory holding cert-manager's CRDs, copied from its Go
# module (go mod download, which needs no go.mod) on a miss.
cert_manager_crds() {
  local spec="$1" dir module
  dir="$cache/cert-manager-crds@${spec#*@}"
  if [ ! -f "$dir/cert-manager.io_certificates.yaml" ]; then
    echo "fetching the CRDs of $spec (first run only)..." >&2
    rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
    if ! module="$(cd "$dir.tmp" && go mod download -json "$spec")"; then
      printf '%s\n' "$module" >&2
      return 1
    fi
    module="$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p' <<<"$module")"
    if [ -z "$module" ] || ! compgen -G "$module/deploy/crds/*.yaml" >/dev/null; then
      echo "no deploy/crds/*.yaml in the module of $spec (${module:-not downloaded})" >&2
      return 1
    fi
    cp "$module"/deploy/crds/*.yaml "$dir.tmp/"
    rm -rf "$dir" && mv "$dir.tmp" "$dir"
  fi
  printf '%s\n' "$dir"
}

step "tools"
go version
kustomize="$(go_tool "$KUSTOMIZE")"
kubectl_validate="$(go_tool "$KUBECTL_VALIDATE")"
kube_score="$(go_tool "$KUBE_SCORE")"
promtool="$(go_tool "$PROMTOOL")"
dockerfile_lint="$(local_tool dockerfile-lint)"
manifest_check="$(local_tool manifest-check)"
crds="$(cert_manager_crds "$CERT_MANAGER")"
echo "kustomize ${KUSTOMIZE#*@}, kubectl-validate ${KUBECTL_VALIDATE#*@}, kube-score ${KUBE_SCORE#*@}," \
  "promtool ${PROMTOOL#*@}, cert-manager CRDs ${CERT_MANAGER#*@} ($(find "$crds" -name '*.yaml' | wc -l) files)"

failures=()
# run <label> <command...>: runs a check, records a failure instead of stopping, so one run
# reports everything that is wrong.
run() {
  local label="$1"
  shift
  if ! "$@"; then
    failures+=("$label")
  fi
}

# kube_score <file> <flags...>: kube-score, printing only what is not OK (and a count of what is).
kube_score() {
  local file="$1" report status=0
  shift
  report="$("$kube_score" score "$file" "$@" --output-format ci --color never)" || status=$?
  grep -v -E '^\[(OK|SKIPPED)\]' <<<"$report" || true
  echo "kube-score: $(grep -c '^\[OK\]' <<<"$report") checks passed, exit status $status"
  return "$status"
}

# release_only <what> <when none> <found>: what a release must have done; listed until then, and
# with --release a failure.
release_only() {
  local what="$1" none="$2" found="$3"
  if [ -z "$found" ]; then
    echo "$none"
  elif [ "$release" = true ]; then
    echo "$what:" $found >&2
    failures+=("production: $what")
  else
    echo "$what (the release step sees to them; --release requires it):" $found
  fi
}

step "Dockerfile"
run "dockerfile-lint" "$dockerfile_lint" "$root/Dockerfile"

# The alerting rules: valid for Prometheus, and each alert's unit tests (it fires where it should,
# with its labels and annotations, and not where it should not).
step "Prometheus rules"
run "prometheus: check rules" "$promtool" check rules "$root/deploy/prometheus/alerts.yaml"
run "prometheus: test rules" "$promtool" test rules "$root/deploy/prometheus/alerts.test.yaml"

rendered="$(mktemp -d)"
trap 'rm -rf "$rendered"' EXIT

for overlay_dir in "$k8s"/overlays/*/; do
  overlay="$(basename "$overlay_dir")"
  out="$rendered/$overlay.yaml"
  step "overlay $overlay"
  if ! "$kustomize" build "$overlay_dir" >"$out"; then
    failures+=("$overlay: kustomize build")
    continue
  fi
  echo "rendered $(grep -c '^kind: ' "$out") objects"

  run "$overlay: kubectl-validate" "$kubectl_validate" --version "$KUBERNETES_VERSION" --local-crds "$crds" "$out"
  run "$overlay: manifest-check" "$manifest_check" "$out"

  # kube-score: every default check, plus these optional ones: seccomp profile set, container
  # ports named and declared, memory request = limit. Left out on purpose: CPU and
  # ephemeral-storage request = limit (CPU bursts above its request by design: the autoscalers
  # measure utilisation against the request; ephemeral storage is logs, which vary).
  # Per-object exceptions are kube-score/ignore annotations, each justified where it is set:
  #   deployment-/statefulset-has-host-podantiaffinity (base: topologySpreadConstraints instead),
  #   container-security-context-user-group-id (base/mongodb: the image's uid 999, local only),
  #   container-image-pull-policy (overlays/local: images loaded into the cluster by hand).
  # The local overlay runs one replica of everything by design, hence its replica minimum of 1.
  min_replicas=2
  [ "$overlay" = local ] && min_replicas=1
  run "$overlay: kube-score" kube_score "$out" \
    --kubernetes-version "v$KUBERNETES_VERSION" \
    --enable-optional-test container-seccomp-profile \
    --enable-optional-test container-ports-check \
    --enable-optional-test container-memory-requests-equal-limits \
    --min-replicas-deployment "$min_replicas" \
    --exit-one-on-warning

  # Digest pins (production only: the local overlay runs images loaded by hand). A tag can be moved
  # to other content; a digest cannot. Then the overlay's placeholders (the identity provider, the
  # host name, the registry, MongoDB's documentation addresses), which a release must have replaced.
  if [ "$overlay" = production ]; then
    release_only "images not pinned by digest" "every image pinned by digest" \
      "$(sed -n 's/^[[:space:]]*image:[[:space:]]*//p' "$out" | tr -d "\"'" | sort -u |
        grep -v -E '@sha256:[0-9a-f]{64}$' || true)"
    release_only "placeholders left" "no placeholder left" \
      "$(grep -o -E 'idp\.invalid|[a-z0-9.-]*example\.(com|net)|192\.0\.2\.0/24|2001:db8::/32' "$out" | sort -u || true)"
  fi
done

step "result"
if [ "${#failures[@]}" -gt 0 ]; then
  printf 'FAILED: %s\n' "${failures[@]}" >&2
  exit 1
fi
echo "Dockerfile, alerting rules and every overlay valid"
