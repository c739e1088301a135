//! What a name in a kernel's instruction means (a module run with a launch
//! file, `crate::launch`): a register the entry declares, a label, a named
//! variable, a parameter of the launched entry (`ld.param`), or a special
//! register with its per-thread value ([`SPECIAL`]). Anything else is an
//! error naming `file:line:col`, the name and what is supported, before the
//! run; nothing reads as 0 by default.

use crate::symbols::{Space, Symbols};
use ptx_front::parser::{Entry, Operand};
use ptx_front::{Program, PtxError};
use std::collections::HashSet;

/// What one lane's special registers read.
#[derive(Debug, Clone, Copy)]
pub struct LaneEnv {
    /// Linear thread index in the CTA.
    pub tid: u32,
    pub block: [u32; 3],
    /// Linear CTA index in the grid (x fastest).
    pub cta: u32,
    pub grid: [u32; 3],
    pub cluster: [u32; 3],
    pub warp: u32,
    /// Warps per CTA.
    pub warps: u32,
    /// The SM clock (cycles): `%clock`, `%clock64`; `%globaltimer` in ns at 1.98 GHz.
    pub now: u64,
    /// Shared memory of the CTA (static + dynamic) and the dynamic part.
    pub smem: u64,
    pub dynamic_smem: u64,
    /// A cooperative launch's grid-synchronisation workspace (global
    /// address; `%envreg1` high / `%envreg2` low word), 0 otherwise.
    pub grid_workspace: u64,
}

/// The special registers a kernel may read, and what they hold.
pub const SPECIAL: [(&str, &str); 20] = [
    ("%tid.{x,y,z}", "the thread's index in the CTA"),
    ("%ntid.{x,y,z}", "the launch's block"),
    ("%laneid", "tid mod 32 (linear tid)"),
    ("%warpid", "linear tid / 32"),
    ("%nwarpid", "warps per CTA"),
    ("%ctaid.{x,y,z}", "the CTA's index in the grid"),
    ("%nctaid.{x,y,z}", "the launch's grid"),
    ("%smid", "the CTA's linear index (CTA i runs on SM i)"),
    ("%nsmid", "the number of CTAs"),
    ("%gridid", "0"),
    (
        "%lanemask_{eq,lt,le,gt,ge}",
        "lane masks relative to %laneid",
    ),
    ("%clock, %clock64", "the SM's cycle count"),
    (
        "%globaltimer{,_lo,_hi}",
        "cycles converted to ns at 1980 MHz",
    ),
    (
        "%cluster_ctarank, %cluster_nctarank",
        "rank in the cluster, CTAs per cluster",
    ),
    (
        "%cluster_ctaid.{x,y,z}, %cluster_nctaid.{x,y,z}",
        "the CTA's index in its cluster, the cluster's shape",
    ),
    (
        "%clusterid.{x,y,z}, %nclusterid.{x,y,z}",
        "the cluster's index, the clusters of the grid",
    ),
    ("%is_explicit_cluster", "1 when the launch gives `cluster`"),
    ("%dynamic_smem_size", "the launch's dynamic_smem"),
    ("%total_smem_size", "static + dynamic shared memory"),
    (
        "%envreg0..31",
        "0 (a cooperative launch's values are not modelled: refused)",
    ),
];

fn dim(v: [u32; 3], c: &str) -> Option<u32> {
    match c {
        "x" => Some(v[0]),
        "y" => Some(v[1]),
        "z" => Some(v[2]),
        _ => None,
    }
}

fn unlinear(i: u32, d: [u32; 3]) -> [u32; 3] {
    [i % d[0], (i / d[0]) % d[1], i / (d[0] * d[1])]
}

