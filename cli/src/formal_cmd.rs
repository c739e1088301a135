//! `membar formal`: formal proofs of the SPEC.md contract on the emitted
//! Verilog (SymbiYosys). The harness, runner and replay live in the
//! `membar-formal` crate; this file parses the flags and prints the report.
//!
//! Exit codes: 0 every selected group proven (or bounded, for bmc / depth-
//! limited runs); 1 a counterexample, or a group that ended unknown / timed
//! out; 2 bad input (`--unit`, `--engine`, `--props`, config) or a missing tool.

use crate::common::{load_config, CmdError, CmdResult};
use crate::rtl_cmd::verilog_for;
use membar_formal::harness::GROUPS;
use membar_formal::runner::{self, Options, RunError, Verdict};
use membar_formal::sby::Engine;
use std::path::PathBuf;

/// Units with a formal harness.
pub const UNITS: &str = "membar";

pub struct FormalArgs {
    pub unit: String,
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
    if a.unit != "membar" {
        return Err(CmdError::input(format!(
            "--unit {:?}: no formal harness for this unit; allowed: {UNITS}",
            a.unit
        )));
    }
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
    let groups: Vec<String> = match a.props.as_deref() {
        Some(p) => p.split(',').map(|s| s.trim().to_string()).collect(),
        // pdr does not close P5's quiescence counter (docs/formal.md): by
        // default it runs every other group; P5 is asked for explicitly.
        None if engine == Engine::Pdr => {
            println!("note: p5 is not run with pdr by default (it does not close); check it with --engine bmc --props p5");
            GROUPS
                .iter()
                .filter(|g| g.name != "p5")
                .map(|g| g.name.to_string())
                .collect()
        }
        None => Vec::new(),
    };
    // Validate the flags before any work.
    runner::select_groups(&groups).map_err(|e| CmdError::input(e.to_string()))?;
    let cfg = load_config(&a.config)?;
    let verilog = verilog_for(&cfg, &a.config, a.verilog.as_deref())?;
    let opts = Options {
        engine,
        depth: a.depth,
        groups,
        timeout: a.timeout,
        keep: a.keep.clone(),
        jobs: a.jobs,
    };
    println!(
        "formal: unit membar, config {} ({}), verilog {}, engine {}, depth {}",
        a.config.display(),
        cfg.short_name(),
        verilog.display(),
        engine.name(),
        a.depth
    );
    let results = runner::run(&cfg, &verilog, &opts).map_err(|e| match e {
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
