//! `membar formal`: formal proofs of the SPEC.md contract on the emitted
//! Verilog (SymbiYosys). The harness, runner and replay live in the
//! `membar-formal` crate, each unit's groups and harness builder in its
//! registry entry (`registry.rs`); this file parses the flags and prints
//! the report, the same for every unit.
//!
//! Exit codes: 0 every selected group proven (or bounded, for bmc / depth-
//! limited runs); 1 a counterexample, or a group that ended unknown / timed
//! out; 2 bad input (`--unit`, `--engine`, `--props`, config) or a missing tool.

use crate::common::{CmdError, CmdResult};
use crate::registry::Unit;
use membar_formal::runner::{self, Options, RunError, Verdict};
use membar_formal::sby::Engine;
use std::path::{Path, PathBuf};

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
    // The unit's harness, groups and pdr exceptions: its registry entry.
    let entry = &crate::registry::entry(a.unit).formal;
    let all_groups = entry.groups;
    let skip = entry.pdr_skip;
    let groups: Vec<String> = match a.props.as_deref() {
        Some(p) => p.split(',').map(|s| s.trim().to_string()).collect(),
        // pdr does not close some bounded-liveness groups (docs/formal.md):
        // by default it runs every other group; those are asked for explicitly.
        None if engine == Engine::Pdr && !skip.is_empty() => {
            println!(
                "note: {} not run with pdr by default (does not close); check with --engine {} --props {}",
                skip.join(", "),
                entry.skip_engine,
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
    // The same port check cosimulation makes: a Verilog of another
    // configuration is refused (exit 2), not proven against the wrong harness.
    let (spec, short, verilog) = (entry.spec)(&a.config, a.verilog.as_deref())?;
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

/// `formal --all-configs`'s flags.
pub struct AllConfigs {
    pub plan: bool,
    /// membar's bmc depth.
    pub depth: u32,
    /// The other units' bmc depth on `all`.
    pub unit_depth: u32,
    pub timeout: u64,
    pub jobs: usize,
}

/// One run of the long formal plan.
struct Step {
    args: FormalArgs,
    what: String,
}

/// The long run, from the registry: for every unit and every configuration
/// checked in under `verilog_out/<dir>/` (and `<dir>/reduced_range/`), pdr
/// on the groups it closes, the unit's other engine on the rest, and bmc on
/// `all` where the unit has that group.
fn plan(a: &AllConfigs) -> Result<Vec<Step>, CmdError> {
    let root = Path::new("verilog_out");
    let mut steps = Vec::new();
    for e in crate::registry::REGISTRY {
        let mut configs = crate::synth_all::shipped(root, e.unit)?;
        configs.extend(crate::synth_all::reduced_range(root, e.unit)?);
        for (name, config) in configs {
            let verilog = config.with_file_name(format!("{}.v", e.module));
            let f = &e.formal;
            let step = |engine: &str, depth: u32, props: Option<String>, what: String| Step {
                args: FormalArgs {
                    unit: e.unit,
                    config: config.clone(),
                    verilog: Some(verilog.clone()),
                    depth,
                    engine: engine.to_string(),
                    props,
                    keep: None,
                    timeout: a.timeout,
                    jobs: a.jobs,
                },
                what: format!("{} {name}: {what}", e.unit),
            };
            let has_all = f.groups.iter().any(|g| g.name == "all");
            if !has_all {
                // membar: bmc on every group first (p5 included).
                steps.push(step(
                    "bmc",
                    a.depth,
                    None,
                    format!("abc bmc3, depth {}, every group", a.depth),
                ));
            }
            steps.push(step(
                "pdr",
                a.depth,
                None,
                "abc pdr on the groups it closes".into(),
            ));
            if has_all && !f.pdr_skip.is_empty() {
                steps.push(step(
                    "kind",
                    2,
                    Some(f.pdr_skip.join(",")),
                    format!("k-induction depth 2 on {}", f.pdr_skip.join(",")),
                ));
            }
            if has_all {
                steps.push(step(
                    "bmc",
                    a.unit_depth,
                    Some("all".into()),
                    format!("abc bmc3, depth {}, every group in one task", a.unit_depth),
                ));
            }
        }
    }
    Ok(steps)
}

/// `membar formal --all-configs`: the plan, run step by step (or printed
/// with `--plan`); exit 1 naming every step that did not pass.
pub fn all_configs(a: &AllConfigs) -> CmdResult {
    if a.depth == 0 || a.unit_depth == 0 {
        return Err(CmdError::input(
            "--depth / --unit-depth 0: allowed: 1 or more cycles",
        ));
    }
    let steps = plan(a)?;
    if a.plan {
        for s in &steps {
            println!(
                "{}\n    membar formal --unit {} --config {} --verilog {} --engine {} --depth {}{} --timeout {}",
                s.what,
                s.args.unit,
                s.args.config.display(),
                s.args.verilog.as_deref().unwrap_or(Path::new("-")).display(),
                s.args.engine,
                s.args.depth,
                s.args
                    .props
                    .as_deref()
                    .map(|p| format!(" --props {p}"))
                    .unwrap_or_default(),
                s.args.timeout
            );
        }
        println!("{} runs", steps.len());
        return Ok(());
    }
    let mut bad = Vec::new();
    for (k, s) in steps.iter().enumerate() {
        println!("=== [{}/{}] {}", k + 1, steps.len(), s.what);
        if let Err(e) = formal(&s.args) {
            println!("    {}", e.message);
            bad.push(s.what.clone());
        }
    }
    if bad.is_empty() {
        println!(
            "formal --all-configs: {} runs, every one passed",
            steps.len()
        );
        Ok(())
    } else {
        Err(CmdError::failed(format!(
            "formal --all-configs: {} of {} runs did not pass:\n  {}",
            bad.len(),
            steps.len(),
            bad.join("\n  ")
        )))
    }
}
