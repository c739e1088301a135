//! Functional coverage: the random stimulus over the configuration grid plus
//! the named kernel scenarios must hit every bin of both blocks; the report
//! is printed. A bin left unhit fails the test and is named.

mod common;
use common::*;
use mbarrier_unit_model::async_groups::AsyncGroupsModel;
use mbarrier_unit_model::config::Config;
use mbarrier_unit_model::copy_engine::CopyTiming;
use mbarrier_unit_model::coverage::Coverage;
use mbarrier_unit_model::mbarrier_unit::MbarrierModel;
use mbarrier_unit_model::workload::{
    scenario, FrontEnd, GroupRandomEnv, KernelRunner, MbarRandomEnv, SCENARIOS,
};

#[test]
fn every_coverage_bin_is_hit() {
    let n = cycles(10_000);
    let d = Config::default();
    let mut total = Coverage::new(
        &Config {
            warps: 64,
            entries: 64,
            ..d
        },
        true,
        true,
    );
    for (_, cfg) in grid() {
        for seed in seeds(12) {
            let mut cov = Coverage::new(&cfg, true, true);
            let mut m = MbarrierModel::new(&cfg);
            let mut env = MbarRandomEnv::new(&cfg, seed);
            for c in 0..n {
                let i = env.drive(c);
                let o = m.step(&i);
                cov.observe_mbar(&i, &o, &m.last_events);
                env.observe(c, &i, &o);
            }
            let mut g = AsyncGroupsModel::new(&cfg);
            let mut genv = GroupRandomEnv::new(&cfg, seed);
            for c in 0..n {
                let i = genv.drive(c);
                let o = g.step(&i);
                cov.observe_groups(&i, &o, &g.last_events);
                genv.observe(c, &i, &o);
            }
            total.merge(&cov);
        }
    }
    for name in SCENARIOS {
        let cfg = Config::default();
        let progs = scenario(name, &cfg).expect("built-in scenario");
        let mut r = KernelRunner::new(&cfg, FrontEnd::ideal(), CopyTiming::functional(), progs);
        let mut cov = Coverage::new(&cfg, true, true);
        let mut ev = Vec::new();
        r.run(200_000, |_, io| ev.push((io.mi, io.mo, io.gi, io.go)));
        // Re-run the recorded ports through fresh models for their events.
        let mut m = MbarrierModel::new(&cfg);
        let mut g = AsyncGroupsModel::new(&cfg);
        for (mi, _, gi, _) in &ev {
            let mo = m.step(mi);
            cov.observe_mbar(mi, &mo, &m.last_events);
            let go = g.step(gi);
            cov.observe_groups(gi, &go, &g.last_events);
        }
        total.merge(&cov);
    }
    println!("{}", total.report());
    let unhit = total.unhit();
    assert!(
        unhit.is_empty(),
        "coverage bins never hit: {}",
        unhit.join(", ")
    );
}
