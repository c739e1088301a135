//! What an instruction is to the issue model (`crate::sm_timing`), and
//! the reordering `ptxas` does to a basic block before the SM sees it,
//! applied to a kernel's code under an SM timing preset only
//! (`docs/timing.md`). Functional runs keep PTX order.

use crate::exec::Code;
use crate::sm_timing::IssueClass;
use ptx_front::lower::{GroupOp, Lowered};
use ptx_front::parser::Operand;
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

/// An instruction's shape for the issue model: its class, the registers
/// it reads (guard, sources, address bases, stored values) and those it
/// writes (the first operand of arithmetic, warp-level, load, atomic and
/// mbarrier instructions), and whether a named barrier's id or count is a
/// register.
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
        } else if head == "bra" {
            IssueClass::Branch
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
        IssueClass::Alu | IssueClass::Clock | IssueClass::WarpOp => true,
        IssueClass::Branch => false,
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
    // A named barrier's id or count in a register (the SM's slower path for
    // either: `kernels/micro/h100_bar_operands.cu`); `immediate_bar_operands`
    // takes back the ones `ptxas` makes immediates.
    let named = (head == "bar" && !inst.opcode.starts_with("bar.red"))
        || inst.opcode.starts_with("barrier.sync")
        || inst.opcode.starts_with("barrier.arrive");
    let reg_count = matches!(class, IssueClass::Bar | IssueClass::BarArrive)
        && named
        && inst.operands[..inst.operands.len().min(2)]
            .iter()
            .any(|o| matches!(o, Operand::Reg(r) if regs.contains_key(r)));
    (class, srcs, dsts, reg_count)
}

/// A branch, return, exit or call: the end of a basic block.
pub(crate) fn is_branch(c: &Code) -> bool {
    matches!(
        c.inst.opcode.split('.').next().unwrap_or(""),
        "bra" | "ret" | "exit" | "brx" | "call"
    )
}

/// Where a branch (its first operand a label) jumps to, as an index of
/// the entry's code.
pub(crate) fn branch_target(c: &Code, labels: &HashMap<String, usize>) -> Option<usize> {
    match c.inst.operands.first() {
        Some(Operand::Reg(l)) => labels.get(l).copied(),
        _ => None,
    }
}

/// `l` may not move above `p`: `p` writes a register `l` reads or writes,
/// or reads a register `l` writes.
fn conflicts(p: &Code, l: &Code) -> bool {
    p.dsts
        .iter()
        .any(|r| l.srcs.contains(r) || l.dsts.contains(r))
        || p.srcs.iter().any(|r| l.dsts.contains(r))
}

/// Moves instruction `i` up its basic block (never above a label in
/// `starts`) past every instruction it does not conflict with and that
/// `stops` does not refuse; returns where it lands.
fn move_up(
    code: &mut [Arc<Code>],
    i: usize,
    starts: &HashSet<usize>,
    stops: impl Fn(&Code) -> bool,
) -> usize {
    let mut j = i;
    while j > 0
        && !starts.contains(&j)
        && !stops(&code[j - 1])
        && !conflicts(&code[j - 1], &code[i])
    {
        j -= 1;
    }
    code[j..=i].rotate_right(1);
    j
}

