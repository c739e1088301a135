#!/usr/bin/env bash
# Lint and synthesis-readiness checks of an emitted membar_unit.v:
#   1. verilator --lint-only -Wall, with the waivers in membar_unit.vlt (beside
#      this script) and nothing else;
#   2. yosys: every module resolves (hierarchy -check), processes map to
#      logic with no latch (proc; no $dlatch/$dlatchsr/$sr cell), and
#      `check -assert` finds no undriven net, no multiply-driven net and no
#      logic loop, both per module and on the flattened design.
# Usage: hw/membar_unit/lint/check.sh path/to/membar_unit.v
# Exit status: 0 clean, 1 a check failed, 2 usage error or a tool is missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ $# -ne 1 || ! -f "$1" ]]; then
    echo "usage: $0 path/to/membar_unit.v" >&2
    exit 2
fi
verilog="$1"

for tool in verilator yosys; do
    if ! command -v "$tool" >/dev/null; then
        echo "error: $tool is not installed; install it with: sudo apt-get install -y verilator yosys" >&2
        exit 2
    fi
done

echo "== verilator --lint-only -Wall $verilog"
verilator --lint-only -Wall --top-module membar_unit "$here/membar_unit.vlt" "$verilog"

echo "== yosys: hierarchy, proc, no latches, check -assert"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! yosys -p "read_verilog $verilog; hierarchy -check -top membar_unit; proc;
               select -assert-none t:\$dlatch t:\$dlatchsr t:\$sr;
               check -assert; flatten; check -assert" >"$log" 2>&1; then
    grep -E -i "error|warning|latch inferred" "$log" | grep -v -i "no latch inferred" >&2 || tail -n 20 "$log" >&2
    echo "yosys checks failed on $verilog (full log above)" >&2
    exit 1
fi
echo "ok: $verilog"
