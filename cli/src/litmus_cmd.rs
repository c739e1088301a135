//! `membar litmus [FILES...]`: runs each litmus test (default: every
//! `litmus/*.ptx`) `--runs` times with random timing from `--seed` and prints
//! the table of observed outcomes and verdicts (`docs/litmus.md`);
//! `--markdown FILE` also writes it (no clobber). `docs/results/litmus.md` is
//! this command's output with the defaults. Exit 1 when a verdict fails.

use crate::common::{CmdError, CmdResult};
use crate::output::{self, RunInputs};
use crate::run_cmd::read_program;
use sm_exec::litmus::{load, run_test, table};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The table is Markdown, recognised by its verified marker line.
const MARKDOWN: output::Owner = output::Owner::Marked(output::Mark::Markdown);

pub fn run(files: &[PathBuf], runs: u64, seed: u64, markdown: Option<&Path>) -> CmdResult {
    if runs == 0 {
        return Err(CmdError::input(
            "--runs 0: expected at least 1 run per test",
        ));
    }
    let files: Vec<PathBuf> = if files.is_empty() {
        let dir = Path::new("litmus");
        let rd = std::fs::read_dir(dir).map_err(|e| {
            CmdError::input(format!(
                "litmus/: {e}; give litmus files, or run from the repository root"
            ))
        })?;
        let mut v: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
            .collect();
        v.sort();
        if v.is_empty() {
            return Err(CmdError::input("litmus/: no .ptx files"));
        }
        v
    } else {
        files.to_vec()
    };
    let mut inputs = RunInputs::new();
    for f in &files {
        inputs.add("FILES", f);
    }
    if let Some(m) = markdown {
        output::check_target("--markdown", m, &inputs, MARKDOWN, "a litmus table")?;
    }
    let mut tests = Vec::new();
    for f in &files {
        let name = f.display().to_string();
        let src = read_program("FILES", f)?;
        tests.push(load(&name, &src).map_err(|e| CmdError::input(e.to_string()))?);
    }
    let t0 = std::time::Instant::now();
    let reports: Vec<_> = tests.iter().map(|t| run_test(t, runs, seed)).collect();
    let secs = t0.elapsed().as_secs_f64();
    let cycles: u64 = reports.iter().map(|r| r.cycles).sum();
    eprintln!(
        "membar litmus: {} runs, {cycles} simulated cycles in {secs:.1} s ({:.0} runs/s, {:.2} M cycles/s)",
        runs * reports.len() as u64,
        (runs * reports.len() as u64) as f64 / secs.max(1e-9),
        cycles as f64 / secs.max(1e-9) / 1e6
    );
    let text = table(&reports, runs, seed);
    std::io::stdout()
        .write_all(text.as_bytes())
        .map_err(|e| CmdError::failed(format!("writing stdout: {e}")))?;
    if let Some(m) = markdown {
        output::write_file("--markdown", m, &inputs, MARKDOWN, "a litmus table", |w| {
            w.write_all(text.as_bytes())
        })?;
    }
    let bad: Vec<String> = reports
        .iter()
        .filter(|r| !r.pass())
        .map(|r| {
            format!(
                "{}: {}{}",
                r.name,
                r.verdict(),
                r.first_failure
                    .as_ref()
                    .map(|f| format!(" (first: {f})"))
                    .unwrap_or_default()
            )
        })
        .collect();
    if bad.is_empty() {
        Ok(())
    } else {
        Err(CmdError::failed(format!(
            "litmus verdicts failed:\n  {}",
            bad.join("\n  ")
        )))
    }
}
