//! What an instruction is to the issue model (`crate::sm_timing`), and
//! the reordering `ptxas` does to a basic block before the SM sees it,
//! applied to a kernel's code under an SM timing preset only
//! (`docs/timing.md`). Functional runs keep PTX order.

use crate::exec::Code;
use crate::sm_timing::IssueClass;
use ptx_front::lower::{GroupOp, Lowered};
use ptx_front::parser::Operand;
use std::collections::HashMap;
use std::sync::Arc;

/// An instruction's shape for the issue model: its class, the registers
/// it reads (guard, sources, address bases, stored values) and those it
/// writes (the first operand of arithmetic, warp-level, load, atomic and
/// mbarrier instructions), and whether a barrier's count is a register.
pub(crate) fn issue_shape(
    inst: &ptx_front::Inst,
    ops: &[Lowered],
    regs: &HashMap<String, usize>,
) -> (IssueClass, Vec<usize>, Vec<usize>, bool) {
    let head = inst.opcode.split('.').next().unwrap_or("");
    let local = ops
        .iter()
        .all(|o| matches!(o, Lowered::Local | Lowered::Nothing));
    let reads_clock = inst
        .operands
        .iter()
        .any(|o| matches!(o, Operand::Reg(r) if r.starts_with("%clock")));
    let class = if local {
        if reads_clock {
            IssueClass::Clock
        } else if matches!(
            head,
            "shfl" | "vote" | "redux" | "match" | "activemask" | "elect"
        ) || inst.opcode.starts_with("bar.warp")
        {
            IssueClass::WarpOp
        } else {
            IssueClass::Alu
        }
    } else if ops
        .iter()
        .any(|o| matches!(o, Lowered::Bar { op, .. } if *op == ptx_front::lower::BarOp::Arrive))
    {
        IssueClass::BarArrive
    } else if ops.iter().any(|o| {
        matches!(
            o,
            Lowered::Bar { .. } | Lowered::ClusterArrive | Lowered::ClusterWait
        )
    }) {
        IssueClass::Bar
    } else if inst.form.starts_with("cp.async.bulk")
        && ops.iter().any(|o| {
            matches!(
                o,
                Lowered::AsyncCopy { .. }
                    | Lowered::AsyncGroup {
                        op: GroupOp::Issue,
                        ..
                    }
            )
        })
    {
        IssueClass::BulkCopy
    } else if inst.form.starts_with("cp.async.ca") || inst.form.starts_with("cp.async.cg") {
        IssueClass::Ldgsts
    } else if ops.iter().any(|o| matches!(o, Lowered::ProxyFence { .. })) {
        IssueClass::ProxyFence
    } else {
        IssueClass::Mem
    };
    let writes_first = match class {
        IssueClass::Alu | IssueClass::Clock | IssueClass::WarpOp => head != "bra",
        _ => matches!(head, "ld" | "atom" | "mbarrier"),
    };
    let idx = |r: &str| regs.get(r).copied();
    let names = |o: &Operand| -> Vec<usize> {
        match o {
            Operand::Reg(r) | Operand::NotPred(r) => idx(r).into_iter().collect(),
            Operand::Addr { base, .. } => idx(base).into_iter().collect(),
            Operand::Vector(v) => v.iter().filter_map(|r| idx(r)).collect(),
            Operand::Pair(a, b) => [idx(a), idx(b)].into_iter().flatten().collect(),
            _ => vec![],
        }
    };
    let mut srcs: Vec<usize> = inst.guard.iter().filter_map(|g| idx(&g.reg)).collect();
    let mut dsts = vec![];
    for (k, o) in inst.operands.iter().enumerate() {
        if k == 0 && writes_first && !matches!(o, Operand::Addr { .. }) {
            dsts.extend(names(o));
        } else {
            srcs.extend(names(o));
        }
    }
    let reg_count = matches!(class, IssueClass::Bar | IssueClass::BarArrive)
        && head == "bar"
        && matches!(inst.operands.get(1), Some(Operand::Reg(r)) if regs.contains_key(r));
    (class, srcs, dsts, reg_count)
}

