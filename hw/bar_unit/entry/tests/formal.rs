//! The formal runs of the named-barrier unit and the cluster barrier that CI
//! runs (docs/formal.md), through their registry entries (the path `membar
//! formal --unit bar|cluster` takes): on each unit's small shipped
//! configuration every property group proven unboundedly — with `abc pdr`
//! (cluster: every group; bar `w8_c1`: rst, b2, b4, b6) or with k-induction
//! (`smtbmc yices`, depth 2) strengthened by invariants over the RTL's
//! registers (bar: inv, b1, b6c); on bar's default configuration a bounded
//! check of every group in one task (`all`). Each prints its figures. The
//! harnesses can fail: `tests/formal_mutants.rs` kills a mutant of each
//! property group. Longer runs: `bash formal/run-all.sh` (docs/formal.md).

use bar_unit_entry::{bar_formal, cluster_formal, BAR, CLUSTER};
use bar_unit_model::config::{BarConfig, ClusterConfig};
use bar_unit_model::ports::{BarUnitPorts, ClusterBarrierPorts};
use cli_kit::entry::UnitEntry;
use membar_formal::runner::Verdict;
use membar_formal::sby::Engine;
use membar_formal::suite::{assert_harness_complete, opts, run_expect};
use membar_formal::unit::UnitSpec;
use std::path::PathBuf;
use unit_ports::Unit;

fn shipped(entry: &UnitEntry, name: &str) -> (UnitSpec, PathBuf) {
    cli_kit::formal_tests::shipped(env!("CARGO_MANIFEST_DIR"), entry, name)
}

/// k-induction depth: the invariants are combinational, the properties
/// clocked (checked one step late), so 2 steps close every group.
const KIND_DEPTH: u32 = 2;
const DEFAULT_DEPTH: u32 = 4;

#[test]
fn cluster_small_and_default_every_group_proven() {
    for n in ["n1", "default"] {
        let (spec, v) = shipped(&CLUSTER, n);
        run_expect(
            &format!("cluster_barrier {n}, abc pdr"),
            &spec,
            &v,
            &opts(Engine::Pdr, 20, &[], 2),
            Some(spec.groups.len() - 1),
            Verdict::Proven,
        );
    }
}

#[test]
fn bar_small_config_every_group_proven() {
    let (spec, v) = shipped(&BAR, "w8_c1");
    let proven = ["rst", "b2", "b4", "b6"];
    run_expect(
        "bar_unit w8_c1, abc pdr",
        &spec,
        &v,
        &opts(Engine::Pdr, 20, &proven, 2),
        Some(proven.len()),
        Verdict::Proven,
    );
    // inv proves the lemma b1 and b6c assume (INV_all_cnt for every
    // barrier); invb's assertions are part of b1's and b6c's tasks.
    let kind = ["inv", "b1", "b6c"];
    run_expect(
        &format!("bar_unit w8_c1, smtbmc yices k-induction depth {KIND_DEPTH}"),
        &spec,
        &v,
        &opts(Engine::Kind, KIND_DEPTH, &kind, 2),
        Some(kind.len()),
        Verdict::Proven,
    );
}

#[test]
fn bar_default_config_bounded() {
    let (spec, v) = shipped(&BAR, "default");
    run_expect(
        &format!("bar_unit default, abc bmc3 depth {DEFAULT_DEPTH}, every group"),
        &spec,
        &v,
        &opts(Engine::Bmc, DEFAULT_DEPTH, &["all"], 1),
        Some(1),
        Verdict::Bounded(DEFAULT_DEPTH),
    );
}

/// Every label of every group is one assertion under its group's `ifdef`,
/// `all` lists every label, every port is connected: over sizes beyond the
/// shipped ones.
#[test]
fn harnesses_have_every_label_once_and_every_port() {
    for (w, c) in [(8, 1), (32, 8), (64, 3)] {
        let cfg = BarConfig {
            warps: w,
            cta_slots: c,
        };
        assert_harness_complete(&bar_formal::spec(&cfg), &BarUnitPorts::ports(&cfg));
    }
    for n in [1, 2, 16] {
        let cfg = ClusterConfig { ranks: n };
        assert_harness_complete(
            &cluster_formal::spec(&cfg),
            &ClusterBarrierPorts::ports(&cfg),
        );
    }
}
