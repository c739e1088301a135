#!/usr/bin/env bash
# make_sass.sh -- the SASS that ptxas makes of every checked-in kernel PTX (kernels/reference/*.ptx,
# kernels/own/*.ptx), one file per PTX in this folder: what the executor's ptxas rules
# (sim/sm_exec/src/schedule.rs, docs/timing.md "ptxas scheduling") are checked against
# (`cargo test --release -p sm-exec --test sass_rules`). No GPU needed: ptxas and cuobjdump
# come from PyPI at the version the kernels' PTX was made with.
#   pip install nvidia-cuda-nvcc==13.0.88 nvidia-cuda-cuobjdump
#   bash kernels/sass/make_sass.sh          (writes kernels/sass/*.sass)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${CUDA_BIN:-$(python3 -c 'import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], "cu13", "bin"))')}
ptxas=$bin/ptxas
cuobjdump=$bin/cuobjdump
want="release 13.0, V13.0.88"
"$ptxas" --version | grep -q "$want" || { echo "make_sass.sh: $ptxas is not ptxas 13.0.88 ($want): pip install nvidia-cuda-nvcc==13.0.88" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ptx in "$root"/kernels/reference/*.ptx "$root"/kernels/own/*.ptx; do
  name=$(basename "$ptx" .ptx)
  "$ptxas" -O3 -arch=sm_90a "$ptx" -o "$tmp/$name.cubin"
  {
    echo "# SASS of kernels/${ptx#"$root"/kernels/} by ptxas 13.0.88 -O3 -arch=sm_90a (kernels/sass/make_sass.sh); generated, do not edit."
    echo "# One instruction a line: its address (hex) and its text; '## function NAME' opens each function."
    "$cuobjdump" -sass "$tmp/$name.cubin" |
      sed -nE -e 's#^\s+Function : (.*)$#\#\# function \1#p' \
              -e 's#^\s+/\*([0-9a-f]+)\*/\s+(.*[^ ])\s*;\s*/\*.*#\1 \2#p'
  } > "$here/$name.sass"
done
ls "$here"/*.sass | wc -l
