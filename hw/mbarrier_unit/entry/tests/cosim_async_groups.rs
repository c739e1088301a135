//! Cosimulation of the checked-in `verilog_out/async_groups/<name>/async_groups.v`
//! of every shipped configuration (`mbarrier_unit_rtl::ag_shipped()`)
//! against the golden model (`AsyncGroupsModel`) through Verilator, on the
//! one lockstep runner (`unit_ports::lockstep::run`) with seeded random legal and
//! illegal stimulus (`GroupRandomEnv`): every output compared every cycle,
//! the port-only G1–G4 scoreboard checking the Verilog's outputs, the group
//! coverage over the runs (every bin hit). Plus bug injection: mutated copies
//! of the small grid configuration's Verilog (a wait released one group late, a `.read` wait
//! treated as a full wait) are caught at a port and a cycle.
//!
//! The 64-warp grid configuration runs only with `AG_COSIM_ALL=1` (its cold
//! Verilator build alone takes ~70 s on 2 cores; the other three cover the
//! default, G = 2 with 1-bit counters and G = 4 with 2-bit counters).
//! Knobs: `SEED` (one seed), `SEEDS` (default 3), `CYCLES` (default 20 000
//! per seed). Replay: `SEED=<n> CYCLES=<n> cargo test --release -p mbarrier-unit-entry --test cosim_async_groups`.

use mbarrier_unit_model::config::Config;
use mbarrier_unit_model::coverage::{Coverage, CoveredGroups};
use mbarrier_unit_model::ports::async_groups::AsyncGroupsPorts;
use mbarrier_unit_model::scoreboard::GroupScoreboard;
use mbarrier_unit_model::workload::GroupRandomEnv;
use membar_testbench::{BuildOptions, VerilatorDut};
use std::path::{Path, PathBuf};
use std::time::Instant;
use unit_ports::lockstep::{cycles_from_env, replay_command, RunOptions};
use unit_ports::Dut;

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

fn seeds() -> Vec<u64> {
    match env_u64("SEED") {
        Some(s) => vec![s],
        None => (1..=env_u64("SEEDS").unwrap_or(3)).collect(),
    }
}

