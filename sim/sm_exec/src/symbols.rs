//! Addresses of the program's named variables (`docs/memory_model.md`
//! §Addresses): every `.shared`, `.global` and `.const` symbol, declared at
//! module scope or in an entry, gets a distinct address in its space, aligned
//! to its `.align` (else its element size), sized by its type and array
//! length.
//!
//! - **Shared** (per CTA, each CTA has its own copy at the same offsets):
//!   from [`SHARED_BASE`]. The mbarrier objects come first — the symbols an
//!   `mbarrier.*` instruction or a bulk copy's `[mbar]` operand names — as
//!   one contiguous, 8-byte aligned array in the mbarrier unit's window
//!   (`spec/mbarrier_unit.md`: entry = (addr − base) >> 3, base =
//!   [`SHARED_BASE`], M entries of 8 bytes), then, after the whole window,
//!   the other shared symbols in declaration order. A symbol counts as an
//!   mbarrier object only when an instruction names it directly as its
//!   mbarrier operand (`[bar]`, `[bar+8]`); one reached only through a
//!   register is data, and using its address as an mbarrier is an error.
//!   An mbarrier object that does not fit the unit's entries is an error
//!   naming it; so is a CTA's shared memory beyond [`MAX_SHARED_BYTES`].
//! - **Global** and **const**: from [`GLOBAL_BASE`], in declaration order
//!   (away from the small numeric addresses programs write, e.g. 4096).
//!
//! The entries of a program file are the warps of one kernel: a name
//! declared in several entries (or at module scope and in an entry) is one
//! variable, and its declarations must agree (space, type, alignment,
//! length). `.local` variables have no address (each thread has its own:
//! not modelled); naming one is an error (`crate::exec`).

use ptx_front::parser::{Decl, Operand, Stmt};
use ptx_front::{Program, PtxError};
use std::collections::{HashMap, HashSet};

/// First shared-memory address of a CTA's variables (the mbarrier window's base).
pub const SHARED_BASE: u64 = 0;
/// First address of the `.global` / `.const` variables.
pub const GLOBAL_BASE: u64 = 0x1000_0000;
/// Shared memory a CTA may declare (H100: 227 KB per CTA).
pub const MAX_SHARED_BYTES: u64 = 227 * 1024;
/// Bytes of one mbarrier object (`.b64`).
pub const MBARRIER_BYTES: u64 = 8;

/// The state space of a named variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    Shared,
    Global,
    Const,
    Local,
}

impl Space {
    fn of(decl_space: &str) -> Option<Space> {
        Some(match decl_space {
            ".shared" => Space::Shared,
            ".global" => Space::Global,
            ".const" => Space::Const,
            ".local" => Space::Local,
            _ => return None,
        })
    }
    /// The PTX spelling (`.shared`).
    pub fn name(self) -> &'static str {
        match self {
            Space::Shared => ".shared",
            Space::Global => ".global",
            Space::Const => ".const",
            Space::Local => ".local",
        }
    }
}

/// One named variable and its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub space: Space,
    /// Its address in its space (`None` for `.local`: not modelled).
    pub addr: Option<u64>,
    /// Size in bytes (element size × array length).
    pub bytes: u64,
    pub align: u64,
    /// Named by an mbarrier operand (laid out in the mbarrier window).
    pub mbarrier: bool,
    /// An `.extern .shared` array sized at launch (`smem[]`): dynamic
    /// shared memory, placed after every static shared variable.
    pub dynamic: bool,
    /// Line of its first declaration.
    pub line: usize,
}

/// Every named variable of a program, by name.
#[derive(Debug, Clone, Default)]
pub struct Symbols {
    by_name: HashMap<String, Symbol>,
}

impl Symbols {
    /// The variable called `name`.
    pub fn get(&self, name: &str) -> Option<&Symbol> {
        self.by_name.get(name)
    }

    /// The address of `name` if it is a variable with an address.
    pub fn addr(&self, name: &str) -> Option<u64> {
        self.get(name).and_then(|s| s.addr)
    }

    /// The end of a CTA's declared shared variables (an `.extern` array
    /// sized at launch ends at its start: the dynamic part comes after it).
    pub fn shared_end(&self) -> u64 {
        self.by_name
            .values()
            .filter(|s| s.space == Space::Shared)
            .filter_map(|s| s.addr.map(|a| a + s.bytes))
            .max()
            .unwrap_or(SHARED_BASE)
    }

