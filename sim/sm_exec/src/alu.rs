//! Per-lane arithmetic, logic, comparison and conversion instructions as
//! nvcc emits them (`docs/memory_model.md` §Executor): each PTX opcode is
//! compiled once, before the run, into an [`Alu`] (refusing, located, any
//! opcode or qualifier this executor does not model), then evaluated per
//! lane on 64-bit register values holding the operand type's bits.
//!
//! Integer results are truncated to the destination type; `.s` types
//! sign-extend where the operation needs the value (`shr.s32`, `min.s32`,
//! `cvt.s64.s32`, comparisons). Floating-point values are IEEE bits
//! (`f32` in the low 32 bits); rounding modifiers other than the default
//! round-to-nearest-even of Rust's arithmetic are honoured for conversions
//! to integers (`rzi`, `rni`, `rmi`, `rpi`, saturation by Rust's `as`).

/// Where shared memory sits in the generic address space: a shared
/// (`.shared::cluster`) address `a` is generic address `GENERIC_SHARED + a`.
pub const GENERIC_SHARED: u64 = 0x7000_0000_0000;
/// A `.shared::cluster` address: bits 24.. hold rank + 1 of the CTA it
/// names (0: the executing CTA, the `.shared::cta` window), bits 0..24 the
/// offset in that CTA's shared memory.
pub const CLUSTER_RANK_SHIFT: u32 = 24;

/// The `.shared::cluster` address of `addr`'s offset in the shared memory of rank `rank`.
pub fn map_rank(addr: u64, rank: u64) -> u64 {
    ((rank + 1) << CLUSTER_RANK_SHIFT) | (addr & ((1 << CLUSTER_RANK_SHIFT) - 1))
}

/// A PTX scalar type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    U(u32),
    S(u32),
    B(u32),
    F(u32),
    Pred,
}

impl Ty {
    pub fn parse(s: &str) -> Option<Ty> {
        let bits = |t: &str| {
            t.parse::<u32>()
                .ok()
                .filter(|b| matches!(b, 8 | 16 | 32 | 64))
        };
        Some(match s {
            "pred" => Ty::Pred,
            _ if s.starts_with('u') => Ty::U(bits(&s[1..])?),
            _ if s.starts_with('s') => Ty::S(bits(&s[1..])?),
            _ if s.starts_with('b') => Ty::B(bits(&s[1..])?),
            "f32" => Ty::F(32),
            "f64" => Ty::F(64),
            _ => return None,
        })
    }
    pub fn bits(self) -> u32 {
        match self {
            Ty::U(b) | Ty::S(b) | Ty::B(b) | Ty::F(b) => b,
            Ty::Pred => 1,
        }
    }
    pub fn mask(self) -> u64 {
        match self.bits() {
            64 => u64::MAX,
            b => (1u64 << b) - 1,
        }
    }
    pub fn signed(self) -> bool {
        matches!(self, Ty::S(_))
    }
    pub fn float(self) -> bool {
        matches!(self, Ty::F(_))
    }
    /// The value as a signed integer (sign-extended for `.s`, zero-extended otherwise).
    pub fn int(self, v: u64) -> i128 {
        let b = self.bits();
        let m = self.mask();
        if self.signed() && b < 64 {
            (((v & m) << (64 - b)) as i64 >> (64 - b)) as i128
        } else if self.signed() {
            v as i64 as i128
        } else {
            (v & m) as i128
        }
    }
    pub fn f(self, v: u64) -> f64 {
        if self.bits() == 32 {
            f32::from_bits(v as u32) as f64
        } else {
            f64::from_bits(v)
        }
    }
    pub fn from_f(self, x: f64) -> u64 {
        if self.bits() == 32 {
            (x as f32).to_bits() as u64
        } else {
            x.to_bits()
        }
    }
}

