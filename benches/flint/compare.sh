#!/usr/bin/env bash
# pegflip's dense elimination over GF(p) against FLINT's nmod_mat_rref, on random n x n matrices.
# Usage: benches/flint/compare.sh [N ...]   (default 1024 2048 4096; P=3 by default, set P=5 etc.).
# Needs libflint-dev (installed here when missing).
set -euo pipefail
cd "$(dirname "$0")/../.."
p="${P:-3}"
if [ ! -f /usr/include/flint/nmod_mat.h ]; then
  apt-get install -y libflint-dev
fi
out=$(mktemp -d)
cc -O2 -o "$out/compare" benches/flint/compare.c -lflint -lgmp
cargo build --release --example zk_rref_timing
for n in "${@:-1024 2048 4096}"; do
  "$out/compare" "$n" 5 "$p"
  target/release/examples/zk_rref_timing "$n" 5 "$p"
done
