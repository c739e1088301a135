//! Runs SymbiYosys on the emitted Verilog, one task per property group, and
//! parses each task's result: proven, bounded to depth N, counterexample
//! (with the failed assertion labels, the step and the trace VCD), or
//! unknown / timeout / error, with wall time. A counterexample is replayed
//! through the reference model and the scoreboard ([`crate::replay`]).

use crate::harness::{Group, GROUPS};
use crate::replay::Replay;
use crate::sby::{sby_text_for, trace_sby_text_for, Engine, Files, MissingTool, Tools};
use crate::unit::UnitSpec;
use membar_unit_env::Config;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one group's task concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Holds for every reachable state (pdr, or k-induction that closed).
    Proven,
    /// No violation within this many cycles (bmc, or k-induction that did not close).
    Bounded(u32),
    /// A counterexample: the failed assertion labels and the trace.
    Counterexample {
        props: Vec<String>,
        step: Option<u32>,
        vcd: Option<PathBuf>,
    },
    /// The engine gave up, timed out or failed (the sby status line).
    Unknown(String),
}

/// One group's result.
#[derive(Clone, Debug)]
pub struct GroupResult {
    pub group: &'static Group,
    pub verdict: Verdict,
    pub seconds: f64,
    /// The counterexample replayed through the model and the scoreboard.
    pub replay: Option<Replay>,
    /// The task's log (last lines), for reports on Unknown.
    pub log_tail: String,
}

impl GroupResult {
    pub fn summary(&self) -> String {
        let v = match &self.verdict {
            Verdict::Proven => "PROVEN (unbounded)".to_string(),
            Verdict::Bounded(d) => format!("bounded: no violation in {d} cycles"),
            Verdict::Counterexample { props, step, .. } => format!(
                "COUNTEREXAMPLE: {} fails{}",
                props.join(", "),
                // A clocked immediate assertion is checked at the edge that ends
                // the cycle: sby's step K reports a violation in cycle K - 1.
                // The strengthening invariants (`INV_*`, `always @*`) are
                // checked in their own step.
                step.map_or(String::new(), |s| format!(
                    " in cycle {} (sby step {s})",
                    if props.iter().all(|p| p.starts_with("INV_")) {
                        s
                    } else {
                        s.saturating_sub(1)
                    }
                ))
            ),
            Verdict::Unknown(s) => format!("UNKNOWN ({s})"),
        };
        let mut s = format!("{:<4} {:<60} {:>8.1} s", self.group.name, v, self.seconds);
        if let Some(r) = &self.replay {
            s += &format!("\n       replay: {r}");
        }
        s
    }
}

/// Options of one formal run.
#[derive(Clone, Debug)]
pub struct Options {
    pub engine: Engine,
    /// BMC / k-induction depth (pdr: the depth of the counterexample search sby asks for).
    pub depth: u32,
    /// Groups to run (names from [`GROUPS`]); empty: all.
    pub groups: Vec<String>,
    /// Seconds each task may take.
    pub timeout: u64,
    /// Keep the scratch directory here instead of a temp dir.
    pub keep: Option<PathBuf>,
    /// Run this many tasks at once.
    pub jobs: usize,
    /// How often the groups still running are reported.
    pub progress: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            engine: Engine::Pdr,
            depth: 20,
            groups: Vec::new(),
            timeout: 1200,
            keep: None,
            jobs: 1,
            progress: Duration::from_secs(15),
        }
    }
}

/// Why a run could not start.
#[derive(Debug)]
pub enum RunError {
    /// Bad input (a group name): exit 2.
    Input(String),
    /// A tool is missing: exit 2, with the install line.
    Missing(MissingTool),
    /// I/O on the scratch directory or launching the tools.
    Io(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Input(s) | RunError::Io(s) => f.write_str(s),
            RunError::Missing(m) => write!(f, "{m}"),
        }
    }
}

/// Resolve group names (`--props`): every name must be a group.
pub fn select_groups(names: &[String]) -> Result<Vec<&'static Group>, RunError> {
    select_groups_in(GROUPS, names)
}

/// Resolve group names among `all` (one unit's groups).
pub fn select_groups_in(
    all: &'static [Group],
    names: &[String],
) -> Result<Vec<&'static Group>, RunError> {
    if names.is_empty() {
        // `all` is the union of the others in one task: not run twice.
        return Ok(all.iter().filter(|g| g.name != "all").collect());
    }
    names
        .iter()
        .map(|n| {
            all.iter().find(|g| g.name == n.trim()).ok_or_else(|| {
                RunError::Input(format!(
                    "--props {n:?}: no such property group; allowed: {}",
                    all.iter().map(|g| g.name).collect::<Vec<_>>().join(", ")
                ))
            })
        })
        .collect()
}

