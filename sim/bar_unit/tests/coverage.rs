//! Functional coverage: seeded random stimulus plus every named scenario on
//! a configuration with a non-power-of-two slot count (W = 16, C = 5) must
//! hit every `bar_unit` bin; random stimulus must hit every
//! `cluster_barrier` bin for every cluster size ≥ 2. The report (every bin
//! and its count, then the unhit ones) is printed.
//!
//! Replay: `SEED=<n> CYCLES=<n> cargo test --release -p bar-unit-model --test coverage`.

use bar_unit_model::bar_unit::BarUnitModel;
use bar_unit_model::cluster_barrier::ClusterBarrierModel;
use bar_unit_model::config::{BarConfig, ClusterConfig, TimingConfig};
use bar_unit_model::coverage::{BarCoverage, ClusterCoverage};
use bar_unit_model::ports::{BarOutputs, ClusterOutputs};
use bar_unit_model::stimulus::{BarStimulus, ClusterStimulus};
use bar_unit_model::workload::{bar_scenario, SmEnv, BAR_SCENARIOS};

fn env_u64(k: &str) -> Option<u64> {
    std::env::var(k).ok().and_then(|v| v.parse().ok())
}

#[test]
fn bar_unit_every_bin_hit() {
    let cfg = BarConfig {
        warps: 16,
        cta_slots: 5,
    };
    let first = env_u64("SEED").unwrap_or(1);
    let cycles = env_u64("CYCLES").unwrap_or(20_000);
    let mut cov = BarCoverage::new(&cfg);
    for seed in first..first + 24 {
        let mut m = BarUnitModel::new(cfg);
        let mut stim = BarStimulus::new(&cfg, seed);
        let mut o = BarOutputs::default();
        for _ in 0..cycles {
            let i = stim.next(&o);
            let before = m.state.clone();
            o = m.step(&i);
            cov.sample(&before, &i, &o);
        }
    }
    for &name in BAR_SCENARIOS {
        let r = SmEnv::new(
            bar_scenario(name, &cfg, 10).unwrap(),
            TimingConfig::ideal(),
            3,
        )
        .run(100_000);
        assert!(r.violation.is_none());
        cov.merge(&r.coverage);
    }
    println!("{}", cov.report());
    assert!(cov.bins.len() > 60);
    assert!(
        cov.unhit().is_empty(),
        "unhit bins: {:?} (replay SEED={first} CYCLES={cycles})",
        cov.unhit()
    );
}

#[test]
fn cluster_barrier_every_bin_hit() {
    let first = env_u64("SEED").unwrap_or(1);
    let cycles = env_u64("CYCLES").unwrap_or(20_000);
    for n in [2u32, 4, 8, 16] {
        let cfg = ClusterConfig { ranks: n };
        let mut cov = ClusterCoverage::new(&cfg);
        for seed in first..first + 30 {
            let mut m = ClusterBarrierModel::new(cfg);
            let mut stim = ClusterStimulus::new(&cfg, seed * 31 + n as u64);
            let mut o = ClusterOutputs::default();
            for _ in 0..cycles {
                let i = stim.next(&o);
                o = m.step(&i);
                cov.sample(&i, &o);
            }
        }
        println!("{}", cov.report());
        assert!(
            cov.unhit().is_empty(),
            "ranks {n}: unhit {:?} (replay SEED={first})",
            cov.unhit()
        );
    }
}
