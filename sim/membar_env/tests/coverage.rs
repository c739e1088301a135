//! The default random regression must hit every functional coverage point.
//! The regression: every grid configuration plus the knob variants below,
//! each under every built-in scenario, a few seeds; coverage is merged per
//! configuration and every bin that configuration can reach must be hit.

use membar_unit_env::config::{Config, LevelMix};
use membar_unit_env::coverage::CoveredModel;
use membar_unit_env::run::RunOptions;
use membar_unit_env::session::run_session;
use membar_unit_env::workload::{WorkloadFile, SCENARIOS};

/// The configurations of the default regression.
pub fn regression_configs() -> Vec<(String, Config)> {
    let mut v: Vec<(String, Config)> = Config::grid()
        .into_iter()
        .map(|(n, c)| (n.to_string(), c))
        .collect();
    v.push((
        "split_out2".into(),
        Config {
            level_mix: LevelMix::Split,
            max_outstanding: 2,
            ..Config::default()
        },
    ));
    v.push((
        "out3_window0".into(),
        Config {
            max_outstanding: 3,
            coalesce_window: 0,
            ..Config::default()
        },
    ));
    v.push((
        "k8_out7_glack".into(),
        Config {
            slots: 8,
            max_outstanding: 7,
            gl_bar_ack: true,
            ways: 4,
            ..Config::default()
        },
    ));
    v
}

#[test]
fn default_regression_hits_every_coverage_point() {
    let seeds = [1u64, 2, 3];
    let mut failures = Vec::new();
    let mut checks = 0u64;
    for (name, cfg) in regression_configs() {
        let mut total: Option<membar_unit_env::coverage::Coverage> = None;
        for scen in SCENARIOS {
            let wf = WorkloadFile::builtin(scen).unwrap();
            for &seed in &seeds {
                let mut dut = CoveredModel::new(&cfg);
                let opts = RunOptions {
                    cycles: 20_000,
                    seed,
                    reset_prob: 2e-4,
                    ..RunOptions::default()
                };
                let rep = run_session(&cfg, &mut dut, &wf, &opts, &mut []);
                assert!(rep.passed(), "{name} {scen} seed {seed}: {}", rep.verdict());
                checks += rep.checks;
                match total.as_mut() {
                    None => total = Some(dut.coverage),
                    Some(t) => t.merge(&dut.coverage),
                }
            }
        }
        let cov = total.unwrap();
        println!("{}", cov.report());
        let missed = cov.missed();
        if !missed.is_empty() {
            failures.push(format!("{name}: missed {}", missed.join(", ")));
        }
    }
    assert!(checks > 1_000_000, "too few property checks: {checks}");
    assert!(
        failures.is_empty(),
        "coverage holes:\n{}",
        failures.join("\n")
    );
}
