//! The PTX body: entries (`.entry name { ... }`), declarations, labels and
//! instructions of the synchronisation subset, parsed into an AST whose
//! instructions carry a canonical *form* (the key of the lowering table).

use crate::error::{PtxError, Result};
use crate::lexer::{lex, Tok, Token};
use std::collections::HashSet;

/// The instruction families of the subset (for the "outside the subset" error).
pub const SUPPORTED: &str = "ld, st, atom, red, membar, fence, bar, barrier, barrier.cluster, \
mbarrier, cp.async.bulk, cp.async.bulk.commit_group, cp.async.bulk.wait_group, setp, mov, add, bra, ret, exit, \
the arithmetic, logic and conversion opcodes (sub, mul, mad, ..., cvt, cvta, selp), \
the warp-level opcodes (shfl, vote, redux, match, activemask, elect) and call, trap, nanosleep, mapa";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operand {
    Reg(String),
    Imm(i64),
    /// `[base]` or `[base+off]`; base is a register, a symbol or a number.
    Addr {
        base: String,
        offset: i64,
    },
    /// The sink `_`.
    Sink,
    /// `!p` (the negated predicate source of `bar.red`, `selp`, `vote`).
    NotPred(String),
    /// A vector operand `{%r1, %r2, %r3, %r4}` (`ld.v4`, `st.v4`); `_` for an element not written.
    Vector(Vec<String>),
    /// A hexadecimal floating-point literal (`0f3F800000`): as written, and its bits.
    Float {
        text: String,
        bits: u64,
    },
    /// `d|p`: a destination and a predicate destination (`shfl.sync`, `setp`).
    Pair(String, String),
}