/// Binary and ternary operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Mov,
    Add,
    Sub,
    MulLo,
    MulHi,
    MulWide,
    MadLo,
    MadHi,
    MadWide,
    Div,
    Rem,
    Abs,
    Neg,
    Min,
    Max,
    And,
    Or,
    Xor,
    Not,
    Cnot,
    Shl,
    Shr,
    Popc,
    Clz,
    Brev,
    Bfe,
    Bfi,
    Prmt,
    Fma,
    Sqrt,
    Rcp,
    /// `selp d, a, b, p`.
    Selp,
    /// `cvt.dst.src` (`from` is the source type).
    Cvt {
        from: Ty,
        round: Round,
    },
    /// `cvta.global` / `cvta.to.global`: generic and global addresses are the same numbers.
    Cvta,
    /// `cvta.shared`: a shared (`::cta` or `::cluster`) address → generic
    /// ([`GENERIC_SHARED`] + address).
    CvtaFromShared,
    /// `cvta.to.shared`: generic → shared address.
    CvtaToShared,
    /// `mapa[.shared::cluster] d, a, rank`: the same offset in the shared
    /// memory of CTA `rank` of the cluster (generic or `.shared::cluster`).
    Mapa {
        generic: bool,
    },
    /// `setp.cmp[.bool].ty d, a, b[, c]`.
    Setp {
        cmp: Cmp,
        bool_op: Option<BoolOp>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Round {
    Nearest,
    Zero,
    Down,
    Up,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// Unordered variants (`equ`, `ltu`, ...): true when either is NaN.
    Unord(u8),
    Num,
    Nan,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

/// One compiled instruction: operation and operand type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Alu {
    pub op: Op,
    pub ty: Ty,
    /// Number of source operands read.
    pub srcs: usize,
}

/// Compile an opcode (`mul.wide.u32`), or say why it is not modelled.
pub fn compile(opcode: &str, n_operands: usize) -> Result<Alu, String> {
    let parts: Vec<&str> = opcode.split('.').collect();
    let head = parts[0];
    let quals = &parts[1..];
    let types: Vec<Ty> = quals.iter().filter_map(|q| Ty::parse(q)).collect();
    let has = |q: &str| quals.contains(&q);
    // The operation's type: the last type qualifier (`mul.wide.u32`), the
    // destination's for a conversion (`cvt.s64.s32`).
    let ty = if head == "cvt" {
        types.first()
    } else {
        types.last()
    };
    let ty = *ty.ok_or_else(|| format!("`{opcode}` has no type"))?;
    // Qualifiers with no effect on values here.
    const IGNORED: [&str; 5] = ["ftz", "approx", "full", "uni", "rn"];
    let unknown: Vec<&&str> = quals
        .iter()
        .filter(|q| Ty::parse(q).is_none() && !IGNORED.contains(q))
        .collect();
    let only = |allowed: &[&str]| -> Result<(), String> {
        match unknown.iter().find(|q| !allowed.contains(q)) {
            Some(q) => Err(format!(
                "`{opcode}`: qualifier `.{q}` is not modelled (allowed here: {})",
                if allowed.is_empty() {
                    "none".to_string()
                } else {
                    allowed
                        .iter()
                        .map(|a| format!(".{a}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            )),
            None => Ok(()),
        }
    };
    let (op, srcs) = match head {
        "mov" => {
            only(&[])?;
            (Op::Mov, 1)
        }
        "add" | "sub" => {
            only(&["rz", "rm", "rp"])?;
            (if head == "add" { Op::Add } else { Op::Sub }, 2)
        }
        "mul" => {
            only(&["lo", "hi", "wide", "rz", "rm", "rp"])?;
            let op = if has("hi") {
                Op::MulHi
            } else if has("wide") {
                Op::MulWide
            } else if ty.float() || has("lo") {
                Op::MulLo
            } else {
                return Err(format!(
                    "`{opcode}`: an integer mul needs .lo, .hi or .wide"
                ));
            };
            (op, 2)
        }
        "mad" | "fma" => {
            only(&["lo", "hi", "wide", "rz", "rm", "rp"])?;
            let op = if ty.float() {
                Op::Fma
            } else if has("hi") {
                Op::MadHi
            } else if has("wide") {
                Op::MadWide
            } else if has("lo") {
                Op::MadLo
            } else {
                return Err(format!(
                    "`{opcode}`: an integer mad needs .lo, .hi or .wide"
                ));
            };
            (op, 3)
        }
        "div" => {
            only(&["rz", "rm", "rp"])?;
            (Op::Div, 2)
        }
        "rem" => {
            only(&[])?;
            (Op::Rem, 2)
        }
        "abs" | "neg" | "not" | "cnot" | "popc" | "clz" | "brev" | "sqrt" | "rcp" => {
            only(&["rz", "rm", "rp"])?;
            let op = match head {
                "abs" => Op::Abs,
                "neg" => Op::Neg,
                "not" => Op::Not,
                "cnot" => Op::Cnot,
                "popc" => Op::Popc,
                "clz" => Op::Clz,
                "brev" => Op::Brev,
                "sqrt" => Op::Sqrt,
                _ => Op::Rcp,
            };
            (op, 1)
        }
        "min" | "max" => {
            only(&[])?;
            (if head == "min" { Op::Min } else { Op::Max }, 2)
        }
        "and" | "or" | "xor" => {
            only(&[])?;
            let op = match head {
                "and" => Op::And,
                "or" => Op::Or,
                _ => Op::Xor,
            };
            (op, 2)
        }
        "shl" | "shr" => {
            only(&[])?;
            (if head == "shl" { Op::Shl } else { Op::Shr }, 2)
        }
        "bfe" => {
            only(&[])?;
            (Op::Bfe, 3)
        }
        "bfi" => {
            only(&[])?;
            (Op::Bfi, 4)
        }
        "prmt" => {
            only(&[])?;
            if ty != Ty::B(32) {
                return Err(format!(
                    "`{opcode}`: only prmt.b32 (default mode) is modelled"
                ));
            }
            (Op::Prmt, 3)
        }
        "selp" => {
            only(&[])?;
            (Op::Selp, 3)
        }
        "cvta" => {
            only(&[
                "to",
                "global",
                "shared",
                "local",
                "const",
                "param",
                "shared::cta",
                "shared::cluster",
            ])?;
            if quals
                .iter()
                .any(|q| matches!(*q, "local" | "param" | "const"))
            {
                return Err(format!(
                    "`{opcode}`: `.local`/`.param`/`.const` addresses are not modelled"
                ));
            }
            let shared = quals.iter().any(|q| q.starts_with("shared"));
            let op = match (shared, has("to")) {
                (false, _) => Op::Cvta,
                (true, false) => Op::CvtaFromShared,
                (true, true) => Op::CvtaToShared,
            };
            (op, 1)
        }
        "mapa" => {
            only(&["shared::cluster"])?;
            (
                Op::Mapa {
                    generic: !has("shared::cluster"),
                },
                2,
            )
        }
        "cvt" => {
            let round = if has("rzi") || has("rz") {
                Round::Zero
            } else if has("rmi") || has("rm") {
                Round::Down
            } else if has("rpi") || has("rp") {
                Round::Up
            } else {
                Round::Nearest
            };
            only(&["rni", "rzi", "rmi", "rpi", "rz", "rm", "rp"])?;
            if types.len() != 2 {
                return Err(format!("`{opcode}`: expected cvt.DTYPE.STYPE"));
            }
            (
                Op::Cvt {
                    from: types[1],
                    round,
                },
                1,
            )
        }
        "setp" => {
            let cmp = match quals.first().copied().unwrap_or("") {
                "eq" => Cmp::Eq,
                "ne" => Cmp::Ne,
                "lt" | "lo" => Cmp::Lt,
                "le" | "ls" => Cmp::Le,
                "gt" | "hi" => Cmp::Gt,
                "ge" | "hs" => Cmp::Ge,
                "equ" => Cmp::Unord(0),
                "neu" => Cmp::Unord(1),
                "ltu" => Cmp::Unord(2),
                "leu" => Cmp::Unord(3),
                "gtu" => Cmp::Unord(4),
                "geu" => Cmp::Unord(5),
                "num" => Cmp::Num,
                "nan" => Cmp::Nan,
                c => return Err(format!("`{opcode}`: comparison `{c}` is not modelled")),
            };
            let bool_op = match quals.get(1).copied() {
                Some("and") => Some(BoolOp::And),
                Some("or") => Some(BoolOp::Or),
                Some("xor") => Some(BoolOp::Xor),
                _ => None,
            };
            (
                Op::Setp { cmp, bool_op },
                if bool_op.is_some() { 3 } else { 2 },
            )
        }
        _ => return Err(format!("`{opcode}` is not modelled by the executor")),
    };
    if n_operands != srcs + 1 {
        return Err(format!(
            "`{opcode}`: found {n_operands} operands, expected {} (d and {srcs} source(s))",
            srcs + 1
        ));
    }
    Ok(Alu { op, ty, srcs })
}

fn cmp_int(c: Cmp, a: i128, b: i128) -> bool {
    match c {
        Cmp::Eq => a == b,
        Cmp::Ne => a != b,
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
        _ => false,
    }
}

fn cmp_f(c: Cmp, a: f64, b: f64) -> bool {
    let nan = a.is_nan() || b.is_nan();
    match c {
        Cmp::Eq => a == b,
        Cmp::Ne => !nan && a != b,
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
        Cmp::Unord(k) => {
            nan || match k {
                0 => a == b,
                1 => a != b,
                2 => a < b,
                3 => a <= b,
                4 => a > b,
                _ => a >= b,
            }
        }
        Cmp::Num => !nan,
        Cmp::Nan => nan,
    }
}

fn round(x: f64, r: Round) -> f64 {
    match r {
        Round::Nearest => x.round_ties_even(),
        Round::Zero => x.trunc(),
        Round::Down => x.floor(),
        Round::Up => x.ceil(),
    }
}

/// Evaluate one lane: sources `s` (as many as [`Alu::srcs`]) → destination bits.
pub fn eval(a: &Alu, s: &[u64]) -> u64 {
    let t = a.ty;
    let m = t.mask();
    let x = s.first().copied().unwrap_or(0);
    let y = s.get(1).copied().unwrap_or(0);
    let z = s.get(2).copied().unwrap_or(0);
    let (xi, yi) = (t.int(x), t.int(y));
    let wide_ty = match t {
        Ty::S(b) => Ty::S(b * 2),
        Ty::U(b) => Ty::U(b * 2),
        o => o,
    };
    if t.float()
        && !matches!(
            a.op,
            Op::Mov
                | Op::Selp
                | Op::Cvt { .. }
                | Op::Setp { .. }
                | Op::Cvta
                | Op::CvtaFromShared
                | Op::CvtaToShared
                | Op::Mapa { .. }
        )
    {
        let (fx, fy, fz) = (t.f(x), t.f(y), t.f(z));
        let r = match a.op {
            Op::Add => fx + fy,
            Op::Sub => fx - fy,
            Op::MulLo => fx * fy,
            Op::Fma => fx.mul_add(fy, fz),
            Op::Div => fx / fy,
            Op::Abs => fx.abs(),
            Op::Neg => -fx,
            Op::Min => fx.min(fy),
            Op::Max => fx.max(fy),
            Op::Sqrt => fx.sqrt(),
            Op::Rcp => 1.0 / fx,
            _ => return (x ^ y) & m, // and/or/xor on float types are not PTX
        };
        return t.from_f(r);
    }
    match a.op {
        Op::Mov | Op::Cvta => x & m,
        Op::CvtaFromShared => GENERIC_SHARED.wrapping_add(x & 0xffff_ffff) & m,
        Op::CvtaToShared => x.wrapping_sub(GENERIC_SHARED) & m & 0xffff_ffff,
        Op::Mapa { generic: true } => {
            GENERIC_SHARED.wrapping_add(map_rank(x.wrapping_sub(GENERIC_SHARED), y & 0xffff)) & m
        }
        Op::Mapa { generic: false } => map_rank(x, y & 0xffff) & m,
        Op::Add => (x.wrapping_add(y)) & m,
        Op::Sub => (x.wrapping_sub(y)) & m,
        Op::MulLo => (xi.wrapping_mul(yi) as u64) & m,
        Op::MulHi => ((xi.wrapping_mul(yi) >> t.bits()) as u64) & m,
        Op::MulWide => (xi.wrapping_mul(yi) as u64) & wide_ty.mask(),
        Op::MadLo => ((xi.wrapping_mul(yi) as u64).wrapping_add(z)) & m,
        Op::MadHi => (((xi.wrapping_mul(yi) >> t.bits()) as u64).wrapping_add(z)) & m,
        Op::MadWide => ((xi.wrapping_mul(yi) as u64).wrapping_add(z)) & wide_ty.mask(),
        Op::Div => {
            if yi == 0 {
                m // PTX: division by zero gives an unspecified value; all ones here
            } else {
                (xi.wrapping_div(yi) as u64) & m
            }
        }
        Op::Rem => {
            if yi == 0 {
                x & m
            } else {
                (xi.wrapping_rem(yi) as u64) & m
            }
        }
        Op::Abs => (xi.unsigned_abs() as u64) & m,
        Op::Neg => (xi.wrapping_neg() as u64) & m,
        Op::Min => (xi.min(yi) as u64) & m,
        Op::Max => (xi.max(yi) as u64) & m,
        Op::And => x & y & m,
        Op::Or => (x | y) & m,
        Op::Xor => (x ^ y) & m,
        Op::Not => !x & m,
        Op::Cnot => ((x & m) == 0) as u64,
        Op::Shl => {
            let n = y as u32;
            if n >= t.bits() {
                0
            } else {
                (x << n) & m
            }
        }
        Op::Shr => {
            let n = (y as u32).min(t.bits());
            if t.signed() {
                let v = if n >= t.bits() {
                    xi >> (t.bits() - 1)
                } else {
                    xi >> n
                };
                (v as u64) & m
            } else if n >= t.bits() {
                0
            } else {
                ((x & m) >> n) & m
            }
        }
        Op::Popc => (x & m).count_ones() as u64,
        Op::Clz => ((x & m).leading_zeros() - (64 - t.bits())) as u64,
        Op::Brev => ((x & m).reverse_bits() >> (64 - t.bits())) & m,
        Op::Bfe => {
            let pos = (y & 0xff) as u32;
            let len = (z & 0xff) as u32;
            let b = t.bits();
            if len == 0 {
                return 0;
            }
            let field = if pos >= b { 0 } else { (x & m) >> pos };
            let fm = if len >= 64 {
                u64::MAX
            } else {
                (1u64 << len) - 1
            };
            let mut v = field & fm;
            if t.signed() {
                let sbit = if pos + len > b { b - 1 } else { pos + len - 1 };
                if (x >> sbit) & 1 == 1 && len < b {
                    v |= !fm;
                }
            }
            v & m
        }
        Op::Bfi => {
            // bfi d, a, b, pos, len: insert a's low len bits into b at pos.
            let w = s.get(3).copied().unwrap_or(0);
            let (pos, len) = ((z & 0xff) as u32, (w & 0xff) as u32);
            if len == 0 || pos >= t.bits() {
                return y & m;
            }
            let fm = if len >= 64 {
                u64::MAX
            } else {
                (1u64 << len) - 1
            };
            ((y & !(fm << pos)) | ((x & fm) << pos)) & m
        }
        Op::Prmt => {
            let bytes = (x & 0xffff_ffff) | ((y & 0xffff_ffff) << 32);
            let mut d = 0u64;
            for k in 0..4 {
                let sel = (z >> (4 * k)) & 0xf;
                let b = (bytes >> (8 * (sel & 7))) & 0xff;
                let b = if sel & 8 != 0 {
                    if b & 0x80 != 0 {
                        0xff
                    } else {
                        0
                    }
                } else {
                    b
                };
                d |= b << (8 * k);
            }
            d
        }
        Op::Fma | Op::Sqrt | Op::Rcp => 0, // float only (handled above)
        Op::Selp => {
            if z & 1 != 0 {
                x & m
            } else {
                y & m
            }
        }
        Op::Cvt { from, round: r } => {
            if from.float() && t.float() {
                t.from_f(from.f(x))
            } else if from.float() {
                let f = round(from.f(x), r);
                if f.is_nan() {
                    0
                } else if t.signed() {
                    let (lo, hi) = (-(1i128 << (t.bits() - 1)), (1i128 << (t.bits() - 1)) - 1);
                    ((f as i128).clamp(lo, hi) as u64) & m
                } else {
                    ((f.max(0.0) as u128).min(m as u128) as u64) & m
                }
            } else if t.float() {
                let v = from.int(x);
                t.from_f(v as f64)
            } else {
                (from.int(x) as u64) & m
            }
        }
        Op::Setp { cmp, bool_op } => {
            let r = if t.float() {
                cmp_f(cmp, t.f(x), t.f(y))
            } else {
                cmp_int(cmp, xi, yi)
            };
            let r = match bool_op {
                None => r,
                Some(BoolOp::And) => r && z & 1 != 0,
                Some(BoolOp::Or) => r || z & 1 != 0,
                Some(BoolOp::Xor) => r ^ (z & 1 != 0),
            };
            r as u64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(op: &str, s: &[u64]) -> u64 {
        let a = compile(op, s.len() + 1).unwrap();
        eval(&a, s)
    }

    #[test]
    fn integer_ops_follow_the_type() {
        assert_eq!(run("mul.wide.u32", &[0xffff_ffff, 2]), 0x1_ffff_fffe);
        assert_eq!(run("mul.wide.s32", &[0xffff_ffff, 2]), (-2i64) as u64);
        assert_eq!(run("mad.lo.s32", &[3, 4, 5]), 17);
        assert_eq!(run("shr.s32", &[0x8000_0000, 4]), 0xf800_0000);
        assert_eq!(run("shr.u32", &[0x8000_0000, 4]), 0x0800_0000);
        assert_eq!(run("max.s32", &[0xffff_ffff, 1]), 1);
        assert_eq!(run("max.u32", &[0xffff_ffff, 1]), 0xffff_ffff);
        assert_eq!(run("abs.s32", &[(-5i32) as u32 as u64]), 5);
        assert_eq!(run("sub.s16", &[0, 1]), 0xffff);
        assert_eq!(run("cvt.s64.s32", &[0xffff_fffb]), (-5i64) as u64);
        assert_eq!(run("cvt.u16.u32", &[0x12345]), 0x2345);
        assert_eq!(run("setp.lt.s32", &[0xffff_ffff, 0]), 1);
        assert_eq!(run("setp.lt.u32", &[0xffff_ffff, 0]), 0);
        assert_eq!(run("setp.ne.and.s32", &[1, 0, 0]), 0);
        assert_eq!(run("selp.b32", &[7, 9, 0]), 9);
        assert_eq!(
            run("prmt.b32", &[0x4433_2211, 0x8877_6655, 0x2104]),
            0x3322_1155
        );
        assert_eq!(run("bfe.u32", &[0xf0, 4, 4]), 0xf);
        assert_eq!(run("bfe.s32", &[0xf0, 4, 4]), 0xffff_ffff);
        assert_eq!(run("popc.b32", &[0xf0f0]), 8);
        assert_eq!(run("clz.b32", &[1]), 31);
    }

    #[test]
    fn floats_and_conversions() {
        let d = |x: f64| x.to_bits();
        assert_eq!(run("mul.f64", &[d(1.5), d(1000.0)]), d(1500.0));
        assert_eq!(run("div.rn.f64", &[d(1.0), d(4.0)]), d(0.25));
        assert_eq!(run("cvt.rn.f64.u64", &[7]), d(7.0));
        assert_eq!(run("cvt.rn.f32.f64", &[d(0.5)]), 0.5f32.to_bits() as u64);
        assert_eq!(
            run("cvt.rzi.s32.f32", &[(-2.7f32).to_bits() as u64]),
            (-2i32) as u32 as u64
        );
        assert_eq!(run("setp.gtu.f32", &[f32::NAN.to_bits() as u64, 0]), 1);
    }

    #[test]
    fn unmodelled_forms_are_refused() {
        assert!(compile("mul.u32", 3)
            .unwrap_err()
            .contains(".lo, .hi or .wide"));
        assert!(compile("add.cc.u32", 3)
            .unwrap_err()
            .contains("`.cc` is not modelled"));
        assert!(compile("add.u32", 2)
            .unwrap_err()
            .contains("found 2 operands"));
        assert!(compile("lop3.b32", 5).unwrap_err().contains("not modelled"));
    }
}
