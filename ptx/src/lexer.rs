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
    Punct(char),
}

impl Tok {
    pub fn describe(&self) -> String {
        match self {
            Tok::Word(w) => format!("`{w}`"),
            Tok::Int(i) => format!("`{i}`"),
            Tok::Num(n) => format!("`{n}`"),
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

const PUNCT: &str = ",;[]{}()@!:<>+-";

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
            let tok = if let Some(h) = w.strip_prefix("0x").or_else(|| w.strip_prefix("0X")) {
                match i64::from_str_radix(h, 16) {
                    Ok(v) => Tok::Int(v),
                    Err(_) => Tok::Num(w),
                }
            } else {
                match w.parse::<i64>() {
                    Ok(v) => Tok::Int(v),
                    Err(_) => Tok::Num(w),
                }
            };
            out.push(Token {
                tok,
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
        let e = lex("f", "/* open", 1).unwrap_err();
        assert!(e.msg.contains("unterminated"));
    }
}
