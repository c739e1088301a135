//! The formal runs of the sm_sync top that CI runs (docs/formal.md),
//! through its registry entry (the path `membar formal --unit sm_sync`
//! takes): on `small` `abc pdr` proves every property group unboundedly,
//! one task per group (the nine tasks take ≈ 45 s; `all` in one task, 12 s
//! until the async-group tracker was rewritten for timing, no longer
//! finishes in 600 s: pdr is sensitive to the AIG's shape, docs/formal.md),
//! and on `w16` `abc bmc3` bounds every group. Each prints
//! its figures. The harness can fail: `tests/formal_mutants.rs` kills a
//! mutant of the decoder's and the combiner's groups. Longer runs: `bash
//! formal/run-all.sh`.

use membar_formal::runner::Verdict;
use membar_formal::sby::Engine;
use membar_formal::suite::{assert_harness_complete, opts, root, run_expect};
use sm_sync_entry::{sm_sync_formal, SM_SYNC};
use unit_ports::Unit;

const SM_W16_DEPTH: u32 = 5;

/// Every property group of the top, each its own pdr task on `small`.
const SMALL_GROUPS: &[&str] = &["rst", "s2", "s3", "s4", "s5", "s6", "s1m", "s1b", "s1d"];

#[test]
fn sm_sync_small_proven_w16_bounded() {
    for (name, engine, depth, groups, want) in [
        ("small", Engine::Pdr, 20, SMALL_GROUPS, Verdict::Proven),
        (
            "w16",
            Engine::Bmc,
            SM_W16_DEPTH,
            &["all"][..],
            Verdict::Bounded(SM_W16_DEPTH),
        ),
    ] {
        let d = root(env!("CARGO_MANIFEST_DIR"), 3)
            .join("verilog_out")
            .join(SM_SYNC.dir)
            .join(name);
        let (spec, _, v) =
            (SM_SYNC.formal.spec)(&d.join("config.yaml"), Some(&d.join("sm_sync.v")))
                .unwrap_or_else(|e| panic!("{name}: {}", e.message));
        run_expect(
            &format!(
                "sm_sync {name}, abc {}, depth {depth}, every group",
                engine.name()
            ),
            &spec,
            &v,
            &opts(engine, depth, groups, 2),
            Some(groups.len()),
            want,
        );
    }
}

/// Every label of every group is one assertion under its group's `ifdef`,
/// `all` lists every label, every port is connected: every named top.
/// `SMALL_GROUPS` is every group of the harness but `all` (their union): a
/// group added later is proven in CI too.
#[test]
fn small_groups_are_every_group() {
    let cfg = sm_sync_model::Config::named()
        .into_iter()
        .find(|(n, _)| *n == "small")
        .expect("a named configuration `small`")
        .1;
    let mut want: Vec<String> = sm_sync_formal::spec(&cfg)
        .groups
        .iter()
        .filter(|g| g.name != "all")
        .map(|g| g.name.to_string())
        .collect();
    let mut have: Vec<String> = SMALL_GROUPS.iter().map(|g| g.to_string()).collect();
    want.sort();
    have.sort();
    assert_eq!(have, want);
}

#[test]
fn harness_has_every_label_once_and_every_port() {
    for (_, cfg) in sm_sync_model::Config::named() {
        assert_harness_complete(
            &sm_sync_formal::spec(&cfg),
            &sm_sync_model::SmSyncPorts::ports(&cfg),
        );
    }
}