    /// The shared variable that contains shared address `addr`, and the offset in it.
    pub fn shared_at(&self, addr: u64) -> Option<(&Symbol, u64)> {
        self.by_name.values().find_map(|s| match s.addr {
            Some(a) if s.space == Space::Shared && (a..a + s.bytes).contains(&addr) => {
                Some((s, addr - a))
            }
            _ => None,
        })
    }
}

/// The mbarrier operand of an instruction (an `mbarrier.*` op's `[addr]`,
/// a bulk copy's `[mbar]`).
pub fn mbarrier_operand(form: &str, ops: &[Operand]) -> Option<usize> {
    if form.starts_with("mbarrier.") && form != "mbarrier.pending_count" {
        ops.iter().position(|o| matches!(o, Operand::Addr { .. }))
    } else if form.starts_with("cp.async.bulk.") && form.ends_with("mbarrier::complete_tx::bytes") {
        matches!(ops.get(3), Some(Operand::Addr { .. })).then_some(3)
    } else {
        None
    }
}

fn align_up(x: u64, a: u64) -> u64 {
    x.div_ceil(a) * a
}

/// Lay out every `.shared`, `.global` and `.const` variable of `prog`;
/// `mb_entries` is the mbarrier unit's entry count (its window is
/// `mb_entries` × 8 bytes from [`SHARED_BASE`]).
pub fn layout(prog: &Program, mb_entries: u32) -> Result<Symbols, PtxError> {
    let file = prog.file.as_str();
    let mut decls: Vec<&Decl> = prog.module.decls.iter().collect();
    for e in &prog.module.entries {
        decls.extend(e.body.iter().filter_map(|s| match s {
            // Registers and call-sequence parameters have no address.
            Stmt::Decl(d) if d.space != ".reg" && d.space != ".param" => Some(d),
            _ => None,
        }));
    }
    // Symbols an mbarrier operand names directly.
    let mut mb_names: HashSet<&str> = HashSet::new();
    for e in &prog.module.entries {
        for i in e.insts() {
            if let Some(k) = mbarrier_operand(&i.form, &i.operands) {
                if let Operand::Addr { base, .. } = &i.operands[k] {
                    mb_names.insert(base.as_str());
                }
            }
        }
    }
    let mut order: Vec<String> = Vec::new();
    let mut by_name: HashMap<String, Symbol> = HashMap::new();
    for d in decls {
        let space = Space::of(&d.space).expect("the parser declares only known spaces");
        for (name, len) in &d.vars {
            let sym = Symbol {
                name: name.clone(),
                space,
                addr: None,
                bytes: d.elem_bytes() * len.unwrap_or(1),
                align: d.alignment(),
                mbarrier: space == Space::Shared && mb_names.contains(name.as_str()),
                dynamic: space == Space::Shared && *len == Some(0),
                line: d.line,
            };
            if let Some(prev) = by_name.get(name) {
                let same =
                    prev.space == sym.space && prev.bytes == sym.bytes && prev.align == sym.align;
                if same {
                    continue;
                }
                return Err(PtxError::new(
                    file,
                    d.line,
                    d.col,
                    format!(
                        "found `{name}` declared again as {} of {} bytes (align {}), expected the same declaration as at line {} ({} of {} bytes, align {}): the entries of a file are the warps of one kernel, so one name is one variable",
                        sym.space.name(), sym.bytes, sym.align, prev.line, prev.space.name(), prev.bytes, prev.align
                    ),
                ));
            }
            if sym.mbarrier && d.elem_bytes() != MBARRIER_BYTES {
                return Err(PtxError::new(
                    file,
                    d.line,
                    d.col,
                    format!(
                        "found mbarrier object `{name}` declared `.{}`, expected a 64-bit type such as `.b64` (an mbarrier is an 8-byte object)",
                        d.ty
                    ),
                ));
            }
            order.push(name.clone());
            by_name.insert(name.clone(), sym);
        }
    }
    // Shared: the mbarrier window first, then the rest; global/const.
    let window_end = SHARED_BASE + MBARRIER_BYTES * mb_entries as u64;
    let (mut shared, mut global) = (SHARED_BASE, GLOBAL_BASE);
    for pass_mb in [true, false] {
        if !pass_mb {
            // (Dynamic shared memory comes after all of them, below.)
            // The data variables after the whole window: an address in the
            // window is an mbarrier object's or nothing.
            shared = shared.max(window_end);
        }
        for name in &order {
            let s = by_name.get_mut(name).expect("ordered names are declared");
            match s.space {
                Space::Shared if s.mbarrier == pass_mb && !s.dynamic => {
                    let a = align_up(shared, s.align.max(if s.mbarrier { 8 } else { 1 }));
                    shared = a + s.bytes;
                    s.addr = Some(a);
                    if s.mbarrier && shared > window_end {
                        return Err(PtxError::new(
                            file,
                            s.line,
                            1,
                            format!(
                                "mbarrier object `{name}` would be at shared address {a:#x}..{shared:#x}, outside the mbarrier unit's window [{SHARED_BASE:#x}, {window_end:#x}): the unit holds {mb_entries} barriers of 8 bytes per CTA (entry = (addr - base) >> 3, spec/mbarrier_unit.md), expected at most {mb_entries} mbarrier objects"
                            ),
                        ));
                    }
                    if shared - SHARED_BASE > MAX_SHARED_BYTES {
                        return Err(PtxError::new(
                            file,
                            s.line,
                            1,
                            format!(
                                "`.shared` variable `{name}` ends at byte {} of the CTA's shared memory, expected at most {MAX_SHARED_BYTES} bytes (227 KB, H100)",
                                shared - SHARED_BASE
                            ),
                        ));
                    }
                }
                Space::Global | Space::Const if !pass_mb => {
                    let a = align_up(global, s.align);
                    global = a + s.bytes;
                    s.addr = Some(a);
                }
                _ => {}
            }
        }
    }
    // Dynamic shared memory (every `.extern .shared` array names it) starts
    // after the static variables, as on the GPU.
    let dyn_align = order
        .iter()
        .filter_map(|n| by_name.get(n).filter(|s| s.dynamic).map(|s| s.align))
        .max()
        .unwrap_or(1)
        .max(16);
    let dyn_base = align_up(shared, dyn_align);
    for s in by_name.values_mut().filter(|s| s.dynamic) {
        s.addr = Some(dyn_base);
    }
    Ok(Symbols { by_name })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prog(body: &str) -> Result<Program, PtxError> {
        ptx_front::parse(
            "s.ptx",
            &format!("---\nwarps:\n  - {{cta: 0, warp: 0, program: a}}\n---\n{body}"),
        )
    }

    #[test]
    fn every_symbol_has_a_distinct_aligned_address_mbarriers_first() {
        let p = prog(".global .b32 g0;\n.global .align 16 .b8 g1[3];\n.entry a {\n .shared .b32 x, y;\n .shared .b8 t[5];\n .shared .b64 m0;\n .shared .align 16 .b64 w;\n .shared .b64 m1;\n mbarrier.init.shared.b64 [m1], 1;\n mbarrier.init.shared.b64 [m0+0], 1;\n}\n").unwrap();
        let s = layout(&p, 16).unwrap();
        let a = |n: &str| s.addr(n).unwrap();
        // mbarriers in declaration order from the window base, 8 bytes each.
        assert_eq!((a("m0"), a("m1")), (SHARED_BASE, SHARED_BASE + 8));
        // The data after the whole window (16 entries of 8 bytes).
        assert_eq!(a("x"), SHARED_BASE + 128);
        assert_eq!(a("y"), SHARED_BASE + 132);
        assert_eq!(a("t"), SHARED_BASE + 136);
        assert_eq!(a("w"), SHARED_BASE + 144);
        assert_eq!((a("g0"), a("g1")), (GLOBAL_BASE, GLOBAL_BASE + 16));
        assert_eq!(s.shared_at(SHARED_BASE + 138).unwrap().0.name, "t");
    }

    #[test]
    fn mbarriers_beyond_the_window_and_conflicting_declarations_are_errors() {
        let mut body = String::from(".entry a {\n");
        for k in 0..17 {
            body += &format!(" .shared .b64 bar{k};\n mbarrier.init.shared.b64 [bar{k}], 1;\n");
        }
        body += "}\n";
        let e = layout(&prog(&body).unwrap(), 16).unwrap_err();
        assert!(
            e.msg.contains("`bar16`") && e.msg.contains("window") && e.line == 38,
            "{e}"
        );
        let p = prog(".entry a {\n .shared .b32 x;\n}\n.entry b {\n .shared .b64 x;\n}\n").unwrap();
        let e = layout(&p, 16).unwrap_err();
        assert!(e.msg.contains("`x` declared again") && e.line == 9, "{e}");
        let p = prog(".entry a {\n .shared .b32 m;\n mbarrier.inval.shared.b64 [m];\n}\n").unwrap();
        let e = layout(&p, 16).unwrap_err();
        assert!(e.msg.contains("mbarrier object `m`"), "{e}");
        let p = prog(".entry a {\n .shared .b8 big[300000];\n}\n").unwrap();
        assert!(layout(&p, 16).unwrap_err().msg.contains("227 KB"));
    }
}