/// Run the formal check of `verilog` (a `membar_unit` for `cfg`).
pub fn run(cfg: &Config, verilog: &Path, opts: &Options) -> Result<Vec<GroupResult>, RunError> {
    run_unit(&crate::unit::membar(cfg), verilog, opts)
}

/// Run the formal check of `verilog`, the emitted Verilog of `spec`'s unit
/// (its harness, property groups and counterexample replay).
pub fn run_unit(
    spec: &UnitSpec,
    verilog: &Path,
    opts: &Options,
) -> Result<Vec<GroupResult>, RunError> {
    let groups = select_groups_in(spec.groups, &opts.groups)?;
    let (vname, hname, top) = spec.file_names();
    let files = Files {
        verilog: &vname,
        harness: &hname,
        top: &top,
    };
    let tools = Tools::find(opts.engine).map_err(RunError::Missing)?;
    let text = std::fs::read_to_string(verilog).map_err(|e| {
        RunError::Input(format!("--verilog {}: cannot read: {e}", verilog.display()))
    })?;
    let tmp;
    let dir: PathBuf = match &opts.keep {
        Some(d) => {
            if d.exists() && !d.is_dir() {
                return Err(RunError::Input(format!(
                    "--keep {}: exists and is not a directory; expected a directory for the harness, .sby files, logs and traces",
                    d.display()
                )));
            }
            std::fs::create_dir_all(d)
                .map_err(|e| RunError::Io(format!("--keep {}: {e}", d.display())))?;
            // sby runs its engines (and the abc wrapper written here) from
            // inside the task directory: a relative path would not resolve.
            std::path::absolute(d)
                .map_err(|e| RunError::Io(format!("--keep {}: {e}", d.display())))?
        }
        None => {
            tmp = tempfile::Builder::new()
                .prefix("membar-formal-")
                .tempdir()
                .map_err(|e| RunError::Io(format!("temp dir: {e}")))?;
            tmp.path().to_path_buf()
        }
    };
    let io = |e: std::io::Error| RunError::Io(format!("{}: {e}", dir.display()));
    crate::taps::check_paths(&spec.harness, &text)
        .map_err(|e| RunError::Input(format!("--verilog {}: {e}", verilog.display())))?;
    std::fs::write(dir.join(&vname), &text).map_err(io)?;
    std::fs::write(dir.join(&hname), &spec.harness).map_err(io)?;
    // One .sby per group: sby keeps a status database per job name
    // (`<job>/status.sqlite`), which concurrent tasks of one job would share.
    for g in &groups {
        std::fs::write(
            dir.join(format!("membar_{}.sby", g.name)),
            crate::taps::insert(
                &sby_text_for(files, &[g], opts.engine, opts.depth, opts.timeout),
                &spec.harness,
                &top,
                g.name,
            ),
        )
        .map_err(io)?;
    }
    let wrapper = tools.abc_wrapper(&dir).map_err(io)?;
    let mut results: Vec<Option<GroupResult>> = vec![None; groups.len()];
    let jobs = opts.jobs.max(1);
    for chunk in (0..groups.len()).collect::<Vec<_>>().chunks(jobs) {
        let mut running = Vec::new();
        for &gi in chunk {
            let g = groups[gi];
            let stem = format!("membar_{}", g.name);
            let child = spawn_task(&tools, wrapper.as_deref(), &dir, &stem, g.name)?;
            running.push((gi, g, Instant::now(), child));
        }
        // Wait for the chunk's tasks together, so each one's wall time is its own.
        let limit = Duration::from_secs(opts.timeout + 60);
        let mut done: Vec<Option<Instant>> = vec![None; running.len()];
        let chunk_start = Instant::now();
        let mut told = Duration::ZERO;
        let every = opts.progress;
        while done.iter().any(Option::is_none) {
            // Progress: the groups still running and for how long.
            if chunk_start.elapsed() >= told + every {
                told = chunk_start.elapsed();
                let names: Vec<&str> = running
                    .iter()
                    .zip(&done)
                    .filter(|(_, d)| d.is_none())
                    .map(|((_, g, _, _), _)| g.name)
                    .collect();
                eprintln!(
                    "membar formal: {} running, {} s (limit {} s each)",
                    names.join(", "),
                    told.as_secs(),
                    opts.timeout
                );
            }
            for (k, (_, _, start, child)) in running.iter_mut().enumerate() {
                if done[k].is_none() {
                    let finished = !matches!(child.try_wait(), Ok(None));
                    if finished || start.elapsed() > limit {
                        if !finished {
                            let _ = child.kill();
                            let _ = child.wait();
                        }
                        done[k] = Some(Instant::now());
                    }
                }
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        for ((gi, g, start, _child), end) in running.into_iter().zip(done) {
            let first_seconds = end.map_or(0.0, |e| (e - start).as_secs_f64());
            let work = dir.join(format!("membar_{0}_{0}", g.name));
            let out = "sby wrote no logfile.txt".to_string();
            let log = std::fs::read_to_string(work.join("logfile.txt")).unwrap_or(out);
            let mut verdict = parse_verdict(&log, opts.engine, opts.depth, &work);
            let mut log_tail = tail(&log);
            let mut rerun_seconds = 0.0;
            // abc's counterexample: re-find it with smtbmc for a replayable
            // trace with port names and the failed assertion labels. (With
            // taps the design is flattened first and sby converts abc's
            // witness itself, but its VCD lacks the top-level ports.)
            let tapped = !crate::taps::script(&spec.harness, &top, g.name).is_empty();
            if let Verdict::Counterexample { vcd, step, .. } = &verdict {
                if vcd.is_some() && !(tapped && opts.engine.needs_abc()) {
                    // smtbmc's own trace: replayable as it is.
                } else {
                    let depth = step.map_or(opts.depth, |s| s + 2).max(2);
                    let stem = format!("trace_{}", g.name);
                    std::fs::write(
                        dir.join(format!("{stem}.sby")),
                        crate::taps::insert(
                            &trace_sby_text_for(files, &[g], depth, opts.timeout),
                            &spec.harness,
                            &top,
                            g.name,
                        ),
                    )
                    .map_err(io)?;
                    let rerun = Instant::now();
                    let child = spawn_task(&tools, wrapper.as_deref(), &dir, &stem, g.name)?;
                    let work2 = dir.join(format!("trace_{0}_{0}", g.name));
                    let out2 = wait_with_timeout(child, Duration::from_secs(opts.timeout + 60));
                    let log2 = std::fs::read_to_string(work2.join("logfile.txt")).unwrap_or(out2);
                    let v2 = parse_verdict(&log2, Engine::Bmc, depth, &work2);
                    rerun_seconds = rerun.elapsed().as_secs_f64();
                    log_tail = format!("{log_tail}\n--- smtbmc trace run ---\n{}", tail(&log2));
                    if matches!(v2, Verdict::Counterexample { .. }) {
                        verdict = v2;
                    }
                }
            }
            let seconds = first_seconds + rerun_seconds;
            let replay = match &verdict {
                Verdict::Counterexample { vcd: Some(v), .. } => Some((spec.replay)(v)),
                _ => None,
            };
            results[gi] = Some(GroupResult {
                group: g,
                verdict,
                seconds,
                replay,
                log_tail,
            });
        }
    }
    Ok(results.into_iter().flatten().collect())
}

fn tail(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    lines[lines.len().saturating_sub(12)..].join("\n")
}

/// Start `sby -f <stem>.sby <task>` in `dir` with the pinned tools (work
/// directory `<stem>_<task>`).
fn spawn_task(
    tools: &Tools,
    wrapper: Option<&Path>,
    dir: &Path,
    stem: &str,
    task: &str,
) -> Result<std::process::Child, RunError> {
    let _ = std::fs::remove_dir_all(dir.join(format!("{stem}_{task}")));
    let mut cmd = Command::new(&tools.sby);
    cmd.arg("--yosys")
        .arg(&tools.yosys)
        .arg("--smtbmc")
        .arg(&tools.smtbmc)
        .arg("--witness")
        .arg(&tools.witness);
    if let Some(w) = wrapper {
        cmd.arg("--abc").arg(w);
    }
    if let Some(d) = tools.yices.as_deref().and_then(Path::parent) {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut ps: Vec<PathBuf> = vec![d.to_path_buf()];
        ps.extend(std::env::split_paths(&path));
        cmd.env("PATH", std::env::join_paths(ps).unwrap_or(path));
    }
    cmd.arg("-f")
        .arg(format!("{stem}.sby"))
        .arg(task)
        .current_dir(dir)
        // sby's log is the work directory's logfile.txt; a piped stdout
        // would fill and stall the verbose engines.
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd.spawn()
        .map_err(|e| RunError::Io(format!("cannot start {}: {e}", tools.sby.display())))
}

/// Wait for `child`, killing it (by its id) after `limit`; the text returned
/// stands in for a missing log.
fn wait_with_timeout(mut child: std::process::Child, limit: Duration) -> String {
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                break;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(100)),
            Err(_) => break,
        }
    }
    "sby wrote no logfile.txt".to_string()
}

