#!/usr/bin/env bash
# formal/run-all.sh: the long formal runs of docs/formal.md, one command.
# For every shipped configuration (verilog_out/*/): abc bmc3 to depth $DEPTH
# on every property group, then abc pdr on every group but P5 with a
# per-group timeout of $TIMEOUT seconds (a timeout is reported as UNKNOWN).
# Then the bar, cluster and mbarrier units on every shipped configuration
# (verilog_out/<unit>/*/): abc pdr on the groups it closes, then k-induction
# (depth 2, with the strengthening invariants) on the others (bar
# inv/invb/b1/b6c, mbarrier inv/m1/m6/m2: proven on the small configurations,
# may end UNKNOWN on the larger ones, see docs/formal.md), and abc bmc3 to
# $UDEPTH on every group in one task (`all`).
# Exit 1 if any group has a counterexample or did not finish.
# Last, async_groups and sm_sync on every shipped configuration: abc pdr per
# group (async g1-g4 beyond w8_g2_o1 are expected to end UNKNOWN,
# docs/formal.md), and abc bmc3 to $ADEPTH on `all` (async `default` depth 6
# ≈40 s, depth 8 ≈190 s; `w64_g4_o8` depth 6 ≈60 s, depth 8 > 500 s).
#   DEPTH=15 UDEPTH=6 ADEPTH=6 TIMEOUT=600 bash formal/run-all.sh   (the defaults)
set -uo pipefail
cd "$(dirname "$0")/.."
DEPTH=${DEPTH:-15}
TIMEOUT=${TIMEOUT:-600}
UDEPTH=${UDEPTH:-6}
ADEPTH=${ADEPTH:-6}
cargo build --release --bin membar || exit 2
M=target/release/membar
rc=0
for d in verilog_out/*/; do
  [ -f "$d/membar_unit.v" ] || continue   # the other units' directories
  n=$(basename "$d")
  echo "=== $n: abc bmc3, depth $DEPTH"
  "$M" formal --config "$d/config.yaml" --verilog "$d/membar_unit.v" --engine bmc --depth "$DEPTH" --timeout "$TIMEOUT" || rc=1
  echo "=== $n: abc pdr (every group but p5), timeout $TIMEOUT s per group"
  "$M" formal --config "$d/config.yaml" --verilog "$d/membar_unit.v" --engine pdr \
    --props rst,p2,p3s,p3c,p7,cnt,p4,p1 --timeout "$TIMEOUT" || rc=1
done
for pair in bar:bar_unit cluster:cluster_barrier mbarrier:mbarrier_unit; do
  u=${pair%%:*}; mod=${pair#*:}
  # (mbarrier's reduced-range configurations, verilog_out/mbarrier_unit/reduced_range/, too)
  for d in verilog_out/"$mod"/*/ verilog_out/"$mod"/reduced_range/*/; do
    [ -f "$d/config.yaml" ] || continue
    n=$(basename "$d")
    echo "=== $u $n: abc pdr, timeout $TIMEOUT s per group"
    "$M" formal --unit "$u" --config "$d/config.yaml" --verilog "$d/$mod.v" --engine pdr --timeout "$TIMEOUT" || rc=1
    case $u in
      bar) hard=inv,invb,b1,b6c ;;
      mbarrier) hard=inv,m1,m6,m2 ;;
      *) hard= ;;
    esac
    if [ -n "$hard" ]; then
      echo "=== $u $n: k-induction depth 2 ($hard), timeout $TIMEOUT s per group"
      "$M" formal --unit "$u" --config "$d/config.yaml" --verilog "$d/$mod.v" --engine kind --depth 2 --props "$hard" --timeout "$TIMEOUT" || rc=1
    fi
    echo "=== $u $n: abc bmc3, depth $UDEPTH, every group in one task"
    "$M" formal --unit "$u" --config "$d/config.yaml" --verilog "$d/$mod.v" --engine bmc --depth "$UDEPTH" --props all --timeout "$TIMEOUT" || rc=1
  done
done
for pair in async_groups:async_groups sm_sync:sm_sync; do
  u=${pair%%:*}; mod=${pair#*:}
  for d in verilog_out/"$mod"/*/; do
    n=$(basename "$d")
    echo "=== $u $n: abc pdr, timeout $TIMEOUT s per group"
    "$M" formal --unit "$u" --config "$d/config.yaml" --verilog "$d/$mod.v" --engine pdr --timeout "$TIMEOUT" || rc=1
    echo "=== $u $n: abc bmc3, depth $ADEPTH, every group in one task"
    "$M" formal --unit "$u" --config "$d/config.yaml" --verilog "$d/$mod.v" --engine bmc --depth "$ADEPTH" --props all --timeout "$TIMEOUT" || rc=1
  done
done
exit $rc