/// Counted loops: `ptxas` unrolls a loop whose back edge is
/// `setp.<cmp> %p, %x, IMM; @%p bra HEAD` with `%x` stepped by a constant
/// in the loop's body (`add`/`sub %x, %x, IMM`). Returns each such loop
/// as (head, back edge) indices of the entry's code; with `innermost`,
/// only those `ptxas` unrolls fully: no loop in the body, the counter set
/// to an immediate before it, no `.pragma "nounroll"`.
fn counted_loops(
    code: &[Arc<Code>],
    labels: &HashMap<String, usize>,
    innermost: bool,
) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for i in 0..code.len() {
        if !code[i].inst.opcode.starts_with("bra") {
            continue;
        }
        let (Some(g), Some(head)) = (&code[i].inst.guard, branch_target(&code[i], labels)) else {
            continue;
        };
        if head > i {
            continue;
        }
        // The predicate's definition in the body: `setp %p, %x, IMM`.
        let body = &code[head..i];
        let Some(def) = body
            .iter()
            .rev()
            .find(|c| matches!(c.inst.operands.first(), Some(Operand::Reg(r)) if *r == g.reg))
        else {
            continue;
        };
        let counter = match (def.inst.opcode.starts_with("setp"), &def.inst.operands[..]) {
            (true, [_, Operand::Reg(x), Operand::Imm(_)]) => x.clone(),
            _ => continue,
        };
        let inner_loop = (head..i).any(|k| {
            code[k].inst.opcode.starts_with("bra")
                && branch_target(&code[k], labels).is_some_and(|t| t <= k)
        });
        // A trip count `ptxas` knows: the counter enters the loop set to an
        // immediate (k3's loops, counted from a register and marked
        // `nounroll`, keep their back edges).
        let constant_start = set_only_to_immediates_outside(code, head..i, &counter);
        // nvcc marks a loop it wants kept `.pragma "nounroll"` (k3's and
        // k5's copy-out loops: their SASS keeps the back edge).
        let nounroll = code[head].inst.nounroll;
        let full = !inner_loop && constant_start && !nounroll;
        if (full || !innermost) && body.iter().any(|c| is_step(c, &counter)) {
            out.push((head, i));
        }
    }
    out
}

/// `mov %x, IMM`.
fn is_imm_mov(c: &Code, x: &str) -> bool {
    c.inst.opcode.starts_with("mov")
        && matches!(&c.inst.operands[..], [Operand::Reg(d), Operand::Imm(_)] if d == x)
}

/// Every instruction outside `body` that writes `x` (its first operand)
/// sets it to an immediate.
fn set_only_to_immediates_outside(code: &[Arc<Code>], body: Range<usize>, x: &str) -> bool {
    code.iter()
        .enumerate()
        .filter(|(k, c)| {
            !body.contains(k) && matches!(c.inst.operands.first(), Some(Operand::Reg(r)) if r == x)
        })
        .all(|(_, c)| is_imm_mov(c, x))
}

/// `add`/`sub %x, %x, IMM`.
fn is_step(c: &Code, x: &str) -> bool {
    let h = c.inst.opcode.split('.').next().unwrap_or("");
    (h == "add" || h == "sub")
        && matches!(&c.inst.operands[..],
            [Operand::Reg(d), Operand::Reg(s), Operand::Imm(_)] if d == x && s == x)
}

/// Barrier operands `ptxas` makes immediates. nvcc writes a named barrier
/// with register operands, `mov.u32 %r225, 192; bar.sync %r224, %r225;`,
/// and `ptxas` propagates the constants: every count of the reference and
/// own kernels is an immediate in their SASS (`kernels/sass/`: k3's
/// `BAR.SYNC R6, 0xc0` and `BAR.ARV R26, 0xc0`, `BAR.ARV 0x3, 0xc0`). A
/// barrier takes the register path to the issue model (`Code::reg_count`:
/// the register release path and arrival interval, sync §1.1 and §1.3, and
/// for a register id as for a register count, `h100_bar_operands.cu`) only
/// when exactly one of its id and count is a register whose definition
/// reaching the barrier is not a `mov` of an immediate (the last one
/// before it in its basic block, or else the register's only definition
/// in the entry); with both in registers `ptxas` packs them into one, and
/// that form releases as the immediate one does (`bar_operands` rows).
pub(crate) fn immediate_bar_operands(code: &mut [Arc<Code>], labels: &HashMap<String, usize>) {
    let starts: HashSet<usize> = labels.values().copied().collect();
    for i in 0..code.len() {
        if !code[i].reg_count {
            continue;
        }
        let n = code[i].inst.operands.len().min(2);
        let regs: Vec<String> = code[i].inst.operands[..n]
            .iter()
            .filter_map(|o| match o {
                Operand::Reg(r) => Some(r.clone()),
                _ => None,
            })
            .collect();
        let variable = regs
            .iter()
            .filter(|x| !constant_at(code, &starts, i, x))
            .count();
        // Both in registers: `ptxas` packs them into one (`BAR.SYNC R7,
        // R7`), which releases as an immediate form does (15 cycles after
        // the arrival against 14; one register operand 26).
        if variable != 1 {
            Arc::make_mut(&mut code[i]).reg_count = false;
        }
    }
}

