#!/usr/bin/env bash
# k5_variants.sh -- which part of k5's instrumentation makes its sites cost what they do
# (issue #25). Builds kernels/reference/k5_cpasync_pipeline.cu four ways and runs each
# (5 timed launches): 0 as it is; 1 without the per-event log store of kcommon.cuh's ke()
# (`if (p.lane == 0 && p.nev < KLOGCAP) p.log[...] = ...`); 2 without its st.shared probe;
# 3 without both. Without the log there are no per-site events, so the per-warp sums of
# the `_warps.csv` files are what compare. Run on the device machine from the repository
# root: bash kernels/micro/k5_variants.sh OUTDIR  (prints the per-warp medians).
set -euo pipefail
out=${1:?usage: k5_variants.sh OUTDIR}
src=$(cd "$(dirname "$0")/../reference" && pwd)
for v in 0 1 2 3; do
  d=$out/v$v
  mkdir -p "$d/o"
  cp "$src/k5_cpasync_pipeline.cu" "$src/kcommon.cuh" "$d/"
  if [ $v = 1 ] || [ $v = 3 ]; then sed -i 's/if (p.lane == 0 \&\& p.nev < KLOGCAP)/if (false)/' "$d/kcommon.cuh"; fi
  if [ $v = 2 ] || [ $v = 3 ]; then sed -i 's/^  kprobe(p.probe);/  \/\/ no probe/' "$d/kcommon.cuh"; fi
  (cd "$d" && nvcc -O3 -arch=sm_90a k5_cpasync_pipeline.cu -o k5 && ./k5 o 5 > run.txt 2>&1)
done
python3 - "$out" <<'P'
import csv, glob, statistics, sys
print("test,variant,total_cyc,group_wait,async_issue,bar_sync (per-warp medians)")
for v in range(4):
    f = glob.glob(f"{sys.argv[1]}/v{v}/o/*_warps.csv")[0]
    rows = [r for r in csv.DictReader(open(f)) if r["warmup"] == "0"]
    med = lambda k: statistics.median(float(r[k]) for r in rows)
    name = ["as_is", "no_log_store", "no_probe", "neither"][v]
    print(f"k5_variant,{name},{med('total_cyc'):g},{med('group_wait'):g},{med('async_issue'):g},{med('bar_sync'):g}")
P
