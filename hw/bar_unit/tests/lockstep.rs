//! Lockstep: the rust-hdl RTL and the golden model get the same seeded
//! random legal + illegal stimulus (`bar_unit_model::stimulus::BarStimulus`,
//! closed-loop on the model's outputs) every cycle and must agree on every
//! output port every cycle; the port-only scoreboard (B1–B7) also checks the
//! RTL's outputs, and the model's functional coverage is sampled on the run.
//!
//! A mismatch reports the configuration, seed, cycle, port, both values and
//! the last inputs. Replay: `SEED=<n> CYCLES=<n> cargo test --release -p
//! bar-unit-rtl --test lockstep` (CYCLES applies to the default configuration;
//! the others run a fixed fraction of it).

use bar_unit_model::bar_unit::BarUnitModel;
use bar_unit_model::config::BarConfig;
use bar_unit_model::coverage::BarCoverage;
use bar_unit_model::ports::{BarInputs, BarOutputs, PortBundle};
use bar_unit_model::scoreboard::BarScoreboard;
use bar_unit_model::stimulus::BarStimulus;
use std::collections::VecDeque;
use std::time::Instant;

fn env_u64(k: &str) -> Option<u64> {
    std::env::var(k).ok().and_then(|v| v.parse().ok())
}

/// Runs `cycles` cycles; returns the coverage sampled on the run.
fn run(cfg: BarConfig, seed: u64, cycles: u64) -> BarCoverage {
    let name = format!("w{}_c{}", cfg.warps, cfg.cta_slots);
    let replay = format!(
        "SEED={seed} CYCLES={} cargo test --release -p bar-unit-model --test lockstep",
        env_u64("CYCLES").unwrap_or(cycles)
    )
    .replace("bar-unit-model", "bar-unit-rtl");
    println!("lockstep {name}: seed {seed}, {cycles} cycles (replay: {replay})");
    let mut model = BarUnitModel::new(cfg);
    let mut rtl = bar_unit_rtl::hdl_dut(&cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut stim = BarStimulus::with_bad_input(&cfg, seed);
    let mut sb = BarScoreboard::new(&cfg);
    let mut cov = BarCoverage::new(&cfg);
    let mut recent: VecDeque<BarInputs> = VecDeque::with_capacity(8);
    let mut prev = BarOutputs::default();
    let start = Instant::now();
    for cycle in 0..cycles {
        let i = stim.next(&prev);
        let before = model.state.clone();
        let om = model.step(&i);
        let or = rtl.step(&i);
        if recent.len() == 8 {
            recent.pop_front();
        }
        recent.push_back(i);
        if let Some((port, m, r)) = om.first_difference(&or) {
            let hist: Vec<String> = recent.iter().map(|x| x.describe()).collect();
            panic!(
                "{name}: seed {seed}: cycle {cycle}: port {port}: model {m:#x}, rust-hdl {r:#x}\nlast inputs (oldest first):\n  {}\nreplay: {replay}",
                hist.join("\n  ")
            );
        }
        if let Err(v) = sb.check(&i, &or) {
            panic!("{name}: seed {seed}: cycle {cycle}: scoreboard on rust-hdl: {v:?}\nreplay: {replay}");
        }
        cov.sample(&before, &i, &om);
        prev = om;
    }
    let dt = start.elapsed().as_secs_f64();
    println!(
        "lockstep {name}: {cycles} cycles agree, {:.0} cycles/s (model + rust-hdl + scoreboard); {} arrivals, {} releases, {} errors",
        cycles as f64 / dt,
        sb.arrivals,
        sb.releases,
        sb.errors
    );
    assert!(
        sb.releases > 0 && sb.arrivals > 0 && sb.errors > 0,
        "{name}: stimulus too weak"
    );
    cov
}

#[test]
fn lockstep_default_w32_c8() {
    let seed = env_u64("SEED").unwrap_or(1);
    let cycles = env_u64("CYCLES").unwrap_or(100_000);
    run(BarConfig::default(), seed, cycles);
}

#[test]
fn lockstep_grid_configurations() {
    let seed = env_u64("SEED").unwrap_or(2);
    let cycles = env_u64("CYCLES").unwrap_or(100_000);
    for (w, c, frac) in [(8, 1, 5), (8, 3, 5), (8, 4, 5), (16, 4, 5), (64, 8, 20)] {
        run(
            BarConfig {
                warps: w,
                cta_slots: c,
            },
            seed,
            cycles / frac,
        );
    }
}
