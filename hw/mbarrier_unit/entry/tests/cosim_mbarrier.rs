//! Cosimulation of the checked-in `verilog_out/mbarrier_unit/<name>/mbarrier_unit.v`
//! of every shipped configuration (`mbarrier_unit_rtl::shipped()`) against
//! the golden model through Verilator, in lockstep on seeded random legal +
//! illegal stimulus: every output compared every cycle, and the port-only
//! scoreboard (M1–M8) checking the Verilog's outputs. Plus bug injection:
//! mutated copies of the default Verilog (an inverted compare, a completion
//! that ignores the tx-count) are caught at a port and a cycle.
//!
//! Knobs: `SEED` (one seed), `SEEDS` (default 3), `CYCLES` (default 50 000
//! per seed). Replay: `SEED=<n> CYCLES=<n> cargo test --release -p mbarrier-unit-entry --test cosim_mbarrier`.

use mbarrier_unit_model::config::Config;
use mbarrier_unit_model::mbarrier_unit::MbarrierModel;
use mbarrier_unit_model::ports::mbarrier::{op, MbarrierUnitPorts};
use mbarrier_unit_model::scoreboard::MbarScoreboard;
use mbarrier_unit_model::workload::MbarRandomEnv;
use membar_testbench::{BuildOptions, VerilatorDut};
use std::path::{Path, PathBuf};
use std::time::Instant;
use unit_ports::{Dut, PortBundle};

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

fn seeds() -> Vec<u64> {
    match env_u64("SEED") {
        Some(s) => vec![s],
        None => (1..=env_u64("SEEDS").unwrap_or(3)).collect(),
    }
}

fn replay(seed: u64, cycles: u64) -> String {
    format!("SEED={seed} CYCLES={cycles} cargo test --release -p mbarrier-unit-entry --test cosim_mbarrier")
}

fn emitted(name: &str) -> PathBuf {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../verilog_out/mbarrier_unit")
        .join(name)
        .join("mbarrier_unit.v");
    assert!(
        p.is_file(),
        "{} is missing (write it with `cargo run --release --bin membar -- release`)",
        p.display()
    );
    p
}

fn quiet() -> BuildOptions {
    BuildOptions {
        verbose: false,
        ..BuildOptions::default()
    }
}

/// A divergence: cycle, port, Verilog value, model value (or a scoreboard violation).
struct Mismatch {
    cycle: u64,
    port: String,
    detail: String,
}

/// Lockstep run of `dut` vs the golden model; `Ok(cycles)` or the first mismatch.
fn run(
    cfg: &Config,
    seed: u64,
    n: u64,
    dut: &mut dyn Dut<MbarrierUnitPorts>,
    history: &mut Vec<mbarrier_unit_model::ports::mbarrier::Inputs>,
) -> Result<u64, Mismatch> {
    let mut model = MbarrierModel::new(cfg);
    let mut sb = MbarScoreboard::new(cfg);
    let mut env = MbarRandomEnv::new(cfg, seed);
    for c in 0..n {
        let i = env.drive(c);
        history.push(i);
        let want = model.step(&i);
        let got = dut.step(&i);
        if let Some((port, g, w)) = got.first_difference(&want) {
            return Err(Mismatch {
                cycle: c,
                port: port.to_string(),
                detail: format!("verilog {g:#x}, model {w:#x}; inputs {}", i.describe()),
            });
        }
        if let Err(v) = sb.check(c, &i, &got) {
            return Err(Mismatch {
                cycle: c,
                port: "(scoreboard)".into(),
                detail: v.to_string(),
            });
        }
        env.observe(c, &i, &got);
    }
    Ok(sb.checks())
}

