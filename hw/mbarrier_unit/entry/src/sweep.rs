//! `membar sweep --unit mbarrier|async_groups`: one grid point, a kernel
//! scenario on both units, the copy engine and the front end
//! (`KernelRunner`), both scoreboards (M1-M8, G1-G4) on every cycle.
//!
//! Config keys: those of the mbarrier YAML; workload keys `scenario`
//! (tma_pipeline, split_k, bulk_store_groups), `load_latency_l2`,
//! `store_latency` (copy engine), `wake_latency` (front end); columns:
//! cycles, ops, completions, wakes, wakes per kcycle, try_wait timeouts,
//! group releases, warp-cycles blocked in wait_group, errors, finished.

use cli_kit::common::CmdError;
use cli_kit::sweep::{grid_err, per_k, scalar, Point, SweepEntry};
use mbarrier_unit_model::config::Config;
use mbarrier_unit_model::copy_engine::CopyTiming;
use mbarrier_unit_model::scoreboard::{GroupScoreboard, MbarScoreboard};
use mbarrier_unit_model::workload::{scenario, FrontEnd, KernelRunner, SCENARIOS};

const WORKLOAD_KEYS: &[&str] = &[
    "scenario",
    "load_latency_l2",
    "store_latency",
    "wake_latency",
];

/// The transaction-barrier unit's sweep (default scenario tma_pipeline).
pub const MBARRIER: SweepEntry = SweepEntry {
    config_keys: mbarrier_unit_model::config::KEYS,
    workload_keys: WORKLOAD_KEYS,
    run_point: |p| kernel_point(p, "tma_pipeline", mbarrier_unit_rtl::config_name),
};

/// The async-group tracker's sweep (default scenario bulk_store_groups).
pub const ASYNC_GROUPS: SweepEntry = SweepEntry {
    config_keys: mbarrier_unit_model::config::KEYS,
    workload_keys: WORKLOAD_KEYS,
    run_point: |p| kernel_point(p, "bulk_store_groups", mbarrier_unit_rtl::ag_config_name),
};

/// mbarrier / async_groups: a kernel scenario on both units, the copy engine
/// and the front end (`KernelRunner`), both scoreboards on every cycle.
fn kernel_point(
    p: &Point,
    default: &str,
    cfg_name: fn(&Config) -> String,
) -> Result<Vec<(&'static str, String)>, CmdError> {
    let source = p.source.as_str();
    let cfg = Config::from_yaml_str(&p.config_text(), source)
        .map_err(|e| CmdError::input(e.to_string()))?;
    let name = p
        .workload("scenario")
        .map(scalar)
        .unwrap_or_else(|| default.into());
    let progs = scenario(&name, &cfg)
        .ok_or_else(|| grid_err(p.grid, "workload.scenario", &name, &SCENARIOS.join(", ")))?;
    let mut copy = CopyTiming::functional();
    copy.load_latency_l2 = p.int("load_latency_l2", copy.load_latency_l2, 1, 100_000)?;
    copy.store_latency = p.int("store_latency", copy.store_latency, 1, 100_000)?;
    let mut fe = FrontEnd::ideal();
    fe.wake_latency = p.int("wake_latency", fe.wake_latency, 0, 10_000)?;
    let mut msb = MbarScoreboard::new(&cfg);
    let mut gsb = GroupScoreboard::new(&cfg);
    let mut violation: Option<String> = None;
    let mut stall = 0u64;
    let mut r = KernelRunner::new(&cfg, fe, copy, progs);
    let stats = r.run(10_000_000, |c, x| {
        stall += u64::from(x.go.blocked.count_ones());
        if violation.is_none() {
            if let Err(v) = msb.check(c, &x.mi, &x.mo) {
                violation = Some(format!("M1-M8 at cycle {c}: {v}"));
            } else if let Err(v) = gsb.check(c, &x.gi, &x.go) {
                violation = Some(format!("G1-G4 at cycle {c}: {v}"));
            }
        }
    });
    if let Some(v) = violation {
        return Err(CmdError::failed(format!(
            "{source} ({}, {name}): scoreboard violation: {v}",
            mbarrier_unit_rtl::config_name(&cfg)
        )));
    }
    let mut row = vec![("config", cfg_name(&cfg))];
    row.extend([
        ("scenario", name),
        ("load_latency_l2", copy.load_latency_l2.to_string()),
        ("store_latency", copy.store_latency.to_string()),
        ("wake_latency", fe.wake_latency.to_string()),
        ("cycles", stats.cycles.to_string()),
        ("ops", stats.ops.to_string()),
        ("completions", stats.completions.to_string()),
        ("wakes", stats.wakes_done.to_string()),
        (
            "wakes_per_kcycle",
            format!("{:.3}", per_k(stats.wakes_done, stats.cycles)),
        ),
        ("timeouts", stats.timeouts.to_string()),
        ("group_releases", stats.group_releases.to_string()),
        ("wait_group_stall_warp_cycles", stall.to_string()),
        ("errors", stats.errors.to_string()),
        ("finished", stats.finished.to_string()),
    ]);
    Ok(row)
}
