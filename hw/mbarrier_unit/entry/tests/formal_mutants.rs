//! The textual mutants of the transaction-barrier unit's and the
//! async-group tracker's emitted Verilog, one per kind of bug their
//! scoreboards' mutant tests inject, each killed by the formal run: a
//! counterexample in its property group (`abc bmc3`), whose trace the replay
//! reads and where the reference model parts from the Verilog or the
//! scoreboard flags it.
//!
//! CI runs the first mutant of each property group; every one:
//! `FORMAL_MUTANTS=all cargo test --release -p mbarrier-unit-entry --test formal_mutants`;
//! one: `MUTANT=<name> cargo test …`; one unit's: `MUTANT_UNIT=async_groups …`.

use cli_kit::formal_tests::MutantTable;
use mbarrier_unit_entry::{ASYNC_GROUPS, MBARRIER};
use membar_formal::mutants::{mutant, Mutant, UnitMutants};

/// This crate's mutant table and how CI runs it.
const TABLE: MutantTable = MutantTable {
    manifest_dir: env!("CARGO_MANIFEST_DIR"),
    entries: &[&MBARRIER, &ASYNC_GROUPS],
    mutants: MUTANTS,
    // BMC depth: enough for each mutant's shortest trace (the mbarrier timeout
    // mutant needs L = 8 cycles after a try_wait).
    depth: |unit| if unit == "mbarrier" { 12 } else { 10 },
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
        unit: "mbarrier",
        dir: "mbarrier_unit/reduced_range/w8_m8_c4_t6_l8_f1",
        file: "mbarrier_unit.v",
        mutants: MBARRIER_MUTANTS,
    },
    UnitMutants {
        unit: "async_groups",
        dir: "async_groups/w8_g2_o1",
        file: "async_groups.v",
        mutants: ASYNC_GROUPS_MUTANTS,
    },
];

const MB_OP: Option<&str> = Some("module mbar_w8_m8_c4_t6_l8_f1__step(");
const MB_ENTRIES: Option<&str> = Some("module mbar_w8_m8_c4_t6_l8_f1__entries(");
const MB_WAIT: Option<&str> = Some("module mbar_w8_m8_c4_t6_l8_f1__waiters(");

/// Mutants of `mbarrier_unit` (`verilog_out/mbarrier_unit/reduced_range/w8_m8_c4_t6_l8_f1`),
/// mirroring the M scoreboard's mutants (`sim/mbarrier_unit/tests/mutants.rs`).
const MBARRIER_MUTANTS: &[Mutant] = &[
    mutant(
        "mbar_drop_no_underflow",
        "M6: an arrive_drop leaving expected = 0 is taken",
        MB_OP,
        "underflow = (count > e_pending) | (drop & (count >= e_expected));",
        " | (drop & (count >= e_expected))",
        "",
        "m6",
    ),
    mutant(
        "mbar_zero_count_taken",
        "M6: a zero count is taken",
        MB_OP,
        "count_bad = (count == zero_count) | |(count & top_count);",
        "(count == zero_count) | ",
        "",
        "m6",
    ),
    mutant(
        "mbar_complete_ignores_tx",
        "M4/M1: a phase completes with tx-count != 0",
        MB_OP,
        "due = ~init & ~inval & ~(arrive & count_bad) & ~((tx_up | tx_dn) & amt_bad) & ~(drop & (count == e_expected)) & pend_zero & tx_zero;",
        " & tx_zero;",
        ";",
        "m1",
    ),
    mutant(
        "mbar_no_forwarding",
        "M8/M1: back-to-back requests on one entry: the second reads the entry before the first's write (no forwarding into the read register)",
        MB_ENTRIES,
        "if (acc_entry == rd_entry) begin",
        "acc_entry == rd_entry",
        "1'b0",
        "m1",
    ),
    mutant(
        "mbar_wake_done_unmasked",
        "M3: wake_done raised for a decided-done warp that is not woken this cycle",
        MB_WAIT,
        "wake_done_r__d = grant & done_e;",
        "grant & done_e",
        "done_e",
        "m8",
    ),
];

const AG_W3: Option<&str> = Some("module agrp_w8_g2_o1__warps__3(");

/// Mutants of `async_groups` (`verilog_out/async_groups/w8_g2_o1`), each in
/// one warp's block (warp 3: the free warp `fw` of the harness finds it),
/// mirroring the G scoreboard's mutants (`sim/mbarrier_unit/tests/mutants.rs`).
const ASYNC_GROUPS_MUTANTS: &[Mutant] = &[
    mutant(
        "ag_read_pending_short",
        "G1: a .read wait misses a group committed behind the frontier (released early)",
        AG_W3,
        "rp_inc = rp__q + one_n;",
        "rp__q + one_n",
        "rp__q",
        "g1",
    ),
    mutant(
        "ag_read_as_full",
        "G2: a .read wait treated as a full wait (released late)",
        AG_W3,
        "met = rp__q <= wait_n__q;",
        "rp__q <= wait_n__q",
        "n__q <= wait_n__q",
        "g2",
    ),
    mutant(
        "ag_bulk_wraps",
        "G3: a bulk op into a full open group is accepted (the counter wraps)",
        AG_W3,
        "can_bulk = ~blk__q & (open_wr__q != max_ops);",
        "(open_wr__q != max_ops)",
        "1'b1",
        "g3",
    ),
    mutant(
        "ag_spurious_rd_silent",
        "G4: a spurious rd report is not flagged",
        AG_W3,
        "rd_bad = rd_hit & ~unr__q & ~or_nz;",
        "rd_hit & ~unr__q & ~or_nz",
        "1'b0",
        "g4",
    ),
    mutant(
        "ag_wr_before_rd_taken",
        "G4: a wr report of an unread operation is taken",
        AG_W3,
        "c_ok0 = ~f_is_h | rd_gt;",
        "~f_is_h | rd_gt",
        "1'b1",
        "g4",
    ),
];
