//! The textual mutants of the named-barrier unit's and the cluster
//! barrier's emitted Verilog, one per kind of bug their scoreboards' mutant
//! tests inject, each killed by the formal run: a counterexample in its
//! property group (`abc bmc3`), whose trace the replay reads and where the
//! reference model parts from the Verilog or the scoreboard flags it.
//!
//! CI runs the first mutant of each property group; every one:
//! `FORMAL_MUTANTS=all cargo test --release -p bar-unit-entry --test formal_mutants`;
//! one: `MUTANT=bar_no_block cargo test …`; one unit's: `MUTANT_UNIT=cluster …`.

use bar_unit_entry::{BAR, CLUSTER};
use cli_kit::formal_tests::MutantTable;
use membar_formal::mutants::{mutant, Mutant, UnitMutants};

/// This crate's mutant table and how CI runs it.
const TABLE: MutantTable = MutantTable {
    manifest_dir: env!("CARGO_MANIFEST_DIR"),
    entries: &[&BAR, &CLUSTER],
    mutants: MUTANTS,
    // BMC depth: enough for each mutant's shortest trace.
    depth: |_| 10,
    // The first mutant of each group.
    ci_only: None,
};

#[test]
fn every_mutant_anchor_is_unique_and_names_a_group() {
    TABLE.check_anchors();
}

#[test]
fn every_mutant_is_killed_and_the_trace_replays() {
    TABLE.kill();
}

const MUTANTS: &[UnitMutants] = &[
    UnitMutants {
        unit: "bar",
        dir: "bar_unit/w8_c1",
        file: "bar_unit.v",
        mutants: BAR_MUTANTS,
    },
    UnitMutants {
        unit: "cluster",
        dir: "cluster_barrier/n2",
        file: "cluster_barrier.v",
        mutants: CLUSTER_MUTANTS,
    },
];

/// Mutants of `bar_unit` (`verilog_out/bar_unit/w8_c1`), one per kind of bug
/// the B scoreboard's mutants (`sim/bar_unit/tests/mutants.rs`) inject.
const BAR_MUTANTS: &[Mutant] = &[
    mutant(
        "bar_no_block",
        "B2: a blocked warp's request is taken",
        None,
        "req_ready = req_valid & ~ctl_valid & ~(regs__b_valid & regs__b_ctl) & ~warps__a_blocked & ~a_behind;",
        "~warps__a_blocked",
        "1'b1",
        "b2",
    ),
    mutant(
        "bar_arrive_blocks",
        "B2: bar.arrive blocks its warp",
        None,
        "arr_blocks = regs__b_op != op_arrive;",
        "regs__b_op != op_arrive",
        "1'b1",
        "b2",
    ),
    mutant(
        "bar_no_kind_mix",
        "B3/B6: kind_mix not detected (neither reported nor refused)",
        None,
        "kind_bad = rd_kind != arr_kind;",
        "rd_kind != arr_kind",
        "1'b0",
        "b6c",
    ),
    mutant(
        "bar_count_too_big_off_by_one",
        "B6: a count equal to the CTA size refused as count_too_big",
        None,
        "a_too_big = a_count > size__0__q;",
        "a_count > size__0__q",
        "a_count >= size__0__q",
        "b6c",
    ),
    mutant(
        "bar_exit_blocked_taken",
        "B6: the exit of a blocked warp is taken",
        None,
        "else if (regs__b_x_blocked) begin",
        "regs__b_x_blocked",
        "1'b0",
        "b6",
    ),
    mutant(
        "bar_red_and_as_or",
        "B3: bar.red.and accumulates OR",
        None,
        "regs__in_and = &req_pred;",
        "&req_pred",
        "|req_pred",
        "b1",
    ),
    mutant(
        "bar_complete_late",
        "B1/B7: a barrier completes one arrival late",
        None,
        "reach_ram = mem__ram_data >= target_m1;",
        "mem__ram_data >= target_m1",
        "mem__ram_data > target_m1",
        "b1",
    ),
    mutant(
        "bar_exit_completes_explicit",
        "B5: an exit completes an explicit-count phase",
        None,
        "c_done = regs__c_valid & slots__c_active & rd_all & (ram_count__rd_data >= regs__c_live);",
        "slots__c_active & rd_all &",
        "slots__c_active &",
        "b1",
    ),
    mutant(
        "bar_slot_never_freed",
        "B5: the CTA's last exit does not free its slot",
        None,
        "if (x_empty) begin",
        "x_empty",
        "1'b0",
        "b6",
    ),
];

/// Mutants of `cluster_barrier` (`verilog_out/cluster_barrier/n2`), mirroring
/// the C scoreboard's mutants.
const CLUSTER_MUTANTS: &[Mutant] = &[
    mutant(
        "cluster_gone_arrival_not_bad",
        "C3: an arrival of a gone rank is not flagged",
        None,
        "bad = arv & (arrived_q__q | gone);",
        "(arrived_q__q | gone)",
        "arrived_q__q",
        "c3",
    ),
    mutant(
        "cluster_bad_arrival_counted",
        "C3/C2: a bad arrival is counted",
        None,
        "arrived_n = arrived_q__q | (arv & ~bad);",
        "(arv & ~bad)",
        "arv",
        "c2",
    ),
    mutant(
        "cluster_complete_without_arrival",
        "C1: a phase completes with every rank gone and no arrival",
        None,
        "if (|arrived_n & ((arrived_n | gone) == all_ranks)) begin",
        "|arrived_n & ",
        "",
        "c1",
    ),
    mutant(
        "cluster_phase_stuck",
        "C2: the phase does not toggle",
        None,
        "phase_q__d = ~phase_q__q;",
        "~phase_q__q",
        "phase_q__q",
        "c2",
    ),
    mutant(
        "cluster_done_phase_new",
        "C1/C2: done_phase carries the new parity",
        None,
        "done_phase_q__d = phase_q__q;",
        "= phase_q__q",
        "= ~phase_q__q",
        "c1",
    ),
];
