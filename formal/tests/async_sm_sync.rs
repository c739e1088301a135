//! The formal runs of the async-group tracker and the sm_sync top that CI
//! runs (docs/formal.md): on each small shipped configuration `abc pdr`
//! proves every property group unboundedly (one task, group `all`: one
//! front-end run; the per-group figures are in docs/formal.md), and on each
//! default configuration `abc bmc3` bounds every group. Each prints its
//! figures. The harnesses can fail: `tests/unit_mutants.rs` kills a mutant
//! of each property group (`MUTANT_UNIT=async_groups|sm_sync`).
//!
//! Longer runs (every shipped configuration, deeper BMC, pdr per group) are
//! one command: `bash formal/run-all.sh`.

use membar_formal::runner::{run_unit, GroupResult, Options, Verdict};
use membar_formal::sby::Engine;
use std::path::PathBuf;
use std::time::Instant;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn report(what: &str, r: &[GroupResult], t: Instant) {
    println!("{what} ({:.1} s wall):", t.elapsed().as_secs_f64());
    for g in r {
        println!("  {}", g.summary());
    }
}

fn expect(r: &[GroupResult], want: Verdict) {
    assert_eq!(r.len(), 1);
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

fn opts(engine: Engine, depth: u32) -> Options {
    Options {
        engine,
        depth,
        groups: vec!["all".into()],
        timeout: 600,
        jobs: 1,
        ..Options::default()
    }
}

/// BMC depth of the default configurations in CI (async `default`: depth 6
/// is ≈40 s, nearly all of it yosys reading its 52 000 lines; depth 8 ≈190 s).
const AG_DEFAULT_DEPTH: u32 = 6;
const SM_W16_DEPTH: u32 = 5;

fn ag_config(name: &str) -> (mbarrier_unit_model::config::Config, PathBuf) {
    let d = root().join("verilog_out/async_groups").join(name);
    let text = std::fs::read_to_string(d.join("config.yaml")).unwrap();
    let cfg = mbarrier_unit_model::config::Config::from_yaml_str(&text, "config").unwrap();
    (cfg, d.join("async_groups.v"))
}

#[test]
fn async_groups_small_proven_default_bounded() {
    let (cfg, v) = ag_config("w8_g2_o1");
    let spec = membar_formal::async_groups::spec(&cfg);
    let t = Instant::now();
    let r = run_unit(&spec, &v, &opts(Engine::Pdr, 20)).unwrap_or_else(|e| panic!("{e}"));
    report("async_groups w8_g2_o1, abc pdr, every group", &r, t);
    expect(&r, Verdict::Proven);

    let (cfg, v) = ag_config("default");
    let spec = membar_formal::async_groups::spec(&cfg);
    let t = Instant::now();
    let r =
        run_unit(&spec, &v, &opts(Engine::Bmc, AG_DEFAULT_DEPTH)).unwrap_or_else(|e| panic!("{e}"));
    report(
        &format!("async_groups default, abc bmc3 depth {AG_DEFAULT_DEPTH}, every group"),
        &r,
        t,
    );
    expect(&r, Verdict::Bounded(AG_DEFAULT_DEPTH));
}

#[test]
fn sm_sync_small_proven_w16_bounded() {
    for (name, engine, depth, want) in [
        ("small", Engine::Pdr, 20, Verdict::Proven),
        (
            "w16",
            Engine::Bmc,
            SM_W16_DEPTH,
            Verdict::Bounded(SM_W16_DEPTH),
        ),
    ] {
        let cfg = sm_sync_model::Config::by_name(name).unwrap();
        let spec = membar_formal::sm_sync::spec(&cfg);
        let v = root()
            .join("verilog_out/sm_sync")
            .join(name)
            .join("sm_sync.v");
        let t = Instant::now();
        let r = run_unit(&spec, &v, &opts(engine, depth)).unwrap_or_else(|e| panic!("{e}"));
        report(
            &format!(
                "sm_sync {name}, abc {}, depth {depth}, every group",
                engine.name()
            ),
            &r,
            t,
        );
        expect(&r, want);
    }
}

/// Every label of every group is one assertion of the harness, under its
/// group's `ifdef`, `all` lists every label, and every port is connected.
#[test]
fn harnesses_have_every_label_once_and_every_port() {
    fn check(spec: &membar_formal::unit::UnitSpec, ports: &[unit_ports::Port]) {
        let h = &spec.harness;
        let mut n = 0;
        for g in spec.groups.iter().filter(|g| g.name != "all") {
            for p in g.props {
                let at = format!("      {p}: assert (");
                assert_eq!(h.matches(&at).count(), 1, "{}: {p}", spec.unit);
                let pos = h.find(&at).unwrap();
                let guard = h[..pos].rfind("`ifdef G_").unwrap();
                assert!(
                    h[guard..].starts_with(&format!("`ifdef G_{}\n", g.name.to_uppercase())),
                    "{}: {p} not under its group",
                    spec.unit
                );
                n += 1;
            }
            assert!(h.contains(&format!("`define G_{}\n", g.name.to_uppercase())));
        }
        let all = spec.groups.iter().find(|g| g.name == "all").unwrap();
        assert_eq!(all.props.len(), n, "{}: `all` lists every label", spec.unit);
        for p in ports {
            assert!(h.contains(&format!(".{0}({0})", p.name)), "{}", p.name);
        }
    }
    use unit_ports::Unit;
    for name in ["w8_g2_o1", "w16_g4_o2", "default", "w64_g4_o8"] {
        let (cfg, _) = ag_config(name);
        check(
            &membar_formal::async_groups::spec(&cfg),
            &mbarrier_unit_model::ports::async_groups::AsyncGroupsPorts::ports(&cfg),
        );
    }
    for (_, cfg) in sm_sync_model::Config::named() {
        check(
            &membar_formal::sm_sync::spec(&cfg),
            &sm_sync_model::SmSyncPorts::ports(&cfg),
        );
    }
}
