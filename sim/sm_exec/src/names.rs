//! What a name in an instruction means, checked before the run
//! (`docs/memory_model.md` §Executor): a register the entry declares with
//! `.reg`, a named variable (`crate::symbols`), a number, or one of the
//! special registers with a value in this model ([`SPECIAL`]). Anything
//! else — an undeclared register, a special register the model does not
//! define (`%tid.x`, `%laneid`, `%clock`, ...), an `ld.param` (parameters have
//! no values), a `.local` variable, a floating-point `add`/`atom`/`red` —
//! is an error naming the file line, the name and what is supported; nothing
//! reads as 0 by default.

use crate::symbols::{Space, Symbols};
use ptx_front::parser::{Entry, Inst, Operand};
use ptx_front::{Program, PtxError};
use std::collections::HashSet;

/// The special registers with a value in the one-thread-per-warp model, and
/// what it is. The grid is one-dimensional (`ctas` × 1 × 1) with CTA *i* on
/// SM *i*; without a cluster launch each CTA is a cluster of one (as PTX
/// defines it).
pub const SPECIAL: [(&str, &str); 28] = [
    (
        "%laneid",
        "the lane (0..lanes of the header's placement; a host thread: 0)",
    ),
    ("%tid.x", "32 × warp + lane"),
    ("%tid.y", "0"),
    ("%tid.z", "0"),
    ("%warpid", "the warp's slot, the header's `warp`"),
    ("%ctaid.x", "the CTA's index, the header's `cta`"),
    ("%ctaid.y", "0"),
    ("%ctaid.z", "0"),
    ("%nctaid.x", "`ctas`"),
    ("%nctaid.y", "1"),
    ("%nctaid.z", "1"),
    ("%smid", "the CTA's index (CTA i runs on SM i)"),
    ("%cluster_ctarank", "cta mod cluster size"),
    ("%cluster_nctarank", "the cluster size (`cluster`, else 1)"),
    ("%cluster_ctaid.x", "cta mod cluster size"),
    ("%cluster_ctaid.y", "0"),
    ("%cluster_ctaid.z", "0"),
    ("%cluster_nctaid.x", "the cluster size"),
    ("%cluster_nctaid.y", "1"),
    ("%cluster_nctaid.z", "1"),
    ("%clusterid.x", "cta / cluster size"),
    ("%clusterid.y", "0"),
    ("%clusterid.z", "0"),
    ("%nclusterid.x", "ctas / cluster size"),
    ("%nclusterid.y", "1"),
    ("%nclusterid.z", "1"),
    ("%clock", "the SM's cycle count, low 32 bits"),
    ("%clock64", "the SM's cycle count"),
];

/// Prefixes of the PTX special registers the model does not define (per
/// lane, per thread, or timing values).
const UNMODELLED: [&str; 14] = [
    "%ntid",
    "%lanemask",
    "%nwarpid",
    "%nsmid",
    "%gridid",
    "%globaltimer",
    "%pm",
    "%envreg",
    "%total_smem_size",
    "%dynamic_smem_size",
    "%aggr_smem_size",
    "%reserved_smem",
    "%current_graph_exec",
    "%is_explicit_cluster",
];

/// The value of special register `name` for lane `lane` of warp slot `warp` of CTA `cta`
/// in a grid of `ctas` CTAs with clusters of `cluster` CTAs (1 without a
/// cluster launch); `None` if it is not one of [`SPECIAL`].
pub fn special_value(
    name: &str,
    (warp, lane, cta): (u32, u32, u32),
    ctas: u32,
    cluster: u32,
) -> Option<u64> {
    let v = match name {
        "%laneid" => lane,
        "%tid.x" => warp * 32 + lane,
        "%tid.y" | "%tid.z" => 0,
        "%warpid" => warp,
        "%ctaid.x" | "%smid" => cta,
        "%nctaid.x" => ctas,
        "%cluster_ctarank" | "%cluster_ctaid.x" => cta % cluster,
        "%cluster_nctarank" | "%cluster_nctaid.x" => cluster,
        "%clusterid.x" => cta / cluster,
        "%nclusterid.x" => ctas / cluster,
        "%ctaid.y" | "%ctaid.z" | "%cluster_ctaid.y" | "%cluster_ctaid.z" | "%clusterid.y"
        | "%clusterid.z" => 0,
        "%nctaid.y" | "%nctaid.z" | "%cluster_nctaid.y" | "%cluster_nctaid.z" | "%nclusterid.y"
        | "%nclusterid.z" => 1,
        // Time: the executor answers with its cycle count (`Machine::sym_or_reg`).
        "%clock" | "%clock64" => 0,
        _ => return None,
    };
    Some(v as u64)
}

