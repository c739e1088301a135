//! The formal runs of the transaction-barrier unit and the async-group
//! tracker that CI runs (docs/formal.md), through their registry entries
//! (the path `membar formal --unit mbarrier|async_groups` takes):
//! - mbarrier, reduced-range `w8_m8_c4_t6_l8_f1`: `abc pdr` proves rst, m7,
//!   m8; k-induction (`smtbmc yices`, depth 2) with invariants over the
//!   RTL's registers proves m1, m6, m2; the default configuration is
//!   bounded (every group in one task);
//! - async_groups `w8_g2_o1`: `abc pdr` proves every group (one task,
//!   `all`); the default configuration is bounded.
//!
//! Each prints its figures. The harnesses can fail:
//! `tests/formal_mutants.rs` kills a mutant of each property group. Longer
//! runs: `bash formal/run-all.sh` (docs/formal.md).

use cli_kit::entry::UnitEntry;
use mbarrier_unit_entry::{async_groups_formal, mbarrier_formal, ASYNC_GROUPS, MBARRIER};
use mbarrier_unit_model::config::Config;
use mbarrier_unit_model::ports::async_groups::AsyncGroupsPorts;
use mbarrier_unit_model::ports::mbarrier::MbarrierUnitPorts;
use membar_formal::runner::Verdict;
use membar_formal::sby::Engine;
use membar_formal::suite::{assert_harness_complete, opts, root, run_expect};
use membar_formal::unit::UnitSpec;
use std::path::PathBuf;
use unit_ports::Unit;

fn out_dir(entry: &UnitEntry, name: &str) -> PathBuf {
    root(env!("CARGO_MANIFEST_DIR"), 3)
        .join("verilog_out")
        .join(entry.dir)
        .join(name)
}

fn shipped(entry: &UnitEntry, name: &str) -> (UnitSpec, PathBuf) {
    cli_kit::formal_tests::shipped(env!("CARGO_MANIFEST_DIR"), entry, name)
}

const KIND_DEPTH: u32 = 2;
const DEFAULT_DEPTH: u32 = 4;
/// BMC depth of async_groups' default configuration in CI (depth 6 is
/// ≈40 s, nearly all of it yosys reading its 52 000 lines; depth 8 ≈190 s).
const AG_DEFAULT_DEPTH: u32 = 6;

#[test]
fn mbarrier_small_config_every_group_proven() {
    let (spec, v) = shipped(&MBARRIER, "reduced_range/w8_m8_c4_t6_l8_f1");
    let proven = ["rst", "m7", "m8"];
    run_expect(
        "mbarrier_unit w8_m8_c4_t6_l8_f1, abc pdr",
        &spec,
        &v,
        &opts(Engine::Pdr, 20, &proven, 2),
        Some(proven.len()),
        Verdict::Proven,
    );
    // Each of m1, m6, m2 asserts (so proves) the invariants of group inv.
    let kind = ["m1", "m6", "m2"];
    run_expect(
        &format!("mbarrier_unit w8_m8_c4_t6_l8_f1, smtbmc yices k-induction depth {KIND_DEPTH}"),
        &spec,
        &v,
        &opts(Engine::Kind, KIND_DEPTH, &kind, 2),
        Some(kind.len()),
        Verdict::Proven,
    );
}

#[test]
fn mbarrier_default_config_bounded() {
    let (spec, v) = shipped(&MBARRIER, "default");
    run_expect(
        &format!("mbarrier_unit default, abc bmc3 depth {DEFAULT_DEPTH}, every group"),
        &spec,
        &v,
        &opts(Engine::Bmc, DEFAULT_DEPTH, &["all"], 1),
        Some(1),
        Verdict::Bounded(DEFAULT_DEPTH),
    );
}

#[test]
fn async_groups_small_proven_default_bounded() {
    let (spec, v) = shipped(&ASYNC_GROUPS, "w8_g2_o1");
    run_expect(
        "async_groups w8_g2_o1, abc pdr, every group",
        &spec,
        &v,
        &opts(Engine::Pdr, 20, &["all"], 1),
        Some(1),
        Verdict::Proven,
    );
    let (spec, v) = shipped(&ASYNC_GROUPS, "default");
    run_expect(
        &format!("async_groups default, abc bmc3 depth {AG_DEFAULT_DEPTH}, every group"),
        &spec,
        &v,
        &opts(Engine::Bmc, AG_DEFAULT_DEPTH, &["all"], 1),
        Some(1),
        Verdict::Bounded(AG_DEFAULT_DEPTH),
    );
}

/// Every label of every group is one assertion under its group's `ifdef`,
/// `all` lists every label, every port is connected.
#[test]
fn harnesses_have_every_label_once_and_every_port() {
    let cfg = Config::default();
    assert_harness_complete(
        &mbarrier_formal::spec(&cfg),
        &MbarrierUnitPorts::ports(&cfg),
    );
    for name in ["w8_g2_o1", "w16_g4_o2", "default", "w64_g4_o8"] {
        let d = out_dir(&ASYNC_GROUPS, name);
        let text = std::fs::read_to_string(d.join("config.yaml")).unwrap();
        let cfg = Config::from_yaml_str(&text, "config").unwrap();
        assert_harness_complete(
            &async_groups_formal::spec(&cfg),
            &AsyncGroupsPorts::ports(&cfg),
        );
    }
}
