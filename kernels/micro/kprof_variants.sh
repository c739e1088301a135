#!/usr/bin/env bash
# kprof_variants.sh -- which part of kcommon.cuh's instrumentation makes a reference kernel's
# sites cost what they do (issue #25). Builds kernels/reference/KERNEL.cu four ways and runs
# each (5 timed launches): 0 as it is; 1 without the per-event log store of kcommon.cuh's ke()
# (`if (p.lane == 0 && p.nev < KLOGCAP) p.log[...] = ...`); 2 without its st.shared probe;
# 3 without both. Without the log there are no per-site events, so the per-warp sums of the
# `_warps.csv` files are what compare: per role and variant, the median over warps and
# launches of the total and of every category any warp of the role waits in.
# Run on the device machine from the repository root:
#   bash kernels/micro/kprof_variants.sh KERNEL OUTDIR [PREFIX]
# e.g. KERNEL = k3_named_barrier_ws; prints `PREFIX,variant,role,total_cyc,<cat>=<cycles>...`
# (PREFIX defaults to KERNEL).
set -euo pipefail
kernel=${1:?usage: kprof_variants.sh KERNEL OUTDIR [PREFIX]}
out=${2:?usage: kprof_variants.sh KERNEL OUTDIR [PREFIX]}
prefix=${3:-$kernel}
src=$(cd "$(dirname "$0")/../reference" && pwd)
[ -f "$src/$kernel.cu" ] || { echo "kprof_variants.sh: no kernels/reference/$kernel.cu" >&2; exit 2; }
for v in 0 1 2 3; do
  d=$out/v$v
  mkdir -p "$d/o"
  cp "$src/$kernel.cu" "$src/kcommon.cuh" "$d/"
  if [ $v = 1 ] || [ $v = 3 ]; then sed -i 's/if (p.lane == 0 \&\& p.nev < KLOGCAP)/if (false)/' "$d/kcommon.cuh"; fi
  if [ $v = 2 ] || [ $v = 3 ]; then sed -i 's/^  kprobe(p.probe);/  \/\/ no probe/' "$d/kcommon.cuh"; fi
  (cd "$d" && nvcc -O3 -arch=sm_90a "$kernel.cu" -o k && ./k o 5 > run.txt 2>&1)
done
python3 - "$out" "$prefix" <<'P'
import csv, glob, statistics, sys
out, prefix = sys.argv[1], sys.argv[2]
cats = ["bar_sync", "bar_red", "bar_arrive", "mbar_wait", "mbar_arrive", "group_wait", "async_issue",
        "cluster_arrive", "cluster_wait", "fence", "grid_sync", "flag_wait", "atomic", "release_store"]
for v, name in enumerate(["as_is", "no_log_store", "no_probe", "neither"]):
    f = glob.glob(f"{out}/v{v}/o/*_warps.csv")[0]
    rows = [r for r in csv.DictReader(open(f)) if r["warmup"] == "0"]
    for role in sorted({r["role"] for r in rows}):
        rr = [r for r in rows if r["role"] == role]
        med = lambda k: statistics.median(float(r[k]) for r in rr)
        used = [c for c in cats if any(float(r[c]) > 0 for r in rr)]
        print(f"{prefix},{name},{role},total_cyc={med('total_cyc'):g}," + ",".join(f"{c}={med(c):g}" for c in used))
P