fn supported() -> String {
    SPECIAL
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The operand an instruction writes (its destination), if any.
fn dest(form: &str) -> Option<usize> {
    let writes = form.starts_with("ld.")
        || form.starts_with("atom.")
        || matches!(form, "mov" | "add" | "setp")
        || form.starts_with("bar.red.")
        || form.starts_with("mbarrier.arrive")
        || form.starts_with("mbarrier.test_wait")
        || form.starts_with("mbarrier.try_wait")
        || form == "mbarrier.pending_count";
    writes.then_some(0)
}

/// Check every name of every instruction of `prog` (see the module doc).
pub fn check(prog: &Program, syms: &Symbols) -> Result<(), PtxError> {
    for e in &prog.module.entries {
        check_entry(prog, syms, e)?;
    }
    Ok(())
}

fn check_entry(prog: &Program, syms: &Symbols, e: &Entry) -> Result<(), PtxError> {
    let regs: HashSet<&str> = e.registers().collect();
    for i in e.insts() {
        let err = |msg: String| Err(PtxError::new(&prog.file, i.line, i.col, msg));
        let head = i.opcode.split('.').next().unwrap_or("");
        if matches!(head, "add" | "atom" | "red")
            && i.opcode
                .split('.')
                .any(|q| matches!(q, "f16" | "f32" | "f64"))
        {
            return err(format!(
                "`{}`: floating-point arithmetic is not modelled (values are integers), expected an integer type such as `.u32`",
                i.opcode
            ));
        }
        if head == "ld" && i.opcode.split('.').any(|q| q == "param") {
            let p = match i.operands.get(1) {
                Some(Operand::Addr { base, .. }) => base.clone(),
                _ => "?".into(),
            };
            return err(format!(
                "`{}`: parameter `{p}` has no value (a program file gives its entries no arguments), expected a value from `mov` of a constant or a `.global` variable",
                i.text()
            ));
        }
        let d = dest(&i.form);
        let mut names: Vec<(&str, bool)> = Vec::new();
        if let Some(g) = &i.guard {
            names.push((&g.reg, false));
        }
        for (k, o) in i.operands.iter().enumerate() {
            match o {
                // A label, checked by the parser.
                Operand::Reg(_) if i.form == "bra" => {}
                Operand::Reg(r) => names.push((r, d == Some(k))),
                Operand::NotPred(r) => names.push((r, false)),
                Operand::Addr { base, .. } => names.push((base, false)),
                Operand::Vector(v) => names.extend(v.iter().map(|r| (r.as_str(), d == Some(k)))),
                Operand::Pair(a, b) => {
                    names.push((a, d == Some(k)));
                    names.push((b, d == Some(k)));
                }
                Operand::Imm(_) | Operand::Float { .. } | Operand::Sink => {}
            }
        }
        for (n, written) in names {
            check_name(prog, syms, e, &regs, i, n, written)?;
        }
    }
    Ok(())
}

fn check_name(
    prog: &Program,
    syms: &Symbols,
    e: &Entry,
    regs: &HashSet<&str>,
    i: &Inst,
    n: &str,
    written: bool,
) -> Result<(), PtxError> {
    let err = |msg: String| Err(PtxError::new(&prog.file, i.line, i.col, msg));
    if regs.contains(n) || n.parse::<i64>().is_ok() {
        return Ok(());
    }
    let what = if special_value(n, (0, 0, 0), 1, 1).is_some() {
        Some(format!("special register `{n}`"))
    } else if let Some(s) = syms.get(n) {
        if s.space == Space::Local {
            return err(format!(
                "`{}`: `.local` variable `{n}` (line {}) is not modelled (each thread has its own), expected a `.shared` or `.global` variable or a register",
                i.text(),
                s.line
            ));
        }
        Some(format!("{} variable `{n}`", s.space.name()))
    } else {
        None
    };
    match what {
        Some(w) if written => err(format!(
            "`{}` writes {w}, expected a register declared with `.reg` in entry `{}` as the destination",
            i.text(),
            e.name
        )),
        Some(_) => Ok(()),
        None if UNMODELLED.iter().any(|p| n.starts_with(p)) => err(format!(
            "`{}` reads special register `{n}`, which a program file does not define (its warps hold the lanes the header gives; block sizes, timers and counters have no value here); supported special registers: {}",
            i.text(),
            supported()
        )),
        None => err(format!(
            "`{}` names `{n}`, which entry `{}` does not declare: expected a register declared with `.reg` in this entry, a `.shared`/`.global`/`.const` variable, or a special register ({})",
            i.text(),
            e.name,
            supported()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_values_in_the_one_thread_per_warp_model() {
        // CTA 5 of 8, clusters of 4, warp 3.
        let v = |n: &str| special_value(n, (3, 0, 5), 8, 4);
        assert_eq!(v("%warpid"), Some(3));
        assert_eq!(v("%ctaid.x"), Some(5));
        assert_eq!(v("%nctaid.x"), Some(8));
        assert_eq!(v("%cluster_ctarank"), Some(1));
        assert_eq!(v("%clusterid.x"), Some(1));
        assert_eq!(v("%nclusterid.x"), Some(2));
        assert_eq!(v("%tid.x"), Some(96));
        assert_eq!(v("%ntid.x"), None);
        for (n, _) in SPECIAL {
            assert!(v(n).is_some(), "{n}");
            assert!(!UNMODELLED.iter().any(|p| n.starts_with(p)), "{n}");
        }
    }
}
