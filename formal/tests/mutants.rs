//! Every textual mutant of the small configuration's emitted Verilog
//! (`membar_formal::mutants::MUTANTS`: the testbench's two injected bugs and
//! the reference model's faults, as Verilog edits) is killed by the formal
//! run: a counterexample in its property group, found by `abc bmc3`, whose
//! trace the replay reads and the scoreboard / reference model confirm.
//! The unmutated design passing the same groups is `tests/proofs.rs`.
//!
//! Replay one mutant: `MUTANT=no_block cargo test --release -p membar-formal --test mutants`.

use membar_formal::mutants::{apply, MUTANTS};
use membar_formal::runner::{run, Options, Verdict};
use membar_formal::sby::Engine;
use membar_unit_env::Config;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn every_mutant_is_killed_and_the_trace_replays() {
    let cfg = Config::load(&root().join("configs/w8_k2_n1_c4.yaml")).unwrap();
    let text =
        std::fs::read_to_string(root().join("verilog_out/w8_k2_n1_c4/membar_unit.v")).unwrap();
    let only = std::env::var("MUTANT").ok();
    let scratch = tempfile::tempdir().unwrap();
    let todo: Vec<_> = MUTANTS
        .iter()
        .filter(|m| only.as_deref().is_none_or(|o| o == m.name))
        .collect();
    // Two mutants at a time (CI has two cores).
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|sc| {
        for _ in 0..2 {
            sc.spawn(|| loop {
                let n = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(m) = todo.get(n) else { break };
                let mutant = apply(m, &text).unwrap_or_else(|e| panic!("{e}"));
                assert_ne!(mutant, text);
                let v = scratch.path().join(format!("{}.v", m.name));
                std::fs::write(&v, &mutant).unwrap();
                let opts = Options {
                    engine: Engine::Bmc,
                    depth: 24,
                    groups: vec![m.group.to_string()],
                    timeout: 600,
                    keep: None,
                    jobs: 1,
                    ..Options::default()
                };
                let r = run(&cfg, &v, &opts).unwrap_or_else(|e| panic!("{e}"));
                results
                    .lock()
                    .unwrap()
                    .push((n, *m, r.into_iter().next().unwrap()));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.0);
    let mut killed = Vec::new();
    let mut survivors = Vec::new();
    for (_, m, g) in &results {
        println!("mutant {:<22} ({}): {}", m.name, m.mirrors, g.summary());
        match &g.verdict {
            Verdict::Counterexample { props, .. } => {
                assert!(
                    !props.is_empty(),
                    "mutant {}: counterexample names no property:\n{}",
                    m.name,
                    g.log_tail
                );
                let rep = g.replay.as_ref().expect("a counterexample is replayed");
                assert!(rep.error.is_none(), "mutant {}: {rep}", m.name);
                assert!(rep.cycles > 0);
                // The trace shows the bug at the ports: the scoreboard flags the
                // Verilog's outputs, or the model parts from them.
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
                killed.push((m.name, props.join(", "), g.seconds));
            }
            _ => survivors.push(m.name),
        }
    }
    println!("\n| mutant | killed by | seconds |\n| --- | --- | --- |");
    for (n, p, s) in &killed {
        println!("| {n} | {p} | {s:.1} |");
    }
    assert!(survivors.is_empty(), "mutants not killed: {survivors:?}");
    assert!(!killed.is_empty(), "MUTANT={only:?} names no mutant");
}

#[test]
fn every_mutant_anchor_is_unique_in_the_small_configuration() {
    let text =
        std::fs::read_to_string(root().join("verilog_out/w8_k2_n1_c4/membar_unit.v")).unwrap();
    // Mutants edit one module per instance (the file shares identical modules).
    let text = hdl_kit::emit::unshare_file(&text).unwrap();
    for m in MUTANTS {
        let out = apply(m, &text).unwrap_or_else(|e| panic!("{e}"));
        let changed = out
            .lines()
            .zip(text.lines())
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(changed, 1, "mutant {} changed {changed} lines", m.name);
        assert!(
            membar_formal::harness::group(m.group).is_some(),
            "mutant {}: no group {}",
            m.name,
            m.group
        );
    }
}
