//! Every textual mutant of the bar, cluster, mbarrier, async_groups and
//! sm_sync emitted Verilog (`membar_formal::mutants::UNIT_MUTANTS`, one per kind of bug their
//! scoreboards' mutant tests inject) is killed by the formal run: a
//! counterexample in its property group (`abc bmc3`), whose trace the replay
//! reads and where the reference model parts from the Verilog or the
//! scoreboard flags it. The unmutated designs passing the same groups is
//! `tests/units.rs` and `tests/async_sm_sync.rs`.
//!
//! To stay within the CI budget the test runs, by default, the first mutant
//! of each property group, for sm_sync only two of them ([`SM_SYNC_CI`]):
//! 16 of 33; every mutant (≈7–8 min on two busy
//! cores) is one command:
//! `FORMAL_MUTANTS=all cargo test --release -p membar-formal --test unit_mutants`.
//! Replay one mutant: `MUTANT=bar_no_block cargo test --release -p membar-formal --test unit_mutants`;
//! one unit's: `MUTANT_UNIT=sm_sync FORMAL_MUTANTS=all cargo test …`.

use membar_formal::mutants::{apply, Mutant, UnitMutants, UNIT_MUTANTS};
use membar_formal::runner::{run_unit, Options, Verdict};
use membar_formal::sby::Engine;
use membar_formal::unit::UnitSpec;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn spec_of(u: &UnitMutants) -> UnitSpec {
    let cfg = root().join("verilog_out").join(u.dir).join("config.yaml");
    let text = std::fs::read_to_string(&cfg).unwrap();
    match u.unit {
        "bar" => membar_formal::bar::spec(
            &bar_unit_model::config::BarConfig::from_yaml(&text, "config").unwrap(),
        ),
        "cluster" => membar_formal::cluster::spec(
            &bar_unit_model::config::ClusterConfig::from_yaml(&text, "config").unwrap(),
        ),
        "async_groups" => membar_formal::async_groups::spec(
            &mbarrier_unit_model::config::Config::from_yaml_str(&text, "config").unwrap(),
        ),
        "sm_sync" => membar_formal::sm_sync::spec(
            &sm_sync_model::Config::by_name(u.dir.rsplit('/').next().unwrap()).unwrap(),
        ),
        _ => membar_formal::mbarrier::spec(
            &mbarrier_unit_model::config::Config::from_yaml_str(&text, "config").unwrap(),
        ),
    }
}

/// The sm_sync mutants run by default: each sm_sync run spends ≈20 s in
/// yosys reading the 20 000-line top, so CI runs the decoder's (S5) and the
/// release combiner's (S4) only; `FORMAL_MUTANTS=all` runs all 9.
const SM_SYNC_CI: &[&str] = &["sm_silent_refusal", "sm_mb_wake_dropped"];

/// BMC depth per unit: enough for each mutant's shortest trace (the
/// mbarrier timeout mutant needs L = 8 cycles after a try_wait).
fn depth(unit: &str) -> u32 {
    match unit {
        "mbarrier" => 12,
        _ => 10,
    }
}

