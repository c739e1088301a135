//! Warp-level instructions of a kernel (`shfl.sync`, `vote.sync`,
//! `redux.sync`, `match.sync`, `elect.sync`, `activemask`, `bar.warp.sync`)
//! as PTX defines them over the lanes executing the instruction, and the
//! compile step that decides, before the run, how each local instruction of
//! a kernel executes (`crate::alu` or here) — refusing, located, whatever
//! this executor does not model.
//!
//! A `.sync` instruction's member mask must name exactly lanes that execute
//! it (PTX leaves anything else undefined): a member lane that exists but
//! does not execute the instruction is an error naming both masks.

use crate::alu::{self, Alu};
use crate::exec::LANES;
use ptx_front::lower::Lowered;
use ptx_front::parser::{Inst, Operand};

/// How a local instruction of a kernel executes: `Some(alu)` per lane,
/// `None` here ([`execute`]) or by the executor (`bra`); an error for what
/// is not modelled.
pub fn compile(inst: Inst, ops: &[Lowered]) -> Result<Option<Alu>, String> {
    if ops != [Lowered::Local] {
        return Ok(None);
    }
    let head = inst.opcode.split('.').next().unwrap_or("");
    if ptx_front::parser::ALU.contains(&head) || matches!(head, "mov" | "add" | "setp" | "mapa") {
        if inst.operands.iter().any(|o| matches!(o, Operand::Pair(..))) {
            return Err(format!(
                "`{}`: a `d|p` destination pair is not modelled for `{head}`",
                inst.text()
            ));
        }
        return alu::compile(&inst.opcode, inst.operands.len()).map(Some);
    }
    match inst.form.as_str() {
        "bra" | "shfl" | "vote" | "redux" | "match" | "activemask" | "elect" | "bar.warp.sync"
        | "nanosleep" | "prefetch" | "trap" => {
            check_form(&inst)?;
            Ok(None)
        }
        _ => Err(format!(
            "`{}` is not modelled by the kernel executor (supported local instructions: the arithmetic, logic and conversion opcodes, mapa, bra, shfl.sync, vote.sync, redux.sync, match.sync, elect.sync, activemask, bar.warp.sync, nanosleep, prefetch, trap)",
            inst.text()
        )),
    }
}

fn quals(inst: &Inst) -> Vec<&str> {
    inst.opcode.split('.').skip(1).collect()
}

/// Check a warp-level instruction's qualifiers and operand count.
fn check_form(inst: &Inst) -> Result<(), String> {
    let q = quals(inst);
    let n = inst.operands.len();
    let bad = |what: &str| Err(format!("`{}`: expected {what}", inst.text()));
    match inst.form.as_str() {
        "shfl" => {
            let mode_ok = q.len() == 3
                && q[0] == "sync"
                && matches!(q[1], "up" | "down" | "bfly" | "idx")
                && q[2] == "b32";
            if !mode_ok || n != 5 {
                return bad("`shfl.sync.{up,down,bfly,idx}.b32 d[|p], a, b, c, membermask`");
            }
        }
        "vote" => {
            let ok = q.len() == 3
                && q[0] == "sync"
                && ((matches!(q[1], "all" | "any" | "uni") && q[2] == "pred")
                    || (q[1] == "ballot" && q[2] == "b32"));
            if !ok || n != 3 {
                return bad("`vote.sync.{all,any,uni}.pred d, {!}a, membermask` or `vote.sync.ballot.b32 d, {!}a, membermask`");
            }
        }
        "redux" => {
            let ok = q.len() == 3
                && q[0] == "sync"
                && matches!(q[1], "add" | "min" | "max" | "and" | "or" | "xor")
                && matches!(q[2], "u32" | "s32" | "b32");
            if !ok || n != 3 {
                return bad("`redux.sync.{add,min,max,and,or,xor}.{u32,s32,b32} d, a, membermask`");
            }
        }
        "match" => {
            let ok = q.len() == 3
                && matches!(q[0], "any" | "all")
                && q[1] == "sync"
                && matches!(q[2], "b32" | "b64");
            if !ok || n != 3 {
                return bad("`match.{any,all}.sync.{b32,b64} d[|p], a, membermask`");
            }
        }
        "activemask" if q != ["b32"] || n != 1 => {
            return bad("`activemask.b32 d`");
        }
        "elect" if q != ["sync"] || n != 2 => {
            return bad("`elect.sync d|p, membermask`");
        }
        _ => {}
    }
    Ok(())
}

/// The destination names of operand 0: `d`, or `d|p`.
fn dests(inst: &Inst) -> (Option<String>, Option<String>) {
    let keep = |r: &String| (r != "_").then(|| r.clone());
    match inst.operands.first() {
        Some(Operand::Reg(d)) => (keep(d), None),
        Some(Operand::Pair(d, p)) => (keep(d), keep(p)),
        _ => (None, None),
    }
}

