//! Lockstep of the async-group tracker: the golden model
//! (`AsyncGroupsModel`) and the rust-hdl simulation of the RTL
//! (`AsyncGroups`) on seeded random legal + illegal stimulus
//! (`GroupRandomEnv`: bulk / commit / wait / wait.read from random warps, a
//! copy engine reporting reads and completions, spurious reports, resets),
//! every output compared every cycle on the one lockstep runner
//! (`unit_ports::lockstep::run`), the port-only G1–G4 scoreboard on the RTL's
//! outputs, the model crate's group coverage over the runs (every bin hit).
//! Every shipped configuration plus the other supported ones.
//! Replay one run: `SEED=<n> CYCLES=<n> cargo test --release -p mbarrier-unit-rtl --test ag_lockstep`.

use mbarrier_unit_model::config::Config;
use mbarrier_unit_model::coverage::{Coverage, CoveredGroups};
use mbarrier_unit_model::scoreboard::GroupScoreboard;
use mbarrier_unit_model::workload::GroupRandomEnv;
use std::time::Instant;
use unit_ports::lockstep::{cycles_from_env, replay_command, RunOptions};

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

/// Seeds to run: `SEED` alone if set, else `0..SEEDS` (default `n`).
fn seeds(n: u64) -> Vec<u64> {
    match env_u64("SEED") {
        Some(s) => vec![s],
        None => (0..env_u64("SEEDS").unwrap_or(n)).collect(),
    }
}

/// Every configuration with RTL: the shipped ones first, then the others.
fn configs() -> Vec<(String, Config)> {
    let mut v = mbarrier_unit_rtl::ag_shipped();
    for &(warps, group_depth, group_op_bits) in mbarrier_unit_rtl::AG_SUPPORTED {
        let c = Config {
            warps,
            group_depth,
            group_op_bits,
            ..Config::default()
        };
        if !v.iter().any(|(_, x)| *x == c) {
            v.push((mbarrier_unit_rtl::ag_config_name(&c), c));
        }
    }
    v
}

#[test]
fn ag_rtl_matches_model_on_random_stimulus() {
    let mut total = Coverage::new(&Config::default(), false, true);
    let mut rates = Vec::new();
    let mut checked = 0u64;
    for (k, (name, cfg)) in configs().into_iter().enumerate() {
        // Default: 6 seeds x 10k cycles; the others 3 x 4k.
        let (n_seeds, n) = if k == 0 { (6, 10_000) } else { (3, 4_000) };
        let n = cycles_from_env(n);
        for seed in seeds(n_seeds) {
            let replay = replay_command("mbarrier-unit-rtl", "ag_lockstep", seed, Some(n));
            println!("{name} seed {seed}: replay with {replay}");
            let mut rtl =
                mbarrier_unit_rtl::ag_hdl_dut(&cfg).expect("supported configuration has RTL");
            let mut reference = CoveredGroups::new(&cfg);
            let mut env = GroupRandomEnv::new(&cfg, seed);
            let mut sb = GroupScoreboard::new(&cfg);
            let opts = RunOptions {
                cycles: n,
                drain_cycles: 0,
                reset_cycles: 0,
                seed,
                replay: Some(replay.clone()),
                ..RunOptions::default()
            };
            let t = Instant::now();
            let rep = match unit_ports::lockstep::run(
                &mut reference,
                Some(rtl.as_mut()),
                &mut env,
                &opts,
                &mut [&mut sb],
            ) {
                Ok(r) => r,
                Err(m) => panic!("{name} seed {seed}: rust-hdl RTL differs from the model\n{m}"),
            };
            if let Some(f) = rep.failure {
                panic!("{name} seed {seed}: scoreboard on the RTL: {f}\nreplay: {replay}");
            }
            assert_eq!(sb.checks(), n, "every cycle checked by the scoreboard");
            checked += n;
            if k == 0 {
                rates.push(n as f64 / t.elapsed().as_secs_f64());
            }
            total.merge(&reference.cov);
        }
    }
    if !rates.is_empty() {
        let avg = rates.iter().sum::<f64>() / rates.len() as f64;
        println!(
            "async_groups rust-hdl lockstep (with model + scoreboard), default configuration: {avg:.0} cycles/s"
        );
    }
    println!("{checked} cycles agree\n{}", total.report());
    if std::env::var("SEED").is_err() {
        assert!(
            total.unhit().is_empty(),
            "coverage bins not hit by the RTL runs: {:?}",
            total.unhit()
        );
    }
}

#[test]
fn ag_not_compiled_in_or_invalid_configuration_is_a_clear_error() {
    let cfg = Config {
        warps: 8,
        group_depth: 16,
        group_op_bits: 8,
        ..Config::default()
    };
    let e = match mbarrier_unit_rtl::ag_hdl_dut(&cfg) {
        Ok(_) => panic!("w8 g16 o8 is not compiled in"),
        Err(e) => e,
    };
    assert!(
        e.contains("not compiled in") && e.contains("(8, 16, 8)"),
        "{e}"
    );
    let bad = Config {
        group_depth: 3,
        ..Config::default()
    };
    let e = match mbarrier_unit_rtl::ag_hdl_dut(&bad) {
        Ok(_) => panic!("group_depth 3 is not a configuration"),
        Err(e) => e,
    };
    assert!(e.contains("group_depth") && e.contains('3'), "{e}");
}
