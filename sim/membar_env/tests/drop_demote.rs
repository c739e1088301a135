//! `docs/results/drop_demote.md` is what the drop/demote example prints now
//! (regenerate with
//! `cargo run --release -p membar-unit-env --example drop_demote > docs/results/drop_demote.md`),
//! and drop/demote saves what it should on the workloads built for it.

use membar_unit_env::workload::WorkloadFile;

#[test]
fn shipped_table_is_the_examples_output() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/results/drop_demote.md");
    let shipped = std::fs::read_to_string(&path).expect("docs/results/drop_demote.md");
    let now = membar_unit_env::drop_demote::table(1).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        shipped == now,
        "{} is stale: regenerate it with\n  cargo run --release -p membar-unit-env --example drop_demote > docs/results/drop_demote.md\nnow:\n{now}",
        path.display()
    );
}

/// Demote: on `sys_heavy` (every TXN GPU memory) every SYS barrier is
/// treated as GL and its release latency falls by more than half; without
/// the option nothing is dropped or demoted. Drop: on `lone_barrier` with
/// `gl_bar_ack`, GL barriers with no traffic since the previous one are
/// answered at once and the mean GL latency falls.
#[test]
fn drop_demote_saves_latency_and_is_off_by_default() {
    use membar_unit_env::config::Config;
    use membar_unit_env::drop_demote::measure;
    use membar_unit_env::ports::level;
    let run = |cfg: &Config, name: &str, on: bool| {
        let mut wf = WorkloadFile::builtin(name).unwrap();
        assert!(!wf.mmu.drop_demote, "{name}: off by default");
        wf.mmu.drop_demote = on;
        measure(cfg, &wf, 1).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let d = Config::default();
    let (s0, m0) = run(&d, "sys_heavy", false);
    let (s1, m1) = run(&d, "sys_heavy", true);
    assert_eq!((m0.bars_demoted, m0.bars_dropped), (0, [0; 4]));
    assert!(m1.bars_demoted > 50, "{m1:?}");
    let sys = |s: &membar_unit_env::stats::Stats| s.latency[level::SYS as usize].mean();
    assert!(
        sys(&s1) < 0.5 * sys(&s0),
        "SYS {} -> {}",
        sys(&s0),
        sys(&s1)
    );
    let g = Config {
        gl_bar_ack: true,
        ..Config::default()
    };
    let (s0, m0) = run(&g, "lone_barrier", false);
    let (s1, m1) = run(&g, "lone_barrier", true);
    assert_eq!(m0.bars_dropped, [0; 4]);
    assert!(m1.bars_dropped[level::GL as usize] > 10, "{m1:?}");
    let gl = |s: &membar_unit_env::stats::Stats| s.latency[level::GL as usize].mean();
    assert!(gl(&s1) < gl(&s0) - 20.0, "GL {} -> {}", gl(&s0), gl(&s1));
}
