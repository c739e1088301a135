//! Device-function calls, inlined: every `call` of a kernel is replaced,
//! before the run, by the callee's body — its registers and labels renamed
//! per call site (`%r1@3`), its parameters bound to the caller's call
//! arguments, its return parameters to the caller's, `ret` a branch to the
//! end of the inlined body. nvcc's call sequence
//!
//! ```text
//! { .param .b32 param0; st.param.b32 [param0+0], %r1;
//!   .param .b32 retval0; call.uni (retval0), f, (param0);
//!   ld.param.b32 %r2, [retval0+0]; }
//! ```
//!
//! becomes `mov`s between registers: the call sequence's `.param`
//! variables are registers of the caller. Each lane runs its own copy, so
//! divergent calls behave as calls do. Recursion, indirect calls (`call`
//! through a register or with a prototype), aggregate parameters (a
//! `.param` array, an offset other than 0) and calls of functions the
//! module does not define are errors naming the call.

use crate::error::{PtxError, Result};
use crate::parser::{classify, Decl, Entry, Inst, Module, Operand, Stmt};
use std::collections::HashMap;

/// Deepest chain of nested calls inlined.
pub const MAX_DEPTH: usize = 16;

/// The label an inlined body's `ret` branches to starts with this (the
/// end of the call, `$ret@k`): the executor's issue model charges that
/// branch as the call's return (`sm_exec::sm_timing::SmTiming::issue_return`).
pub const RETURN_LABEL: &str = "$ret@";

/// Whether `i` is an inlined body's `ret` (a `bra` to a [`RETURN_LABEL`]).
pub fn is_inlined_return(i: &Inst) -> bool {
    i.opcode.starts_with("bra")
        && matches!(i.operands.first(), Some(Operand::Reg(l)) if l.starts_with(RETURN_LABEL))
}

/// Inline every call of every kernel entry of `m`.
pub fn inline_calls(file: &str, m: &mut Module) -> Result<()> {
    let funcs: HashMap<String, Entry> = m
        .entries
        .iter()
        .filter(|e| e.func)
        .map(|e| (e.name.clone(), e.clone()))
        .collect();
    let mut next = 0usize;
    for e in m.entries.iter_mut().filter(|e| !e.func) {
        let body = std::mem::take(&mut e.body);
        e.body = expand(file, &funcs, body, &mut next, &mut Vec::new())?;
        param_moves(
            file,
            &mut e.body,
            &e.params.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
        )?;
    }
    Ok(())
}

fn expand(
    file: &str,
    funcs: &HashMap<String, Entry>,
    body: Vec<Stmt>,
    next: &mut usize,
    stack: &mut Vec<String>,
) -> Result<Vec<Stmt>> {
    let mut out = Vec::new();
    for st in body {
        let Stmt::Inst(i) = &st else {
            out.push(st);
            continue;
        };
        if i.form != "call" {
            out.push(st);
            continue;
        }
        let err = |msg: String| Err(PtxError::new(file, i.line, i.col, msg));
        let (rets, name, args) = match i.operands.as_slice() {
            [Operand::Vector(r), Operand::Reg(f), Operand::Vector(a)] => (r.clone(), f.clone(), a.clone()),
            [Operand::Reg(f), Operand::Vector(a)] => (Vec::new(), f.clone(), a.clone()),
            [Operand::Vector(r), Operand::Reg(f)] => (r.clone(), f.clone(), Vec::new()),
            [Operand::Reg(f)] => (Vec::new(), f.clone(), Vec::new()),
            _ => {
                return err(format!(
                    "`{}`: expected `call{{.uni}} {{(ret),}} f{{, (args)}}` naming a function of the module (indirect calls and prototypes are not modelled)",
                    i.text()
                ))
            }
        };
        if i.guard.is_some() {
            return err(format!(
                "`{}`: a guarded call is not modelled (branch around it)",
                i.text()
            ));
        }
        let Some(f) = funcs.get(&name) else {
            return err(format!(
                "`{}`: `{name}` is not a `.func` defined in this module",
                i.text()
            ));
        };
        if stack.contains(&name) || stack.len() >= MAX_DEPTH {
            return err(format!(
                "`{}`: recursion or calls nested deeper than {MAX_DEPTH} are not modelled (call chain: {} -> {name})",
                i.text(),
                stack.join(" -> ")
            ));
        }
        if args.len() > f.params.len() || rets.len() > f.rets.len() {
            return err(format!(
                "`{}`: {} argument(s) and {} return value(s), but `{name}` takes {} and returns {}",
                i.text(),
                args.len(),
                rets.len(),
                f.params.len(),
                f.rets.len()
            ));
        }
        if let Some(p) = f.params.iter().chain(&f.rets).find(|p| p.len.is_some()) {
            return err(format!(
                "`{}`: parameter `{}` of `{name}` is an aggregate (`.param .b8 {}[{}]`), which is not modelled",
                i.text(),
                p.name,
                p.name,
                p.len.unwrap_or(0)
            ));
        }
        *next += 1;
        let k = *next;
        // Names: callee registers and labels renamed; parameters bound.
        let mut rename: HashMap<String, String> = HashMap::new();
        for s in &f.body {
            match s {
                Stmt::Decl(d) if d.space == ".reg" || d.space == ".param" => {
                    for n in d.names() {
                        rename.insert(n.to_string(), format!("{n}@{k}"));
                    }
                }
                Stmt::Label { name, .. } => {
                    rename.insert(name.clone(), format!("{name}@{k}"));
                }
                _ => {}
            }
        }
        for (p, a) in f.params.iter().zip(&args) {
            rename.insert(p.name.clone(), a.clone());
        }
        for (p, r) in f.rets.iter().zip(&rets) {
            rename.insert(p.name.clone(), r.clone());
        }
        let end = format!("{RETURN_LABEL}{k}");
        let mut inlined = Vec::new();
        for s in &f.body {
            let mut s = s.clone();
            match &mut s {
                Stmt::Label { name, .. } => rn(&rename, name),
                Stmt::Decl(d) => {
                    for (n, _) in d.vars.iter_mut() {
                        rn(&rename, n)
                    }
                }
                Stmt::Inst(x) => {
                    if let Some(g) = &mut x.guard {
                        rn(&rename, &mut g.reg);
                    }
                    for o in x.operands.iter_mut() {
                        match o {
                            Operand::Reg(r) | Operand::NotPred(r) => rn(&rename, r),
                            Operand::Addr { base, .. } => rn(&rename, base),
                            Operand::Vector(v) => v.iter_mut().for_each(|r| rn(&rename, r)),
                            Operand::Pair(a, b) => {
                                rn(&rename, a);
                                rn(&rename, b)
                            }
                            _ => {}
                        }
                    }
                    if x.form == "ret" {
                        *x = made(
                            file,
                            x.line,
                            x.col,
                            x.guard.clone(),
                            "bra.uni",
                            vec![Operand::Reg(end.clone())],
                        )?;
                    }
                }
            }
            inlined.push(s);
        }
        inlined.push(Stmt::Label {
            name: end,
            line: i.line,
        });
        stack.push(name.clone());
        let inlined = expand(file, funcs, inlined, next, stack)?;
        stack.pop();
        out.extend(inlined);
    }
    Ok(out)
}

