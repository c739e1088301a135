//! Litmus tests (`litmus/*.ptx`, `docs/litmus.md`): a program file whose
//! header carries a `litmus:` key (observed registers, forbidden and allowed
//! outcomes, what is expected), run many times with random timing; the
//! outcomes are counted and judged.
//!
//! Verdicts: `expect: never` passes when no forbidden outcome was observed;
//! `expect: seen` passes when one was (the twin without the fence, or a fence
//! of too narrow a scope: the model's weakness is real); `expect: stronger`
//! passes when none was, and says that PTX would allow it (a documented
//! limit of the model). Any outcome outside `forbidden` ∪ `allowed`, or a run
//! that deadlocks, hits the cycle cap or trips a unit error, fails the test.

use crate::exec::{run_program, Outcome, RunOptions};
use ptx_front::{Litmus, Program, PtxError};
use std::collections::BTreeMap;

/// One observed register: `CTA/WARP/%reg` (lane 0), `CTA/WARP/LANE/%reg`,
/// or `hostT/%reg` (host thread T).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observed {
    pub cta: u32,
    pub warp: u32,
    pub lane: u32,
    /// A host thread's register (`cta`, `warp` unused).
    pub host: Option<u32>,
    pub reg: String,
}

/// A loaded litmus test.
#[derive(Debug, Clone)]
pub struct Test {
    pub name: String,
    pub prog: Program,
    pub spec: Litmus,
    pub observe: Vec<Observed>,
}

/// The file line of the first header line containing `key` (or 1).
fn key_line(src: &str, key: &str) -> usize {
    src.lines()
        .take_while(|l| !l.starts_with(".version"))
        .position(|l| l.contains(key))
        .map(|n| n + 1)
        .unwrap_or(1)
}

/// The registers an entry declares with `.reg`, in order.
fn entry_registers(e: &ptx_front::parser::Entry) -> Vec<String> {
    e.body
        .iter()
        .filter_map(|s| match s {
            ptx_front::parser::Stmt::Decl(d) if d.space == ".reg" => Some(d.names()),
            _ => None,
        })
        .flatten()
        .map(str::to_string)
        .collect()
}

/// Whether an instruction of `e` names register `reg` (operand or guard).
fn entry_uses(e: &ptx_front::parser::Entry, reg: &str) -> bool {
    use ptx_front::parser::Operand;
    e.insts().any(|i| {
        i.guard.as_ref().is_some_and(|g| g.reg == reg)
            || i.operands.iter().any(|o| match o {
                Operand::Reg(r) | Operand::NotPred(r) => r == reg,
                Operand::Addr { base, .. } => base == reg,
                _ => false,
            })
    })
}