impl Operand {
    pub fn text(&self) -> String {
        match self {
            Operand::Reg(r) => r.clone(),
            Operand::Imm(i) => i.to_string(),
            Operand::Addr { base, offset: 0 } => format!("[{base}]"),
            Operand::Addr { base, offset } => format!("[{base}{offset:+}]"),
            Operand::Sink => "_".into(),
            Operand::NotPred(p) => format!("!{p}"),
            Operand::Vector(v) => format!("{{{}}}", v.join(", ")),
            Operand::Float { text, .. } => text.clone(),
            Operand::Pair(a, b) => format!("{a}|{b}"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guard {
    pub negated: bool,
    pub reg: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inst {
    pub line: usize,
    pub col: usize,
    pub guard: Option<Guard>,
    /// The opcode as written.
    pub opcode: String,
    /// The canonical form (defaults filled in, synonyms merged): the lowering table's key.
    pub form: String,
    pub operands: Vec<Operand>,
    /// The first instruction after `.pragma "nounroll";` (the head of a
    /// loop nvcc asks `ptxas` not to unroll).
    pub nounroll: bool,
}

impl Inst {
    /// The instruction as written (guard, opcode, operands).
    pub fn text(&self) -> String {
        let g = match &self.guard {
            Some(g) => format!("@{}{} ", if g.negated { "!" } else { "" }, g.reg),
            None => String::new(),
        };
        let ops: Vec<String> = self.operands.iter().map(|o| o.text()).collect();
        if ops.is_empty() {
            format!("{g}{};", self.opcode)
        } else {
            format!("{g}{} {};", self.opcode, ops.join(", "))
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stmt {
    Label {
        name: String,
        line: usize,
    },
    /// `.reg .b32 %r<4>;` → names %r0..%r3; `.shared .align 8 .b64 bar;` → bar.
    Decl(Decl),
    Inst(Inst),
}

/// A declaration, in an entry or at module scope: `.reg .b32 %r<4>;`
/// declares `%r0..%r3`; `.shared .align 8 .b64 bar;` declares `bar`;
/// `.shared .b8 tile[4096];` declares `tile`, 4096 elements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decl {
    /// The state space: `.reg`, `.shared` (also written `.shared::cta`),
    /// `.global`, `.local` or `.const`.
    pub space: String,
    /// The element type without its dot (`b64`, `u32`, `pred`).
    pub ty: String,
    /// `.align N` if written (a power of two).
    pub align: Option<u64>,
    /// The names declared, each with its array length (`None`: a scalar;
    /// `Some(0)`: `[]`, an `.extern` array sized at launch).
    pub vars: Vec<(String, Option<u64>)>,
    /// `.extern` (dynamic shared memory: `.extern .shared .b8 smem[];`).
    pub external: bool,
    /// The initialiser's values (`= {1, 2}` or `= 7`), elements in order; empty if none.
    pub init: Vec<i64>,
    pub line: usize,
    pub col: usize,
}

impl Decl {
    /// The names declared, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.vars.iter().map(|(n, _)| n.as_str())
    }
    /// Bytes of one element (`.pred`: 1).
    pub fn elem_bytes(&self) -> u64 {
        let digits: String = self.ty.chars().filter(|c| c.is_ascii_digit()).collect();
        digits.parse::<u64>().map(|b| b / 8).unwrap_or(1).max(1)
    }
    /// The alignment: `.align N`, else the element's size.
    pub fn alignment(&self) -> u64 {
        self.align.unwrap_or_else(|| self.elem_bytes())
    }
}

/// A kernel parameter (`.param .u64 name`) or a device function's parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    pub name: String,
    /// The element type without its dot (`u64`, `b8`).
    pub ty: String,
    pub align: Option<u64>,
    /// Array length (`.param .align 8 .b8 p[16]`), `None` for a scalar.
    pub len: Option<u64>,
    pub line: usize,
}

impl Param {
    /// Bytes the parameter occupies.
    pub fn bytes(&self) -> u64 {
        let digits: String = self.ty.chars().filter(|c| c.is_ascii_digit()).collect();
        let e = digits.parse::<u64>().map(|b| b / 8).unwrap_or(1).max(1);
        e * self.len.unwrap_or(1).max(1)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub line: usize,
    pub body: Vec<Stmt>,
    /// `.func` (a device function) rather than `.entry` (a kernel).
    pub func: bool,
    /// Parameters in order (a kernel's `.param`s; a function's inputs).
    pub params: Vec<Param>,
    /// A function's return parameters (`.func (.param .b32 r) f(...)`).
    pub rets: Vec<Param>,
    /// Performance directives written after the parameters
    /// (`.maxntid 256, 1, 1` → ("maxntid", [256, 1, 1])).
    pub directives: Vec<(String, Vec<i64>)>,
}

impl Entry {
    /// The registers the entry declares (`.reg`, nested scopes included).
    pub fn registers(&self) -> impl Iterator<Item = &str> {
        self.body
            .iter()
            .filter_map(|s| match s {
                Stmt::Decl(d) if d.space == ".reg" => Some(d.names()),
                _ => None,
            })
            .flatten()
    }

    pub fn insts(&self) -> impl Iterator<Item = &Inst> {
        self.body.iter().filter_map(|s| match s {
            Stmt::Inst(i) => Some(i),
            _ => None,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    pub entries: Vec<Entry>,
    /// Module-scope `.shared` / `.global` / `.const` declarations.
    pub decls: Vec<Decl>,
}

struct P<'a> {
    file: &'a str,
    toks: Vec<Token>,
    pos: usize,
    end_line: usize,
    /// A `.pragma "nounroll";` seen, for the next instruction.
    nounroll: bool,
}

fn found(t: Option<&Token>) -> String {
    match t {
        Some(t) => t.tok.describe(),
        None => "the end of the file".into(),
    }
}

impl<'a> P<'a> {
    fn peek(&self) -> Option<&Token> {
        self.toks.get(self.pos)
    }
    fn here(&self) -> (usize, usize) {
        match self.peek() {
            Some(t) => (t.line, t.col),
            None => match self.toks.last() {
                Some(t) => (t.line, t.col),
                None => (self.end_line, 1),
            },
        }
    }
    fn err<T>(&self, expected: &str) -> Result<T> {
        let (l, c) = self.here();
        Err(PtxError::new(
            self.file,
            l,
            c,
            format!("found {}, expected {expected}", found(self.peek())),
        ))
    }
    fn next(&mut self) -> Option<Token> {
        let t = self.toks.get(self.pos).cloned();
        if t.is_some() {
            self.pos += 1;
        }
        t
    }
    fn is_punct(&self, c: char) -> bool {
        matches!(self.peek(), Some(Token { tok: Tok::Punct(d), .. }) if *d == c)
    }
    fn punct(&mut self, c: char) -> Result<()> {
        if self.is_punct(c) {
            self.pos += 1;
            Ok(())
        } else {
            self.err(&format!("`{c}`"))
        }
    }
    fn string(&mut self, expected: &str) -> Result<String> {
        match self.peek() {
            Some(Token {
                tok: Tok::Str(t), ..
            }) => {
                let t = t.clone();
                self.pos += 1;
                Ok(t)
            }
            _ => self.err(expected),
        }
    }
    /// Skip the rest of source line `line` (`.file`, `.loc`: debug information).
    fn skip_line(&mut self, line: usize) {
        while self.peek().is_some_and(|t| t.line == line) {
            self.pos += 1;
        }
    }
    /// Skip a `.section NAME { ... }` (DWARF debug sections).
    fn skip_section(&mut self) -> Result<()> {
        self.word("a section name after `.section`")?;
        self.punct('{')?;
        let mut depth = 1;
        while depth > 0 {
            match self.next().map(|t| t.tok) {
                Some(Tok::Punct('{')) => depth += 1,
                Some(Tok::Punct('}')) => depth -= 1,
                Some(_) => {}
                None => return self.err("`}` closing the `.section`"),
            }
        }
        Ok(())
    }
    fn word(&mut self, expected: &str) -> Result<(String, usize, usize)> {
        match self.peek() {
            Some(Token {
                tok: Tok::Word(w),
                line,
                col,
            }) => {
                let r = (w.clone(), *line, *col);
                self.pos += 1;
                Ok(r)
            }
            _ => self.err(expected),
        }
    }
}

/// Parse a PTX body; `first_line` is the file line where `src` starts.
pub fn parse_module(file: &str, src: &str, first_line: usize) -> Result<Module> {
    let toks = lex(file, src, first_line)?;
    let end_line = first_line + src.lines().count().max(1) - 1;
    let mut p = P {
        file,
        toks,
        pos: 0,
        end_line,
        nounroll: false,
    };
    let mut entries: Vec<Entry> = Vec::new();
    let mut decls: Vec<Decl> = Vec::new();
    while p.peek().is_some() {
        let (mut w, mut line, mut col) = p.word(
            "`.version`, `.target`, `.address_size`, `.visible`, `.entry`, `.func` or a `.shared`/`.global`/`.const` declaration",
        )?;
        // Linkage: `.visible`, `.extern`, `.weak`, `.common` before an entry,
        // a function or a variable.
        let mut external = false;
        while matches!(w.as_str(), ".visible" | ".extern" | ".weak" | ".common") {
            external |= w == ".extern";
            let (x, l, c) =
                p.word("`.entry`, `.func` or a variable declaration after the linkage")?;
            (w, line, col) = (x, l, c);
        }
        match w.as_str() {
            ".shared" | ".shared::cta" | ".global" | ".const" => {
                if let Stmt::Decl(mut d) = parse_decl(&mut p, w, line, col)? {
                    d.external = external;
                    decls.push(d);
                }
            }
            ".version" | ".address_size" => match p.next() {
                Some(Token {
                    tok: Tok::Int(_) | Tok::Num(_),
                    ..
                }) => {}
                _ => {
                    p.pos = p.pos.saturating_sub(1);
                    return p.err(&format!("a number after `{w}`"));
                }
            },
            ".target" => {
                p.word("a target such as `sm_90`")?;
                while p.is_punct(',') {
                    p.pos += 1;
                    p.word("a target option")?;
                }
            }
            // Debug information: `.file 1 "k.cu"` (with optional sizes), skipped.
            ".file" => p.skip_line(line),
            ".section" => p.skip_section()?,
            ".entry" | ".func" => {
                if let Some(e) = parse_entry(&mut p, line, w == ".func")? {
                    entries.push(e);
                }
            }
            _ => {
                return Err(PtxError::new(
                    file,
                    line,
                    col,
                    format!(
                        "found `{w}`, expected `.version`, `.target`, `.address_size`, `.file`, a `.shared`/`.global`/`.const` declaration, `.entry NAME {{ ... }}` or `.func NAME {{ ... }}` at the top level"
                    ),
                ))
            }
        }
    }
    for (i, e) in entries.iter().enumerate() {
        if let Some(d) = entries[..i].iter().find(|d| d.name == e.name) {
            return Err(PtxError::new(
                file,
                e.line,
                1,
                format!(
                    "found a second entry `{}`, expected each entry name once (first at line {})",
                    e.name, d.line
                ),
            ));
        }
    }
    Ok(Module { entries, decls })
}

/// Parse an `.entry` or `.func` after its keyword; `None` for a function
/// prototype without a body (`.extern .func f(...);`).
fn parse_entry(p: &mut P, line: usize, func: bool) -> Result<Option<Entry>> {
    let mut rets = Vec::new();
    if func && p.is_punct('(') {
        rets = parse_params(p)?;
    }
    let (name, _, _) = p.word(if func {
        "the function's name"
    } else {
        "the entry's name"
    })?;
    let params = if p.is_punct('(') {
        parse_params(p)?
    } else {
        Vec::new()
    };
    // Performance directives: `.maxntid 256, 1, 1`, `.explicitcluster`, ...
    let mut directives = Vec::new();
    while let Some(Token {
        tok: Tok::Word(d), ..
    }) = p.peek().cloned()
    {
        const DIRS: [&str; 9] = [
            ".maxntid",
            ".reqntid",
            ".minnctapersm",
            ".maxnctapersm",
            ".maxnreg",
            ".maxclusterrank",
            ".reqnctapercluster",
            ".explicitcluster",
            ".noreturn",
        ];
        if d == ".pragma" {
            p.pos += 1;
            p.string("a string after `.pragma`")?;
            p.punct(';')?;
            continue;
        }
        if !DIRS.contains(&d.as_str()) {
            return p.err(&format!(
                "`{{`, `;` or a performance directive (one of {})",
                DIRS.join(", ")
            ));
        }
        p.pos += 1;
        let mut vals = Vec::new();
        while let Some(Token {
            tok: Tok::Int(v), ..
        }) = p.peek().cloned()
        {
            p.pos += 1;
            vals.push(v);
            if p.is_punct(',') {
                p.pos += 1;
            } else {
                break;
            }
        }
        directives.push((d[1..].to_string(), vals));
    }
    if func && p.is_punct(';') {
        p.pos += 1;
        return Ok(None);
    }
    p.punct('{')?;
    let mut blocks = 0;
    let body = parse_body(p, &name, &mut blocks)?;
    // Labels: unique, and every branch target defined.
    let labels: Vec<&str> = body
        .iter()
        .filter_map(|s| match s {
            Stmt::Label { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    for s in &body {
        if let Stmt::Label { name: l, line } = s {
            if labels.iter().filter(|x| **x == l).count() > 1 {
                return Err(PtxError::new(
                    p.file,
                    *line,
                    1,
                    format!("found label `{l}` defined twice, expected each label once"),
                ));
            }
        }
        if let Stmt::Inst(i) = s {
            if i.form == "bra" {
                if let Some(Operand::Reg(t)) = i.operands.first() {
                    if !labels.contains(&t.as_str()) {
                        return Err(PtxError::new(
                            p.file,
                            i.line,
                            i.col,
                            format!("found `bra {t}`, expected a label defined in entry `{name}`"),
                        ));
                    }
                }
            }
        }
    }
    Ok(Some(Entry {
        name,
        line,
        body,
        func,
        params,
        rets,
        directives,
    }))
}

/// A parameter list `( .param .u64 a, .param .align 8 .b8 b[16] )`.
fn parse_params(p: &mut P) -> Result<Vec<Param>> {
    p.punct('(')?;
    let mut out = Vec::new();
    if p.is_punct(')') {
        p.pos += 1;
        return Ok(out);
    }
    loop {
        let (kw, line, _) = p.word("`.param` or `.reg` starting a parameter")?;
        if kw != ".param" && kw != ".reg" {
            p.pos -= 1;
            return p.err("`.param` or `.reg` starting a parameter");
        }
        let (mut ty, mut align, mut len) = (None, None, None);
        let name = loop {
            match p.next().map(|t| t.tok) {
                Some(Tok::Word(w)) if w == ".align" => match p.next().map(|t| t.tok) {
                    Some(Tok::Int(n)) if n > 0 && n <= MAX_ALIGN && n & (n - 1) == 0 => {
                        align = Some(n as u64)
                    }
                    _ => {
                        p.pos -= 1;
                        return p.err("a power of two after `.align`");
                    }
                },
                // Pointer attributes of a kernel parameter: `.ptr .global .align 4`.
                Some(Tok::Word(w))
                    if matches!(
                        w.as_str(),
                        ".ptr" | ".global" | ".shared" | ".const" | ".local"
                    ) => {}
                Some(Tok::Word(w)) if w.starts_with('.') => {
                    if !TYPES.contains(&&w[1..]) {
                        p.pos -= 1;
                        return p.err(&format!("a parameter type (one of .{})", TYPES.join(", .")));
                    }
                    ty = Some(w[1..].to_string());
                }
                Some(Tok::Word(w)) => break w,
                _ => {
                    p.pos -= 1;
                    return p.err("a parameter's type and name");
                }
            }
        };
        let Some(ty) = ty else {
            p.pos -= 1;
            return p.err(&format!("a type before parameter `{name}`"));
        };
        if p.is_punct('[') {
            p.pos += 1;
            match p.next().map(|t| t.tok) {
                Some(Tok::Int(n)) if (1..=MAX_ARRAY_LEN).contains(&n) => len = Some(n as u64),
                _ => {
                    p.pos -= 1;
                    return p.err(&format!("an array size 1..{MAX_ARRAY_LEN}"));
                }
            }
            p.punct(']')?;
        }
        out.push(Param {
            name,
            ty,
            align,
            len,
            line,
        });
        if p.is_punct(',') {
            p.pos += 1;
        } else {
            break;
        }
    }
    p.punct(')')?;
    Ok(out)
}

/// The statements of a body up to its closing `}` (consumed). A nested
/// `{ ... }` block (nvcc's inline-asm scopes) is flattened into the body:
/// the registers it declares and the labels it defines are local to it, so
/// they are renamed `NAME#k` (block k of the entry) wherever the block uses
/// them; names from outside keep theirs.
fn parse_body(p: &mut P, entry: &str, blocks: &mut usize) -> Result<Vec<Stmt>> {
    let mut body = Vec::new();
    loop {
        if p.is_punct('}') {
            p.pos += 1;
            return Ok(body);
        }
        if p.peek().is_none() {
            return p.err(&format!("`}}` closing entry `{entry}`"));
        }
        if p.is_punct('{') {
            p.pos += 1;
            *blocks += 1;
            let k = *blocks;
            let inner = parse_body(p, entry, blocks)?;
            let mut local: HashSet<String> = HashSet::new();
            for st in &inner {
                match st {
                    Stmt::Decl(d) if d.space == ".reg" || d.space == ".param" => {
                        local.extend(d.names().filter(|n| !n.contains('#')).map(str::to_string))
                    }
                    Stmt::Label { name, .. } if !name.contains('#') => {
                        local.insert(name.clone());
                    }
                    _ => {}
                }
            }
            let rn = |n: &mut String| {
                if local.contains(n.as_str()) {
                    *n = format!("{n}#{k}");
                }
            };
            for mut st in inner {
                match &mut st {
                    Stmt::Label { name, .. } => rn(name),
                    Stmt::Decl(d) if d.space == ".reg" || d.space == ".param" => {
                        for (n, _) in d.vars.iter_mut() {
                            rn(n)
                        }
                    }
                    Stmt::Decl(_) => {}
                    Stmt::Inst(i) => {
                        if let Some(g) = &mut i.guard {
                            rn(&mut g.reg);
                        }
                        for o in i.operands.iter_mut() {
                            match o {
                                Operand::Reg(r) | Operand::NotPred(r) => rn(r),
                                Operand::Addr { base, .. } => rn(base),
                                Operand::Vector(v) => v.iter_mut().for_each(rn),
                                Operand::Pair(a, b) => {
                                    rn(a);
                                    rn(b)
                                }
                                _ => {}
                            }
                        }
                    }
                }
                body.push(st);
            }
            continue;
        }
        if let Some(st) = parse_stmt(p)? {
            body.push(st);
        }
    }
}

const DECL_SPACES: [&str; 7] = [
    ".reg",
    ".param",
    ".shared",
    ".shared::cta",
    ".global",
    ".local",
    ".const",
];
/// Largest array length of a declaration (elements).
pub const MAX_ARRAY_LEN: i64 = 1 << 24;
/// Largest `.align`.
pub const MAX_ALIGN: i64 = 1 << 16;
const TYPES: [&str; 16] = [
    "b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "f16", "f32",
    "f64", "pred",
];

/// One statement; `None` for a directive with no meaning to the executor
/// (`.pragma "nounroll";`, `.loc 1 23 5`).
fn parse_stmt(p: &mut P) -> Result<Option<Stmt>> {
    if let Some(Token {
        tok: Tok::Word(w),
        line,
        ..
    }) = p.peek().cloned()
    {
        if w == ".loc" {
            p.pos += 1;
            p.skip_line(line);
            return Ok(None);
        }
        if w == ".pragma" {
            p.pos += 1;
            let s = p.string("a string after `.pragma`")?;
            p.punct(';')?;
            p.nounroll |= s == "nounroll";
            return Ok(None);
        }
    }
    let mut guard = None;
    if p.is_punct('@') {
        p.pos += 1;
        let negated = p.is_punct('!');
        if negated {
            p.pos += 1;
        }
        let (reg, _, _) = p.word("a predicate register after `@`")?;
        guard = Some(Guard { negated, reg });
    }
    let (w, line, col) = p.word("an instruction, a label or a declaration")?;
    if guard.is_none() && p.is_punct(':') {
        p.pos += 1;
        return Ok(Some(Stmt::Label { name: w, line }));
    }
    if guard.is_none() && DECL_SPACES.contains(&w.as_str()) {
        return parse_decl(p, w, line, col).map(Some);
    }
    let mut operands = Vec::new();
    if !p.is_punct(';') {
        loop {
            operands.push(parse_operand(p)?);
            if p.is_punct(',') {
                p.pos += 1;
            } else {
                break;
            }
        }
    }
    p.punct(';')?;
    let form = classify(p.file, line, col, &w, &operands)?;
    Ok(Some(Stmt::Inst(Inst {
        line,
        col,
        guard,
        opcode: w,
        form,
        operands,
        nounroll: std::mem::take(&mut p.nounroll),
    })))
}

fn parse_decl(p: &mut P, space: String, line: usize, col: usize) -> Result<Stmt> {
    let space = if space == ".shared::cta" {
        ".shared".to_string()
    } else {
        space
    };
    let mut vars: Vec<(String, Option<u64>)> = Vec::new();
    let mut ty: Option<String> = None;
    let mut align = None;
    let mut init = Vec::new();
    loop {
        if p.is_punct(';') {
            p.pos += 1;
            break;
        }
        let t = p.next();
        match t.as_ref().map(|t| &t.tok) {
            Some(Tok::Word(w)) if w == ".align" => match p.next().map(|t| t.tok) {
                Some(Tok::Int(n)) if n > 0 && n <= MAX_ALIGN && (n & (n - 1)) == 0 => {
                    align = Some(n as u64)
                }
                _ => {
                    p.pos -= 1;
                    return p.err(&format!(
                        "an alignment after `.align`: a power of two 1..{MAX_ALIGN}"
                    ));
                }
            },
            Some(Tok::Word(w)) if w.starts_with('.') => {
                if !TYPES.contains(&&w[1..]) {
                    p.pos -= 1;
                    return p.err(&format!("a type (one of .{})", TYPES.join(", .")));
                }
                if w == ".pred" && space != ".reg" {
                    p.pos -= 1;
                    return p.err(&format!(
                        "a data type such as `.b32` (`.pred` is for `.reg` only, not `{space}`)"
                    ));
                }
                ty = Some(w[1..].to_string());
            }
            Some(Tok::Word(w)) => {
                if ty.is_none() {
                    p.pos -= 1;
                    return p.err("a type such as `.b32` before the names");
                }
                let name = w.clone();
                let mut names = Vec::new();
                if p.is_punct('<') {
                    p.pos += 1;
                    let n = match p.next().map(|t| t.tok) {
                        Some(Tok::Int(n)) if (1..=4096).contains(&n) => n,
                        _ => {
                            p.pos -= 1;
                            return p.err("a register count 1..4096 in `<N>`");
                        }
                    };
                    p.punct('>')?;
                    for k in 0..n {
                        names.push(format!("{name}{k}"));
                    }
                } else {
                    names.push(name);
                }
                let mut len = None;
                if p.is_punct('[')
                    && matches!(p.toks.get(p.pos + 1).map(|t| &t.tok), Some(Tok::Punct(']')))
                {
                    // `[]`: sized at launch (`.extern .shared .b8 smem[];`).
                    p.pos += 2;
                    len = Some(0);
                } else if p.is_punct('[') {
                    p.pos += 1;
                    match p.next().map(|t| t.tok) {
                        Some(Tok::Int(n)) if (1..=MAX_ARRAY_LEN).contains(&n) => {
                            len = Some(n as u64)
                        }
                        _ => {
                            p.pos -= 1;
                            return p.err(&format!("an array size 1..{MAX_ARRAY_LEN}"));
                        }
                    }
                    p.punct(']')?;
                }
                vars.extend(names.into_iter().map(|n| (n, len)));
            }
            Some(Tok::Punct(',')) if !vars.is_empty() => {}
            Some(Tok::Punct('=')) if vars.len() == 1 && space != ".reg" => {
                init = parse_init(p)?;
            }
            _ => {
                if t.is_some() {
                    p.pos -= 1;
                }
                return p.err("a type, a name, `= initialiser` or `;` in the declaration");
            }
        }
    }
    let Some(ty) = ty.filter(|_| !vars.is_empty()) else {
        p.pos -= 1;
        return p.err(&format!("at least one name declared by `{space}`"));
    };
    Ok(Stmt::Decl(Decl {
        space,
        ty,
        align,
        vars,
        external: false,
        init,
        line,
        col,
    }))
}

/// An initialiser after `=`: one constant or `{c, c, ...}` (nested braces
/// flattened), integers or hexadecimal floats.
fn parse_init(p: &mut P) -> Result<Vec<i64>> {
    let mut out = Vec::new();
    let mut depth = 0;
    loop {
        match p.next().map(|t| t.tok) {
            Some(Tok::Punct('{')) => depth += 1,
            Some(Tok::Punct('}')) if depth > 0 => depth -= 1,
            Some(Tok::Punct(',')) if depth > 0 => {}
            Some(Tok::Punct('-')) => match p.next().map(|t| t.tok) {
                Some(Tok::Int(v)) => out.push(v.wrapping_neg()),
                _ => {
                    p.pos -= 1;
                    return p.err("an integer after `-` in the initialiser");
                }
            },
            Some(Tok::Int(v)) => out.push(v),
            Some(Tok::Float { bits, .. }) => out.push(bits as i64),
            _ => {
                p.pos -= 1;
                return p.err("a constant, `{` or `}` in the initialiser (integers or 0f/0d floats; addresses of variables are not supported)");
            }
        }
        if depth == 0 {
            return Ok(out);
        }
    }
}

fn parse_operand(p: &mut P) -> Result<Operand> {
    let expected = "an operand (register, number, `[address]`, `_` or `!pred`)";
    match p.peek().map(|t| t.tok.clone()) {
        Some(Tok::Punct('[')) => {
            p.pos += 1;
            let base = match p.next().map(|t| t.tok) {
                Some(Tok::Word(w)) => w,
                Some(Tok::Int(i)) => i.to_string(),
                _ => {
                    p.pos -= 1;
                    return p.err("a register, symbol or number inside `[ ]`");
                }
            };
            let mut offset = 0;
            if p.is_punct('+') || p.is_punct('-') {
                let mut neg = p.is_punct('-');
                p.pos += 1;
                // nvcc writes a negative offset as `[%rd+-4]`.
                if !neg && p.is_punct('-') {
                    neg = true;
                    p.pos += 1;
                }
                match p.next().map(|t| t.tok) {
                    Some(Tok::Int(i)) => offset = if neg { i.wrapping_neg() } else { i },
                    _ => {
                        p.pos -= 1;
                        return p.err("an integer offset");
                    }
                }
            }
            p.punct(']')?;
            Ok(Operand::Addr { base, offset })
        }
        Some(Tok::Punct('-')) => {
            p.pos += 1;
            match p.next().map(|t| t.tok) {
                Some(Tok::Int(i)) => Ok(Operand::Imm(-i)),
                _ => {
                    p.pos -= 1;
                    p.err("an integer after `-`")
                }
            }
        }
        Some(Tok::Punct('!')) => {
            p.pos += 1;
            let (w, _, _) = p.word("a predicate register after `!`")?;
            Ok(Operand::NotPred(w))
        }
        // `{%r1, %r2}` (a vector) or `(retval0)` / `(param0, param1)` (a call's lists).
        Some(Tok::Punct(open @ ('{' | '('))) => {
            let close = if open == '{' { '}' } else { ')' };
            p.pos += 1;
            let mut v = Vec::new();
            if !p.is_punct(close) {
                loop {
                    let (w, _, _) = p.word("a register or `_` in the list")?;
                    v.push(w);
                    if p.is_punct(',') {
                        p.pos += 1;
                    } else {
                        break;
                    }
                }
            }
            p.punct(close)?;
            Ok(Operand::Vector(v))
        }
        Some(Tok::Float { text, bits }) => {
            p.pos += 1;
            Ok(Operand::Float { text, bits })
        }
        Some(Tok::Int(i)) => {
            p.pos += 1;
            Ok(Operand::Imm(i))
        }
        Some(Tok::Word(w)) => {
            p.pos += 1;
            if w == "_" {
                Ok(Operand::Sink)
            } else if p.is_punct('|') {
                p.pos += 1;
                let (q, _, _) = p.word("a predicate register after `|`")?;
                Ok(Operand::Pair(w, q))
            } else {
                Ok(Operand::Reg(w))
            }
        }
        _ => p.err(expected),
    }
}

// ---------------------------------------------------------------------------
// Instruction forms

struct Q<'a> {
    file: &'a str,
    line: usize,
    col: usize,
    opcode: &'a str,
}

impl Q<'_> {
    fn err<T>(&self, msg: String) -> Result<T> {
        Err(PtxError::new(self.file, self.line, self.col, msg))
    }
    fn bad_qual<T>(&self, q: &str, allowed: &str) -> Result<T> {
        self.err(format!(
            "found qualifier `.{q}` in `{}`, expected one of {allowed}",
            self.opcode
        ))
    }
    fn operands(
        &self,
        ops: &[Operand],
        n: std::ops::RangeInclusive<usize>,
        shape: &str,
    ) -> Result<()> {
        if n.contains(&ops.len()) {
            Ok(())
        } else {
            self.err(format!(
                "found {} operand(s) for `{}`, expected {shape}",
                ops.len(),
                self.opcode
            ))
        }
    }
    fn addr(&self, ops: &[Operand], i: usize, what: &str) -> Result<()> {
        match ops.get(i) {
            Some(Operand::Addr { .. }) => Ok(()),
            Some(o) => self.err(format!(
                "found `{}` as operand {} of `{}`, expected an address `[...]` ({what})",
                o.text(),
                i + 1,
                self.opcode
            )),
            None => Ok(()),
        }
    }
    fn value(&self, ops: &[Operand], i: usize, what: &str) -> Result<()> {
        match ops.get(i) {
            Some(
                Operand::Reg(_) | Operand::Imm(_) | Operand::Float { .. } | Operand::Vector(_),
            )
            | None => Ok(()),
            Some(o) => self.err(format!(
                "found `{}` as operand {} of `{}`, expected a register or an immediate ({what})",
                o.text(),
                i + 1,
                self.opcode
            )),
        }
    }
}

const SCOPES: [&str; 4] = ["cta", "cluster", "gpu", "sys"];
/// Cache operators of ld/st (no effect on values in this model).
const CACHE_OPS: [&str; 7] = ["ca", "cg", "cs", "lu", "cv", "wb", "wt"];
/// `setp` comparisons (integer and floating-point).
const CMP: [&str; 18] = [
    "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu", "gtu",
    "geu", "num", "nan",
];
/// `setp`'s optional combining operation.
const BOOL_OPS: [&str; 3] = ["and", "or", "xor"];
/// Arithmetic, logic and conversion opcodes: parsed generically, executed per lane.
pub const ALU: [&str; 42] = [
    "sub", "mul", "mad", "mul24", "mad24", "div", "rem", "abs", "neg", "min", "max", "and", "or",
    "xor", "not", "cnot", "shl", "shr", "popc", "clz", "brev", "bfe", "bfi", "bfind", "prmt",
    "lop3", "shf", "cvt", "cvta", "selp", "set", "fma", "sqrt", "rcp", "rsqrt", "copysign",
    "testp", "dp4a", "dp2a", "sad", "slct", "ex2",
];
/// Warp-level opcodes (`shfl.sync`, `vote.sync`, ...).
pub const WARP: [&str; 6] = ["shfl", "vote", "redux", "match", "activemask", "elect"];
/// Other opcodes the parser accepts for the executor to judge.
pub const OTHER: [&str; 7] = [
    "call",
    "trap",
    "nanosleep",
    "brkpt",
    "mapa",
    "getctarank",
    "prefetch",
];
const SPACES: [&str; 7] = [
    "global",
    "shared",
    "shared::cta",
    "shared::cluster",
    "local",
    "param",
    "const",
];

fn one(slot: &mut Option<String>, q: &str, what: &str, qq: &Q) -> Result<()> {
    if let Some(prev) = slot {
        return qq.err(format!(
            "found a second {what} `.{q}` in `{}` (already `.{prev}`), expected at most one",
            qq.opcode
        ));
    }
    *slot = Some(q.to_string());
    Ok(())
}

/// The canonical form of an instruction, or a located error.
pub fn classify(
    file: &str,
    line: usize,
    col: usize,
    opcode: &str,
    ops: &[Operand],
) -> Result<String> {
    let q = Q {
        file,
        line,
        col,
        opcode,
    };
    let parts: Vec<&str> = opcode.split('.').collect();
    if parts.iter().any(|s| s.is_empty()) {
        return q.err(format!(
            "found `{opcode}`, expected an opcode with non-empty `.`-separated qualifiers"
        ));
    }
    let quals = &parts[1..];
    match parts[0] {
        "ld" | "st" | "atom" | "red" => memory(&q, parts[0], quals, ops),
        "membar" | "fence" => fence(&q, parts[0], quals, ops),
        "bar" | "barrier" => bar(&q, parts[0], quals, ops),
        "mbarrier" => mbarrier(&q, quals, ops),
        "cp" => cp(&q, quals, ops),
        "setp" => {
            let cmp_ok = quals.first().is_some_and(|c| CMP.contains(c));
            let ty_ok = quals.last().is_some_and(|t| TYPES[..15].contains(t));
            let bool_ok = match quals.len() {
                2 => true,
                3 => BOOL_OPS.contains(&quals[1]),
                _ => false,
            };
            if !(cmp_ok && ty_ok && bool_ok) {
                return q.err(format!(
                    "found `{opcode}`, expected `setp.CMP[.BOOLOP].TYPE` with CMP one of {}, BOOLOP one of {} and a type such as `.s32`",
                    CMP.join(", "),
                    BOOL_OPS.join(", ")
                ));
            }
            let n = if quals.len() == 3 { 4 } else { 3 };
            q.operands(
                ops,
                n..=n,
                if n == 3 {
                    "3 operands (p, a, b)"
                } else {
                    "4 operands (p, a, b, c)"
                },
            )?;
            q.value(ops, 1, "a")?;
            q.value(ops, 2, "b")?;
            Ok("setp".into())
        }
        "mov" | "add" => {
            if quals.is_empty() || !quals.last().is_some_and(|t| TYPES.contains(t)) {
                return q.err(format!(
                    "found `{opcode}`, expected `{}.TYPE` with a type such as `.u32`",
                    parts[0]
                ));
            }
            if parts[0] == "mov" {
                q.operands(ops, 2..=2, "2 operands (d, a)")?;
            } else {
                q.operands(ops, 3..=3, "3 operands (d, a, b)")?;
                q.value(ops, 1, "a")?;
                q.value(ops, 2, "b")?;
            }
            Ok(parts[0].into())
        }
        h if ALU.contains(&h) || WARP.contains(&h) || OTHER.contains(&h) => {
            // Arithmetic, conversion, warp-level and control instructions:
            // their qualifiers and operands are checked where they are
            // executed (`sm-exec`), which refuses what it does not model.
            if ops.iter().any(|o| matches!(o, Operand::Addr { .. }))
                && !matches!(h, "cvta" | "mapa" | "prefetch" | "call")
            {
                return q.err(format!(
                    "found an address operand in `{opcode}`, expected registers and immediates"
                ));
            }
            Ok(h.to_string())
        }
        "bra" => {
            if !(quals.is_empty() || quals == ["uni"]) {
                return q.err(format!("found `{opcode}`, expected `bra` or `bra.uni`"));
            }
            q.operands(ops, 1..=1, "1 operand (a label)")?;
            if !matches!(ops[0], Operand::Reg(_)) {
                return q.err(format!("found `{}`, expected a label", ops[0].text()));
            }
            Ok("bra".into())
        }
        "ret" | "exit" => {
            if !quals.is_empty() && quals != ["uni"] {
                return q.err(format!("found `{opcode}`, expected `{}`", parts[0]));
            }
            q.operands(ops, 0..=0, "no operands")?;
            Ok(parts[0].into())
        }
        _ => q.err(format!(
            "`{opcode}` is outside the supported PTX subset (supported: {SUPPORTED})"
        )),
    }
}

fn memory(q: &Q, op: &str, quals: &[&str], ops: &[Operand]) -> Result<String> {
    const ATOM_OPS: [&str; 10] = [
        "add", "and", "or", "xor", "exch", "cas", "min", "max", "inc", "dec",
    ];
    let sems: &[&str] = match op {
        "ld" => &["weak", "volatile", "relaxed", "acquire"],
        "st" => &["weak", "volatile", "relaxed", "release"],
        "atom" => &["relaxed", "acquire", "release", "acq_rel"],
        _ => &["relaxed", "release"],
    };
    let (mut sem, mut scope, mut space, mut ty, mut aop, mut vec) =
        (None, None, None, None, None, None);
    let mut nc = None;
    for &x in quals {
        if sems.contains(&x) {
            one(&mut sem, x, "ordering", q)?;
        } else if SCOPES.contains(&x) {
            one(&mut scope, x, "scope", q)?;
        } else if SPACES.contains(&x) {
            one(&mut space, x, "state space", q)?;
        } else if TYPES[..15].contains(&x) {
            one(&mut ty, x, "type", q)?;
        } else if (op == "atom" || op == "red") && ATOM_OPS.contains(&x) {
            one(&mut aop, x, "operation", q)?;
        } else if (op == "ld" || op == "st") && (x == "v2" || x == "v4") {
            one(&mut vec, x, "vector width", q)?;
        } else if op == "ld" && x == "nc" {
            // The non-coherent (read-only) path: a weak global load here.
            one(&mut nc, x, "`.nc`", q)?;
        } else if CACHE_OPS.contains(&x) || x.starts_with("L1::") || x.starts_with("L2::") {
            // Cache operators and eviction hints: no effect on values.
        } else {
            let mut allowed: Vec<String> = sems.iter().map(|s| format!(".{s}")).collect();
            allowed.extend(SCOPES.iter().map(|s| format!(".{s}")));
            allowed.extend(SPACES.iter().map(|s| format!(".{s}")));
            if op == "atom" || op == "red" {
                allowed.extend(ATOM_OPS.iter().map(|s| format!(".{s}")));
            } else {
                allowed.push(".v2/.v4".into());
            }
            allowed.push("a type such as .u32".into());
            return q.bad_qual(x, &allowed.join(", "));
        }
    }
    if ty.is_none() {
        return q.err(format!(
            "found `{}` without a type, expected a type such as `.u32`",
            q.opcode
        ));
    }
    if (op == "atom" || op == "red") && aop.is_none() {
        return q.err(format!(
            "found `{}` without an operation, expected one of .{}",
            q.opcode,
            ATOM_OPS.join(", .")
        ));
    }
    if nc.is_some() && (sem.is_some() || space.as_deref() != Some("global")) {
        return q.err(format!(
            "found `{}`: `.nc` is a weak `.global` load, expected `ld.global.nc.TYPE`",
            q.opcode
        ));
    }
    if vec.is_some() && sem.is_some() && sem.as_deref() != Some("weak") {
        return q.err(format!(
            "found `{}`: vector accesses are weak only, expected no ordering qualifier",
            q.opcode
        ));
    }
    if let Some(s) = space.as_deref() {
        // `st.param`: a call sequence's argument (inlined by `crate::inline`).
        if (op != "ld" && !(op == "st" && s == "param") && (s == "param" || s == "const"))
            || ((op == "atom" || op == "red") && s == "local")
        {
            return q.err(format!(
                "found state space `.{s}` in `{}`, expected .global, .shared{{::cta,::cluster}}{}",
                q.opcode,
                if op == "st" { ", .local" } else { "" }
            ));
        }
    }
    // Defaults (PTX ISA memory consistency model): ld/st without an ordering
    // are weak; atom/red default to .relaxed.gpu.
    let sem = match (sem, op) {
        (Some(s), _) => s,
        (None, "atom" | "red") => "relaxed".to_string(),
        (None, _) => "weak".to_string(),
    };
    let scope = match (sem.as_str(), scope) {
        ("weak" | "volatile", Some(s)) => {
            return q.err(format!(
                "found scope `.{s}` on a .{sem} access in `{}`, expected a scope only with .relaxed/.acquire/.release/.acq_rel",
                q.opcode
            ))
        }
        ("weak" | "volatile", None) => None,
        (_, Some(s)) => Some(s),
        (_, None) if op == "atom" || op == "red" => Some("gpu".to_string()),
        (_, None) => {
            return q.err(format!(
                "found `{}` without a scope, expected one of .cta, .cluster, .gpu, .sys with .{sem}",
                q.opcode
            ))
        }
    };
    match op {
        "ld" => {
            q.operands(ops, 2..=2, "2 operands (d, [a])")?;
            q.addr(ops, 1, "the source")?;
        }
        "st" => {
            q.operands(ops, 2..=2, "2 operands ([a], b)")?;
            q.addr(ops, 0, "the destination")?;
            q.value(ops, 1, "the value")?;
        }
        "atom" => {
            let n = if aop.as_deref() == Some("cas") { 4 } else { 3 };
            q.operands(
                ops,
                n..=n,
                if n == 4 {
                    "4 operands (d, [a], b, c)"
                } else {
                    "3 operands (d, [a], b)"
                },
            )?;
            q.addr(ops, 1, "the location")?;
        }
        _ => {
            q.operands(ops, 2..=2, "2 operands ([a], b)")?;
            q.addr(ops, 0, "the location")?;
        }
    }
    Ok(match scope {
        Some(s) => format!("{op}.{sem}.{s}"),
        None => format!("{op}.{sem}"),
    })
}

fn fence(q: &Q, head: &str, quals: &[&str], ops: &[Operand]) -> Result<String> {
    let scope_of = |x: &str| -> Result<String> {
        if SCOPES.contains(&x) {
            Ok(x.to_string())
        } else {
            q.err(format!(
                "found scope `.{x}` in `{}`, expected one of .cta, .cluster, .gpu, .sys",
                q.opcode
            ))
        }
    };
    let no_ops = |f: String| -> Result<String> {
        q.operands(ops, 0..=0, "no operands")?;
        Ok(f)
    };
    if head == "membar" {
        return match quals {
            ["cta"] => no_ops("membar.cta".into()),
            ["gl"] => no_ops("membar.gl".into()),
            ["sys"] => no_ops("membar.sys".into()),
            ["proxy", rest @ ..] => proxy(q, "membar", rest, ops),
            _ => q.err(format!(
                "found `{}`, expected `membar.cta`, `membar.gl`, `membar.sys` or `membar.proxy.PROXYKIND`",
                q.opcode
            )),
        };
    }
    match quals {
        ["proxy", rest @ ..] => proxy(q, "fence", rest, ops),
        ["mbarrier_init", "release", "cluster"] => no_ops("fence.mbarrier_init.release.cluster".into()),
        ["mbarrier_init", ..] => q.err(format!(
            "found `{}`, expected `fence.mbarrier_init.release.cluster` (the only .op_restrict form)",
            q.opcode
        )),
        ["release", "sync_restrict::shared::cta", "cluster"] => {
            no_ops("fence.release.sync_restrict::shared::cta.cluster".into())
        }
        ["acquire", "sync_restrict::shared::cluster", "cluster"] => {
            no_ops("fence.acquire.sync_restrict::shared::cluster.cluster".into())
        }
        [_, r, _] if r.starts_with("sync_restrict") => q.err(format!(
            "found `{}`, expected `fence.release.sync_restrict::shared::cta.cluster` or `fence.acquire.sync_restrict::shared::cluster.cluster`",
            q.opcode
        )),
        [s] => no_ops(format!("fence.acq_rel.{}", scope_of(s)?)),
        [sem, s] if ["sc", "acq_rel", "acquire", "release"].contains(sem) => {
            no_ops(format!("fence.{sem}.{}", scope_of(s)?))
        }
        [sem, _] => q.bad_qual(sem, ".sc, .acq_rel, .acquire, .release"),
        _ => q.err(format!(
            "found `{}`, expected `fence{{.sem}}.scope`, `fence.proxy.*`, `fence.mbarrier_init.release.cluster` or a `.sync_restrict` form",
            q.opcode
        )),
    }
}

fn proxy(q: &Q, head: &str, rest: &[&str], ops: &[Operand]) -> Result<String> {
    let none = || q.operands(ops, 0..=0, "no operands");
    let f = match rest {
        ["alias"] => "fence.proxy.alias".to_string(),
        ["async"] => "fence.proxy.async".to_string(),
        ["async", "global"] => "fence.proxy.async.global".to_string(),
        ["async", "shared::cta"] => "fence.proxy.async.shared::cta".to_string(),
        ["async", "shared::cluster"] => "fence.proxy.async.shared::cluster".to_string(),
        ["tensormap::generic", "release", s] if head == "fence" && SCOPES.contains(s) => {
            none()?;
            return Ok(format!("fence.proxy.tensormap::generic.release.{s}"));
        }
        ["tensormap::generic", "acquire", s] if head == "fence" && SCOPES.contains(s) => {
            q.operands(ops, 2..=2, "2 operands ([addr], 128)")?;
            q.addr(ops, 0, "the tensormap")?;
            if ops[1] != Operand::Imm(128) {
                return q.err(format!(
                    "found size `{}`, expected the literal 128 (the only supported size)",
                    ops[1].text()
                ));
            }
            return Ok(format!("fence.proxy.tensormap::generic.acquire.{s}"));
        }
        ["async::generic", "acquire", "sync_restrict::shared::cluster", "cluster"] if head == "fence" => {
            "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster".to_string()
        }
        ["async::generic", "release", "sync_restrict::shared::cta", "cluster"] if head == "fence" => {
            "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster".to_string()
        }
        _ => {
            return q.err(format!(
                "found `{}`, expected a proxy kind .alias, .async, .async.global, .async.shared::cta, .async.shared::cluster{}",
                q.opcode,
                if head == "fence" {
                    ", .tensormap::generic.{release,acquire}.SCOPE or .async::generic.{acquire,release}.sync_restrict::….cluster"
                } else {
                    ""
                }
            ))
        }
    };
    none()?;
    Ok(f)
}

fn bar(q: &Q, head: &str, quals: &[&str], ops: &[Operand]) -> Result<String> {
    let mut qs: Vec<&str> = quals.to_vec();
    // `bar.warp.sync membermask`: a warp-level convergence point, no named barrier.
    if head == "bar" && qs == ["warp", "sync"] {
        q.operands(ops, 1..=1, "1 operand (the member mask)")?;
        q.value(ops, 0, "the member mask")?;
        return Ok("bar.warp.sync".into());
    }
    if qs.first() == Some(&"cluster") {
        return cluster(q, &qs[1..], ops);
    }
    if qs.first() == Some(&"cta") {
        qs.remove(0);
    }
    if head == "barrier" {
        if let Some(i) = qs.iter().position(|x| *x == "aligned") {
            if i != 1 && !(qs.first() == Some(&"red") && i == 2) {
                return q.err(format!("found `.aligned` out of place in `{}`", q.opcode));
            }
            qs.remove(i);
        }
    }
    // `count`: the operand index of b, if present.
    let id_count = |id: usize, count: Option<usize>| -> Result<()> {
        q.value(ops, id, "the barrier id a")?;
        if let Some(Operand::Imm(a)) = ops.get(id) {
            if !(0..16).contains(a) {
                return q.err(format!("found barrier id {a}, expected 0..15"));
            }
        }
        if let Some(c) = count {
            q.value(ops, c, "the thread count b")?;
            if let Some(Operand::Imm(b)) = ops.get(c) {
                if *b <= 0 || b % 32 != 0 || *b > 1024 {
                    return q.err(format!(
                        "found thread count {b}, expected a positive multiple of 32 up to 1024"
                    ));
                }
            }
        }
        Ok(())
    };
    let red_src = |i: usize| -> Result<()> {
        match ops.get(i) {
            Some(Operand::Reg(_) | Operand::NotPred(_)) => Ok(()),
            Some(o) => q.err(format!(
                "found `{}`, expected a predicate `p` or `!p` as the last operand",
                o.text()
            )),
            None => Ok(()),
        }
    };
    match qs.as_slice() {
        ["sync"] => {
            q.operands(ops, 1..=2, "1 or 2 operands (a{, b})")?;
            id_count(0, Some(1))?;
            Ok("bar.sync".into())
        }
        ["arrive"] => {
            q.operands(ops, 2..=2, "2 operands (a, b): bar.arrive requires the thread count")?;
            id_count(0, Some(1))?;
            Ok("bar.arrive".into())
        }
        ["red", "popc", "u32"] => {
            q.operands(ops, 3..=4, "3 or 4 operands (d, a{, b}, {!}c)")?;
            id_count(1, (ops.len() == 4).then_some(2))?;
            red_src(ops.len() - 1)?;
            Ok("bar.red.popc.u32".into())
        }
        ["red", o @ ("and" | "or"), "pred"] => {
            q.operands(ops, 3..=4, "3 or 4 operands (p, a{, b}, {!}c)")?;
            id_count(1, (ops.len() == 4).then_some(2))?;
            red_src(ops.len() - 1)?;
            Ok(format!("bar.red.{o}.pred"))
        }
        _ => q.err(format!(
            "found `{}`, expected {head}{{.cta}}.sync, .arrive, .red.popc.u32, .red.and.pred or .red.or.pred{}",
            q.opcode,
            if head == "barrier" { " (each with optional .aligned), or barrier.cluster.arrive/wait" } else { "" }
        )),
    }
}

fn cluster(q: &Q, quals: &[&str], ops: &[Operand]) -> Result<String> {
    q.operands(ops, 0..=0, "no operands")?;
    let mut qs: Vec<&str> = quals.to_vec();
    if qs.last() == Some(&"aligned") {
        qs.pop();
    }
    match qs.as_slice() {
        ["arrive"] | ["arrive", "release"] => Ok("barrier.cluster.arrive.release".into()),
        ["arrive", "relaxed"] => Ok("barrier.cluster.arrive.relaxed".into()),
        ["wait"] | ["wait", "acquire"] => Ok("barrier.cluster.wait.acquire".into()),
        _ => q.err(format!(
            "found `{}`, expected barrier.cluster.arrive{{.release|.relaxed}}{{.aligned}} or barrier.cluster.wait{{.acquire}}{{.aligned}}",
            q.opcode
        )),
    }
}

fn mbarrier(q: &Q, quals: &[&str], ops: &[Operand]) -> Result<String> {
    const OPS: [&str; 9] = [
        "init",
        "inval",
        "arrive",
        "arrive_drop",
        "expect_tx",
        "complete_tx",
        "test_wait",
        "try_wait",
        "pending_count",
    ];
    let Some(&op) = quals.first() else {
        return q.err(format!(
            "found `mbarrier` alone, expected mbarrier.{}",
            OPS.join("/")
        ));
    };
    if !OPS.contains(&op) {
        return q.err(format!(
            "found `mbarrier.{op}`, expected one of mbarrier.{}",
            OPS.join(", mbarrier.")
        ));
    }
    let (mut sem, mut scope, mut space, mut ty) = (None, None, None, None);
    let (mut expect_tx, mut no_complete, mut parity) = (false, false, false);
    for &x in &quals[1..] {
        match x {
            "release" | "acquire" | "relaxed" => one(&mut sem, x, "ordering", q)?,
            "cta" | "cluster" => one(&mut scope, x, "scope", q)?,
            "shared" | "shared::cta" | "shared::cluster" => {
                one(&mut space, if x == "shared" { "shared::cta" } else { x }, "state space", q)?
            }
            "b64" => one(&mut ty, x, "type", q)?,
            "expect_tx" if (op == "arrive" || op == "arrive_drop") && !expect_tx => expect_tx = true,
            "noComplete" if (op == "arrive" || op == "arrive_drop") && !no_complete => no_complete = true,
            "parity" if (op == "test_wait" || op == "try_wait") && !parity => parity = true,
            _ => {
                return q.bad_qual(
                    x,
                    ".release/.acquire/.relaxed, .cta/.cluster, .shared{::cta,::cluster}, .b64 and, by operation, .expect_tx, .noComplete, .parity",
                )
            }
        }
    }
    if ty.is_none() {
        return q.err(format!(
            "found `{}` without `.b64`, expected the `.b64` type",
            q.opcode
        ));
    }
    let space = space.unwrap_or_else(|| "shared::cta".into());
    let allowed_sems: &[&str] = match op {
        "arrive" | "arrive_drop" => &["release", "relaxed"],
        "expect_tx" | "complete_tx" => &["relaxed"],
        "test_wait" | "try_wait" => &["acquire", "relaxed"],
        _ => &[],
    };
    if let Some(s) = sem.as_deref() {
        if !allowed_sems.contains(&s) {
            return q.err(format!(
                "found `.{s}` in `{}`, expected {}",
                q.opcode,
                if allowed_sems.is_empty() {
                    "no ordering qualifier".to_string()
                } else {
                    format!("one of .{}", allowed_sems.join(", ."))
                }
            ));
        }
    }
    if allowed_sems.is_empty() && scope.is_some() {
        return q.err(format!("found a scope in `{}`, expected none", q.opcode));
    }
    if space == "shared::cluster"
        && !matches!(op, "arrive" | "arrive_drop" | "expect_tx" | "complete_tx")
    {
        return q.err(format!(
            "found `.shared::cluster` in `{}`, expected `.shared::cta` (remote form only for arrive, arrive_drop, expect_tx, complete_tx)",
            q.opcode
        ));
    }
    if no_complete
        && (expect_tx || scope.as_deref() == Some("cluster") || space == "shared::cluster")
    {
        return q.err(format!(
            "found `{}`, expected .noComplete only with .cta scope, a local barrier and no .expect_tx",
            q.opcode
        ));
    }
    let sem = sem.unwrap_or_else(|| allowed_sems.first().copied().unwrap_or("").to_string());
    let scope = scope.unwrap_or_else(|| "cta".into());
    match op {
        "init" => {
            q.operands(ops, 2..=2, "2 operands ([addr], count)")?;
            q.addr(ops, 0, "the mbarrier")?;
            q.value(ops, 1, "the count")?;
            Ok("mbarrier.init".into())
        }
        "inval" => {
            q.operands(ops, 1..=1, "1 operand ([addr])")?;
            q.addr(ops, 0, "the mbarrier")?;
            Ok("mbarrier.inval".into())
        }
        "pending_count" => {
            q.operands(ops, 2..=2, "2 operands (count, state)")?;
            Ok("mbarrier.pending_count".into())
        }
        "arrive" | "arrive_drop" => {
            let remote = space == "shared::cluster";
            if remote && !matches!(ops.first(), Some(Operand::Sink)) {
                return q.err(format!(
                    "found `{}` as the state of a `.shared::cluster` arrive, expected the sink `_`",
                    ops.first().map(|o| o.text()).unwrap_or_default()
                ));
            }
            if expect_tx || no_complete {
                q.operands(
                    ops,
                    3..=3,
                    if expect_tx {
                        "3 operands (state, [addr], txCount)"
                    } else {
                        "3 operands (state, [addr], count)"
                    },
                )?;
            } else {
                q.operands(ops, 2..=3, "2 or 3 operands (state, [addr]{, count})")?;
            }
            q.addr(ops, 1, "the mbarrier")?;
            q.value(ops, 2, "the count")?;
            let mut f = format!("mbarrier.{op}");
            if expect_tx {
                f.push_str(".expect_tx");
            }
            if no_complete {
                f.push_str(".noComplete");
            }
            Ok(format!("{f}.{sem}.{scope}.{space}"))
        }
        "expect_tx" | "complete_tx" => {
            q.operands(ops, 2..=2, "2 operands ([addr], txCount)")?;
            q.addr(ops, 0, "the mbarrier")?;
            q.value(ops, 1, "txCount")?;
            Ok(format!("mbarrier.{op}.{sem}.{scope}.{space}"))
        }
        _ => {
            if op == "try_wait" {
                q.operands(
                    ops,
                    3..=4,
                    "3 or 4 operands (waitComplete, [addr], state|phaseParity{, suspendTimeHint})",
                )?;
                q.value(ops, 3, "suspendTimeHint")?;
            } else {
                q.operands(
                    ops,
                    3..=3,
                    "3 operands (waitComplete, [addr], state|phaseParity)",
                )?;
            }
            q.addr(ops, 1, "the mbarrier")?;
            q.value(ops, 2, "the state or parity")?;
            if parity {
                if let Some(Operand::Imm(v)) = ops.get(2) {
                    if !(0..=1).contains(v) {
                        return q.err(format!("found parity {v}, expected 0 or 1"));
                    }
                }
            }
            let par = if parity { ".parity" } else { "" };
            Ok(format!("mbarrier.{op}{par}.{sem}.{scope}"))
        }
    }
}

fn cp(q: &Q, quals: &[&str], ops: &[Operand]) -> Result<String> {
    let outside = || {
        q.err(format!(
            "`{}` is outside the supported PTX subset (supported: {SUPPORTED}; of cp.* only cp.async.bulk with .mbarrier::complete_tx::bytes or .bulk_group, commit_group and wait_group, and cp.async.{{ca,cg}}.shared.global with cp.async.commit_group, wait_group and wait_all)",
            q.opcode
        ))
    };
    match quals {
        // Non-bulk cp.async (LDGSTS) and its groups.
        ["async", kind @ ("ca" | "cg"), "shared" | "shared::cta", "global", hints @ ..]
            if hints.iter().all(|h| h.starts_with("L2::")) =>
        {
            q.operands(ops, 3..=4, "3 or 4 operands ([dst], [src], cp-size{, src-size})")?;
            q.addr(ops, 0, "the shared destination")?;
            q.addr(ops, 1, "the global source")?;
            let ok: &[i64] = if *kind == "cg" { &[16] } else { &[4, 8, 16] };
            match ops[2] {
                Operand::Imm(n) if ok.contains(&n) => {}
                _ => {
                    return q.err(format!(
                        "found cp-size `{}`, expected {} for cp.async.{kind}",
                        ops[2].text(),
                        if *kind == "cg" { "16" } else { "4, 8 or 16" }
                    ))
                }
            }
            q.value(ops, 3, "the source size")?;
            Ok(format!("cp.async.{kind}.shared.global"))
        }
        ["async", "commit_group"] => {
            q.operands(ops, 0..=0, "no operands")?;
            Ok("cp.async.commit_group".into())
        }
        ["async", "wait_all"] => {
            q.operands(ops, 0..=0, "no operands")?;
            Ok("cp.async.wait_all".into())
        }
        ["async", "wait_group"] => {
            q.operands(ops, 1..=1, "1 operand (N, an integer constant)")?;
            match ops[0] {
                Operand::Imm(n) if (0..=63).contains(&n) => {}
                _ => return q.err(format!("found `{}`, expected N, an integer constant 0..63", ops[0].text())),
            }
            Ok("cp.async.wait_group".into())
        }
        ["async", "bulk", "commit_group"] => {
            q.operands(ops, 0..=0, "no operands")?;
            Ok("cp.async.bulk.commit_group".into())
        }
        ["async", "bulk", "wait_group", rest @ ..] => {
            let read = match rest {
                [] => false,
                ["read"] => true,
                _ => return q.err(format!("found `{}`, expected cp.async.bulk.wait_group{{.read}} N", q.opcode)),
            };
            q.operands(ops, 1..=1, "1 operand (N, an integer constant)")?;
            match ops[0] {
                Operand::Imm(n) if (0..=63).contains(&n) => {}
                _ => return q.err(format!("found `{}`, expected N, an integer constant 0..63", ops[0].text())),
            }
            Ok(if read {
                "cp.async.bulk.wait_group.read".into()
            } else {
                "cp.async.bulk.wait_group".into()
            })
        }
        ["async", "bulk", dst, src, done] => {
            let dst = if *dst == "shared" { "shared::cluster" } else { dst };
            let f = match (dst, *src, *done) {
                ("shared::cluster" | "shared::cta", "global", "mbarrier::complete_tx::bytes") => {
                    format!("cp.async.bulk.{dst}.global.mbarrier::complete_tx::bytes")
                }
                ("shared::cluster", "shared::cta", "mbarrier::complete_tx::bytes") => {
                    "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes".into()
                }
                ("global", "shared::cta", "bulk_group") => "cp.async.bulk.global.shared::cta.bulk_group".into(),
                _ => {
                    return q.err(format!(
                        "found `{}`, expected cp.async.bulk.shared::{{cluster,cta}}.global.mbarrier::complete_tx::bytes, cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes or cp.async.bulk.global.shared::cta.bulk_group",
                        q.opcode
                    ))
                }
            };
            if f.ends_with("bulk_group") {
                q.operands(ops, 3..=3, "3 operands ([dst], [src], size)")?;
            } else {
                q.operands(ops, 4..=4, "4 operands ([dst], [src], size, [mbar])")?;
                q.addr(ops, 3, "the mbarrier")?;
            }
            q.addr(ops, 0, "the destination")?;
            q.addr(ops, 1, "the source")?;
            q.value(ops, 2, "the size")?;
            if let Operand::Imm(s) = ops[2] {
                if s <= 0 || s % 16 != 0 {
                    return q.err(format!("found size {s}, expected a positive multiple of 16"));
                }
            }
            Ok(f)
        }
        ["async", "bulk", ..] => q.err(format!(
            "found `{}`, expected one of the cp.async.bulk forms: .DST.SRC.COMPLETION, .commit_group, .wait_group{{.read}}",
            q.opcode
        )),
        _ => outside(),
    }
}
