//! Which barriers `ptxas` precedes with `WARPSYNC.ALL` (issue model only).
//!
//! A barrier needs the whole warp converged; `ptxas` proves it where it
//! can and otherwise puts a `WARPSYNC.ALL` in front (about 5 cycles: sync
//! §1's clock read after a `BAR`, +2 alone and +7 after a `WARPSYNC`). The
//! rule, read from the SASS of the reference and own kernels
//! (`kernels/sass/`, `tests/sass_rules.rs`): a flag "the warp may be
//! diverged" that
//!
//! - is set on both sides of a branch on a thread-dependent predicate
//!   (`%tid`, `%laneid`, a loaded value, and what is computed from them)
//!   that `ptxas` keeps as a branch (not if-converted, not an unrolled
//!   back edge, not `bra.uni`);
//! - at the join of such a branch (its immediate post-dominator) is set
//!   when its sides hold a barrier or a warp-synchronous instruction and
//!   the join's block a barrier (`ptxas` then joins with the barrier's
//!   `WARPSYNC` and writes no `BSSY`: k3's final `__syncthreads` after its
//!   roles, k1's `bar.red.popc` after warp 0's `redux.sync`), and
//!   otherwise is what it was at the branch (a `BSSY`/`BSYNC` pair gives the
//!   divergence back: the `__syncthreads` after o3's, k4's and o7's
//!   `if (tid == 0)` blocks);
//! - is cleared by a barrier, which takes the `WARPSYNC` when the flag is set.
//!
//! A program whose CTA runs several entries (the calibration probes' roles)
//! stands for one kernel that chooses its role by a branch on the warp
//! index: its entries start with the flag set.

use crate::exec::Code;
use crate::schedule::{branch_target, is_branch};
use crate::sm_timing::IssueClass;
use ptx_front::parser::Operand;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Special registers that differ between the lanes of a warp.
fn lane_varying(name: &str) -> bool {
    name.starts_with("%tid") || name.starts_with("%laneid") || name.starts_with("%lanemask")
}

fn is_barrier(c: &Code) -> bool {
    matches!(c.class, IssueClass::Bar | IssueClass::BarArrive)
        && (c.inst.opcode.starts_with("bar.") || c.inst.opcode.starts_with("barrier."))
        && !c.inst.opcode.starts_with("barrier.cluster")
        && !c.inst.opcode.starts_with("bar.warp")
}

/// A warp-synchronous instruction (`shfl.sync`, `vote.sync`, `redux.sync`,
/// `match.sync`, `bar.warp.sync`): `ptxas` puts a `WARPSYNC` before it too.
fn is_warp_sync(c: &Code) -> bool {
    c.class == IssueClass::WarpOp && c.inst.opcode.contains(".sync")
}

/// The end of a basic block: a branch, return, exit or call
/// (`schedule::is_branch`), or a `trap`.
fn ends_block(c: &Code) -> bool {
    is_branch(c) || c.inst.opcode.starts_with("trap")
}

/// Registers (indices) whose value may differ between the lanes of a warp.
fn varying_registers(code: &[Arc<Code>]) -> HashSet<usize> {
    let mut v: HashSet<usize> = HashSet::new();
    loop {
        let before = v.len();
        for c in code {
            let head = c.inst.opcode.split('.').next().unwrap_or("");
            let special = c
                .inst
                .operands
                .iter()
                .any(|o| matches!(o, Operand::Reg(r) if lane_varying(r)));
            let loaded = (head == "ld"
                && !c.inst.opcode.starts_with("ld.param")
                && !c.inst.opcode.starts_with("ld.const"))
                || head == "atom"
                || head == "shfl"
                || head == "match";
            if special || loaded || c.srcs.iter().any(|s| v.contains(s)) {
                v.extend(c.dsts.iter().copied());
            }
        }
        if v.len() == before {
            return v;
        }
    }
}

