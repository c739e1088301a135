//! Simulated cycles per second of the golden models (bar_unit under the
//! random stimulus with and without the scoreboard; cluster_barrier), for the
//! default and the largest configuration.
//! Run: `cargo run --release -p bar-unit-model --example model_speed`.

use bar_unit_model::bar_unit::BarUnitModel;
use bar_unit_model::cluster_barrier::ClusterBarrierModel;
use bar_unit_model::config::{BarConfig, ClusterConfig};
use bar_unit_model::ports::{BarOutputs, ClusterOutputs};
use bar_unit_model::stimulus::{run_bar_random, BarStimulus, ClusterStimulus};
use std::time::Instant;

fn main() {
    let n = 1_000_000u64;
    for cfg in [
        BarConfig::default(),
        BarConfig {
            warps: 64,
            cta_slots: 64,
        },
    ] {
        let mut m = BarUnitModel::new(cfg);
        let mut stim = BarStimulus::new(&cfg, 1);
        let mut o = BarOutputs::default();
        let inputs: Vec<_> = (0..n)
            .map(|_| {
                let i = stim.next(&o);
                o = m.step(&i);
                i
            })
            .collect();
        let mut m = BarUnitModel::new(cfg);
        let t = Instant::now();
        let mut rel = 0u64;
        for i in &inputs {
            rel += m.step(i).rel_valid as u64;
        }
        let s = t.elapsed().as_secs_f64();
        println!(
            "bar_unit {cfg:?}: model alone {:.2} M cycles/s ({rel} releases)",
            n as f64 / s / 1e6
        );
        let mut m = BarUnitModel::new(cfg);
        let t = Instant::now();
        run_bar_random(&mut m, &cfg, 1, n).expect("scoreboard");
        println!(
            "bar_unit {cfg:?}: model + stimulus + scoreboard {:.2} M cycles/s",
            n as f64 / t.elapsed().as_secs_f64() / 1e6
        );
    }
    let cfg = ClusterConfig { ranks: 16 };
    let mut m = ClusterBarrierModel::new(cfg);
    let mut stim = ClusterStimulus::new(&cfg, 1);
    let mut o = ClusterOutputs::default();
    let t = Instant::now();
    for _ in 0..n {
        let i = stim.next(&o);
        o = m.step(&i);
    }
    println!(
        "cluster_barrier ranks 16: model + stimulus {:.2} M cycles/s",
        n as f64 / t.elapsed().as_secs_f64() / 1e6
    );
}