/// The value of special register `name` in a lane, `None` if it is not one.
pub fn special_value(name: &str, e: &LaneEnv) -> Option<u64> {
    let (base, comp) = match name.split_once('.') {
        Some((b, c)) => (b, Some(c)),
        None => (name, None),
    };
    let tid = unlinear(e.tid, e.block);
    let ctaid = unlinear(e.cta, e.grid);
    let ncl = [
        e.grid[0] / e.cluster[0],
        e.grid[1] / e.cluster[1],
        e.grid[2] / e.cluster[2],
    ];
    let cl_ctaid = [
        ctaid[0] % e.cluster[0],
        ctaid[1] % e.cluster[1],
        ctaid[2] % e.cluster[2],
    ];
    let clid = [
        ctaid[0] / e.cluster[0],
        ctaid[1] / e.cluster[1],
        ctaid[2] / e.cluster[2],
    ];
    let lane = e.tid % 32;
    let v: u64 = match (base, comp) {
        ("%tid", Some(c)) => dim(tid, c)? as u64,
        ("%ntid", Some(c)) => dim(e.block, c)? as u64,
        ("%ctaid", Some(c)) => dim(ctaid, c)? as u64,
        ("%nctaid", Some(c)) => dim(e.grid, c)? as u64,
        ("%cluster_ctaid", Some(c)) => dim(cl_ctaid, c)? as u64,
        ("%cluster_nctaid", Some(c)) => dim(e.cluster, c)? as u64,
        ("%clusterid", Some(c)) => dim(clid, c)? as u64,
        ("%nclusterid", Some(c)) => dim(ncl, c)? as u64,
        ("%laneid", None) => lane as u64,
        ("%warpid", None) => e.warp as u64,
        ("%nwarpid", None) => e.warps as u64,
        ("%smid", None) => e.cta as u64,
        ("%nsmid", None) => e.grid.iter().product::<u32>() as u64,
        ("%gridid", None) => 0,
        ("%lanemask_eq", None) => 1u64 << lane,
        ("%lanemask_lt", None) => (1u64 << lane) - 1,
        ("%lanemask_le", None) => (1u64 << (lane + 1)) - 1,
        ("%lanemask_gt", None) => 0xffff_ffff & !((1u64 << (lane + 1)) - 1),
        ("%lanemask_ge", None) => 0xffff_ffff & !((1u64 << lane) - 1),
        ("%clock", None) => e.now & 0xffff_ffff,
        ("%clock64", None) => e.now,
        ("%globaltimer", None) => e.now * 1000 / 1980,
        ("%globaltimer_lo", None) => (e.now * 1000 / 1980) & 0xffff_ffff,
        ("%globaltimer_hi", None) => (e.now * 1000 / 1980) >> 32,
        ("%cluster_ctarank", None) => {
            (cl_ctaid[0] + e.cluster[0] * (cl_ctaid[1] + e.cluster[1] * cl_ctaid[2])) as u64
        }
        ("%cluster_nctarank", None) => e.cluster.iter().product::<u32>() as u64,
        ("%is_explicit_cluster", None) => (e.cluster != [1, 1, 1]) as u64,
        ("%dynamic_smem_size", None) => e.dynamic_smem,
        ("%total_smem_size", None) => e.smem,
        ("%envreg1", None) => e.grid_workspace >> 32,
        ("%envreg2", None) => e.grid_workspace & 0xffff_ffff,
        _ => return None,
    };
    Some(v)
}