/// Marks `Code::warpsync` on the barriers `ptxas` precedes with a
/// `WARPSYNC.ALL`. `roles`: the entry is one role of several in a CTA.
pub(crate) fn warpsync_barriers(
    code: &mut [Arc<Code>],
    labels: &HashMap<String, usize>,
    regs: &HashMap<String, usize>,
    roles: bool,
) {
    let n = code.len();
    if n == 0 {
        return;
    }
    let varying = varying_registers(code);
    // Basic blocks.
    let mut leader = vec![false; n + 1];
    leader[0] = true;
    for &i in labels.values() {
        if i < n {
            leader[i] = true;
        }
    }
    for (i, c) in code.iter().enumerate() {
        if ends_block(c) && c.class != IssueClass::Alu {
            leader[i + 1] = true;
        }
    }
    let starts: Vec<usize> = (0..n).filter(|&i| leader[i]).collect();
    let nb = starts.len();
    let block_of = |i: usize| starts.partition_point(|&s| s <= i) - 1;
    let end_of = |b: usize| if b + 1 < nb { starts[b + 1] } else { n };
    // Edges; the exit is node `nb`.
    let mut succ: Vec<Vec<usize>> = vec![vec![]; nb];
    let mut divergent = vec![false; nb];
    for b in 0..nb {
        let last = &code[end_of(b) - 1];
        let head = last.inst.opcode.split('.').next().unwrap_or("");
        let branch = head == "bra" && last.class == IssueClass::Branch;
        let target = if head == "bra" {
            branch_target(last, labels).map(block_of)
        } else {
            None
        };
        let falls =
            !(matches!(head, "ret" | "exit" | "trap") || (branch && last.inst.guard.is_none()));
        if falls {
            succ[b].push(if end_of(b) < n { b + 1 } else { nb });
        }
        if let Some(t) = target {
            if !succ[b].contains(&t) {
                succ[b].push(t);
            }
        }
        if matches!(head, "ret" | "exit") {
            succ[b].push(nb);
        }
        let guard_varies = last
            .inst
            .guard
            .as_ref()
            .is_some_and(|g| regs.get(&g.reg).is_some_and(|r| varying.contains(r)));
        if branch && guard_varies && !last.inst.opcode.contains(".uni") && succ[b].len() == 2 {
            divergent[b] = true;
        }
    }
    // Post-dominators (bit sets over nb + 1 nodes).
    let words = (nb + 1).div_ceil(64);
    let full = vec![u64::MAX; words];
    let mut pdom: Vec<Vec<u64>> = vec![full.clone(); nb + 1];
    pdom[nb] = vec![0; words];
    pdom[nb][nb / 64] |= 1 << (nb % 64);
    loop {
        let mut changed = false;
        for b in (0..nb).rev() {
            let mut s = full.clone();
            for &x in &succ[b] {
                for (a, p) in s.iter_mut().zip(&pdom[x]) {
                    *a &= p;
                }
            }
            if succ[b].is_empty() {
                s = vec![0; words];
            }
            s[b / 64] |= 1 << (b % 64);
            if s != pdom[b] {
                pdom[b] = s;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let has = |set: &Vec<u64>, x: usize| set[x / 64] >> (x % 64) & 1 == 1;
    // The immediate post-dominator: the strict post-dominator that every
    // other strict post-dominator post-dominates.
    let ipdom = |b: usize| -> Option<usize> {
        let strict: Vec<usize> = (0..=nb).filter(|&x| x != b && has(&pdom[b], x)).collect();
        strict
            .iter()
            .copied()
            .find(|&x| strict.iter().all(|&y| y == x || has(&pdom[x], y)))
    };
    // Each divergent branch: its join and the blocks between.
    struct Split {
        at: usize,
        join: usize,
        region: HashSet<usize>,
        join_has_barrier: bool,
    }
    let mut splits = vec![];
    for b in (0..nb).filter(|&b| divergent[b]) {
        let Some(join) = ipdom(b) else { continue };
        let mut region = HashSet::new();
        let mut stack: Vec<usize> = succ[b].clone();
        while let Some(x) = stack.pop() {
            if x == join || x >= nb || !region.insert(x) {
                continue;
            }
            stack.extend(succ[x].iter().copied());
        }
        // `ptxas` joins with the barrier's `WARPSYNC` (no `BSSY`) when the
        // sides hold a barrier or a warp-synchronous instruction and the
        // join's block a barrier.
        let sides_sync = region.iter().any(|&x| {
            (starts[x]..end_of(x)).any(|i| is_barrier(&code[i]) || is_warp_sync(&code[i]))
        });
        let join_has_barrier =
            sides_sync && join < nb && (starts[join]..end_of(join)).any(|i| is_barrier(&code[i]));
        splits.push(Split {
            at: b,
            join,
            region,
            join_has_barrier,
        });
    }
    // The flag, to a fixed point.
    let mut preds: Vec<Vec<usize>> = vec![vec![]; nb + 1];
    for (b, ss) in succ.iter().enumerate() {
        for &x in ss {
            preds[x].push(b);
        }
    }
    // The flag through a block; the barriers it reaches set, in `mark`.
    let run_block = |b: usize, mut f: bool, mark: &mut Vec<usize>| -> bool {
        for (i, c) in code.iter().enumerate().take(end_of(b)).skip(starts[b]) {
            if is_barrier(c) {
                if f {
                    mark.push(i);
                }
                f = false;
            }
        }
        f
    };
    let mut flag_in = vec![false; nb];
    let mut flag_out = vec![false; nb];
    let mut scratch = vec![];
    for _ in 0..4 * nb + 8 {
        let mut changed = false;
        for b in 0..nb {
            let mut f = b == 0 && roles;
            for &p in &preds[b] {
                let edge = if let Some(s) = splits
                    .iter()
                    .filter(|s| s.join == b && (s.region.contains(&p) || s.at == p))
                    .find(|s| {
                        !splits
                            .iter()
                            .any(|o| o.join == b && o.at != s.at && o.region.contains(&s.at))
                    }) {
                    s.join_has_barrier || flag_out[s.at]
                } else if divergent[p] {
                    true
                } else {
                    flag_out[p]
                };
                f |= edge;
            }
            let out = run_block(b, f, &mut scratch);
            scratch.clear();
            if f != flag_in[b] || out != flag_out[b] {
                flag_in[b] = f;
                flag_out[b] = out;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut marks = vec![];
    for (b, &f) in flag_in.iter().enumerate() {
        run_block(b, f, &mut marks);
    }
    for i in marks {
        Arc::make_mut(&mut code[i]).warpsync = true;
    }
}