/// What `ptxas` does to a basic block before the SM sees it, for the issue
/// model: arithmetic feeding a later memory or sync instruction (an
/// address) moves up its block as far as its registers allow (so address
/// arithmetic between two clock reads is done before the first); each weak load (`ld.global`, `ld.global.nc`, `ld.shared`,
/// `ld.const`, `ld.param` without `.volatile`/`.relaxed`/`.acquire`)
/// moves up as far as its block allows, so that independent loads are in
/// flight together (nvcc's PTX interleaves `ld; mad; st` per element; the
/// SASS issues the loads first). A load never moves past: a label (block
/// start), a branch or exit, an instruction that writes a register it
/// reads or reads or writes a register it writes, another load (loads keep
/// their order), a store, atomic or reduction to memory it may read
/// (global and generic for a global load, shared and generic for a shared
/// one), any barrier, fence, mbarrier or async-copy operation, or a clock
/// read (`asm volatile` with a memory clobber, as the instrumentation
/// writes it). Only under an SM timing preset; functional runs keep PTX
/// order.
pub(crate) fn hoist_loads(code: &mut [Arc<Code>], labels: &HashMap<String, usize>) {
    let starts: std::collections::HashSet<usize> = labels.values().copied().collect();
    // Arithmetic that computes an operand of a later memory, barrier or
    // unit instruction of its block (an address, a count) moves up as far
    // as its registers allow (past clock reads, memory and barrier
    // instructions it does not depend on): `ptxas` schedules such chains early.
    let is_branch = |c: &Code| {
        matches!(
            c.inst.opcode.split('.').next().unwrap_or(""),
            "bra" | "ret" | "exit" | "brx" | "call"
        )
    };
    let mut feeds = vec![false; code.len()];
    let mut needed: std::collections::HashSet<usize> = Default::default();
    for i in (0..code.len()).rev() {
        let c = &code[i];
        if is_branch(c) {
            needed.clear();
        } else if c.class == IssueClass::Alu {
            if c.dsts.iter().any(|r| needed.contains(r)) {
                feeds[i] = true;
                needed.extend(c.srcs.iter().copied());
            }
        } else if c.class != IssueClass::Clock && c.class != IssueClass::WarpOp {
            needed.extend(c.srcs.iter().copied());
        }
        if starts.contains(&i) {
            needed.clear();
        }
    }
    for i in 0..code.len() {
        if !feeds[i] {
            continue;
        }
        let mut j = i;
        while j > 0 && !starts.contains(&j) && !is_branch(&code[j - 1]) {
            let (p, l) = (&code[j - 1], &code[i]);
            let conflict = p
                .dsts
                .iter()
                .any(|r| l.srcs.contains(r) || l.dsts.contains(r))
                || p.srcs.iter().any(|r| l.dsts.contains(r));
            if conflict {
                break;
            }
            j -= 1;
        }
        if j < i {
            code[j..=i].rotate_right(1);
            feeds[j..=i].rotate_right(1);
        }
    }
    let is_weak_load = |c: &Code| {
        let o = &c.inst.opcode;
        o.starts_with("ld.")
            && !o.contains(".volatile")
            && !o.contains(".relaxed")
            && !o.contains(".acquire")
            && (o.contains(".global")
                || o.contains(".shared")
                || o.contains(".const")
                || o.contains(".param"))
    };
    let space_of = |o: &str| {
        if o.contains(".shared") {
            "shared"
        } else if o.contains(".const") || o.contains(".param") {
            "const"
        } else {
            "global"
        }
    };
    for i in 0..code.len() {
        if !is_weak_load(&code[i]) {
            continue;
        }
        let space = space_of(&code[i].inst.opcode);
        let mut j = i;
        while j > 0 && !starts.contains(&j) {
            let p = &code[j - 1];
            let head = p.inst.opcode.split('.').next().unwrap_or("");
            let l = &code[i];
            let blocks = match p.class {
                IssueClass::Alu => matches!(head, "bra" | "ret" | "exit" | "brx" | "call"),
                IssueClass::Clock => true,
                IssueClass::WarpOp => false,
                IssueClass::Bar
                | IssueClass::BarArrive
                | IssueClass::BulkCopy
                | IssueClass::Ldgsts
                | IssueClass::ProxyFence => true,
                IssueClass::Mem => {
                    if head == "ld" {
                        true
                    } else if matches!(head, "st" | "atom" | "red") {
                        let ps = &p.inst.opcode;
                        let generic = !ps.contains(".shared") && !ps.contains(".global");
                        generic || space_of(ps) == space
                    } else {
                        true
                    }
                }
            };
            let reg_conflict = p
                .dsts
                .iter()
                .any(|r| l.srcs.contains(r) || l.dsts.contains(r))
                || p.srcs.iter().any(|r| l.dsts.contains(r));
            if blocks || reg_conflict {
                break;
            }
            j -= 1;
        }
        if j < i {
            code[j..=i].rotate_right(1);
        }
    }
}