/// Parse sby's log of one task.
pub fn parse_verdict(log: &str, engine: Engine, depth: u32, work: &Path) -> Verdict {
    let status = log
        .lines()
        .rev()
        .find_map(|l| {
            l.split("DONE (")
                .nth(1)
                .map(|r| r.split(',').next().unwrap_or("").to_string())
        })
        .unwrap_or_default();
    // abc found a counterexample, but sby could not convert its witness (ERROR).
    let status = if status == "ERROR" && log.contains("returned FAIL") {
        "FAIL".to_string()
    } else {
        status
    };
    match status.as_str() {
        "PASS" => match engine {
            Engine::Pdr => Verdict::Proven,
            // sby's prove mode passes only when the induction step closed.
            Engine::Kind => Verdict::Proven,
            Engine::Bmc => Verdict::Bounded(depth),
        },
        "FAIL" => {
            let mut props: Vec<String> = Vec::new();
            let mut step = None;
            for l in log.lines() {
                // "summary:   failed assertion membar_formal_top.P3_stable at ... in step 5"
                // "Assert failed in membar_formal_top: P3_stable" (smtbmc)
                let label = if let Some(r) = l.split("failed assertion ").nth(1) {
                    r.split_whitespace()
                        .next()
                        .map(|p| p.rsplit('.').next().unwrap_or(p).to_string())
                } else if let Some(r) = l.split("Assert failed in ").nth(1) {
                    r.split(": ")
                        .nth(1)
                        .map(|p| p.split_whitespace().next().unwrap_or(p).to_string())
                } else {
                    None
                };
                if let Some(p) = label {
                    let p = p.trim_start_matches('\\').to_string();
                    if !props.contains(&p) {
                        props.push(p);
                    }
                    if step.is_none() {
                        step = l
                            .rsplit_once("step ")
                            .and_then(|(_, r)| r.split_whitespace().next())
                            .and_then(|n| n.trim_end_matches('.').parse().ok());
                    }
                }
            }
            if step.is_none() {
                step = log
                    .lines()
                    .find_map(|l| l.split("asserted in frame ").nth(1))
                    .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
                    .and_then(|n| n.parse().ok());
            }
            let vcd = find_vcd(work);
            Verdict::Counterexample { props, step, vcd }
        }
        "" => Verdict::Unknown("sby ended without a DONE line".into()),
        other => {
            if engine == Engine::Kind && other == "UNKNOWN" {
                Verdict::Unknown(format!("k-induction did not close within depth {depth}"))
            } else {
                Verdict::Unknown(other.to_string())
            }
        }
    }
}

