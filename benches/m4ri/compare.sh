#!/usr/bin/env bash
# pegflip's dense GF(2) elimination against M4RI, the reference library, on random n x n matrices.
# Usage: benches/m4ri/compare.sh [N ...]   (default 4096 8192 10000). Needs libm4ri-dev.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -f /usr/include/m4ri/m4ri.h ]; then
  apt-get install -y libm4ri-dev
fi
out=$(mktemp -d)
cc -O2 -o "$out/compare" benches/m4ri/compare.c $(pkg-config --cflags --libs m4ri 2>/dev/null || echo -lm4ri)
cargo build --release --example rref_timing
for n in "${@:-4096 8192 10000}"; do
  "$out/compare" "$n" 5
  target/release/examples/rref_timing "$n" 5
done
