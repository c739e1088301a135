//! `membar formal`: formal proofs of the SPEC.md contract on the emitted
//! Verilog (SymbiYosys). The harness, runner and replay live in the
//! `membar-formal` crate; this file parses the flags and prints the report.
//!
//! Exit codes: 0 every selected group proven (or bounded, for bmc / depth-
//! limited runs); 1 a counterexample, or a group that ended unknown / timed
//! out; 2 bad input (`--unit`, `--engine`, `--props`, config) or a missing tool.

use crate::common::{load_config, CmdError, CmdResult};
use crate::rtl_cmd::verilog_for;
use crate::units::Unit;
use membar_formal::runner::{self, Options, RunError, Verdict};
use membar_formal::sby::Engine;
use membar_formal::unit::UnitSpec;
use std::path::{Path, PathBuf};

/// Groups that pdr does not close (run with bmc, asked for explicitly).
fn pdr_skips(unit: Unit) -> &'static [&'static str] {
    match unit {
        Unit::Membar => &["p5"],
        Unit::Mbarrier => membar_formal::mbarrier::PDR_SKIP,
        Unit::Bar => membar_formal::bar::PDR_SKIP,
        Unit::SmSync => membar_formal::sm_sync::PDR_SKIP,
        Unit::Cluster | Unit::AsyncGroups => &[],
    }
}

/// The unit's formal spec, its configuration's short name and the Verilog to check.
fn unit_spec(a: &FormalArgs) -> Result<(UnitSpec, String, PathBuf), CmdError> {
    let (spec, name, verilog) = unit_spec_unchecked(a)?;
    // The same port check cosimulation makes: a Verilog of another
    // configuration is refused (exit 2), not proven against the wrong harness.
    use crate::unit_kit::check_verilog;
    let given = a.verilog.is_some();
    match a.unit {
        Unit::Bar => check_verilog::<bar_unit_model::ports::BarUnitPorts>(
            &verilog,
            given,
            &crate::unit_bar::load_config(&a.config)?,
        )?,
        Unit::Cluster => check_verilog::<bar_unit_model::ports::ClusterBarrierPorts>(
            &verilog,
            given,
            &crate::unit_cluster::load_config(&a.config)?,
        )?,
        Unit::Mbarrier => check_verilog::<mbarrier_unit_model::ports::mbarrier::MbarrierUnitPorts>(
            &verilog,
            given,
            &crate::unit_mbarrier::load(&a.config)?,
        )?,
        Unit::AsyncGroups => check_verilog::<
            mbarrier_unit_model::ports::async_groups::AsyncGroupsPorts,
        >(
            &verilog, given, &crate::unit_async_groups::load(&a.config)?
        )?,
        Unit::SmSync => check_verilog::<sm_sync_model::SmSyncPorts>(
            &verilog,
            given,
            &crate::unit_sm_sync::load(&a.config)?.1,
        )?,
        // membar: checked by rtl_cmd::verilog_for.
        _ => {}
    }
    Ok((spec, name, verilog))
}

fn unit_spec_unchecked(a: &FormalArgs) -> Result<(UnitSpec, String, PathBuf), CmdError> {
    let v = a.verilog.as_deref();
    Ok(match a.unit {
        Unit::Membar => {
            let cfg = load_config(&a.config)?;
            let verilog = verilog_for(&cfg, &a.config, v)?;
            (membar_formal::unit::membar(&cfg), cfg.short_name(), verilog)
        }
        Unit::Bar => {
            let cfg = crate::unit_bar::load_config(&a.config)?;
            let verilog = crate::unit_bar::verilog_for(&cfg, &a.config, v)?;
            let name = format!("w{}_c{}", cfg.warps, cfg.cta_slots);
            (membar_formal::bar::spec(&cfg), name, verilog)
        }
        Unit::Cluster => {
            let cfg = crate::unit_cluster::load_config(&a.config)?;
            let verilog = match v {
                Some(p) => crate::common::given_verilog(p)?,
                None => crate::common::generated_verilog_file(
                    &bar_unit_rtl::cluster_module_prefix(&cfg),
                    "cluster_barrier.v",
                    &crate::unit_cluster::generate_text(&cfg, &a.config)?,
                )?,
            };
            let name = format!("n{}", cfg.ranks);
            (membar_formal::cluster::spec(&cfg), name, verilog)
        }
        Unit::Mbarrier => {
            let cfg = crate::unit_mbarrier::load(&a.config)?;
            let verilog = match v {
                Some(p) => crate::common::given_verilog(p)?,
                None => crate::common::generated_verilog_file(
                    &mbarrier_unit_rtl::module_prefix(&cfg),
                    "mbarrier_unit.v",
                    &crate::unit_mbarrier::verilog_for(&cfg, &a.config)?,
                )?,
            };
            let name = unit_ports::UnitConfig::short_name(&cfg);
            (membar_formal::mbarrier::spec(&cfg), name, verilog)
        }
        Unit::AsyncGroups => {
            let cfg = crate::unit_async_groups::load(&a.config)?;
            let verilog = match v {
                Some(p) => crate::common::given_verilog(p)?,
                None => crate::common::generated_verilog_file(
                    &mbarrier_unit_rtl::ag_module_prefix(&cfg),
                    "async_groups.v",
                    &crate::unit_async_groups::verilog_for(&cfg, &a.config)?,
                )?,
            };
            let name = mbarrier_unit_rtl::ag_config_name(&cfg);
            (membar_formal::async_groups::spec(&cfg), name, verilog)
        }
        Unit::SmSync => {
            let (name, cfg) = crate::unit_sm_sync::load(&a.config)?;
            let verilog = match v {
                Some(p) => crate::common::given_verilog(p)?,
                None => crate::common::generated_verilog_file(
                    &sm_sync_rtl::module_prefix(&cfg),
                    "sm_sync.v",
                    &crate::unit_sm_sync::verilog_for(&cfg, &a.config)?,
                )?,
            };
            (membar_formal::sm_sync::spec(&cfg), name, verilog)
        }
    })
}