/// The definition of `x` that reaches instruction `i` is a `mov` of an
/// immediate: the last one before `i` in its basic block, or else the
/// register's only definition in the entry.
fn constant_at(code: &[Arc<Code>], starts: &HashSet<usize>, i: usize, x: &str) -> bool {
    let writes = |c: &Code| {
        matches!(c.inst.operands.first(), Some(Operand::Reg(r)) if r == x)
            && !matches!(
                c.class,
                IssueClass::Branch | IssueClass::Bar | IssueClass::BarArrive
            )
    };
    let mut j = i;
    while j > 0 && !starts.contains(&j) && !is_branch(&code[j - 1]) {
        j -= 1;
        if writes(&code[j]) {
            return is_imm_mov(&code[j], x);
        }
    }
    let mut defs = code.iter().filter(|c| writes(c));
    matches!((defs.next(), defs.next()), (Some(d), None) if is_imm_mov(d, x))
}

/// The back edge of a counted loop (`counted_loops`): `ptxas` unrolls the
/// loop, so the SM does not run that branch on every iteration (k5's tile
/// loop and §2.4's phase-reuse loop have no back edge in their SASS). Such
/// a back edge issues as arithmetic (`IssueClass::Alu`) instead of a branch.
/// (k4's tile loop, which holds the mbarrier wait loops, keeps its back
/// edge in its SASS, `@!P0 BRA`; the rule still counts it unrolled, as the
/// calibration was made with it: docs/timing.md.)
pub(crate) fn unrolled_back_edges(code: &mut [Arc<Code>], labels: &HashMap<String, usize>) {
    for (_, i) in counted_loops(code, labels, false) {
        Arc::make_mut(&mut code[i]).class = IssueClass::Alu;
    }
}

