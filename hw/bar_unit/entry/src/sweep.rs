//! `membar sweep --unit bar|cluster`: one grid point on the unit's golden
//! model under H100 timing, its scoreboard on every cycle.
//!
//! bar: config keys `warps`, `cta_slots`; workload keys `scenario` (the
//! built-in `bar_unit` scenarios) and `iterations`; columns: cycles,
//! arrivals, releases, releases per kcycle, errors, mean cycles between a
//! warp's barrier resumes, every program finished.
//!
//! cluster: config key `ranks`; workload keys `warps_per_cta`, `release`
//! (arrive.release + GPU fence instead of .relaxed), `iterations`; columns:
//! cycles, phases, phases per kcycle, mean cycles between a warp's waits
//! returning, early waits.

use bar_unit_model::config::{BarConfig, ClusterConfig, TimingConfig};
use bar_unit_model::workload::{bar_scenario, cluster_handshake, SmEnv, BAR_SCENARIOS};
use cli_kit::common::CmdError;
use cli_kit::sweep::{mean_gap, per_k, scalar, Point, SweepEntry};

/// The named-barrier unit's sweep.
pub const BAR: SweepEntry = SweepEntry {
    config_keys: bar_unit_model::config::BAR_KEYS,
    workload_keys: &["scenario", "iterations"],
    run_point: bar_point,
};

/// The cluster barrier's sweep.
pub const CLUSTER: SweepEntry = SweepEntry {
    config_keys: &["ranks"],
    workload_keys: &["warps_per_cta", "release", "iterations"],
    run_point: cluster_point,
};

fn bar_point(p: &Point) -> Result<Vec<(&'static str, String)>, CmdError> {
    let source = &p.source;
    let cfg = BarConfig::from_yaml(&p.config_text(), source)
        .map_err(|e| CmdError::input(e.to_string()))?;
    let name = p
        .workload("scenario")
        .map(scalar)
        .unwrap_or_else(|| "syncthreads_loop".into());
    let it = p.int("iterations", 10, 1, 10_000)? as u32;
    let sc = bar_scenario(&name, &cfg, it).map_err(|e| {
        CmdError::input(format!(
            "{source}: key `workload.scenario`: value {name}: {e} (bar_unit scenarios: {})",
            BAR_SCENARIOS.join(", ")
        ))
    })?;
    let r = SmEnv::new(sc, TimingConfig::h100(), p.seed).run(10_000_000);
    if let Some(v) = &r.violation {
        return Err(CmdError::failed(format!(
            "{source} (w{}_c{}, {name}): scoreboard B1-B7 violation: {v:?}",
            cfg.warps, cfg.cta_slots
        )));
    }
    Ok(vec![
        ("warps", cfg.warps.to_string()),
        ("cta_slots", cfg.cta_slots.to_string()),
        ("scenario", name),
        ("iterations", it.to_string()),
        ("cycles", r.cycles.to_string()),
        ("arrivals", r.arrivals.to_string()),
        ("releases", r.releases.to_string()),
        (
            "releases_per_kcycle",
            format!("{:.3}", per_k(r.releases, r.cycles)),
        ),
        ("errors", r.errors.to_string()),
        (
            "mean_resume_interval",
            format!("{:.2}", mean_gap(&r.resumes)),
        ),
        ("all_done", r.all_done.to_string()),
    ])
}

fn cluster_point(p: &Point) -> Result<Vec<(&'static str, String)>, CmdError> {
    let source = &p.source;
    let cfg = ClusterConfig::from_yaml(&p.config_text(), source)
        .map_err(|e| CmdError::input(e.to_string()))?;
    let k = p.int("warps_per_cta", 4, 1, 32)? as u32;
    let it = p.int("iterations", 10, 1, 10_000)? as u32;
    let release = p.flag("release", false)?;
    let r = cluster_handshake(cfg.ranks, k, release, &TimingConfig::h100(), it);
    if let Some(v) = &r.violation {
        return Err(CmdError::failed(format!(
            "{source} (n{}): scoreboard C1-C4 violation: {v:?}",
            cfg.ranks
        )));
    }
    Ok(vec![
        ("ranks", cfg.ranks.to_string()),
        ("warps_per_cta", k.to_string()),
        ("release", release.to_string()),
        ("iterations", it.to_string()),
        ("cycles", r.cycles.to_string()),
        ("phases", r.phases.to_string()),
        (
            "phases_per_kcycle",
            format!("{:.3}", per_k(r.phases, r.cycles)),
        ),
        ("mean_wait_interval", format!("{:.2}", mean_gap(&r.resumes))),
        ("early_waits", r.early_waits.to_string()),
    ])
}
