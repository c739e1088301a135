#!/usr/bin/env bash
# k5_variants.sh -- which part of k5's instrumentation makes its sites cost what they do
# (issue #25): kprof_variants.sh on k5 (as it is; without kcommon.cuh's per-event log store;
# without its st.shared probe; without both). The k5_variant rows of
# data/calibration/h100_micro.csv (2026-11-28) are its per-warp medians of total_cyc,
# group_wait, async_issue and bar_sync. Run on the device machine from the repository root:
#   bash kernels/micro/k5_variants.sh OUTDIR
set -euo pipefail
out=${1:?usage: k5_variants.sh OUTDIR}
exec bash "$(dirname "$0")/kprof_variants.sh" k5_cpasync_pipeline "$out" k5_variant