fn find_vcd(work: &Path) -> Option<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![work.to_path_buf()];
    while let Some(d) = stack.pop() {
        if let Ok(rd) = std::fs::read_dir(&d) {
            for e in rd.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "vcd") {
                    found.push(p);
                }
            }
        }
    }
    found.sort();
    found.into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_are_parsed_from_sby_logs() {
        let w = Path::new("/nonexistent");
        assert_eq!(
            parse_verdict("SBY [x] DONE (PASS, rc=0)", Engine::Pdr, 20, w),
            Verdict::Proven
        );
        assert_eq!(
            parse_verdict("SBY [x] DONE (PASS, rc=0)", Engine::Bmc, 12, w),
            Verdict::Bounded(12)
        );
        let fail = "SBY [t] summary:   failed assertion membar_formal_top.P2_no_accept_blocked at membar_formal_top.sv:224.7-224.62 step 3\nSBY [t] DONE (FAIL, rc=2)";
        assert_eq!(
            parse_verdict(fail, Engine::Bmc, 24, w),
            Verdict::Counterexample {
                props: vec!["P2_no_accept_blocked".into()],
                step: Some(3),
                vcd: None
            }
        );
        let abc = "engine_0: Output 1 of miter \"model/design_aiger\" was asserted in frame 3.\nsummary: engine_0 (abc bmc3) returned FAIL\nDONE (ERROR, rc=16)";
        assert_eq!(
            parse_verdict(abc, Engine::Bmc, 24, w),
            Verdict::Counterexample {
                props: vec![],
                step: Some(3),
                vcd: None
            }
        );
        assert!(
            matches!(parse_verdict("DONE (TIMEOUT, rc=8)", Engine::Pdr, 20, w), Verdict::Unknown(s) if s == "TIMEOUT")
        );
        assert!(matches!(
            parse_verdict("", Engine::Pdr, 20, w),
            Verdict::Unknown(_)
        ));
    }

    #[test]
    fn unknown_group_names_the_flag_value_and_allowed() {
        let e = select_groups(&["p2".into(), "px".into()])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("--props") && e.contains("\"px\"") && e.contains("p1"),
            "{e}"
        );
        assert_eq!(select_groups(&[]).unwrap().len(), GROUPS.len());
    }
}
