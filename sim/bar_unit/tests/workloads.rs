//! Every named scenario runs to completion through the golden models with
//! the scoreboards attached (no violation, no `err`, the expected number of
//! releases, correct reductions), on several configurations, with the ideal
//! environment and with the H100 timing preset; the cluster handshake for
//! every cluster size, relaxed and with the fence, never lets a wait return
//! before the whole cluster arrived.

use bar_unit_model::config::{BarConfig, TimingConfig, CLUSTER_SIZES};
use bar_unit_model::workload::{
    arrive, bar_scenario, cluster_handshake, sync, Instr, Scenario, SmEnv, WarpProgram,
    BAR_SCENARIOS,
};

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
fn a_bad_request_is_counted_as_an_error_not_an_arrival_and_is_consumed() {
    // Its `err` comes the cycle after the unit took it: warp 0's
    // `bar.arrive 1, 96` and `bar.sync 2, 96` (3 warps > the CTA's 2:
    // count_too_big) are errors, consumed (the warp goes on, not blocked),
    // and only the two `bar.sync 0, 64` are arrivals. Warp 1's last
    // instruction is bad too: its `err` comes after every program finished.
    let cfg = BarConfig {
        warps: 8,
        cta_slots: 1,
    };
    for (tname, t) in [
        ("ideal", TimingConfig::ideal()),
        ("h100", TimingConfig::h100()),
    ] {
        let s = Scenario {
            name: "bad".into(),
            cfg,
            ctas: vec![(0, 0b11)],
            programs: vec![
                WarpProgram {
                    warp: 0,
                    prog: vec![arrive(1, 3), sync(2, Some(3)), sync(0, Some(2))],
                    iterations: 1,
                },
                WarpProgram {
                    warp: 1,
                    prog: vec![Instr::Delay(40), sync(0, Some(2)), arrive(3, 3)],
                    iterations: 1,
                },
            ],
        };
        let r = SmEnv::new(s, t, 1).run(10_000);
        assert!(r.violation.is_none(), "{tname}: {:?}", r.violation);
        assert!(r.all_done, "{tname}: did not finish");
        assert_eq!(
            (r.errors, r.arrivals, r.releases),
            (3, 2, 1),
            "{tname}: errors, arrivals, releases"
        );
    }
}

#[test]
fn an_exit_completing_an_all_barrier_releases_its_waiter() {
    // Warp 1 exits while warp 0 waits at `bar.sync 0` (all form): the exit
    // completes it, the release comes 3 cycles after the exit was taken.
    let cfg = BarConfig {
        warps: 8,
        cta_slots: 1,
    };
    let s = Scenario {
        name: "exit_last".into(),
        cfg,
        ctas: vec![(0, 0b11)],
        programs: vec![
            WarpProgram {
                warp: 0,
                prog: vec![sync(0, None)],
                iterations: 1,
            },
            WarpProgram {
                warp: 1,
                prog: vec![Instr::Delay(20), Instr::Exit],
                iterations: 1,
            },
        ],
    };
    let r = SmEnv::new(s, TimingConfig::ideal(), 1).run(10_000);
    assert!(r.violation.is_none(), "{:?}", r.violation);
    assert!(r.all_done);
    assert_eq!((r.errors, r.arrivals, r.releases), (0, 1, 1));
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
    // Ideal environment: k = 32 arrivals at one per cycle + the unit's 2
    // cycles from the last arrival to the release (B7).
    let r = SmEnv::new(
        bar_scenario("syncthreads_loop", &cfg, 50).unwrap(),
        TimingConfig::ideal(),
        1,
    )
    .run(100_000);
    assert_eq!(r.median_period(0, 5), Some(34.0));
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
