//! Running an unmodified PTX module (as nvcc writes it) with a launch file
//! (`crate::launch`): every thread of the grid runs the launched entry on
//! the SIMT executor (`crate::exec`: 32 lanes per warp, per-thread
//! registers, divergence and reconvergence), the launch's buffers are the
//! global memory the host wrote, and after the run each `expect:` entry is
//! compared with the buffer's final contents.

use crate::exec::{Kernel, Machine, Outcome, RunOptions, RunResult, LANES};
use crate::launch::Resolved;
use ptx_front::parser::parse_module;
use ptx_front::program::{Header, WarpPlacement};
use ptx_front::{Program, PtxError};
use std::collections::HashMap;

/// One `expect:` entry after the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    pub buffer: String,
    pub checked: usize,
    /// Elements that differ: (index, expected, got).
    pub wrong: Vec<(usize, u64, u64)>,
}

/// A kernel run: the machine's result and the checks.
#[derive(Debug, Clone)]
pub struct KernelRun {
    pub result: RunResult,
    pub checks: Vec<Check>,
    /// The launched entry's name.
    pub entry: String,
}

impl KernelRun {
    /// Finished and every expected value matched.
    pub fn passed(&self) -> bool {
        self.result.outcome == Outcome::Finished && self.checks.iter().all(|c| c.wrong.is_empty())
    }
}

fn join(v: &[i64]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The program a launch runs: the module, and a header placing every warp
/// of every CTA on the launched entry.
pub fn kernel_program(
    file: &str,
    src: &str,
    launch: &Resolved,
) -> Result<(Program, Kernel), PtxError> {
    let mut module = parse_module(file, src, 1)?;
    ptx_front::inline::inline_calls(file, &mut module)?;
    let want = &launch.launch.entry;
    let kernels: Vec<&str> = module
        .entries
        .iter()
        .filter(|e| !e.func)
        .map(|e| e.name.as_str())
        .collect();
    let entry = match module.entries.iter().find(|e| &e.name == want && !e.func) {
        Some(e) => e,
        None => {
            return Err(PtxError::new(
                file,
                1,
                1,
                format!(
                    "{}: entry: `{want}` is not an `.entry` of this module (its entries: {})",
                    launch.file,
                    kernels.join(", ")
                ),
            ))
        }
    };
    // What the entry's performance directives demand of the launch (the
    // driver refuses such a launch on the GPU).
    let threads = launch.threads();
    for (d, v) in &entry.directives {
        let prod: u64 = v.iter().map(|&x| x.max(1) as u64).product();
        let block = launch.launch.block;
        let bad = match d.as_str() {
            "maxntid" => (threads as u64 > prod).then(|| {
                format!(
                    "block {block:?} = {threads} threads, but `.maxntid {}` allows at most {prod}",
                    join(v)
                )
            }),
            "reqntid" => (threads as u64 != prod).then(|| {
                format!(
                    "block {block:?}, but `.reqntid {}` requires that many threads",
                    join(v)
                )
            }),
            "reqnctapercluster" => {
                let want: Vec<u32> = v.iter().map(|&x| x as u32).collect();
                let have = launch.launch.cluster.map(|c| c.to_vec());
                let ok = have.as_deref() == Some(&want[..])
                    || (have.is_none() && want.iter().all(|&x| x == 1));
                (!ok).then(|| {
                    format!("cluster {:?}, but `.reqnctapercluster {}` requires that cluster shape (give `cluster:` in the launch file)", launch.launch.cluster, join(v))
                })
            }
            "explicitcluster" => launch.launch.cluster.is_none().then(|| {
                "no `cluster:`, but `.explicitcluster` requires a cluster launch".to_string()
            }),
            _ => None,
        };
        if let Some(m) = bad {
            return Err(PtxError::new(
                file,
                entry.line,
                1,
                format!("{}: {m}", launch.file),
            ));
        }
    }
    if let Some(p) = entry
        .params
        .iter()
        .find(|p| p.len.is_some() || p.bytes() > 8)
    {
        return Err(PtxError::new(
            file,
            p.line,
            1,
            format!(
                "parameter `{}` of entry `{}` is an aggregate ({} bytes): only scalar kernel parameters (up to 8 bytes) are modelled",
                p.name,
                entry.name,
                p.bytes()
            ),
        ));
    }
    let decl: Vec<(String, u64)> = entry
        .params
        .iter()
        .map(|p| (p.name.clone(), p.bytes()))
        .collect();
    let params = crate::launch::param_values(launch, &decl)
        .map_err(|m| PtxError::new(file, entry.line, 1, m))?;
    let warps_per_cta = threads.div_ceil(LANES as u32);
    let mut warps = Vec::new();
    for cta in 0..launch.ctas() {
        for w in 0..warps_per_cta {
            warps.push(WarpPlacement {
                cta,
                warp: w,
                program: entry.name.clone(),
                lanes: threads.saturating_sub(w * LANES as u32).min(LANES as u32),
            });
        }
    }
    let static_smem: u64 = module
        .decls
        .iter()
        .chain(entry.body.iter().filter_map(|s| match s {
            ptx_front::parser::Stmt::Decl(d) => Some(d),
            _ => None,
        }))
        .filter(|d| d.space == ".shared")
        .map(|d| {
            d.vars
                .iter()
                .map(|(_, n)| n.unwrap_or(1) * d.elem_bytes())
                .sum::<u64>()
        })
        .sum();
    let prog = Program {
        file: file.to_string(),
        header: Header {
            ctas: launch.ctas(),
            cluster: launch.cluster_size(),
            warps,
            hosts: Vec::new(),
            litmus: None,
        },
        module,
    };
    let kernel = Kernel {
        launch: launch.clone(),
        params: params.into_iter().collect::<HashMap<_, _>>(),
        smem_bytes: static_smem + launch.launch.dynamic_smem,
    };
    Ok((prog, kernel))
}

/// Run a kernel to its end and check its outputs.
pub fn run_kernel(
    file: &str,
    src: &str,
    launch: &Resolved,
    opts: RunOptions,
) -> Result<KernelRun, PtxError> {
    let (prog, kernel) = kernel_program(file, src, launch)?;
    run_prepared(&prog, kernel, launch, opts).map(|(k, _)| k)
}

/// Run a prepared kernel ([`kernel_program`]); also returns the seconds the
/// machine ran (building it and checking the outputs excluded).
pub fn run_prepared(
    prog: &Program,
    kernel: Kernel,
    launch: &Resolved,
    opts: RunOptions,
) -> Result<(KernelRun, f64), PtxError> {
    let entry = prog
        .header
        .warps
        .first()
        .map(|w| w.program.clone())
        .unwrap_or_default();
    let m = Machine::for_kernel(prog, opts, kernel)?;
    let t0 = std::time::Instant::now();
    let result = m.run();
    let secs = t0.elapsed().as_secs_f64();
    let checks = launch
        .expect
        .iter()
        .map(|(k, want)| {
            let b = &launch.buffers[*k];
            let got = result
                .buffers
                .get(*k)
                .map(|(_, v)| v.as_slice())
                .unwrap_or(&[]);
            let wrong = want
                .iter()
                .enumerate()
                .filter_map(|(i, &x)| {
                    let g = got.get(i).copied().unwrap_or(0);
                    (g != x).then_some((i, x, g))
                })
                .collect();
            Check {
                buffer: b.name.clone(),
                checked: want.len(),
                wrong,
            }
        })
        .collect();
    Ok((
        KernelRun {
            result,
            checks,
            entry,
        },
        secs,
    ))
}
