//! `membar litmus [FILES...]`: runs each litmus test (default: every
//! `litmus/*.ptx`) `--runs` times with random timing from `--seed` and prints
//! the table of observed outcomes and verdicts (`docs/litmus.md`);
//! `--markdown FILE` also writes it (no clobber). `docs/results/litmus.md` is
//! this command's output with the defaults. Exit 1 when a verdict fails
//! (each failing test printed with the command that replays it); a file
//! that is refused (unreadable, bad header) does not stop the others: they
//! run and are reported, then the command exits 2. Precedence: 2 (a refused
//! file) over 1 (a failed verdict) over 0.

use crate::common::{CmdError, CmdResult};
use crate::output::{self, RunInputs};
use crate::run_cmd::read_program;
use sm_exec::litmus::{load, run_test_with, table};
use sm_exec::RunOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The table is Markdown, recognised by its verified marker line.
const MARKDOWN: output::Owner = output::Owner::Marked(output::Mark::Markdown);

pub fn run(
    files: &[PathBuf],
    runs: u64,
    seed: u64,
    markdown: Option<&Path>,
    on: crate::on_target::On,
) -> CmdResult {
    if runs == 0 {
        return Err(CmdError::input(
            "--runs 0: expected at least 1 run per test",
        ));
    }
    let given = !files.is_empty();
    let files: Vec<PathBuf> = if !given {
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
    // A file that is refused (unreadable, bad header) does not stop the
    // others: every valid file runs and is reported, the refused ones are
    // listed, and the exit code is the worst of all (2 over 1 over 0).
    let mut tests = Vec::new();
    let mut refused = Vec::new();
    for f in &files {
        let name = f.display().to_string();
        let loaded = read_program("FILES", f)
            .and_then(|src| load(&name, &src).map_err(|e| CmdError::input(e.to_string())));
        match loaded {
            Ok(t) => tests.push((name, t)),
            Err(e) => refused.push(e.message),
        }
    }
    let mut text = String::new();
    let mut bad: Vec<String> = Vec::new();
    if !tests.is_empty() {
        let t0 = std::time::Instant::now();
        let base = RunOptions {
            backend: crate::on_target::backend(on, None)?,
            ..RunOptions::default()
        };
        let reports: Vec<_> = tests
            .iter()
            .map(|(_, t)| run_test_with(t, runs, seed, &base))
            .collect();
        let secs = t0.elapsed().as_secs_f64();
        let cycles: u64 = reports.iter().map(|r| r.cycles).sum();
        eprintln!(
            "membar litmus: {} runs, {cycles} simulated cycles in {secs:.1} s ({:.0} runs/s, {:.2} M cycles/s)",
            runs * reports.len() as u64,
            (runs * reports.len() as u64) as f64 / secs.max(1e-9),
            cycles as f64 / secs.max(1e-9) / 1e6
        );
        let names: Vec<String> = tests.iter().map(|(n, _)| n.clone()).collect();
        text = table(&reports, runs, seed, given.then_some(names.as_slice()));
        std::io::stdout()
            .write_all(text.as_bytes())
            .map_err(|e| CmdError::failed(format!("writing stdout: {e}")))?;
        for ((file, _), r) in tests.iter().zip(&reports) {
            if r.pass() {
                continue;
            }
            let mut m = format!("{}: {}", r.name, r.verdict());
            if let Some(f) = &r.first_failure {
                m.push_str(&format!("\n    first failed run: {f}"));
            }
            m.push_str(&format!(
                "\n    replay the test: membar litmus {file} --runs {runs} --seed {seed}{}",
                on.flag()
            ));
            if let Some(s) = r.first_forbidden_seed {
                m.push_str(&format!(
                    "\n    first run with the forbidden outcome: membar run {file} --seed {s}{}",
                    on.flag()
                ));
            }
            bad.push(m);
        }
    }
    if let Some(m) = markdown {
        if refused.is_empty() {
            output::write_file("--markdown", m, &inputs, MARKDOWN, "a litmus table", |w| {
                w.write_all(text.as_bytes())
            })?;
        } else {
            eprintln!(
                "membar litmus: --markdown {}: not written (a file was refused; the table would be incomplete)",
                m.display()
            );
        }
    }
    if !bad.is_empty() {
        eprintln!("membar: litmus verdicts failed:\n  {}", bad.join("\n  "));
    }
    if !refused.is_empty() {
        return Err(CmdError::input(format!(
            "{} of {} litmus file(s) refused (the others ran{}):\n  {}",
            refused.len(),
            files.len(),
            if bad.is_empty() {
                ""
            } else {
                "; some verdicts failed, see above"
            },
            refused.join("\n  ")
        )));
    }
    if bad.is_empty() {
        Ok(())
    } else {
        Err(CmdError::failed(format!(
            "{} of {} litmus test(s) failed (see above)",
            bad.len(),
            tests.len()
        )))
    }
}
