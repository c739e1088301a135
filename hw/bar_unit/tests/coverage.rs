//! Functional coverage of the RTL run: the rust-hdl RTL of `bar_unit`
//! (w8_c3: every count 1..=8 reachable, a non-power-of-two slot count so
//! `slot_range` exists, every CTA slot can be busy) runs seeded random
//! stimulus and every named scenario of the model crate in lockstep with the
//! golden model; every output must agree, and the model crate's coverage
//! bins, sampled on that run, must all be hit. The report is printed.
//!
//! Replay: `SEED=<first seed> CYCLES=<n> cargo test --release -p bar-unit-rtl --test coverage`.

use bar_unit_model::bar_unit::BarUnitModel;
use bar_unit_model::config::{BarConfig, TimingConfig};
use bar_unit_model::coverage::BarCoverage;
use bar_unit_model::ports::{BarOutputs, PortBundle};
use bar_unit_model::stimulus::BarStimulus;
use bar_unit_model::workload::{bar_scenario, SmEnv, BAR_SCENARIOS};

fn env_u64(k: &str) -> Option<u64> {
    std::env::var(k).ok().and_then(|v| v.parse().ok())
}

#[test]
fn rtl_run_hits_every_bin() {
    let cfg = BarConfig {
        warps: 8,
        cta_slots: 3,
    };
    let first = env_u64("SEED").unwrap_or(1);
    let cycles = env_u64("CYCLES").unwrap_or(10_000);
    let replay = format!(
        "SEED={first} CYCLES={cycles} cargo test --release -p bar-unit-rtl --test coverage"
    );
    let mut cov = BarCoverage::new(&cfg);
    for seed in first..first + 24 {
        let mut m = BarUnitModel::new(cfg);
        let mut rtl = bar_unit_rtl::hdl_dut(&cfg).unwrap();
        let mut stim = BarStimulus::new(&cfg, seed);
        let mut o = BarOutputs::default();
        for cycle in 0..cycles {
            let i = stim.next(&o);
            let before = m.state.clone();
            o = m.step(&i);
            let or = rtl.step(&i);
            if let Some((port, a, b)) = o.first_difference(&or) {
                panic!("seed {seed}: cycle {cycle}: port {port}: model {a:#x}, rust-hdl {b:#x} (replay: {replay})");
            }
            cov.sample(&before, &i, &o);
        }
    }
    for &name in BAR_SCENARIOS {
        let rtl = bar_unit_rtl::hdl_dut(&cfg).unwrap();
        let r = SmEnv::new(
            bar_scenario(name, &cfg, 10).unwrap(),
            TimingConfig::ideal(),
            3,
        )
        .with_shadow(rtl)
        .run(100_000);
        assert!(r.violation.is_none(), "{name}: {:?}", r.violation);
        assert!(
            r.shadow_mismatch.is_none(),
            "{name}: RTL differs: {:?}",
            r.shadow_mismatch
        );
        cov.merge(&r.coverage);
    }
    println!("{}", cov.report());
    assert!(cov.bins.len() > 40);
    assert!(
        cov.unhit().is_empty(),
        "unhit bins: {:?} (replay: {replay})",
        cov.unhit()
    );
}