/// Parse and check a litmus file. `file` names it in errors.
pub fn load(file: &str, src: &str) -> Result<Test, PtxError> {
    let prog = ptx_front::parse(file, src)?;
    let err = |key: &str, msg: String| {
        PtxError::new(
            file,
            key_line(src, key.split('[').next().unwrap_or(key)),
            1,
            format!("header key `litmus.{key}`: {msg}"),
        )
    };
    let Some(spec) = prog.header.litmus.clone() else {
        return Err(PtxError::new(
            file,
            1,
            1,
            "found no `litmus:` key in the header, expected a litmus test (observe, forbidden, allowed, expect; see docs/litmus.md)",
        ));
    };
    if spec.observe.is_empty() {
        return Err(err(
            "observe",
            "found an empty list, expected at least one `CTA/WARP/%reg`".into(),
        ));
    }
    let mut observe = Vec::new();
    for (i, o) in spec.observe.iter().enumerate() {
        let parts: Vec<&str> = o.split('/').collect();
        let num = |x: &str| x.parse::<u32>().ok();
        let host = parts
            .first()
            .and_then(|p| p.strip_prefix("host"))
            .and_then(num);
        let parsed = match (host, parts.as_slice()) {
            (Some(t), [_, r]) => Some((0, 0, 0, Some(t), r.to_string())),
            (None, [c, w, r]) => num(c)
                .zip(num(w))
                .map(|(c, w)| (c, w, 0, None, r.to_string())),
            (None, [c, w, l, r]) => num(c)
                .zip(num(w))
                .zip(num(l))
                .map(|((c, w), l)| (c, w, l, None, r.to_string())),
            _ => None,
        };
        let Some((cta, warp, lane, host, reg)) = parsed else {
            return Err(err(
                &format!("observe[{i}]"),
                format!("found `{o}`, expected `CTA/WARP/%reg` (lane 0), `CTA/WARP/LANE/%reg` or `hostT/%reg`, such as `1/0/%r1`"),
            ));
        };
        let program = if let Some(t) = host {
            match prog.header.hosts.iter().find(|h| h.thread == t) {
                Some(h) => h.program.clone(),
                None => {
                    return Err(err(
                        &format!("observe[{i}]"),
                        format!("found host thread {t}, expected a thread placed under `hosts`"),
                    ))
                }
            }
        } else {
            match prog
                .header
                .warps
                .iter()
                .find(|p| p.cta == cta && p.warp == warp)
            {
                Some(p) if lane < p.lanes => p.program.clone(),
                Some(p) => {
                    return Err(err(
                        &format!("observe[{i}]"),
                        format!(
                            "found lane {lane}, expected 0..{} (the warp's `lanes`)",
                            p.lanes - 1
                        ),
                    ))
                }
                None => {
                    return Err(err(
                        &format!("observe[{i}]"),
                        format!(
                            "found cta {cta} warp {warp}, expected a warp placed under `warps`"
                        ),
                    ))
                }
            }
        };
        // The register must exist in the warp's entry: declared by `.reg`
        // or named by one of its instructions. Otherwise the run would read
        // 0 for it and the test would pass vacuously.
        let entry = prog.entry(&program);
        if let Some(e) = entry {
            let declared = entry_registers(e);
            if !declared.iter().any(|d| d == &reg) && !entry_uses(e, &reg) {
                let shown: Vec<&str> = declared.iter().take(16).map(|s| s.as_str()).collect();
                return Err(err(
                    &format!("observe[{i}]"),
                    format!(
                        "found `{o}`: register `{reg}` does not exist in entry `{}`; expected one of its registers: {}{}",
                        e.name,
                        if shown.is_empty() { "(none declared)".to_string() } else { shown.join(", ") },
                        if declared.len() > shown.len() { ", …" } else { "" }
                    ),
                ));
            }
        }
        observe.push(Observed {
            cta,
            warp,
            lane,
            host,
            reg,
        });
    }
    for (key, list) in [("forbidden", &spec.forbidden), ("allowed", &spec.allowed)] {
        for (i, o) in list.iter().enumerate() {
            if o.len() != observe.len() {
                return Err(err(
                    &format!("{key}[{i}]"),
                    format!(
                        "found {} values, expected {} (one per observed register)",
                        o.len(),
                        observe.len()
                    ),
                ));
            }
        }
    }
    if spec.forbidden.is_empty() {
        return Err(err(
            "forbidden",
            "found an empty list, expected at least one outcome".into(),
        ));
    }
    if !["never", "seen", "stronger"].contains(&spec.expect.as_str()) {
        return Err(err(
            "expect",
            format!("found `{}`, expected never, seen or stronger", spec.expect),
        ));
    }
    // What a run would refuse (undeclared names, variables that do not fit),
    // refused once here rather than as a failure of every run.
    crate::exec::check_program(&prog)?;
    let name = std::path::Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| file.to_string());
    Ok(Test {
        name,
        prog,
        spec,
        observe,
    })
}

/// The result of many runs of one test.
#[derive(Debug, Clone)]
pub struct Report {
    pub name: String,
    pub expect: String,
    pub runs: u64,
    /// Outcome -> count.
    pub outcomes: BTreeMap<Vec<i64>, u64>,
    pub forbidden_seen: u64,
    /// Outcomes neither forbidden nor allowed.
    pub unexpected: u64,
    /// Runs that did not finish (deadlock, cycle cap, unit error): the first reason.
    pub failed_runs: u64,
    pub first_failure: Option<String>,
    pub note: String,
    pub seed: u64,
    pub forbidden: Vec<Vec<i64>>,
    /// The seed of the first run that showed a forbidden outcome (`membar run FILE --seed` replays it).
    pub first_forbidden_seed: Option<u64>,
    /// Simulated cycles over all runs (for the speed line, not the table).
    pub cycles: u64,
}

impl Report {
    pub fn pass(&self) -> bool {
        if self.unexpected > 0 || self.failed_runs > 0 {
            return false;
        }
        match self.expect.as_str() {
            "seen" => self.forbidden_seen > 0,
            _ => self.forbidden_seen == 0,
        }
    }
    pub fn verdict(&self) -> String {
        let ok = if self.pass() { "PASS" } else { "FAIL" };
        let n = self.runs;
        let k = self.forbidden_seen;
        let why = if self.failed_runs > 0 {
            format!("{} of {n} runs did not finish", self.failed_runs)
        } else if self.unexpected > 0 {
            format!(
                "{} of {n} runs gave an outcome outside forbidden/allowed",
                self.unexpected
            )
        } else {
            match (self.expect.as_str(), self.pass()) {
                ("never", true) => "forbidden never observed".into(),
                ("seen", true) => "forbidden observed without the fence".into(),
                (_, true) => "PTX allows it; the model is stronger here".into(),
                ("seen", false) => {
                    format!("forbidden outcome never observed in {n} runs (expected: seen)")
                }
                ("never", false) => {
                    format!("forbidden outcome observed in {k} of {n} runs (expected: never)")
                }
                _ => format!(
                    "forbidden outcome observed in {k} of {n} runs (expected: stronger, i.e. never in this model)"
                ),
            }
        };
        format!("{ok}: {why}")
    }
}