fn emitted(name: &str) -> PathBuf {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../verilog_out/async_groups")
        .join(name)
        .join("async_groups.v");
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

/// Every build here: C++ compiled at `-O0`, which builds the large generated
/// models several times faster (CI time); `membar cosim --unit async_groups`
/// builds at `-O2` and reports that speed.
fn quick() -> BuildOptions {
    BuildOptions {
        opt_fast: "-O0".into(),
        ..quiet()
    }
}

/// Lockstep run of `dut` vs the golden model with the scoreboard on the
/// Verilog's outputs: `Ok(coverage)` or the mismatch / violation, as text
/// starting with the port (`(scoreboard)` for a violation).
fn run(
    cfg: &Config,
    seed: u64,
    n: u64,
    dut: &mut dyn Dut<AsyncGroupsPorts>,
) -> Result<Coverage, (u64, String, String)> {
    let replay = replay_command("mbarrier-unit-entry", "cosim_async_groups", seed, Some(n));
    let mut reference = CoveredGroups::new(cfg);
    let mut env = GroupRandomEnv::new(cfg, seed);
    let mut sb = GroupScoreboard::new(cfg);
    let opts = RunOptions {
        cycles: n,
        drain_cycles: 0,
        reset_cycles: 0,
        seed,
        replay: Some(replay),
        ..RunOptions::default()
    };
    match unit_ports::lockstep::run(&mut reference, Some(dut), &mut env, &opts, &mut [&mut sb]) {
        Err(m) => Err((m.cycle, m.port.to_string(), m.to_string())),
        Ok(r) => match r.failure {
            Some(f) => Err((
                sb.violation().map_or(0, |v| v.cycle),
                "(scoreboard)".into(),
                f,
            )),
            None => {
                assert_eq!(sb.checks(), n, "every cycle checked by the scoreboard");
                Ok(reference.cov)
            }
        },
    }
}

#[test]
fn shipped_async_groups_verilog_matches_model() {
    let n = cycles_from_env(20_000);
    let mut total = Coverage::new(&Config::default(), false, true);
    let all = std::env::var("AG_COSIM_ALL").is_ok_and(|v| v == "1");
    for (name, cfg) in mbarrier_unit_rtl::ag_shipped() {
        if cfg.warps == 64 && !all {
            // Its Verilator build takes ~70 s cold: run it with AG_COSIM_ALL=1.
            println!("{name}: skipped (its Verilator build is slow; run with AG_COSIM_ALL=1)");
            continue;
        }
        let path = emitted(&name);
        let t0 = Instant::now();
        let proto = VerilatorDut::<AsyncGroupsPorts>::build(&path, &cfg, &quick())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let build = t0.elapsed();
        for seed in seeds() {
            let mut dut = proto.fresh().unwrap_or_else(|e| panic!("{e}"));
            let t = Instant::now();
            match run(&cfg, seed, n, &mut dut) {
                Ok(cov) => total.merge(&cov),
                Err((_, _, text)) => panic!("{name} seed {seed}: the Verilog diverges:\n{text}"),
            }
            println!(
                "{name} seed {seed}: {n} cycles ok, {:.0} cycles/s (model + Verilator -O0 + scoreboard; build/cache {build:.2?}); replay: {}",
                n as f64 / t.elapsed().as_secs_f64(),
                replay_command("mbarrier-unit-entry", "cosim_async_groups", seed, Some(n))
            );
        }
        if name == "default" {
            let mut dut = proto.fresh().unwrap();
            let mut env = GroupRandomEnv::new(&cfg, 1);
            let inputs: Vec<_> = (0..100_000).map(|c| env.drive(c)).collect();
            let d = dut.bench_raw(&inputs, inputs.len() as u64);
            println!(
                "default: Verilator (-O0 build) alone {:.0} cycles/s",
                inputs.len() as f64 / d.as_secs_f64()
            );
        }
    }
    println!("{}", total.report());
    if std::env::var("SEED").is_err() {
        assert!(
            total.unhit().is_empty(),
            "coverage bins not hit by the Verilog runs: {:?}",
            total.unhit()
        );
    }
}

/// Build a mutated copy of the small shipped configuration's Verilog (every
/// warp) and run it under seeds 1..=4; it must diverge. Returns (cycle, port).
fn mutant(tag: &str, from: &str, to: &str) -> (u64, String) {
    let (name, cfg) = mbarrier_unit_rtl::ag_shipped()[1].clone();
    let text = std::fs::read_to_string(emitted(&name)).unwrap();
    assert!(
        text.contains(from),
        "mutation site `{from}` not in the emitted Verilog"
    );
    let dir = std::env::temp_dir().join(format!("agrp-mutant-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("async_groups.v");
    std::fs::write(&path, text.replace(from, to)).unwrap();
    let proto = VerilatorDut::<AsyncGroupsPorts>::build(&path, &cfg, &quick())
        .unwrap_or_else(|e| panic!("{e}"));
    std::fs::remove_dir_all(&dir).ok();
    for seed in 1..=4 {
        let mut dut = proto.fresh().unwrap();
        if let Err((cycle, port, text)) = run(&cfg, seed, 20_000, &mut dut) {
            println!("mutant {tag}: caught at cycle {cycle} on `{port}` (seed {seed}):\n{text}");
            return (cycle, port);
        }
    }
    panic!("mutant `{tag}` ({from} -> {to}) was not caught in 4 x 20000 cycles")
}

#[test]
fn injected_async_groups_bugs_are_caught_at_a_port_and_cycle() {
    // 1. A full wait is released only below N (one group late): caught on
    //    `release_mask` (or `blocked`) by the lockstep comparison.
    let (_, port) = mutant(
        "release_late",
        "met = n__q <= wait_n__q;",
        "met = n__q < wait_n__q;",
    );
    assert!(
        port == "release_mask" || port == "blocked" || port == "ag_ready",
        "caught on {port}"
    );
    // 2. A `.read` wait counts every pending group (treated as a full wait).
    let (cycle, port) = mutant(
        "read_as_full",
        "met = rp__q <= wait_n__q;",
        "met = n__q <= wait_n__q;",
    );
    assert!(cycle > 0, "caught at cycle {cycle} on {port}");
}
