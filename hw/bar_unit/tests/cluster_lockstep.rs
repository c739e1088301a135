//! `cluster_barrier` RTL: lockstep with the golden model on seeded random
//! legal + illegal stimulus (`ClusterStimulus`) for every cluster size
//! (1, 2, 4, 8, 16), the C1–C4 scoreboard on the RTL's outputs, and the
//! model crate's cluster coverage sampled on the run with every bin hit
//! (sizes ≥ 2).
//!
//! Replay: `SEED=<n> CYCLES=<n> cargo test --release -p bar-unit-rtl --test cluster_lockstep`.

use bar_unit_model::cluster_barrier::ClusterBarrierModel;
use bar_unit_model::config::ClusterConfig;
use bar_unit_model::coverage::ClusterCoverage;
use bar_unit_model::ports::{ClusterOutputs, PortBundle};
use bar_unit_model::scoreboard::ClusterScoreboard;
use bar_unit_model::stimulus::ClusterStimulus;
use std::time::Instant;

fn env_u64(k: &str) -> Option<u64> {
    std::env::var(k).ok().and_then(|v| v.parse().ok())
}

#[test]
fn cluster_lockstep_every_size_with_full_coverage() {
    let seed = env_u64("SEED").unwrap_or(1);
    let cycles = env_u64("CYCLES").unwrap_or(5_000);
    let replay = format!(
        "SEED={seed} CYCLES={cycles} cargo test --release -p bar-unit-rtl --test cluster_lockstep"
    );
    for ranks in [1, 2, 4, 8, 16] {
        let cfg = ClusterConfig { ranks };
        let mut cov = ClusterCoverage::new(&cfg);
        let t0 = Instant::now();
        let (mut completions, mut errors) = (0, 0);
        // The stimulus draws its rates per seed: 30 seeds span them.
        for s in seed..seed + 30 {
            let mut model = ClusterBarrierModel::new(cfg);
            let mut rtl = bar_unit_rtl::cluster_hdl_dut(&cfg).unwrap();
            let mut stim = ClusterStimulus::new(&cfg, s * 31 + ranks as u64);
            let mut sb = ClusterScoreboard::new(&cfg);
            let mut prev = ClusterOutputs::default();
            for cycle in 0..cycles {
                let i = stim.next(&prev);
                let om = model.step(&i);
                let or = rtl.step(&i);
                if let Some((port, m, r)) = om.first_difference(&or) {
                    panic!("ranks {ranks}: seed {s}: cycle {cycle}: port {port}: model {m:#x}, rust-hdl {r:#x}; inputs {}\nreplay: {replay}", i.describe());
                }
                if let Err(v) = sb.check(&i, &or) {
                    panic!(
                    "ranks {ranks}: cycle {cycle}: scoreboard on rust-hdl: {v:?}\nreplay: {replay}"
                );
                }
                cov.sample(&i, &or);
                prev = om;
            }
            completions += sb.completions;
            errors += sb.errors;
        }
        println!(
            "cluster lockstep n{ranks}: 30 seeds x {cycles} cycles agree, {:.0} cycles/s; {completions} completions, {errors} errors",
            30.0 * cycles as f64 / t0.elapsed().as_secs_f64(),
        );
        assert!(completions > 0);
        if ranks >= 2 {
            println!("{}", cov.report());
            assert!(
                cov.unhit().is_empty(),
                "n{ranks}: unhit {:?} (replay: {replay})",
                cov.unhit()
            );
        }
    }
}
