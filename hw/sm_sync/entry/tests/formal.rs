//! The formal runs of the sm_sync top that CI runs (docs/formal.md),
//! through its registry entry (the path `membar formal --unit sm_sync`
//! takes): on `small` `abc pdr` proves every property group unboundedly (one
//! task, group `all`: one front-end run; the per-group figures are in
//! docs/formal.md), and on `w16` `abc bmc3` bounds every group. Each prints
//! its figures. The harness can fail: `tests/formal_mutants.rs` kills a
//! mutant of the decoder's and the combiner's groups. Longer runs: `bash
//! formal/run-all.sh`.

use membar_formal::runner::Verdict;
use membar_formal::sby::Engine;
use membar_formal::suite::{assert_harness_complete, opts, root, run_expect};
use sm_sync_entry::{sm_sync_formal, SM_SYNC};
use unit_ports::Unit;

const SM_W16_DEPTH: u32 = 5;

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
            &opts(engine, depth, &["all"], 1),
            Some(1),
            want,
        );
    }
}

/// Every label of every group is one assertion under its group's `ifdef`,
/// `all` lists every label, every port is connected: every named top.
#[test]
fn harness_has_every_label_once_and_every_port() {
    for (_, cfg) in sm_sync_model::Config::named() {
        assert_harness_complete(
            &sm_sync_formal::spec(&cfg),
            &sm_sync_model::SmSyncPorts::ports(&cfg),
        );
    }
}
