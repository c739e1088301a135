//! The golden models of both blocks against their port-only scoreboards on
//! seeded random legal + illegal stimulus, over a grid of configurations and
//! many seeds. A failure prints the seed and the command that replays it
//! (`SEED`, `CYCLES`; `SEEDS` sets how many seeds run).

mod common;
use common::*;
use mbarrier_unit_model::async_groups::AsyncGroupsModel;
use mbarrier_unit_model::mbarrier_unit::MbarrierModel;

#[test]
fn mbarrier_model_passes_m1_m8_on_random_stimulus() {
    let n = cycles(20_000);
    let ss = seeds(40);
    println!(
        "seeds {}..={} on {} configurations, {n} cycles each; replay one with: {}",
        ss[0],
        ss[ss.len() - 1],
        grid().len(),
        replay("model_vs_scoreboard", ss[0], n)
    );
    let mut total = 0u64;
    for (name, cfg) in grid() {
        for seed in seeds(40) {
            let mut m = MbarrierModel::new(&cfg);
            let (res, sb) = mbar_run(&cfg, seed, n, |i| m.step(i));
            if let Err(v) = res {
                panic!(
                    "config {name} seed {seed}: {v}\nreplay: {}",
                    replay("model_vs_scoreboard", seed, n)
                );
            }
            total += sb.checks();
        }
    }
    println!("mbarrier: {total} cycles checked");
    let want = n * ss.len() as u64 * grid().len() as u64;
    assert_eq!(total, want, "every cycle of every run checked");
}

#[test]
fn async_groups_model_passes_g1_g4_on_random_stimulus() {
    let n = cycles(20_000);
    let ss = seeds(40);
    println!(
        "seeds {}..={} on {} configurations, {n} cycles each; replay one with: {}",
        ss[0],
        ss[ss.len() - 1],
        grid().len(),
        replay("model_vs_scoreboard", ss[0], n)
    );
    let mut total = 0u64;
    for (name, cfg) in grid() {
        for seed in seeds(40) {
            let mut m = AsyncGroupsModel::new(&cfg);
            let (res, sb) = group_run(&cfg, seed, n, |i| m.step(i));
            if let Err(v) = res {
                panic!(
                    "config {name} seed {seed}: {v}\nreplay: {}",
                    replay("model_vs_scoreboard", seed, n)
                );
            }
            total += sb.checks();
        }
    }
    println!("async_groups: {total} cycles checked");
    let want = n * ss.len() as u64 * grid().len() as u64;
    assert_eq!(total, want, "every cycle of every run checked");
}

/// Simulation speed of the golden models under random stimulus (no
/// scoreboard): printed, and required to stay usable (≥ 10^5 cycles/s).
#[test]
fn model_cycles_per_second() {
    use mbarrier_unit_model::config::Config;
    use mbarrier_unit_model::workload::{GroupRandomEnv, MbarRandomEnv};
    use std::time::Instant;
    let cfg = Config::default();
    let n = cycles(200_000);
    let mut m = MbarrierModel::new(&cfg);
    let mut env = MbarRandomEnv::new(&cfg, 1);
    let t0 = Instant::now();
    let mut sink = 0u64;
    for c in 0..n {
        let i = env.drive(c);
        let o = m.step(&i);
        sink += o.wake_mask.count_ones() as u64;
        env.observe(c, &i, &o);
    }
    let mbar = n as f64 / t0.elapsed().as_secs_f64();
    let mut g = AsyncGroupsModel::new(&cfg);
    let mut genv = GroupRandomEnv::new(&cfg, 1);
    let t0 = Instant::now();
    for c in 0..n {
        let i = genv.drive(c);
        let o = g.step(&i);
        sink += o.release_mask.count_ones() as u64;
        genv.observe(c, &i, &o);
    }
    let groups = n as f64 / t0.elapsed().as_secs_f64();
    println!("default config, random stimulus incl. environment: mbarrier model {mbar:.0} cycles/s, async_groups model {groups:.0} cycles/s ({sink} wakes+releases)");
    assert!(sink > 0, "the stimulus did something");
    assert!(
        mbar > 1e5 && groups > 1e5,
        "models too slow: {mbar:.0} / {groups:.0} cycles/s"
    );
}
