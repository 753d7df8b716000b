#!/usr/bin/env bash
# Builds llama.cpp's llama-server (CPU only, static, no network at build time) from the llama.cpp
# source that the npm package node-llama-cpp ships as llama/gitRelease.bundle, into a cache folder
# outside the repository. Idempotent: prints the binary's path and exits when it is already built.
#
# Needs: npm (to fetch the package from the npm registry), git, cmake >= 3.18, a C++17 compiler
# (g++ or clang++), and ninja or make. Fails naming every missing tool (exit 3).
# With --source-only it only fetches and unpacks the llama.cpp source (needs npm and git) and prints
# the source folder (models/ggml-vocab-*.gguf, models/templates/*.jinja).
#
# Usage: tools/llamacpp/build-llama-server.sh [--source-only] [CACHE_DIR]
#   CACHE_DIR defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/fak-battery/llamacpp
#   NLC_VERSION (env) pins node-llama-cpp; default 3.22.1
set -euo pipefail
SOURCE_ONLY=false
if [ "${1:-}" = "--source-only" ]; then SOURCE_ONLY=true; shift; fi
NLC_VERSION=${NLC_VERSION:-3.22.1}
CACHE=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/fak-battery/llamacpp}
HOME_DIR="$CACHE/node-llama-cpp-$NLC_VERSION"
BIN="$HOME_DIR/build/bin/llama-server"
SRC="$HOME_DIR/llama.cpp"
if $SOURCE_ONLY && [ -f "$SRC/models/ggml-vocab-qwen2.gguf" ]; then echo "$SRC"; exit 0; fi
if ! $SOURCE_ONLY && [ -x "$BIN" ]; then echo "$BIN"; exit 0; fi

missing=()
for t in npm git; do command -v "$t" >/dev/null 2>&1 || missing+=("$t"); done
if ! $SOURCE_ONLY; then
  command -v cmake >/dev/null 2>&1 || missing+=("cmake")
  command -v g++ >/dev/null 2>&1 || command -v clang++ >/dev/null 2>&1 || missing+=("g++ or clang++")
  command -v ninja >/dev/null 2>&1 || command -v make >/dev/null 2>&1 || missing+=("ninja or make")
fi
if [ ${#missing[@]} -gt 0 ]; then
  what=$($SOURCE_ONLY && echo "fetch the llama.cpp source" || echo "build llama-server")
  list=$(printf '%s, ' "${missing[@]}"); list=${list%, }
  echo "cannot $what: missing $list (Debian: apt-get install -y npm git cmake g++ ninja-build)" >&2
  exit 3
fi

mkdir -p "$HOME_DIR/npmpack"
cd "$HOME_DIR"
if [ ! -f npmpack/package/llama/gitRelease.bundle ]; then
  echo "[llamacpp] fetching node-llama-cpp@$NLC_VERSION from the npm registry (about 35 MB)" >&2
  (cd npmpack && npm pack --loglevel=error "node-llama-cpp@$NLC_VERSION" >/dev/null \
     && tar xzf "node-llama-cpp-$NLC_VERSION.tgz" package/llama/gitRelease.bundle package/llama/llama.cpp.info.json)
fi
[ -d llama.cpp ] || git clone -q npmpack/package/llama/gitRelease.bundle llama.cpp
if $SOURCE_ONLY; then echo "$SRC"; exit 0; fi
gen=(); command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
echo "[llamacpp] building llama-server (about 7 to 8 minutes on 2 cores)" >&2
nice -n 10 cmake -S llama.cpp -B build "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=OFF -DGGML_OPENMP=OFF -DLLAMA_OPENSSL=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF >&2
nice -n 10 cmake --build build --target llama-server -j "$(nproc)" >&2
[ -x "$BIN" ] || { echo "build finished but $BIN is missing" >&2; exit 4; }
echo "$BIN"