#[test]
fn shipped_verilog_matches_model() {
    let n = env_u64("CYCLES").unwrap_or(50_000);
    for (name, cfg) in mbarrier_unit_rtl::shipped() {
        let path = emitted(&name);
        let t0 = Instant::now();
        let proto = VerilatorDut::<MbarrierUnitPorts>::build(&path, &cfg, &quiet())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let build = t0.elapsed();
        for seed in seeds() {
            let mut dut = proto.fresh().unwrap_or_else(|e| panic!("{e}"));
            let t = Instant::now();
            let mut hist = Vec::new();
            match run(&cfg, seed, n, &mut dut, &mut hist) {
                Ok(checked) => assert_eq!(checked, n),
                Err(m) => panic!(
                    "{name} seed {seed}: the Verilog diverges at cycle {} on `{}`: {}\nreplay: {}",
                    m.cycle,
                    m.port,
                    m.detail,
                    replay(seed, n)
                ),
            }
            println!(
                "{name} seed {seed}: {n} cycles ok, {:.0} cycles/s (model + Verilator + scoreboard; build/cache {build:.2?}); replay: {}",
                n as f64 / t.elapsed().as_secs_f64(),
                replay(seed, n)
            );
        }
        if name == "default" {
            let mut dut = proto.fresh().unwrap();
            let mut env = MbarRandomEnv::new(&cfg, 1);
            let inputs: Vec<_> = (0..100_000).map(|c| env.drive(c)).collect();
            let d = dut.bench_raw(&inputs, inputs.len() as u64);
            println!(
                "default: Verilator alone {:.0} cycles/s",
                inputs.len() as f64 / d.as_secs_f64()
            );
        }
    }
}

/// Build a mutated copy of the default Verilog and run it; it must diverge.
fn mutant(
    tag: &str,
    from: &str,
    to: &str,
) -> (Mismatch, Vec<mbarrier_unit_model::ports::mbarrier::Inputs>) {
    let cfg = Config::default();
    let text = std::fs::read_to_string(emitted("default")).unwrap();
    assert!(
        text.contains(from),
        "mutation site `{from}` not in the emitted Verilog"
    );
    let dir = std::env::temp_dir().join(format!("mbar-mutant-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mbarrier_unit.v");
    std::fs::write(&path, text.replace(from, to)).unwrap();
    let mut dut = VerilatorDut::<MbarrierUnitPorts>::build(&path, &cfg, &quiet())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut hist = Vec::new();
    let r = run(&cfg, 1, 50_000, &mut dut, &mut hist);
    std::fs::remove_dir_all(&dir).ok();
    match r {
        Ok(_) => panic!("mutant `{tag}` ({from} -> {to}) was not caught in 50000 cycles"),
        Err(m) => {
            println!(
                "mutant {tag}: caught at cycle {} on `{}`: {}",
                m.cycle, m.port, m.detail
            );
            (m, hist)
        }
    }
}

#[test]
fn injected_bugs_are_caught_at_a_port_and_cycle() {
    // 1. Inverted compare: test_wait/try_wait answer "done" when the phase
    //    has NOT completed. Caught on `rsp_done` two cycles after a wait op
    //    was accepted (accepted, stepped, answered).
    let (m, hist) = mutant(
        "done_inverted",
        "rsp_done_r__d = op_ok & is_wait & (op_e_parity != op_parity);",
        "rsp_done_r__d = op_ok & is_wait & (op_e_parity == op_parity);",
    );
    assert_eq!(m.port, "rsp_done", "{}", m.detail);
    let acc = hist[m.cycle as usize - 2];
    assert!(
        acc.op_valid && (acc.op_code == op::TEST_WAIT || acc.op_code == op::TRY_WAIT),
        "two cycles before the mismatch a wait was presented (and accepted): {acc:?}"
    );
    // 2. Completion ignores the tx-count (M1/M4): a phase completes with
    //    bytes outstanding; caught at some port within the run.
    let (m, _) = mutant(
        "complete_ignores_tx",
        "& (count == e_expected)) & pend_zero & tx_zero;",
        "& (count == e_expected)) & pend_zero;",
    );
    assert!(m.cycle > 0, "caught at cycle {} on {}", m.cycle, m.port);
}
