//! Cosimulation of the checked-in `verilog_out/sm_sync/<name>/sm_sync.v`
//! against the reference model (`SmSyncModel`) through Verilator, on the one
//! lockstep runner with random PTX-derived instruction streams
//! (`sm_sync_model::stream::StreamDriver`: random lowered ops of the PTX
//! lowering table, encoded for the decoded-instruction port, plus the memory
//! side): every output compared every cycle, the port-only S1–S6 scoreboard
//! checking the Verilog's outputs, the coverage bins over the run (all hit).
//! Plus a mutated copy of the Verilog (the decoder lets mbarrier op 8,
//! try_wait, through as refused) must be caught.
//!
//! `small` runs here; `w16` (1.4 MB of Verilog, a long cold Verilator build)
//! with `SM_SYNC_COSIM_ALL=1`. Knobs: `SEED`, `CYCLES` (default 20 000).
//! Replay: `SEED=<n> CYCLES=<n> cargo test --release -p sm-sync-entry --test cosim -- --nocapture`.

use membar_testbench::{BuildOptions, VerilatorDut};
use sm_sync_model::coverage::Coverage;
use sm_sync_model::scoreboard::Scoreboard;
use sm_sync_model::stream::StreamDriver;
use sm_sync_model::{Config, SmSyncModel, SmSyncPorts};
use std::path::{Path, PathBuf};
use std::time::Instant;
use unit_ports::lockstep::{cycles_from_env, replay_command, seed_from_env, RunOptions};
use unit_ports::Dut;

fn emitted(name: &str) -> PathBuf {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../verilog_out/sm_sync")
        .join(name)
        .join("sm_sync.v");
    assert!(
        p.is_file(),
        "{} is missing (write it with `cargo run --release --bin membar -- release`)",
        p.display()
    );
    p
}

/// C++ at -O0: the generated model builds several times faster.
fn quick() -> BuildOptions {
    BuildOptions {
        verbose: false,
        opt_fast: "-O0".into(),
        ..BuildOptions::default()
    }
}

fn run(
    cfg: &Config,
    seed: u64,
    n: u64,
    dut: &mut dyn Dut<SmSyncPorts>,
    cov: &mut Coverage,
) -> Result<(u64, f64), String> {
    let mut model = SmSyncModel::new(cfg);
    let mut drv = StreamDriver::new(cfg, seed);
    let mut sb = Scoreboard::new(cfg);
    let opts = RunOptions {
        cycles: n,
        drain_cycles: 1_000,
        reset_prob: 0.0003,
        seed,
        replay: Some(replay_command("sm-sync-entry", "cosim", seed, Some(n))),
        ..RunOptions::default()
    };
    let t = Instant::now();
    match unit_ports::lockstep::run(&mut model, Some(dut), &mut drv, &opts, &mut [&mut sb, cov]) {
        Err(m) => Err(m.to_string()),
        Ok(r) => match r.failure {
            Some(f) => Err(format!("(scoreboard) {f}")),
            None => Ok((sb.accepted, r.cycles as f64 / t.elapsed().as_secs_f64())),
        },
    }
}

#[test]
fn sm_sync_verilog_matches_model_on_random_ptx_streams() {
    let seed = seed_from_env(2026);
    let n = cycles_from_env(20_000);
    let all = std::env::var("SM_SYNC_COSIM_ALL").is_ok_and(|v| v == "1");
    for (name, cfg) in Config::named() {
        if name != "small" && !all {
            println!("{name}: skipped (slow Verilator build; run with SM_SYNC_COSIM_ALL=1)");
            continue;
        }
        let t0 = Instant::now();
        let proto = VerilatorDut::<SmSyncPorts>::build(&emitted(name), &cfg, &quick())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let build = t0.elapsed();
        let mut dut = proto.fresh().unwrap();
        let mut cov = Coverage::new(&cfg);
        let (acc, cps) = run(&cfg, seed, n, &mut dut, &mut cov)
            .unwrap_or_else(|e| panic!("{name} seed {seed}: the Verilog diverges:\n{e}"));
        println!(
            "{name} seed {seed}: {n} cycles ok, {acc} instructions accepted, {cps:.0} cycles/s (model + Verilator + scoreboard + coverage; build/cache {build:.2?}); replay: {}",
            replay_command("sm-sync-entry", "cosim", seed, Some(n))
        );
        if std::env::var("SEED").is_err() {
            assert!(
                cov.missing().is_empty(),
                "{name}: coverage bins not hit by the Verilog run: {:?}",
                cov.missing()
            );
        }
        // The model alone, for comparison.
        let mut m = SmSyncModel::new(&cfg);
        let mut drv = StreamDriver::new(&cfg, seed);
        let t = Instant::now();
        let r = unit_ports::lockstep::run(
            &mut m,
            None,
            &mut drv,
            &RunOptions {
                cycles: n,
                drain_cycles: 0,
                seed,
                ..RunOptions::default()
            },
            &mut [],
        )
        .unwrap();
        println!(
            "{name}: model alone {:.0} cycles/s, Verilator step alone {:.0} cycles/s",
            r.cycles as f64 / t.elapsed().as_secs_f64(),
            n as f64 / dut.step_time().as_secs_f64()
        );
    }
}

#[test]
fn a_decoder_bug_in_the_verilog_is_caught() {
    // The decoder treats mbarrier op 8 (try_wait) as reserved.
    let cfg = Config::small();
    let text = std::fs::read_to_string(emitted("small")).unwrap();
    let from = "op_ok = in_op < 32'h9;";
    assert!(
        text.contains(from),
        "mutation site `{from}` not in the emitted Verilog"
    );
    let dir = std::env::temp_dir().join(format!("smsync-mutant-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sm_sync.v");
    std::fs::write(&path, text.replace(from, "op_ok = in_op < 32'h8;")).unwrap();
    let proto =
        VerilatorDut::<SmSyncPorts>::build(&path, &cfg, &quick()).unwrap_or_else(|e| panic!("{e}"));
    std::fs::remove_dir_all(&dir).ok();
    let mut dut = proto.fresh().unwrap();
    let mut cov = Coverage::new(&cfg);
    let e = run(&cfg, 5, 20_000, &mut dut, &mut cov).expect_err("the mutant must be caught");
    println!("mutant caught:\n{e}");
    assert!(e.contains("MISMATCH") || e.contains("scoreboard"), "{e}");
}