fn check_readable(p: &Path) -> Result<(), CmdError> {
    std::fs::metadata(p)
        .map(|_| ())
        .map_err(|e| CmdError::input(format!("--verilog {}: cannot read: {e}", p.display())))
}

pub struct FormalArgs {
    pub unit: Unit,
    pub config: PathBuf,
    pub verilog: Option<PathBuf>,
    pub depth: u32,
    pub engine: String,
    pub props: Option<String>,
    pub keep: Option<PathBuf>,
    pub timeout: u64,
    pub jobs: usize,
}

pub fn formal(a: &FormalArgs) -> CmdResult {
    let engine = Engine::parse(&a.engine).ok_or_else(|| {
        CmdError::input(format!(
            "--engine {:?}: unknown engine; allowed: {}",
            a.engine,
            Engine::ALLOWED
        ))
    })?;
    if a.depth == 0 {
        return Err(CmdError::input("--depth 0: allowed: 1 or more cycles"));
    }
    if a.jobs == 0 {
        return Err(CmdError::input("--jobs 0: allowed: 1 or more"));
    }
    let all_groups = match a.unit {
        Unit::Membar => membar_formal::harness::GROUPS,
        Unit::Bar => membar_formal::bar::GROUPS,
        Unit::Cluster => membar_formal::cluster::GROUPS,
        Unit::AsyncGroups => membar_formal::async_groups::GROUPS,
        Unit::SmSync => membar_formal::sm_sync::GROUPS,
        Unit::Mbarrier => membar_formal::mbarrier::GROUPS,
    };
    let skip = pdr_skips(a.unit);
    let groups: Vec<String> = match a.props.as_deref() {
        Some(p) => p.split(',').map(|s| s.trim().to_string()).collect(),
        // pdr does not close some bounded-liveness groups (docs/formal.md):
        // by default it runs every other group; those are asked for explicitly.
        None if engine == Engine::Pdr && !skip.is_empty() => {
            println!(
                "note: {} not run with pdr by default (does not close); check with --engine {} --props {}",
                skip.join(", "),
                if a.unit == Unit::Membar { "bmc" } else { "kind --depth 2" },
                skip.join(",")
            );
            all_groups
                .iter()
                .filter(|g| !skip.contains(&g.name) && g.name != "all")
                .map(|g| g.name.to_string())
                .collect()
        }
        None => Vec::new(),
    };
    // Validate the flags before any work.
    runner::select_groups_in(all_groups, &groups).map_err(|e| CmdError::input(e.to_string()))?;
    if let Some(v) = a.verilog.as_deref() {
        check_readable(v)?;
    }
    let (spec, short, verilog) = unit_spec(a)?;
    let opts = Options {
        engine,
        depth: a.depth,
        groups,
        timeout: a.timeout,
        keep: a.keep.clone(),
        jobs: a.jobs,
        progress: crate::common::progress_every(),
    };
    println!(
        "formal: unit {}, config {} ({}), verilog {}, engine {}, depth {}",
        a.unit,
        a.config.display(),
        short,
        verilog.display(),
        engine.name(),
        a.depth
    );
    let results = runner::run_unit(&spec, &verilog, &opts).map_err(|e| match e {
        RunError::Input(s) | RunError::Io(s) => CmdError::input(s),
        RunError::Missing(m) => CmdError::input(m.to_string()),
    })?;
    let mut bad = Vec::new();
    for r in &results {
        println!("{}", r.summary());
        match &r.verdict {
            Verdict::Proven | Verdict::Bounded(_) => {}
            Verdict::Unknown(_) => {
                println!("       log (last lines):\n{}", r.log_tail);
                bad.push(r.group.name);
            }
            Verdict::Counterexample { .. } => bad.push(r.group.name),
        }
    }
    let total: f64 = results.iter().map(|r| r.seconds).sum();
    println!("total {total:.1} s");
    if let Some(k) = &a.keep {
        println!("work directory kept: {}", k.display());
    }
    if bad.is_empty() {
        Ok(())
    } else {
        Err(CmdError::failed(format!(
            "formal: not proven: {}",
            bad.join(", ")
        )))
    }
}