/// The seed of run `i` of test `name` from the base seed (stable, documented).
pub fn run_seed(base: u64, name: &str, i: u64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ base;
    for b in name.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    let mut z = h.wrapping_add(i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The outcome of observed registers `observe` in a finished run.
pub fn outcome_of(observe: &[Observed], res: &crate::RunResult) -> Vec<i64> {
    observe
        .iter()
        .map(|ob| {
            let v = match ob.host {
                Some(t) => res.host_reg(t, &ob.reg),
                None => res.lane_reg(ob.cta, ob.warp, ob.lane, &ob.reg),
            };
            v.unwrap_or(0) as i64
        })
        .collect()
}

/// Cycle cap of one litmus run.
pub const LITMUS_MAX_CYCLES: u64 = 200_000;

/// Run `t` `runs` times from base seed `seed`.
pub fn run_test(t: &Test, runs: u64, seed: u64) -> Report {
    run_test_with(t, runs, seed, &RunOptions::default())
}

/// [`run_test`] with other run options (timing, faults); seed and cycle cap are set per run.
pub fn run_test_with(t: &Test, runs: u64, seed: u64, base: &RunOptions) -> Report {
    let mut r = Report {
        name: t.name.clone(),
        expect: t.spec.expect.clone(),
        runs,
        outcomes: BTreeMap::new(),
        forbidden_seen: 0,
        unexpected: 0,
        failed_runs: 0,
        first_failure: None,
        note: t.spec.note.clone().unwrap_or_default(),
        seed,
        forbidden: t.spec.forbidden.clone(),
        first_forbidden_seed: None,
        cycles: 0,
    };
    for i in 0..runs {
        let s = run_seed(seed, &t.name, i);
        let opts = RunOptions {
            seed: s,
            max_cycles: LITMUS_MAX_CYCLES,
            trace: false,
            ..base.clone()
        };
        let res = match run_program(&t.prog, opts) {
            Ok(x) => x,
            Err(e) => {
                r.failed_runs += 1;
                r.first_failure
                    .get_or_insert(format!("run {i} (seed {s}): {e}"));
                continue;
            }
        };
        r.cycles += res.cycles;
        if res.outcome != Outcome::Finished {
            r.failed_runs += 1;
            r.first_failure
                .get_or_insert(format!("run {i} (seed {s}): {:?}", res.outcome));
            continue;
        }
        let o = outcome_of(&t.observe, &res);
        if t.spec.forbidden.contains(&o) {
            r.forbidden_seen += 1;
            r.first_forbidden_seed.get_or_insert(s);
        } else if !t.spec.allowed.contains(&o) {
            r.unexpected += 1;
        }
        *r.outcomes.entry(o).or_insert(0) += 1;
    }
    r
}

/// The results table (Markdown), as `membar litmus` prints it. `files`:
/// the files given on the command line, or `None` for every file of `litmus/`.
pub fn table(reports: &[Report], runs: u64, seed: u64, files: Option<&[String]>) -> String {
    let mut s = String::new();
    s.push_str("# Litmus results\n\n");
    let what = match files {
        None => "all files of `litmus/`".to_string(),
        Some(f) => format!("{} file(s): {}", f.len(), f.join(", ")),
    };
    s.push_str(&format!(
        "Generated by `membar litmus --runs {runs} --seed {seed}` ({what}: {} tests, {} runs each); do not edit.\n",
        reports.len(),
        runs
    ));
    s.push_str("Outcomes are the observed registers in the order of each file's `observe` list, with their counts; **bold** = forbidden with the fence.\n\n");
    s.push_str("Replay: `membar run litmus/TEST.ptx --seed SEED` reruns the first run that showed a forbidden outcome (add `--trace t.json` to see it).\n\n");
    s.push_str("| test | runs | outcomes observed (count) | forbidden seen | first seen at seed | expect | verdict |\n");
    s.push_str("|---|---|---|---|---|---|---|\n");
    for r in reports {
        let outs: Vec<String> = r
            .outcomes
            .iter()
            .map(|(o, n)| {
                let v: Vec<String> = o.iter().map(|x| x.to_string()).collect();
                if r.forbidden.contains(o) {
                    format!("**({})**: {n}", v.join(","))
                } else {
                    format!("({}): {n}", v.join(","))
                }
            })
            .collect();
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            r.name,
            r.runs,
            outs.join("<br>"),
            r.forbidden_seen,
            r.first_forbidden_seed
                .map(|x| x.to_string())
                .unwrap_or_else(|| "-".into()),
            r.expect,
            r.verdict()
        ));
    }
    s
}