/// Constant folding in an unrolled loop: after `ptxas` unrolls a counted
/// loop, every value computed in the body from its induction variables
/// and constants alone is a constant of its copy of the body, so that
/// arithmetic, and a branch on such a predicate, leaves no SASS
/// instruction (k5's tile loop: the ring slot `(i + 2) % 3`, its shared
/// address and the `i + 2 < 8` branch around the prefetch are 14 PTX
/// instructions between two clock reads, none of them in the SASS, where
/// the site costs 40 cycles on the H100).
///
/// Only an innermost counted loop is taken (no loop in its body): k4's
/// tile loop, which holds the mbarrier wait loops, is not unrolled (its
/// SASS computes the ring slot with `LOP3`s in the loop and keeps the back
/// edge), k5's, which holds none, is.
///
/// An induction variable: a register the body changes only by `add`/`sub
/// %x, %x, IMM` and that every instruction outside the body sets to an
/// immediate (`mov %x, IMM`: the trip count is a constant). A folded
/// value: a register (or predicate) every definition of which in the body
/// is arithmetic on folded values, immediates and symbols (no special
/// register, no memory, no clock), with no definition outside the body
/// but `mov` of an immediate. Such instructions (and the induction
/// variables' steps) are marked `folded`: the issue model runs them at no
/// cost (`Machine::issue_gate`); they still compute their values.
pub(crate) fn folded_in_unrolled_loops(
    code: &mut [Arc<Code>],
    labels: &HashMap<String, usize>,
    regs: &HashMap<String, usize>,
) {
    // Register names by index (`Code::dsts` holds indices).
    let mut names = vec![""; regs.len()];
    for (name, &r) in regs {
        names[r] = name.as_str();
    }
    for (head, back) in counted_loops(code, labels, true) {
        let body = head..back;
        // Every register the body defines, and its defining instructions.
        let mut defs: HashMap<&str, Vec<usize>> = HashMap::new();
        for k in body.clone() {
            for &r in &code[k].dsts {
                defs.entry(names[r]).or_default().push(k);
            }
        }
        let outside_ok = |x: &str| set_only_to_immediates_outside(code, body.clone(), x);
        let mut folded: HashSet<&str> = defs
            .iter()
            .filter(|(x, ks)| {
                ks.iter().all(|&k| is_step(&code[k], x))
                    && code
                        .iter()
                        .enumerate()
                        .any(|(k, c)| !body.contains(&k) && is_imm_mov(c, x))
                    && outside_ok(x)
            })
            .map(|(x, _)| *x)
            .collect();
        // An instruction whose every source is folded: arithmetic only, its
        // guard (if any) folded, no special register.
        let foldable = |c: &Code, f: &HashSet<&str>| {
            let src_ok = |r: &str| {
                if regs.contains_key(r) {
                    f.contains(r)
                } else {
                    !r.starts_with('%')
                }
            };
            c.class == IssueClass::Alu
                && !c.if_converted
                && !is_branch(c)
                && c.inst
                    .guard
                    .as_ref()
                    .is_none_or(|g| f.contains(g.reg.as_str()))
                && c.inst.operands.iter().skip(1).all(|o| match o {
                    Operand::Reg(r) | Operand::NotPred(r) => src_ok(r),
                    Operand::Pair(a, b) => src_ok(a) && src_ok(b),
                    Operand::Vector(v) => v.iter().all(|r| src_ok(r)),
                    Operand::Imm(_) | Operand::Float { .. } | Operand::Sink => true,
                    Operand::Addr { .. } => false,
                })
        };
        loop {
            let grown: Vec<&str> = defs
                .iter()
                .filter(|(x, ks)| {
                    !folded.contains(*x)
                        && ks.iter().all(|&k| foldable(&code[k], &folded))
                        && outside_ok(x)
                })
                .map(|(x, _)| *x)
                .collect();
            if grown.is_empty() {
                break;
            }
            folded.extend(grown);
        }
        let marks: Vec<usize> = body
            .clone()
            .filter(|&k| {
                let c = &code[k];
                // (An induction variable's step is such an instruction.)
                let writes_folded =
                    !c.dsts.is_empty() && c.dsts.iter().all(|&r| folded.contains(names[r]));
                // A forward branch on a folded predicate is resolved when
                // the body is copied.
                let branch = c.class == IssueClass::Branch
                    && c.inst.opcode.starts_with("bra")
                    && c.inst
                        .guard
                        .as_ref()
                        .is_some_and(|g| folded.contains(g.reg.as_str()))
                    && branch_target(c, labels).is_some_and(|t| t > k && t <= back);
                (writes_folded && foldable(c, &folded)) || branch
            })
            .collect();
        for k in marks {
            let c = Arc::make_mut(&mut code[k]);
            c.folded = true;
            if c.class == IssueClass::Branch {
                c.class = IssueClass::Alu;
            }
        }
    }
}

/// If-conversion: `ptxas` turns a forward branch over at most
/// `IF_CONVERT_MAX` instructions (64-to-32-bit conversions not counted: they
/// cost no SASS instruction) into predication when none of them is a
/// branch, clock read, warp-level, barrier or unit operation. From the
/// SASS: k1's `if (tid < s) sdata[tid] += sdata[tid + s]` blocks (4) and
/// k5's record stores (5 and two conversions) are predicated; k1's block
/// holding a `redux.sync` and `kernels/micro/h100_branch.cu`'s 6 IMADs keep
/// their `BRA`, and so does k4's 11-instruction record block. Such a branch
/// issues as arithmetic, and the lanes that take it run through the block
/// with their guard false (`Machine::begin_instruction`) instead of
/// jumping, so the warp does not split: a predicated-off load still holds
/// its destination for the load pipe's latency.
pub(crate) fn if_converted_branches(code: &mut [Arc<Code>], labels: &HashMap<String, usize>) {
    const IF_CONVERT_MAX: usize = 5;
    for i in 0..code.len() {
        if code[i].class != IssueClass::Branch || code[i].inst.guard.is_none() {
            continue;
        }
        let Some(to) = branch_target(&code[i], labels) else {
            continue;
        };
        // A branch to the next instruction skips nothing to predicate: the
        // calibration probes write a branch the SASS keeps that way (§1.3's
        // "+ dependent branch").
        if to <= i + 1 {
            continue;
        }
        let block = &code[i + 1..to];
        // Width conversions cost no SASS instruction (a register pair's low
        // half): they do not count.
        let size = block
            .iter()
            .filter(|c| {
                !c.inst.opcode.starts_with("cvt.u32.u64")
                    && !c.inst.opcode.starts_with("cvt.s32.s64")
            })
            .count();
        if size > IF_CONVERT_MAX {
            continue;
        }
        let simple = block.iter().all(|c| {
            !is_branch(c)
                && matches!(c.class, IssueClass::Alu | IssueClass::Mem)
                && !c.inst.opcode.starts_with("mbarrier")
                && !c.inst.opcode.starts_with("fence")
                && !c.inst.opcode.starts_with("membar")
        });
        if simple {
            let c = Arc::make_mut(&mut code[i]);
            c.class = IssueClass::Alu;
            c.if_converted = true;
        }
    }
}

