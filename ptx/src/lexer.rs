//! Tokens of the PTX subset, each with its line and column.
//!
//! A word is an identifier, register (`%r1`), directive (`.reg`) or dotted
//! opcode (`fence.proxy.async::generic.release.cluster`): letters, digits,
//! `_ % $ .` and `::`. A lone `:` ends a label. Comments `//` and `/* */`.

use crate::error::{PtxError, Result};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    Word(String),
    Int(i64),
    /// A numeric literal that is not an integer (`8.0` in `.version 8.0`).
    Num(String),
    /// A hexadecimal floating-point literal: `0f3F800000` (an f32's bits) or
    /// `0d3FF0000000000000` (an f64's bits), as written and as bits.
    Float {
        text: String,
        bits: u64,
    },
    /// A string literal (`.pragma "nounroll";`, `.file 1 "k.cu"`), without its quotes.
    Str(String),
    Punct(char),
}

impl Tok {
    pub fn describe(&self) -> String {
        match self {
            Tok::Word(w) => format!("`{w}`"),
            Tok::Int(i) => format!("`{i}`"),
            Tok::Num(n) => format!("`{n}`"),
            Tok::Float { text, .. } => format!("`{text}`"),
            Tok::Str(t) => format!("`\"{t}\"`"),
            Tok::Punct(c) => format!("`{c}`"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    pub line: usize,
    pub col: usize,
}

fn word_start(c: char) -> bool {
    c.is_ascii_alphabetic() || matches!(c, '_' | '%' | '$' | '.')
}

fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '%' | '$' | '.')
}

const PUNCT: &str = ",;[]{}()@!:<>+-=|";

/// Split `src` into tokens; `first_line` is the file line of `src`'s first line.
pub fn lex(file: &str, src: &str, first_line: usize) -> Result<Vec<Token>> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut col) = (0usize, first_line, 1usize);
    while i < chars.len() {
        let c = chars[i];
        let (tl, tc) = (line, col);
        if c == '\n' {
            i += 1;
            line += 1;
            col = 1;
        } else if c.is_whitespace() {
            i += 1;
            col += 1;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            i += 2;
            col += 2;
            loop {
                if i >= chars.len() {
                    return Err(PtxError::new(
                        file,
                        tl,
                        tc,
                        "found an unterminated `/*` comment, expected `*/` before the end of the file",
                    ));
                }
                if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    i += 2;
                    col += 2;
                    break;
                }
                if chars[i] == '\n' {
                    line += 1;
                    col = 1;
                } else {
                    col += 1;
                }
                i += 1;
            }
        } else if word_start(c) {
            let mut w = String::new();
            while i < chars.len() {
                let d = chars[i];
                if word_char(d) {
                    w.push(d);
                    i += 1;
                    col += 1;
                } else if d == ':' && chars.get(i + 1) == Some(&':') {
                    w.push_str("::");
                    i += 2;
                    col += 2;
                } else {
                    break;
                }
            }
            out.push(Token {
                tok: Tok::Word(w),
                line: tl,
                col: tc,
            });
        } else if c.is_ascii_digit() {
            let mut w = String::new();
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '.') {
                w.push(chars[i]);
                i += 1;
                col += 1;
            }
            let tok = number(&w);
            out.push(Token {
                tok,
                line: tl,
                col: tc,
            });
        } else if c == '"' {
            let mut t = String::new();
            i += 1;
            col += 1;
            loop {
                match chars.get(i) {
                    Some('"') => {
                        i += 1;
                        col += 1;
                        break;
                    }
                    Some('\n') | None => {
                        return Err(PtxError::new(
                            file,
                            tl,
                            tc,
                            "found an unterminated string literal, expected `\"` before the end of the line",
                        ))
                    }
                    Some(&d) => {
                        t.push(d);
                        i += 1;
                        col += 1;
                    }
                }
            }
            out.push(Token {
                tok: Tok::Str(t),
                line: tl,
                col: tc,
            });
        } else if PUNCT.contains(c) {
            i += 1;
            col += 1;
            out.push(Token {
                tok: Tok::Punct(c),
                line: tl,
                col: tc,
            });
        } else {
            return Err(PtxError::new(
                file,
                tl,
                tc,
                format!(
                    "found the character {c:?}, expected a word, a number, a comment or one of `{PUNCT}`"
                ),
            ));
        }
    }
    Ok(out)
}

/// A numeric token: decimal or `0x` hexadecimal integers up to 2^64 - 1
/// (an integer from 2^63 up is kept as its two's-complement `i64`, the bits
/// PTX gives it), `0f`/`0d` hexadecimal floats (8 / 16 digits), an optional
/// `U` suffix; anything else is a [`Tok::Num`].
fn number(w: &str) -> Tok {
    let body = w.strip_suffix('U').unwrap_or(w);
    // `0f` + 8 hex digits (f32 bits), `0d` + 16 (f64 bits).
    for (prefix, digits) in [("0f", 8), ("0d", 16)] {
        let h = w.get(2..).filter(|_| w[..2].eq_ignore_ascii_case(prefix));
        if let Some(h) = h.filter(|h| h.len() == digits && h.chars().all(|c| c.is_ascii_hexdigit()))
        {
            if let Ok(bits) = u64::from_str_radix(h, 16) {
                return Tok::Float {
                    text: w.to_string(),
                    bits,
                };
            }
        }
    }
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else {
        body.parse::<u64>().ok()
    };
    match v {
        Some(v) => Tok::Int(v as i64),
        None => Tok::Num(w.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_keep_dots_and_double_colons_labels_split() {
        let t = lex(
            "f",
            "L1: fence.proxy.async::generic.release.cluster; // x\n @!%p bra L1;",
            3,
        )
        .unwrap();
        let words: Vec<_> = t.iter().map(|t| t.tok.clone()).collect();
        assert_eq!(words[0], Tok::Word("L1".into()));
        assert_eq!(words[1], Tok::Punct(':'));
        assert_eq!(
            words[2],
            Tok::Word("fence.proxy.async::generic.release.cluster".into())
        );
        assert_eq!((t[4].line, t[4].col), (4, 2));
        assert_eq!(t[5].tok, Tok::Punct('!'));
    }

    #[test]
    fn numbers_and_bad_characters() {
        let t = lex("f", "0x40 64 8.0", 1).unwrap();
        assert_eq!(t[0].tok, Tok::Int(64));
        assert_eq!(t[1].tok, Tok::Int(64));
        assert_eq!(t[2].tok, Tok::Num("8.0".into()));
        let e = lex("f.ptx", "mov.u32 %r1,\n  #3;", 10).unwrap_err();
        assert_eq!((e.line, e.col), (11, 3));
        assert!(e
            .to_string()
            .starts_with("f.ptx:11:3: found the character '#'"));
        let t = lex(
            "f",
            "0f3F800000 0d408F400000000000 18446744073709551615 \"nounroll\"",
            1,
        )
        .unwrap();
        assert_eq!(
            t[0].tok,
            Tok::Float {
                text: "0f3F800000".into(),
                bits: 0x3F80_0000
            }
        );
        assert_eq!(
            t[1].tok,
            Tok::Float {
                text: "0d408F400000000000".into(),
                bits: 0x408F_4000_0000_0000
            }
        );
        assert_eq!(t[2].tok, Tok::Int(-1));
        assert_eq!(t[3].tok, Tok::Str("nounroll".into()));
        let e = lex("f", "/* open", 1).unwrap_err();
        assert!(e.msg.contains("unterminated"));
    }
}
