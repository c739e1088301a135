#!/usr/bin/env bash
# formal/run-all.sh: the long formal runs of docs/formal.md, one command.
# The plan comes from the unit registry (cli/src/registry.rs): every unit on
# every configuration checked in under verilog_out/ (reduced-range ones
# too): abc pdr on the groups it closes, the other groups with the unit's
# engine (membar: abc bmc3 to $DEPTH on every group first; bar, mbarrier:
# k-induction depth 2 with the strengthening invariants), then abc bmc3 to
# $UDEPTH on `all` for every unit but membar. Print it without running:
#   target/release/membar formal --all-configs --plan
# Exit 1 if any run has a counterexample or did not finish.
#   DEPTH=15 UDEPTH=6 TIMEOUT=600 bash formal/run-all.sh   (the defaults)
set -uo pipefail
cd "$(dirname "$0")/.."
DEPTH=${DEPTH:-15}
TIMEOUT=${TIMEOUT:-600}
UDEPTH=${UDEPTH:-6}
cargo build --release --bin membar || exit 2
exec target/release/membar formal --all-configs --depth "$DEPTH" --unit-depth "$UDEPTH" --timeout "$TIMEOUT"