/// Execute a warp-level instruction over lanes `exec` (`live`: the warp's
/// threads that have not exited); `vals(k)` gives operand k's value in each lane. Returns the
/// register writes (lane, register, value).
pub fn execute(
    inst: &Inst,
    exec: u32,
    live: u32,
    vals: &dyn Fn(usize) -> [u64; LANES],
) -> Result<Vec<(usize, String, u64)>, String> {
    let q = quals(inst);
    let lanes = || (0..LANES).filter(move |l| exec & (1 << l) != 0);
    let member = |k: usize| -> Result<u32, String> {
        let m = vals(k);
        let first = lanes().next().unwrap_or(0);
        let mask = m[first] as u32;
        if lanes().any(|l| m[l] as u32 != mask) {
            return Err(format!(
                "`{}`: the member mask differs between lanes",
                inst.text()
            ));
        }
        if mask & live & !exec != 0 {
            return Err(format!(
                "`{}`: member mask {mask:#010x} names lanes that do not execute the instruction (executing: {exec:#010x}): they are at another instruction or its guard is false there; PTX leaves this undefined",
                inst.text()
            ));
        }
        if exec & !mask != 0 {
            return Err(format!(
                "`{}`: lanes {:#010x} execute the instruction but are not in its member mask {mask:#010x}",
                inst.text(),
                exec & !mask
            ));
        }
        Ok(mask & exec)
    };
    let (d, p) = dests(inst);
    let mut out = Vec::new();
    let mut put = |l: usize, r: &Option<String>, v: u64| {
        if let Some(r) = r {
            out.push((l, r.clone(), v));
        }
    };
    match inst.form.as_str() {
        "shfl" => {
            member(4)?;
            let (a, b, c) = (vals(1), vals(2), vals(3));
            for l in lanes() {
                let (bv, cv) = ((b[l] & 0x1f) as i32, c[l]);
                let seg = ((cv >> 8) & 0x1f) as i32;
                let clamp = (cv & 0x1f) as i32;
                let lane = l as i32;
                let max_lane = (lane & seg) | (clamp & !seg);
                let min_lane = lane & seg;
                let (j, pval) = match q[1] {
                    "up" => (lane - bv, lane - bv >= max_lane),
                    "down" => (lane + bv, lane + bv <= max_lane),
                    "bfly" => (lane ^ bv, (lane ^ bv) <= max_lane),
                    _ => {
                        let j = min_lane | (bv & !seg);
                        (j, j <= max_lane)
                    }
                };
                let j = if pval { j } else { lane };
                if !(0..32).contains(&j) || exec & (1 << j) == 0 {
                    return Err(format!(
                        "`{}`: lane {l} reads lane {j}, which does not execute the instruction (undefined in PTX)",
                        inst.text()
                    ));
                }
                put(l, &d, a[j as usize] & 0xffff_ffff);
                put(l, &p, pval as u64);
            }
        }
        "vote" => {
            let m = member(2)?;
            let a = vals(1);
            let ballot: u32 = lanes()
                .filter(|&l| a[l] & 1 != 0)
                .fold(0, |x, l| x | 1 << l);
            let v = match q[1] {
                "all" => (ballot & m == m) as u64,
                "any" => (ballot & m != 0) as u64,
                "uni" => (ballot & m == m || ballot & m == 0) as u64,
                _ => ballot as u64,
            };
            for l in lanes() {
                put(l, &d, v);
            }
        }
        "redux" => {
            member(2)?;
            let a = vals(1);
            let xs: Vec<u64> = lanes().map(|l| a[l] & 0xffff_ffff).collect();
            let s = |x: u64| x as u32 as i32 as i64;
            let v = match (q[1], q[2]) {
                ("add", _) => xs.iter().fold(0u64, |t, x| t.wrapping_add(*x)) & 0xffff_ffff,
                ("min", "s32") => xs.iter().map(|&x| s(x)).min().unwrap_or(0) as u64 & 0xffff_ffff,
                ("max", "s32") => xs.iter().map(|&x| s(x)).max().unwrap_or(0) as u64 & 0xffff_ffff,
                ("min", _) => xs.iter().copied().min().unwrap_or(0),
                ("max", _) => xs.iter().copied().max().unwrap_or(0),
                ("and", _) => xs.iter().fold(0xffff_ffff, |t, x| t & x),
                ("or", _) => xs.iter().fold(0, |t, x| t | x),
                _ => xs.iter().fold(0, |t, x| t ^ x),
            };
            for l in lanes() {
                put(l, &d, v);
            }
        }
        "match" => {
            let m = member(2)?;
            let a = vals(1);
            let wmask = if q[2] == "b32" { 0xffff_ffff } else { u64::MAX };
            let all_eq = lanes().all(|l| a[l] & wmask == a[lanes().next().unwrap_or(0)] & wmask);
            for l in lanes() {
                let v = if q[0] == "any" {
                    lanes()
                        .filter(|&k| a[k] & wmask == a[l] & wmask)
                        .fold(0u64, |x, k| x | 1 << k)
                } else if all_eq {
                    m as u64
                } else {
                    0
                };
                put(l, &d, v);
                put(l, &p, all_eq as u64);
            }
        }
        "activemask" => {
            for l in lanes() {
                put(l, &d, exec as u64);
            }
        }
        "elect" => {
            let m = member(1)?;
            let leader = m.trailing_zeros() as u64;
            for l in lanes() {
                put(l, &d, leader);
                put(l, &p, (l as u64 == leader) as u64);
            }
        }
        "bar.warp.sync" => {
            member(0)?;
        }
        // No effect on values.
        "nanosleep" | "prefetch" => {}
        "trap" => {
            return Err(format!(
                "`{}` executed: the kernel aborted (lanes {exec:#010x})",
                inst.text()
            ))
        }
        f => return Err(format!("`{}`: form `{f}` is not modelled", inst.text())),
    }
    Ok(out)
}
