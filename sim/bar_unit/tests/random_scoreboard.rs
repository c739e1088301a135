//! The golden models against the port-only scoreboards on seeded random
//! stimulus (legal and illegal, resets), over a grid of configurations and
//! many seeds. Non-vacuous: every run must take arrivals, release barriers
//! and (where bad input is drawn) flag errors.
//!
//! Replay one run: `SEED=<n> CYCLES=<n> cargo test --release -p bar-unit-model --test random_scoreboard`.

use bar_unit_model::bar_unit::BarUnitModel;
use bar_unit_model::cluster_barrier::ClusterBarrierModel;
use bar_unit_model::config::{BarConfig, ClusterConfig, CLUSTER_SIZES};
use bar_unit_model::stimulus::{run_bar_random, run_cluster_random};

fn env_u64(k: &str) -> Option<u64> {
    std::env::var(k).ok().and_then(|v| v.parse().ok())
}

fn grid() -> Vec<BarConfig> {
    let mut v = vec![];
    for w in [8u32, 16, 32, 64] {
        for c in [1u32, 2, 3, w / 4, w] {
            let cfg = BarConfig {
                warps: w,
                cta_slots: c,
            };
            if cfg.validate("grid").is_ok() && !v.contains(&cfg) {
                v.push(cfg);
            }
        }
    }
    v
}

#[test]
fn bar_model_passes_scoreboard_on_grid() {
    let seeds: Vec<u64> = match env_u64("SEED") {
        Some(s) => vec![s],
        None => (1..=12).collect(),
    };
    let cycles = env_u64("CYCLES").unwrap_or(6000);
    println!(
        "bar grid: {} configs x seeds {seeds:?}, {cycles} cycles each; replay one seed: SEED=<n> CYCLES={cycles} cargo test --release -p bar-unit-model --test random_scoreboard bar_model",
        grid().len()
    );
    let (mut arr, mut rel, mut errs, mut refs, mut runs) = (0, 0, 0, 0, 0);
    let (mut refs_ctl, mut refs_same) = (0, 0);
    for cfg in grid() {
        for &seed in &seeds {
            let seed = seed * 1000 + cfg.warps as u64 * 10 + cfg.cta_slots as u64;
            let mut m = BarUnitModel::new(cfg);
            match run_bar_random(&mut m, &cfg, seed, cycles) {
                Ok(s) => {
                    assert!(s.arrivals > 0, "seed {seed} {cfg:?}: no arrival taken (vacuous)");
                    arr += s.arrivals;
                    rel += s.releases;
                    errs += s.errors;
                    refs += s.refusals;
                    refs_ctl += s.refusals_after_ctl;
                    refs_same += s.refusals_same_warp;
                    runs += 1;
                }
                Err(v) => panic!(
                    "{cfg:?} seed {seed}: {v}\nreplay: SEED={} CYCLES={cycles} cargo test --release -p bar-unit-model --test random_scoreboard",
                    (seed / 1000)
                ),
            }
        }
    }
    println!("{runs} runs: {arr} arrivals, {rel} releases, {errs} errors flagged, {refs} refusals of blocked warps, {refs_ctl} right after a ctl event, {refs_same} right after the warp's own non-ARRIVE request");
    assert!(rel > runs as u64, "too few releases: {rel}");
    assert!(errs > 0 && refs > 0, "no bad input exercised");
    assert!(
        refs_ctl > 0 && refs_same > 0,
        "the pipeline's refusal rules not exercised"
    );
}

#[test]
fn cluster_model_passes_scoreboard_all_sizes() {
    let seeds: Vec<u64> = match env_u64("SEED") {
        Some(s) => vec![s],
        None => (1..=20).collect(),
    };
    let cycles = env_u64("CYCLES").unwrap_or(5000);
    println!("cluster: sizes {CLUSTER_SIZES:?} x seeds {seeds:?}, {cycles} cycles; replay: SEED=<n> CYCLES={cycles} cargo test --release -p bar-unit-model --test random_scoreboard cluster");
    let (mut done, mut errs) = (0, 0);
    for n in CLUSTER_SIZES {
        let cfg = ClusterConfig { ranks: n };
        for &seed in &seeds {
            let mut m = ClusterBarrierModel::new(cfg);
            match run_cluster_random(&mut m, &cfg, seed * 100 + n as u64, cycles) {
                Ok((d, e)) => {
                    assert!(d > 0, "ranks {n} seed {seed}: no phase completed");
                    done += d;
                    errs += e;
                }
                Err(v) => panic!(
                    "ranks {n} seed {seed}: {v}\nreplay: SEED={seed} CYCLES={cycles} cargo test --release -p bar-unit-model --test random_scoreboard cluster"
                ),
            }
        }
    }
    println!("cluster: {done} phases completed, {errs} errors flagged");
    assert!(errs > 0);
}
