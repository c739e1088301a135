//! What every unit's formal tests share (each unit's entry crate has its
//! own `tests/formal.rs` and `tests/formal_mutants.rs`, calling these with
//! its harness and its mutant table): the run options CI uses, the figures
//! printed per run, the verdict checks, the structural check of a harness,
//! and the mutant-killing run with its replay checks.
//!
//! Environment of the mutant runs (as before the split): `MUTANT=<name>`
//! runs one mutant, `MUTANT_UNIT=<unit>` one unit's, `FORMAL_MUTANTS=all`
//! every mutant instead of the first of each property group.

use crate::mutants::{apply, Mutant, UnitMutants};
use crate::runner::{run_unit, GroupResult, Options, Verdict};
use crate::sby::Engine;
use crate::unit::UnitSpec;
use std::path::{Path, PathBuf};
use std::time::Instant;
use unit_ports::Port;

/// The repository root, from a crate's `CARGO_MANIFEST_DIR` and its depth
/// below the root (`hw/bar_unit/entry`: 3).
pub fn root(manifest_dir: &str, depth: usize) -> PathBuf {
    let mut p = PathBuf::from(manifest_dir);
    for _ in 0..depth {
        p.pop();
    }
    p
}

/// CI's options: `engine` to `depth` on `groups` (empty: every group).
pub fn opts(engine: Engine, depth: u32, groups: &[&str], jobs: usize) -> Options {
    Options {
        engine,
        depth,
        groups: groups.iter().map(|g| g.to_string()).collect(),
        timeout: 600,
        jobs,
        ..Options::default()
    }
}

/// Run `spec` on `verilog`, print each group's figures under `what` with
/// the wall time, and check every group's verdict is `want` (and, with
/// `groups`, that exactly that many groups ran).
pub fn run_expect(
    what: &str,
    spec: &UnitSpec,
    verilog: &Path,
    o: &Options,
    groups: Option<usize>,
    want: Verdict,
) {
    let t = Instant::now();
    let r = run_unit(spec, verilog, o).unwrap_or_else(|e| panic!("{what}: {e}"));
    println!("{what} ({:.1} s wall):", t.elapsed().as_secs_f64());
    for g in &r {
        println!("  {}", g.summary());
    }
    if let Some(n) = groups {
        assert_eq!(r.len(), n, "{what}: groups run");
    }
    expect_all(&r, &want);
}

/// Every group's verdict is `want`, or the group, its summary and its log
/// tail are the failure.
pub fn expect_all(r: &[GroupResult], want: &Verdict) {
    assert!(!r.is_empty(), "no group ran");
    for g in r {
        assert_eq!(
            &g.verdict,
            want,
            "group {}: {}\n{}",
            g.group.name,
            g.summary(),
            g.log_tail
        );
    }
}

/// Every label of every group is one assertion of the harness, under its
/// group's `ifdef`; `all` lists every label; every port of the declaration
/// is connected; the harness's top instantiates the unit's module.
pub fn assert_harness_complete(spec: &UnitSpec, ports: &[Port]) {
    let h = &spec.harness;
    for g in spec.groups.iter().filter(|g| g.name != "all") {
        for p in g.props {
            let at = format!("      {p}: assert (");
            assert_eq!(h.matches(&at).count(), 1, "{}: {p}", spec.unit);
            let pos = h.find(&at).unwrap();
            let guard = h[..pos].rfind("`ifdef G_").unwrap();
            assert!(
                h[guard..].starts_with(&format!("`ifdef G_{}\n", g.name.to_uppercase())),
                "{}: {p} is not under `ifdef G_{}",
                spec.unit,
                g.name.to_uppercase()
            );
        }
        assert!(h.contains(&format!("`define G_{}\n", g.name.to_uppercase())));
    }
    let all = spec.groups.iter().find(|g| g.name == "all").unwrap();
    let n: usize = spec
        .groups
        .iter()
        .filter(|g| g.name != "all")
        .map(|g| g.props.len())
        .sum();
    assert_eq!(all.props.len(), n, "{}: `all` lists every label", spec.unit);
    for p in ports {
        assert!(h.contains(&format!(".{0}({0})", p.name)), "{}", p.name);
    }
    assert!(h.contains(&format!("module {}(input wire clock);", spec.top)));
    assert!(h.contains(&format!("  {} dut (", spec.module)));
}