#[test]
fn every_unit_mutant_is_killed_and_the_trace_replays() {
    let only = std::env::var("MUTANT").ok();
    let unit_only = std::env::var("MUTANT_UNIT").ok();
    let every = std::env::var("FORMAL_MUTANTS").is_ok_and(|v| v == "all") || only.is_some();
    let scratch = tempfile::tempdir().unwrap();
    let mut seen_groups: Vec<(&str, &str)> = Vec::new();
    let todo: Vec<(&UnitMutants, &Mutant)> = UNIT_MUTANTS
        .iter()
        .flat_map(|u| u.mutants.iter().map(move |m| (u, m)))
        .filter(|(_, m)| only.as_deref().is_none_or(|o| o == m.name))
        .filter(|(u, _)| unit_only.as_deref().is_none_or(|o| o == u.unit))
        .filter(|(u, m)| {
            let first = !seen_groups.contains(&(u.unit, m.group));
            seen_groups.push((u.unit, m.group));
            every || (first && (u.unit != "sm_sync" || SM_SYNC_CI.contains(&m.name)))
        })
        .collect();
    println!(
        "{} mutants ({}; FORMAL_MUTANTS=all runs every one)",
        todo.len(),
        if every {
            "every one selected"
        } else {
            "the first of each property group"
        }
    );
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|sc| {
        for _ in 0..2 {
            sc.spawn(|| loop {
                let n = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some((u, m)) = todo.get(n) else { break };
                let v0 = root().join("verilog_out").join(u.dir).join(u.file);
                let text = std::fs::read_to_string(&v0).unwrap();
                let mutant = apply(m, &text).unwrap_or_else(|e| panic!("{e}"));
                let v = scratch.path().join(format!("{}.v", m.name));
                std::fs::write(&v, &mutant).unwrap();
                let opts = Options {
                    engine: Engine::Bmc,
                    depth: depth(u.unit),
                    groups: vec![m.group.to_string()],
                    timeout: 300,
                    keep: None,
                    jobs: 1,
                    ..Options::default()
                };
                let r = run_unit(&spec_of(u), &v, &opts).unwrap_or_else(|e| panic!("{e}"));
                results
                    .lock()
                    .unwrap()
                    .push((n, u.unit, *m, r.into_iter().next().unwrap()));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.0);
    let mut survivors = Vec::new();
    println!("| unit | mutant | killed by | cycle | seconds |\n| --- | --- | --- | --- | --- |");
    for (_, unit, m, g) in &results {
        match &g.verdict {
            Verdict::Counterexample { props, step, .. } => {
                assert!(
                    !props.is_empty(),
                    "mutant {}: no property named:\n{}",
                    m.name,
                    g.log_tail
                );
                let rep = g.replay.as_ref().expect("a counterexample is replayed");
                assert!(rep.error.is_none(), "mutant {}: {rep}", m.name);
                assert!(
                    rep.violation.is_some() || rep.divergence.is_some(),
                    "mutant {}: the trace neither breaks the scoreboard nor parts model and Verilog: {rep}",
                    m.name
                );
                assert!(
                    rep.model_violation.is_none(),
                    "mutant {}: the model breaks the scoreboard on the trace's inputs: {rep}",
                    m.name
                );
                println!(
                    "| {unit} | {} | {} | {} | {:.1} |",
                    m.name,
                    props.join(", "),
                    step.map_or("?".into(), |s| s.saturating_sub(1).to_string()),
                    g.seconds
                );
                println!("    ({}) replay: {rep}", m.mirrors);
            }
            _ => {
                println!("| {unit} | {} | NOT KILLED: {} | | |", m.name, g.summary());
                survivors.push(m.name)
            }
        }
    }
    assert!(survivors.is_empty(), "mutants not killed: {survivors:?}");
    assert!(!results.is_empty(), "MUTANT={only:?} names no mutant");
}

#[test]
fn every_unit_mutant_anchor_is_unique_and_names_a_group() {
    for u in UNIT_MUTANTS {
        let text =
            std::fs::read_to_string(root().join("verilog_out").join(u.dir).join(u.file)).unwrap();
        // Mutants edit one module per instance (the file shares identical modules).
        let text = hdl_kit::emit::unshare_file(&text).unwrap();
        let spec = spec_of(u);
        for m in u.mutants {
            let out = apply(m, &text).unwrap_or_else(|e| panic!("{e}"));
            let changed = out
                .lines()
                .zip(text.lines())
                .filter(|(a, b)| a != b)
                .count();
            assert_eq!(changed, 1, "mutant {} changed {changed} lines", m.name);
            assert!(
                spec.groups.iter().any(|g| g.name == m.group),
                "mutant {}: no group {} in unit {}",
                m.name,
                m.group,
                u.unit
            );
        }
    }
}
