#!/usr/bin/env bash
# Area and fmax of the default and every grid configuration (docs/fpga.md):
# `membar synth` on iCE40 HX8K with seeds 1..SEEDS and the generic LUT4 target,
# all rows in one CSV, then a Markdown table (fmax: seed 1, and min-max over
# the seeds; LUTs/FFs/carries/LCs do not depend on the seed).
# Usage: fpga/grid.sh [OUT.csv] [SEEDS]    (default build/fpga/grid.csv, 3 seeds)
# Needs a release build (cargo build --release) and yosys + nextpnr-ice40.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/fpga/grid.csv}"
seeds="${2:-3}"
membar=target/release/membar
[ -x "$membar" ] || { echo "build first: cargo build --release" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
rm -f "$out"
configs=(default w32_k4_n8_c8 w8_k2_n1_c4 w64_k8_n16_c8 w16_k4_n4_c6)
for c in "${configs[@]}"; do
  for s in $(seq 1 "$seeds"); do
    "$membar" synth --config "configs/$c.yaml" --seed "$s" --csv "$out" >/dev/null
  done
  "$membar" synth --config "configs/$c.yaml" --target generic --csv "$out" >/dev/null
  echo "done: $c" >&2
done
awk -F, -v configs="${configs[*]}" '
  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  {
    n = $col["config"]; sub(/^configs\//, "", n); sub(/\.yaml$/, "", n)
    if ($col["target"] == "generic") { glut[n] = $col["luts"]; depth[n] = $col["lut_depth"]; next }
    w[n] = $col["warps"]; nw[n] = $col["ways"]; k[n] = $col["slots"]; cb[n] = $col["counter_bits"]
    lut[n] = $col["luts"]; ff[n] = $col["flip_flops"]; cy[n] = $col["carries"]; lc[n] = $col["logic_cells"]; tot[n] = $col["logic_cells_total"]
    f = $col["fmax_mhz"] + 0
    if ($col["seed"] == 1) { f1[n] = f; cp[n] = $col["critical_path_ns"]; ys[n] = $col["yosys_secs"]; ns[n] = $col["nextpnr_secs"] }
    if (!(n in lo) || f < lo[n]) lo[n] = f
    if (!(n in hi) || f > hi[n]) hi[n] = f
  }
  END {
    print "| config | W | N | K | C | LUTs | FFs | carries | LCs / 7680 | fmax seed 1 (MHz) | fmax seeds 1-" '"$seeds"' " | crit. path (ns) | generic LUT4 | LUT depth | yosys + nextpnr (s) |"
    print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    split(configs, order, " ")
    for (i = 1; i in order; i++) {
      n = order[i]
      printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s (%.1f %%) | %.1f | %.1f-%.1f | %s | %s | %s | %s + %s |\n", n, w[n], nw[n], k[n], cb[n], lut[n], ff[n], cy[n], lc[n], 100 * lc[n] / tot[n], f1[n], lo[n], hi[n], cp[n], glut[n], depth[n], ys[n], ns[n]
    }
  }' "$out"
