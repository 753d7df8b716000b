#!/usr/bin/env bash
# Builds llama.cpp's llama-server (CPU only, static, no network at build time) from the llama.cpp
# source that the npm package node-llama-cpp ships as llama/gitRelease.bundle, into a cache folder
# outside the repository. Idempotent: prints the binary's path and exits when it is already built.
#
# Needs: npm (to fetch the package from the npm registry), git, cmake >= 3.18, a C++17 compiler
# (g++ or clang++), and ninja or make. Fails naming every missing tool.
#
# Usage: tools/llamacpp/build-llama-server.sh [CACHE_DIR]
#   CACHE_DIR defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/fak-battery/llamacpp
#   NLC_VERSION (env) pins node-llama-cpp; default 3.22.1
set -euo pipefail
NLC_VERSION=${NLC_VERSION:-3.22.1}
CACHE=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/fak-battery/llamacpp}
HOME_DIR="$CACHE/node-llama-cpp-$NLC_VERSION"
BIN="$HOME_DIR/build/bin/llama-server"
if [ -x "$BIN" ]; then echo "$BIN"; exit 0; fi

missing=()
for t in npm git cmake; do command -v "$t" >/dev/null 2>&1 || missing+=("$t"); done
command -v g++ >/dev/null 2>&1 || command -v clang++ >/dev/null 2>&1 || missing+=("g++ or clang++")
command -v ninja >/dev/null 2>&1 || command -v make >/dev/null 2>&1 || missing+=("ninja or make")
if [ ${#missing[@]} -gt 0 ]; then
  echo "cannot build llama-server: missing ${missing[*]} (Debian: apt-get install -y npm git cmake g++ ninja-build)" >&2
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
gen=(); command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
echo "[llamacpp] building llama-server (about 7 to 8 minutes on 2 cores)" >&2
nice -n 10 cmake -S llama.cpp -B build "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=OFF -DGGML_OPENMP=OFF -DLLAMA_OPENSSL=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF >&2
nice -n 10 cmake --build build --target llama-server -j "$(nproc)" >&2
[ -x "$BIN" ] || { echo "build finished but $BIN is missing" >&2; exit 4; }
echo "$BIN"
