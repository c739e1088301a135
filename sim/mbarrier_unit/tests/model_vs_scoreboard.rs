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
    assert!(total >= n * 40, "too few cycles checked: {total}");
}

#[test]
fn async_groups_model_passes_g1_g4_on_random_stimulus() {
    let n = cycles(20_000);
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
    assert!(total >= n * 40, "too few cycles checked: {total}");
}