/// How a unit's mutant test picks and runs its mutants.
pub struct MutantRun<'a> {
    /// The repository root (`verilog_out/` below it).
    pub root: &'a Path,
    /// The harness of a table's configuration.
    pub spec_of: &'a (dyn Fn(&UnitMutants) -> UnitSpec + Sync),
    /// BMC depth per unit: enough for each mutant's shortest trace.
    pub depth: fn(&str) -> u32,
    /// Besides the first of each property group, which mutants CI runs by
    /// default (`None`: the first of each group).
    pub ci_only: Option<&'a [&'a str]>,
}

fn verilog_of(root: &Path, u: &UnitMutants) -> PathBuf {
    root.join("verilog_out").join(u.dir).join(u.file)
}

/// Every selected mutant of `units` is killed by its group's BMC run, and
/// its trace replays: the reference model parts from the mutated Verilog
/// or the scoreboard flags it, while the model alone keeps the scoreboard.
pub fn kill_mutants(units: &[UnitMutants], run: &MutantRun) {
    let only = std::env::var("MUTANT").ok();
    let unit_only = std::env::var("MUTANT_UNIT").ok();
    let every = std::env::var("FORMAL_MUTANTS").is_ok_and(|v| v == "all") || only.is_some();
    let scratch = tempfile::tempdir().unwrap();
    let mut seen_groups: Vec<(&str, &str)> = Vec::new();
    let todo: Vec<(&UnitMutants, &Mutant)> = units
        .iter()
        .flat_map(|u| u.mutants.iter().map(move |m| (u, m)))
        .filter(|(_, m)| only.as_deref().is_none_or(|o| o == m.name))
        .filter(|(u, _)| unit_only.as_deref().is_none_or(|o| o == u.unit))
        .filter(|(u, m)| {
            let first = !seen_groups.contains(&(u.unit, m.group));
            seen_groups.push((u.unit, m.group));
            every || (first && run.ci_only.is_none_or(|l| l.contains(&m.name)))
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
    if todo.is_empty() && unit_only.is_some() {
        // MUTANT_UNIT names another binary's unit: nothing of ours to run.
        return;
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|sc| {
        for _ in 0..2 {
            sc.spawn(|| loop {
                let n = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some((u, m)) = todo.get(n) else { break };
                let text = std::fs::read_to_string(verilog_of(run.root, u)).unwrap();
                let mutant = apply(m, &text).unwrap_or_else(|e| panic!("{e}"));
                let v = scratch.path().join(format!("{}.v", m.name));
                std::fs::write(&v, &mutant).unwrap();
                let opts = Options {
                    engine: Engine::Bmc,
                    depth: (run.depth)(u.unit),
                    groups: vec![m.group.to_string()],
                    timeout: 300,
                    keep: None,
                    jobs: 1,
                    ..Options::default()
                };
                let r = run_unit(&(run.spec_of)(u), &v, &opts).unwrap_or_else(|e| panic!("{e}"));
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

/// Every mutant of `units` changes exactly one line of its (unshared)
/// Verilog and names a property group of the unit's harness.
pub fn check_mutant_anchors(
    units: &[UnitMutants],
    root: &Path,
    spec_of: &dyn Fn(&UnitMutants) -> UnitSpec,
) {
    for u in units {
        let text = std::fs::read_to_string(verilog_of(root, u)).unwrap();
        // Mutants edit one module per instance (the file shares identical modules).
        let text = hdl_kit::emit::unshare_file(&text).unwrap();
        let spec = spec_of(u);
        assert!(!u.mutants.is_empty(), "{}: no mutant", u.unit);
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
