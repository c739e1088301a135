#!/usr/bin/env bash
# Compile each kernel of this folder to PTX with nvcc 13.0.88 (-O3 -arch=sm_90a), as the
# reference kernels were. nvcc installs from PyPI and needs no GPU for -ptx:
#   pip install nvidia-cuda-nvcc==13.0.88 nvidia-nvvm==13.0.88 nvidia-cuda-crt==13.0.88 \
#               nvidia-cuda-runtime==13.0.96 nvidia-cuda-cccl==13.0.85
# The PTX is checked in; CI does not need nvcc.
set -euo pipefail
cd "$(dirname "$0")"
NV=${NV:-$(python3 -c 'import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], "cu13"))')}
for cu in o*.cu; do
  "$NV/bin/nvcc" -ptx -O3 -arch=sm_90a -I"$NV/include/cccl" "$cu" -o "${cu%.cu}.ptx"
  echo "${cu%.cu}.ptx"
done
