//! Shared helpers of the integration tests: env-var overrides (`SEED`,
//! `CYCLES`, `SEEDS`), the configuration grid, and runners that drive a
//! stepping function with the random stimulus under the scoreboards.
#![allow(dead_code)]

use mbarrier_unit_model::config::Config;
use mbarrier_unit_model::ports::async_groups as ag;
use mbarrier_unit_model::ports::mbarrier::{Inputs, Outputs};
use mbarrier_unit_model::scoreboard::{GroupScoreboard, MbarScoreboard, Violation};
use mbarrier_unit_model::workload::{run_mbar_random, GroupRandomEnv, MbarKnobs, MbarRandomEnv};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

/// Seeds to run: `SEED` alone if set, else `0..SEEDS` (default `n`).
pub fn seeds(n: u64) -> Vec<u64> {
    match env_u64("SEED") {
        Some(s) => vec![s],
        None => (0..env_u64("SEEDS").unwrap_or(n)).collect(),
    }
}

pub fn cycles(n: u64) -> u64 {
    env_u64("CYCLES").unwrap_or(n)
}

/// The configuration grid: default, H100-like, and corners.
pub fn grid() -> Vec<(&'static str, Config)> {
    let d = Config::default();
    vec![
        ("default", d),
        (
            "w8_m8_small_counters",
            Config {
                warps: 8,
                entries: 8,
                count_bits: 3,
                tx_bits: 9,
                try_wait_limit: 5,
                wake_fanout: 1,
                group_depth: 2,
                group_op_bits: 2,
            },
        ),
        (
            "w16_m32_f4",
            Config {
                warps: 16,
                entries: 32,
                count_bits: 6,
                tx_bits: 12,
                try_wait_limit: 20,
                wake_fanout: 4,
                group_depth: 4,
                group_op_bits: 3,
            },
        ),
        (
            "w64_m64_f2",
            Config {
                warps: 64,
                entries: 64,
                count_bits: 20,
                tx_bits: 20,
                try_wait_limit: 200,
                wake_fanout: 2,
                group_depth: 16,
                group_op_bits: 8,
            },
        ),
        (
            "w32_m16_limit1",
            Config {
                try_wait_limit: 1,
                group_depth: 1,
                group_op_bits: 1,
                ..d
            },
        ),
    ]
}

pub fn replay(test: &str, seed: u64, cycles: u64) -> String {
    format!("SEED={seed} CYCLES={cycles} cargo test --release -p mbarrier-unit-model --test {test}")
}

/// Run the random mbarrier stimulus through `step` under the scoreboard.
pub fn mbar_run(
    cfg: &Config,
    seed: u64,
    n: u64,
    step: impl FnMut(&Inputs) -> Outputs,
) -> (Result<(), Violation>, MbarScoreboard) {
    mbar_run_with(cfg, seed, n, |_| {}, step)
}

/// [`mbar_run`] with the seed's knobs adjusted by `tweak` (a focused stimulus).
pub fn mbar_run_with(
    cfg: &Config,
    seed: u64,
    n: u64,
    tweak: impl Fn(&mut MbarKnobs),
    step: impl FnMut(&Inputs) -> Outputs,
) -> (Result<(), Violation>, MbarScoreboard) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut k = MbarKnobs::random(&mut rng, cfg);
    tweak(&mut k);
    let mut env = MbarRandomEnv::with_knobs(cfg, rng, k);
    let mut sb = MbarScoreboard::new(cfg);
    let mut res = Ok(());
    run_mbar_random(&mut env, n, step, |c, i, o| match sb.check(c, i, o) {
        Ok(()) => true,
        Err(v) => {
            res = Err(v);
            false
        }
    });
    (res, sb)
}

/// Run the random group stimulus through `step` under the scoreboard.
pub fn group_run(
    cfg: &Config,
    seed: u64,
    n: u64,
    mut step: impl FnMut(&ag::Inputs) -> ag::Outputs,
) -> (Result<(), Violation>, GroupScoreboard) {
    let mut env = GroupRandomEnv::new(cfg, seed);
    let mut sb = GroupScoreboard::new(cfg);
    for c in 0..n {
        let i = env.drive(c);
        let o = step(&i);
        if let Err(v) = sb.check(c, &i, &o) {
            return (Err(v), sb);
        }
        env.observe(c, &i, &o);
    }
    (Ok(()), sb)
}
