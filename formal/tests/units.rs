//! The formal runs of the bar, cluster and mbarrier units that CI runs
//! (docs/formal.md): on each unit's small shipped configuration, every
//! property group proven unboundedly — with `abc pdr` (cluster: every group;
//! bar `w8_c1`: rst, b2, b4, b6; mbarrier `w8_m8_c4_t6_l8_f1`: rst, m7, m8)
//! or with k-induction (`smtbmc yices`, depth 2) strengthened by invariants
//! over the RTL's registers (bar: inv, b1, b6c; mbarrier: m1, m6, m2); on
//! each unit's default configuration a bounded check of every group in one
//! task (`all`). Each prints its figures. The harnesses can fail:
//! `tests/unit_mutants.rs` kills a mutant of each property group.
//!
//! Longer runs (pdr on the other configurations, deeper BMC) are one
//! command: `bash formal/run-all.sh` (see docs/formal.md).

use membar_formal::runner::{run_unit, GroupResult, Options, Verdict};
use membar_formal::sby::Engine;
use membar_formal::unit::UnitSpec;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn text(p: &PathBuf) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// (spec, Verilog path) of `unit`'s shipped configuration `name`.
fn shipped(unit: &str, name: &str) -> (UnitSpec, PathBuf) {
    let d = root().join("verilog_out").join(unit).join(name);
    let cfg = d.join("config.yaml");
    match unit {
        "bar_unit" => {
            let c = bar_unit_model::config::BarConfig::from_yaml(&text(&cfg), "config").unwrap();
            (membar_formal::bar::spec(&c), d.join("bar_unit.v"))
        }
        "cluster_barrier" => {
            let c =
                bar_unit_model::config::ClusterConfig::from_yaml(&text(&cfg), "config").unwrap();
            (
                membar_formal::cluster::spec(&c),
                d.join("cluster_barrier.v"),
            )
        }
        _ => {
            let c =
                mbarrier_unit_model::config::Config::from_yaml_str(&text(&cfg), "config").unwrap();
            (membar_formal::mbarrier::spec(&c), d.join("mbarrier_unit.v"))
        }
    }
}

fn report(what: &str, r: &[GroupResult]) {
    println!("{what}:");
    for g in r {
        println!("  {}", g.summary());
    }
}

fn expect_all(r: &[GroupResult], want: Verdict) {
    for g in r {
        assert_eq!(
            g.verdict,
            want,
            "group {}: {}\n{}",
            g.group.name,
            g.summary(),
            g.log_tail
        );
    }
}

fn opts(engine: Engine, depth: u32, groups: &[&str]) -> Options {
    Options {
        engine,
        depth,
        groups: groups.iter().map(|g| g.to_string()).collect(),
        timeout: 600,
        jobs: 2,
        ..Options::default()
    }
}

/// k-induction depth: the invariants are combinational, the properties
/// clocked (checked one step late), so 2 steps close every group.
const KIND_DEPTH: u32 = 2;
const DEFAULT_DEPTH: u32 = 4;

#[test]
fn cluster_small_and_default_every_group_proven() {
    for n in ["n1", "default"] {
        let (spec, v) = shipped("cluster_barrier", n);
        let r = run_unit(&spec, &v, &opts(Engine::Pdr, 20, &[])).unwrap_or_else(|e| panic!("{e}"));
        report(&format!("cluster_barrier {n}, abc pdr"), &r);
        assert_eq!(r.len(), spec.groups.len() - 1);
        expect_all(&r, Verdict::Proven);
    }
}

#[test]
fn bar_small_config_every_group_proven() {
    let (spec, v) = shipped("bar_unit", "w8_c1");
    let proven = ["rst", "b2", "b4", "b6"];
    let r = run_unit(&spec, &v, &opts(Engine::Pdr, 20, &proven)).unwrap_or_else(|e| panic!("{e}"));
    report("bar_unit w8_c1, abc pdr", &r);
    assert_eq!(r.len(), proven.len());
    expect_all(&r, Verdict::Proven);
    // inv proves the lemma b1 and b6c assume (INV_all_cnt for every
    // barrier); invb's assertions are part of b1's and b6c's tasks.
    let kind = ["inv", "b1", "b6c"];
    let r = run_unit(&spec, &v, &opts(Engine::Kind, KIND_DEPTH, &kind))
        .unwrap_or_else(|e| panic!("{e}"));
    report(
        &format!("bar_unit w8_c1, smtbmc yices k-induction depth {KIND_DEPTH}"),
        &r,
    );
    assert_eq!(r.len(), kind.len());
    expect_all(&r, Verdict::Proven);
}

#[test]
fn mbarrier_small_config_every_group_proven() {
    let (spec, v) = shipped("mbarrier_unit", "reduced_range/w8_m8_c4_t6_l8_f1");
    let proven = ["rst", "m7", "m8"];
    let r = run_unit(&spec, &v, &opts(Engine::Pdr, 20, &proven)).unwrap_or_else(|e| panic!("{e}"));
    report("mbarrier_unit w8_m8_c4_t6_l8_f1, abc pdr", &r);
    assert_eq!(r.len(), proven.len());
    expect_all(&r, Verdict::Proven);
    // Each of m1, m6, m2 asserts (so proves) the invariants of group inv.
    let kind = ["m1", "m6", "m2"];
    let r = run_unit(&spec, &v, &opts(Engine::Kind, KIND_DEPTH, &kind))
        .unwrap_or_else(|e| panic!("{e}"));
    report(
        &format!("mbarrier_unit w8_m8_c4_t6_l8_f1, smtbmc yices k-induction depth {KIND_DEPTH}"),
        &r,
    );
    assert_eq!(r.len(), kind.len());
    expect_all(&r, Verdict::Proven);
}

#[test]
fn bar_and_mbarrier_default_configs_bounded() {
    for (unit, dir) in [("bar_unit", "default"), ("mbarrier_unit", "default")] {
        let (spec, v) = shipped(unit, dir);
        let mut o = opts(Engine::Bmc, DEFAULT_DEPTH, &["all"]);
        o.jobs = 1;
        let r = run_unit(&spec, &v, &o).unwrap_or_else(|e| panic!("{e}"));
        report(
            &format!("{unit} {dir}, abc bmc3 depth {DEFAULT_DEPTH}, every group"),
            &r,
        );
        assert_eq!(r.len(), 1);
        expect_all(&r, Verdict::Bounded(DEFAULT_DEPTH));
    }
}
