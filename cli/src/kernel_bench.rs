//! `membar bench --kernel LAUNCH.yaml... | all`: runs each kernel (the PTX
//! module beside its launch file: `X.launch.yaml` → `X.ptx`) on the SIMT
//! executor and prints, per kernel, its check, simulated cycles,
//! warp-instructions, the seconds the machine ran and the rates
//! (warp-instructions/s, cycles/s). Exit 1 when a kernel does not finish or
//! an expected output differs; 2 for a missing or bad file.

use crate::common::{CmdError, CmdResult};
use sm_exec::{Outcome, RunOptions};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Every `*.launch.yaml` under `kernels/` (sorted), for `--kernel all`.
fn all_launch_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.to_string_lossy().ends_with(".launch.yaml") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The module a launch file runs: `X.launch.yaml` → `X.ptx`.
fn module_of(launch: &Path) -> Result<PathBuf, CmdError> {
    let s = launch.to_string_lossy();
    let Some(stem) = s.strip_suffix(".launch.yaml") else {
        return Err(CmdError::input(format!(
            "--kernel {s}: expected a launch file named X.launch.yaml (its module is X.ptx beside it) or `all`"
        )));
    };
    let m = PathBuf::from(format!("{stem}.ptx"));
    if !m.is_file() {
        return Err(CmdError::input(format!(
            "--kernel {s}: its module {} does not exist (expected X.ptx beside X.launch.yaml)",
            m.display()
        )));
    }
    Ok(m)
}

pub fn run(kernels: &[PathBuf], seed: u64, cycles: u64) -> CmdResult {
    let files: Vec<PathBuf> = if kernels.len() == 1 && kernels[0] == Path::new("all") {
        let f = all_launch_files(Path::new("kernels"));
        if f.is_empty() {
            return Err(CmdError::input(
                "--kernel all: no kernels/**/*.launch.yaml under the current directory (run from the project's root)",
            ));
        }
        f
    } else {
        kernels.to_vec()
    };
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# membar bench --kernel (seed {seed}): each kernel on the SIMT executor and the unit models, one core\n"
    );
    let _ = writeln!(
        text,
        "| kernel | check | cycles | warp-instructions | seconds | M warp-instructions/s | M cycles/s |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |"
    );
    let (mut failed, mut tot_i, mut tot_c, mut tot_s) = (Vec::new(), 0u64, 0u64, 0f64);
    for l in &files {
        let module = module_of(l)?;
        let name = module.display().to_string();
        let src = crate::run_cmd::read_program("--kernel", &module)?;
        let launch = sm_exec::launch::load(l).map_err(CmdError::input)?;
        let (prog, kernel) = sm_exec::kernel::kernel_program(&name, &src, &launch)
            .map_err(|e| CmdError::input(e.to_string()))?;
        let opts = RunOptions {
            seed,
            max_cycles: cycles,
            ..RunOptions::default()
        };
        let (k, secs) = sm_exec::kernel::run_prepared(&prog, kernel, &launch, opts)
            .map_err(|e| CmdError::input(e.to_string()))?;
        let issued: u64 = k.result.warps.iter().map(|w| w.issued).sum();
        let check = match &k.result.outcome {
            Outcome::Finished if k.passed() => "PASS".to_string(),
            Outcome::Finished => "FAIL (output)".to_string(),
            o => format!("FAIL ({})", outcome_word(o)),
        };
        if check != "PASS" {
            failed.push(name.clone());
        }
        // A timed copy (`kernels/own/timing/`) is named as such: it has
        // its kernel's name.
        let stem = module
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let short = match module.parent().and_then(|d| d.file_name()) {
            Some(d) if d == "timing" => format!("timing/{stem}"),
            _ => stem,
        };
        let _ = writeln!(
            text,
            "| {short} | {check} | {} | {issued} | {secs:.3} | {:.3} | {:.3} |",
            k.result.cycles,
            issued as f64 / secs.max(1e-9) / 1e6,
            k.result.cycles as f64 / secs.max(1e-9) / 1e6
        );
        tot_i += issued;
        tot_c += k.result.cycles;
        tot_s += secs;
    }
    let _ = writeln!(
        text,
        "| all {} | {} failed | {tot_c} | {tot_i} | {tot_s:.3} | {:.3} | {:.3} |",
        files.len(),
        failed.len(),
        tot_i as f64 / tot_s.max(1e-9) / 1e6,
        tot_c as f64 / tot_s.max(1e-9) / 1e6
    );
    print!("{text}");
    if failed.is_empty() {
        Ok(())
    } else {
        Err(CmdError::failed(format!(
            "{} kernel(s) failed: {}",
            failed.len(),
            failed.join(", ")
        )))
    }
}

fn outcome_word(o: &Outcome) -> &'static str {
    match o {
        Outcome::Finished => "finished",
        Outcome::Deadlock(_) => "deadlock",
        Outcome::CycleCap(_) => "cycle cap",
        Outcome::UnitError(_) => "error",
        Outcome::Mismatch(_) => "mismatch",
    }
}
