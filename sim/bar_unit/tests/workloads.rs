//! Every named scenario runs to completion through the golden models with
//! the scoreboards attached (no violation, no `err`, the expected number of
//! releases, correct reductions), on several configurations, with the ideal
//! environment and with the H100 timing preset; the cluster handshake for
//! every cluster size, relaxed and with the fence, never lets a wait return
//! before the whole cluster arrived.

use bar_unit_model::config::{BarConfig, TimingConfig, CLUSTER_SIZES};
use bar_unit_model::workload::{bar_scenario, cluster_handshake, SmEnv, BAR_SCENARIOS};

#[test]
fn every_bar_scenario_runs_clean_on_several_configs() {
    let cfgs = [
        BarConfig {
            warps: 8,
            cta_slots: 1,
        },
        BarConfig {
            warps: 16,
            cta_slots: 5,
        },
        BarConfig {
            warps: 32,
            cta_slots: 8,
        },
        BarConfig {
            warps: 64,
            cta_slots: 64,
        },
    ];
    for cfg in cfgs {
        for &name in BAR_SCENARIOS {
            for (tname, t) in [
                ("ideal", TimingConfig::ideal()),
                ("h100", TimingConfig::h100()),
            ] {
                let it = 20;
                let s = bar_scenario(name, &cfg, it).unwrap();
                let r = SmEnv::new(s, t, 7).run(500_000);
                let tag = format!("{name} {cfg:?} {tname}");
                assert!(r.violation.is_none(), "{tag}: {:?}", r.violation);
                assert!(r.all_done, "{tag}: did not finish in {} cycles", r.cycles);
                assert_eq!(r.errors, 0, "{tag}: err pulsed");
                assert_eq!(r.red_mismatches, 0, "{tag}: wrong reduction result");
                let expect = match name {
                    "syncthreads_loop" => Some(it as u64),
                    "producer_consumer" => Some(2 * it as u64),
                    "warp_specialised" => Some(16 * it as u64),
                    "red_votes" => Some(3 * it as u64),
                    "exit_early" => Some(it as u64),
                    "count_sweep" => Some((cfg.warps + cfg.warps.div_ceil(15)) as u64),
                    _ => None,
                };
                if let Some(e) = expect {
                    assert_eq!(r.releases, e, "{tag}: releases");
                } else {
                    assert!(
                        r.releases >= it as u64 * cfg.cta_slots as u64,
                        "{tag}: releases {}",
                        r.releases
                    );
                }
                if name == "red_votes" {
                    assert_eq!(r.red_results.len(), 3 * it as usize);
                }
            }
        }
    }
}

#[test]
fn unknown_scenario_is_a_clear_error() {
    let e = bar_scenario("sync_loop", &BarConfig::default(), 1).unwrap_err();
    let s = e.to_string();
    assert!(
        s.contains("sync_loop") && s.contains("syncthreads_loop"),
        "{s}"
    );
}

#[test]
fn h100_syncthreads_throughput_is_serialised_arrivals() {
    // 32 warps, no count: period 12 + 2k cycles (table 1.1), so 76 cycles.
    let cfg = BarConfig {
        warps: 32,
        cta_slots: 1,
    };
    let r = SmEnv::new(
        bar_scenario("syncthreads_loop", &cfg, 50).unwrap(),
        TimingConfig::h100(),
        1,
    )
    .run(100_000);
    assert_eq!(r.median_period(0, 5), Some(76.0));
    // Ideal environment: k arrivals at one per cycle + 1 release cycle.
    let r = SmEnv::new(
        bar_scenario("syncthreads_loop", &cfg, 50).unwrap(),
        TimingConfig::ideal(),
        1,
    )
    .run(100_000);
    assert_eq!(r.median_period(0, 5), Some(33.0));
}

#[test]
fn cluster_handshake_all_sizes_never_releases_early() {
    for n in CLUSTER_SIZES {
        for k in [1, 4] {
            for release in [false, true] {
                for t in [TimingConfig::ideal(), TimingConfig::h100()] {
                    let r = cluster_handshake(n, k, release, &t, 30);
                    assert!(r.violation.is_none(), "n={n} k={k}: {:?}", r.violation);
                    assert_eq!(
                        r.early_waits, 0,
                        "n={n} k={k}: a wait returned before the cluster arrived"
                    );
                    assert_eq!(r.phases, 30, "n={n} k={k} release={release}");
                    assert!(r.resumes.iter().all(|v| v.len() == 30));
                }
            }
        }
    }
}