fn supported() -> String {
    SPECIAL
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The operand an instruction writes, if it is operand 0.
fn writes_first(form: &str) -> bool {
    !(form.starts_with("st.")
        || form.starts_with("red.")
        || form.starts_with("bar")
        || form.starts_with("barrier")
        || form.starts_with("mbarrier.init")
        || form.starts_with("mbarrier.inval")
        || form.starts_with("mbarrier.expect_tx")
        || form.starts_with("mbarrier.complete_tx")
        || form.starts_with("cp.")
        || form.starts_with("fence")
        || form.starts_with("membar")
        || matches!(
            form,
            "bra" | "ret" | "exit" | "call" | "trap" | "nanosleep" | "prefetch"
        ))
}

/// Check every name of every instruction of the kernel module's entries
/// (a `.func` is checked where it runs: inlined into its callers,
/// `ptx_front::inline`).
pub fn check(prog: &Program, syms: &Symbols) -> Result<(), PtxError> {
    for e in prog.module.entries.iter().filter(|e| !e.func) {
        check_entry(prog, syms, e)?;
    }
    Ok(())
}

fn check_entry(prog: &Program, syms: &Symbols, e: &Entry) -> Result<(), PtxError> {
    let regs: HashSet<&str> = e.registers().collect();
    let params: HashSet<&str> = e.params.iter().map(|p| p.name.as_str()).collect();
    let probe = LaneEnv {
        tid: 0,
        block: [1, 1, 1],
        cta: 0,
        grid: [1, 1, 1],
        cluster: [1, 1, 1],
        warp: 0,
        warps: 1,
        now: 0,
        smem: 0,
        dynamic_smem: 0,
        grid_workspace: 0,
    };
    for i in e.insts() {
        let err = |msg: String| Err(PtxError::new(&prog.file, i.line, i.col, msg));
        let is_param_ld = i.opcode.starts_with("ld.") && i.opcode.split('.').any(|q| q == "param");
        let mut names: Vec<(&str, bool)> = Vec::new();
        if let Some(g) = &i.guard {
            names.push((&g.reg, false));
        }
        for (k, o) in i.operands.iter().enumerate() {
            let written = k == 0 && writes_first(&i.form);
            match o {
                Operand::Reg(_) if i.form == "bra" => {}
                Operand::Reg(r) | Operand::NotPred(r) => names.push((r, written)),
                Operand::Addr { base, .. } if is_param_ld => {
                    if !params.contains(base.as_str()) {
                        return err(format!(
                            "`{}`: `{base}` is not a parameter of entry `{}` (its parameters: {})",
                            i.text(),
                            e.name,
                            e.params
                                .iter()
                                .map(|p| p.name.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ));
                    }
                }
                Operand::Addr { base, .. } => names.push((base, false)),
                Operand::Vector(v) => names.extend(
                    v.iter()
                        .filter(|r| *r != "_")
                        .map(|r| (r.as_str(), written)),
                ),
                Operand::Pair(a, b) => {
                    names.push((a, written));
                    names.push((b, written));
                }
                Operand::Imm(_) | Operand::Float { .. } | Operand::Sink => {}
            }
        }
        for (n, written) in names {
            if regs.contains(n) || n.parse::<i64>().is_ok() || n == "_" {
                continue;
            }
            let what = if special_value(n, &probe).is_some() {
                format!("special register `{n}`")
            } else if let Some(s) = syms.get(n) {
                if s.space == Space::Local {
                    return err(format!(
                        "`{}`: `.local` variable `{n}` is not modelled (each thread has its own), expected a `.shared` or `.global` variable or a register",
                        i.text()
                    ));
                }
                format!("{} variable `{n}`", s.space.name())
            } else if params.contains(n) {
                return err(format!(
                    "`{}` uses parameter `{n}` as a value, expected `ld.param` to read it",
                    i.text()
                ));
            } else if n.starts_with('%')
                && !n.starts_with("%r")
                && !n.starts_with("%p")
                && !n.starts_with("%f")
            {
                return err(format!(
                    "`{}` reads `{n}`, which this executor does not define (supported special registers: {})",
                    i.text(),
                    supported()
                ));
            } else {
                return err(format!(
                    "`{}` names `{n}`, which entry `{}` does not declare: expected a register declared with `.reg`, a `.shared`/`.global`/`.const` variable, a parameter (in `ld.param`) or a special register",
                    i.text(),
                    e.name
                ));
            };
            if written {
                return err(format!(
                    "`{}` writes {what}, expected a register declared with `.reg` in entry `{}`",
                    i.text(),
                    e.name
                ));
            }
        }
    }
    Ok(())
}