/// What `ptxas` does to a basic block before the SM sees it, for the issue
/// model. Only under an SM timing preset; functional runs keep PTX order.
///
/// - Arithmetic that computes an operand of a later memory, barrier or unit
///   instruction of its block (an address, a count) moves up as far as its
///   registers allow, past clock reads, memory and barrier instructions it
///   does not depend on: `ptxas` schedules such chains early, so address
///   arithmetic between two clock reads is done before the first.
/// - Each weak load (`ld.global`, `ld.global.nc`, `ld.shared`, `ld.const`,
///   `ld.param` without `.volatile`/`.relaxed`/`.acquire`) moves up as far
///   as its block allows, so that independent loads are in flight together
///   (nvcc's PTX interleaves `ld; mad; st` per element; the SASS issues the
///   loads first). A load never moves past a label (block start), a branch
///   or exit, an instruction it conflicts with on registers, another load
///   (loads keep their order), a store, atomic or reduction to memory it may
///   read (global and generic for a global load, shared and generic for a
///   shared one), any barrier, fence, mbarrier or async-copy operation, or
///   a clock read (`asm volatile` with a memory clobber, as the
///   instrumentation writes it).
pub(crate) fn hoist_loads(code: &mut [Arc<Code>], labels: &mut HashMap<String, usize>) {
    let mut starts: HashSet<usize> = labels.values().copied().collect();
    // Which arithmetic feeds a later non-arithmetic instruction of its block.
    let mut feeds = vec![false; code.len()];
    let mut needed: HashSet<usize> = HashSet::new();
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
        if feeds[i] {
            let j = move_up(code, i, &starts, is_branch);
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
    // Read-only global loads (`ld.global.nc`: `LDG.E.CONSTANT`; nothing the
    // kernel stores can alias them) also move past barriers, shared-memory
    // accesses and blocks `ptxas` predicated: k1's SASS issues three of its
    // four tiles' loads before its first `BAR.SYNC`. A label only an
    // if-converted branch jumps to is no block start for them.
    let nc_starts_of = |code: &[Arc<Code>], labels: &HashMap<String, usize>| {
        code.iter()
            .filter(|c| is_branch(c) && !c.if_converted)
            .filter_map(|c| branch_target(c, labels))
            .collect::<HashSet<usize>>()
    };
    let mut nc_starts = nc_starts_of(code, labels);
    for i in 0..code.len() {
        if !is_weak_load(&code[i]) {
            continue;
        }
        let space = space_of(&code[i].inst.opcode);
        if code[i].inst.opcode.starts_with("ld.global.nc") {
            // Past a predicated block from below, never out of its own.
            let below_block = |p: &Code| branch_target(p, labels).is_some_and(|t| t <= i);
            let j = move_up(code, i, &nc_starts, |p| match p.class {
                IssueClass::Alu => is_branch(p) && !(p.if_converted && below_block(p)),
                IssueClass::Branch => true,
                IssueClass::WarpOp | IssueClass::Bar | IssueClass::BarArrive => false,
                IssueClass::Clock
                | IssueClass::BulkCopy
                | IssueClass::Ldgsts
                | IssueClass::ProxyFence => true,
                IssueClass::Mem => {
                    let ps = &p.inst.opcode;
                    // Shared-memory loads and stores do not hold it; global
                    // loads keep their order; anything else stops it.
                    !(ps.contains(".shared") && (ps.starts_with("ld.") || ps.starts_with("st.")))
                }
            });
            // A load never stops inside a predicated block: one that cannot
            // pass the whole block stays below it, at the block's label.
            let inside = code[..j]
                .iter()
                .rev()
                .filter(|c| c.if_converted)
                .find_map(|c| branch_target(c, labels).filter(|&end| end > j && end <= i));
            let j = match inside {
                Some(end) => {
                    code[j..=end].rotate_left(1);
                    end
                }
                None => j,
            };
            // The instructions in j..i moved down by one: so do their
            // labels (a label at j now names the load, which runs after
            // every block it passed).
            if j < i {
                for v in labels.values_mut() {
                    if *v > j && *v <= i {
                        *v += 1;
                    }
                }
                starts = labels.values().copied().collect();
                nc_starts = nc_starts_of(code, labels);
            }
            continue;
        }
        move_up(code, i, &starts, |p| match p.class {
            IssueClass::Alu => is_branch(p),
            IssueClass::Branch => true,
            IssueClass::WarpOp => false,
            IssueClass::Clock
            | IssueClass::Bar
            | IssueClass::BarArrive
            | IssueClass::BulkCopy
            | IssueClass::Ldgsts
            | IssueClass::ProxyFence => true,
            IssueClass::Mem => match p.inst.opcode.split('.').next().unwrap_or("") {
                "st" | "atom" | "red" => {
                    let ps = &p.inst.opcode;
                    let generic = !ps.contains(".shared") && !ps.contains(".global");
                    generic || space_of(ps) == space
                }
                // Loads keep their order; fences and unit operations stop it.
                _ => true,
            },
        });
    }
}

/// A 64-bit integer add or subtract of two registers (`add.s64 %rd3, %rd1,
/// %rd2`): `ptxas` makes it two instructions, the low half, then the high
/// half with the carry (`IADD3` + `IADD3.X`, or `IMAD.X`: k5's SASS), so its
/// high half is ready one ALU latency after its low half. With an immediate
/// it folds the constant into the address of the memory operation it feeds
/// (`LDGSTS [R11+0x1000]` in k5's SASS) or adds it in one step with the
/// carry, and so costs what any arithmetic does.
pub(crate) fn is_add64(inst: &ptx_front::parser::Inst) -> bool {
    let mut parts = inst.opcode.split('.');
    matches!(parts.next(), Some("add" | "sub"))
        && parts.any(|p| matches!(p, "s64" | "u64"))
        && !inst.operands.iter().any(|o| matches!(o, Operand::Imm(_)))
}

/// How an instruction reads its 64-bit sources (`Code::halves`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Halves {
    /// Whole: it waits for their high halves.
    Whole,
    /// Half by half: 64-bit integer add, subtract and logic, each half one
    /// SASS instruction, the high one a step behind. It may start on its
    /// sources' low halves; its own high half waits for theirs.
    Paired,
    /// The low half only: a conversion to 32 bits.
    Low,
}

/// How `inst` reads its 64-bit sources. A chain of 64-bit adds and `xor`s
/// costs what the 32-bit chain costs (`kernels/micro/h100_alu64.cu`: 164
/// cycles against 158 for 16 pairs).
pub(crate) fn halves(inst: &ptx_front::parser::Inst) -> Halves {
    let op = inst.opcode.as_str();
    let mut parts = op.split('.');
    let head = parts.next();
    if matches!(head, Some("add" | "sub" | "and" | "or" | "xor"))
        && parts.any(|p| matches!(p, "s64" | "u64" | "b64"))
    {
        Halves::Paired
    } else if ["cvt.u32.u64", "cvt.s32.s64", "cvt.u32.s64", "cvt.s32.u64"]
        .iter()
        .any(|c| op.starts_with(c))
    {
        Halves::Low
    } else {
        Halves::Whole
    }
}
