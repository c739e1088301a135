//! The textual mutants of the sm_sync top's emitted Verilog (the decoder
//! and the top's routing / combining), each killed by the formal run: a
//! counterexample in its property group (`abc bmc3`), whose trace the replay
//! reads and where the reference model parts from the Verilog or the
//! scoreboard flags it.
//!
//! Each sm_sync run spends ≈20 s in yosys reading the 20 000-line top, so CI
//! runs the decoder's (S5), the release combiner's (S4) and the port
//! register's (S1) only; every one:
//! `FORMAL_MUTANTS=all cargo test --release -p sm-sync-entry --test formal_mutants`;
//! one: `MUTANT=<name> cargo test …`.

use cli_kit::formal_tests::MutantTable;
use membar_formal::mutants::{mutant, Mutant, UnitMutants};
use sm_sync_entry::SM_SYNC;

/// This crate's mutant table and how CI runs it.
const TABLE: MutantTable = MutantTable {
    manifest_dir: env!("CARGO_MANIFEST_DIR"),
    entries: &[&SM_SYNC],
    mutants: MUTANTS,
    // BMC depth: enough for each mutant's shortest trace.
    depth: |_| 10,
    // The sm_sync mutants CI runs (`FORMAL_MUTANTS=all` runs all of them).
    ci_only: Some(&[
        "sm_silent_refusal",
        "sm_mb_wake_dropped",
        "sm_port_not_registered",
    ]),
};

#[test]
fn every_mutant_anchor_is_unique_and_names_a_group() {
    TABLE.check_anchors();
}

#[test]
fn every_mutant_is_killed_and_the_trace_replays() {
    TABLE.kill();
}

const MUTANTS: &[UnitMutants] = &[UnitMutants {
    unit: "sm_sync",
    dir: "sm_sync/small",
    file: "sm_sync.v",
    mutants: SM_SYNC_MUTANTS,
}];

const SM_TOP: Option<&str> = Some("module smsync_w8_k2_c1_m8_g2_r(");
const SM_DEC: Option<&str> = Some("module smsync_w8_k2_c1_m8_g2_r__dec(");
const SM_PORT: Option<&str> = Some("module smsync_w8_k2_c1_m8_g2_r__port(");

/// Mutants of `sm_sync` (`verilog_out/sm_sync/small`): the decoder and the
/// top's routing / combining, mirroring the S scoreboard's model mutants
/// (`sim/sm_sync/tests/random_scoreboard.rs`) where they are port-visible.
const SM_SYNC_MUTANTS: &[Mutant] = &[
    mutant(
        "sm_port_not_registered",
        "S1/S2 (registered port): the decoder reads the port, not the register",
        SM_PORT,
        "localparam  registered = 1'b1;",
        "1'b1",
        "1'b0",
        "s1m",
    ),
    mutant(
        "sm_port_reset_kept",
        "S1 (registered port): an instruction presented in a reset cycle is registered and reaches its unit after the reset",
        SM_PORT,
        "valid_q__d = in_valid & ~reset;",
        "in_valid & ~reset",
        "in_valid",
        "s1m",
    ),
    mutant(
        "sm_refused_not_taken",
        "S2: a refused instruction is not taken (in_ready = the unit's ready)",
        SM_TOP,
        "in_ready = port__dec_valid & (dec__refused | unit_ready) & ~reset;",
        "(dec__refused | unit_ready)",
        "unit_ready",
        "s2",
    ),
    mutant(
        "sm_async_warp_inverted",
        "S3/S1: the tracker receives another warp than the issuing one",
        SM_TOP,
        "ag__ag_warp = port__dec_warp;",
        "port__dec_warp",
        "~port__dec_warp",
        "s3",
    ),
    mutant(
        "sm_mb_wake_dropped",
        "S4: mbarrier wakes left out of release_mask (Fault: mbarrier wakes dropped)",
        SM_TOP,
        "release_mask = membar_rel | bar__rel_mask | mb__wake_mask | ag__release_mask;",
        " | mb__wake_mask",
        "",
        "s4",
    ),
    mutant(
        "sm_silent_refusal",
        "S5: a refused instruction is not flagged (Fault: silent refusal)",
        SM_DEC,
        "flag = in_valid & ~op_ok & ~reset;",
        "in_valid & ~op_ok & ~reset",
        "1'b0",
        "s5",
    ),
    mutant(
        "sm_reserved_bar_op_forwarded",
        "S5: a refused bar op reaches the bar unit (Fault: reserved op forwarded)",
        SM_DEC,
        "to_bar = in_valid & op_ok & (in_unit == 32'h1);",
        "in_valid & op_ok &",
        "in_valid &",
        "s5",
    ),
    mutant(
        "sm_bar_err_src_dropped",
        "S6: the bar bit of err_src dropped (Fault: bar err_src bit)",
        SM_TOP,
        "src = (src & ~(1 << (32'h1)) | ((bar__err) << (32'h1)));",
        "((bar__err)",
        "((1'b0)",
        "s6",
    ),
    mutant(
        "sm_mb_warp_inverted",
        "S1: the mbarrier unit receives another warp than the issuing one",
        SM_TOP,
        "mb__op_warp = port__dec_warp;",
        "port__dec_warp",
        "~port__dec_warp",
        "s1m",
    ),
    mutant(
        "sm_bar_id_high_nibble",
        "S1: the bar unit gets in_id[7:4] as its barrier id",
        SM_TOP,
        "bar__req_id = port__dec_id[(32'h0)+:(4)];",
        "(32'h0)",
        "(32'h4)",
        "s1b",
    ),
    mutant(
        "sm_membar_id_truncated",
        "S1: the membar request id loses its high byte",
        SM_TOP,
        "membar__req_id = port__dec_id;",
        "port__dec_id",
        "{8'h00, port__dec_id[7:0]}",
        "s1d",
    ),
];