fn rn(map: &HashMap<String, String>, n: &mut String) {
    if let Some(v) = map.get(n.as_str()) {
        *n = v.clone();
    }
}

fn made(
    file: &str,
    line: usize,
    col: usize,
    guard: Option<crate::parser::Guard>,
    opcode: &str,
    operands: Vec<Operand>,
) -> Result<Inst> {
    let form = classify(file, line, col, opcode, &operands)?;
    Ok(Inst {
        line,
        col,
        guard,
        opcode: opcode.to_string(),
        form,
        operands,
        nounroll: false,
    })
}

/// The call sequences' `.param` variables become registers; `st.param` /
/// `ld.param` of them become `mov`s (a kernel's own parameters stay `ld.param`).
fn param_moves(file: &str, body: &mut [Stmt], kernel_params: &[String]) -> Result<()> {
    let mut params: HashMap<String, String> = HashMap::new();
    for s in body.iter_mut() {
        if let Stmt::Decl(d) = s {
            if d.space == ".param" {
                if let Some((n, Some(len))) = d.vars.first() {
                    return Err(PtxError::new(
                        file,
                        d.line,
                        d.col,
                        format!(
                            "`.param .{} {n}[{len}]`: an aggregate call argument is not modelled",
                            d.ty
                        ),
                    ));
                }
                *d = Decl {
                    space: ".reg".into(),
                    ..d.clone()
                };
                for n in d.names() {
                    params.insert(n.to_string(), d.ty.clone());
                }
            }
        }
    }
    for s in body.iter_mut() {
        let Stmt::Inst(i) = s else { continue };
        let is = |op: &str| i.opcode.starts_with(op) && i.opcode.split('.').any(|q| q == "param");
        let (st, ld) = (is("st."), is("ld."));
        if !st && !ld {
            continue;
        }
        let (addr_k, val_k) = if st { (0, 1) } else { (1, 0) };
        let Some(Operand::Addr { base, offset }) = i.operands.get(addr_k).cloned() else {
            continue;
        };
        if kernel_params.contains(&base) && ld {
            continue;
        }
        let Some(ty) = params.get(&base) else {
            if st {
                return Err(PtxError::new(
                    file,
                    i.line,
                    i.col,
                    format!(
                        "`{}`: `{base}` is not a call argument of this entry",
                        i.text()
                    ),
                ));
            }
            continue;
        };
        if offset != 0 {
            return Err(PtxError::new(
                file,
                i.line,
                i.col,
                format!(
                    "`{}`: an offset into a call argument (an aggregate) is not modelled",
                    i.text()
                ),
            ));
        }
        let val = i.operands[val_k].clone();
        let ops = if st {
            vec![Operand::Reg(base.clone()), val]
        } else {
            vec![val, Operand::Reg(base.clone())]
        };
        let t = i
            .opcode
            .rsplit('.')
            .next()
            .unwrap_or("b32")
            .trim_start_matches(['u', 's', 'b', 'f']);
        let opc = format!("mov.b{}", if ty.ends_with("pred") { "32" } else { t });
        *i = made(file, i.line, i.col, i.guard.clone(), &opc, ops)?;
    }
    Ok(())
}
