//! A program file: a YAML front matter between `---` lines, then the PTX body.
//!
//! ```text
//! ---
//! ctas: 2          # CTAs in the grid (default 1)
//! cluster: 2       # CTAs per cluster; absent = not a cluster launch
//! warps:           # which warps run which entry
//!   - {cta: 0, warp: 0, program: producer}
//!   - {cta: 1, warp: 0, program: consumer}
//! ---
//! .version 8.0
//! .target sm_90
//! .entry producer { ... }
//! ```
//! Unknown keys are refused; errors name file:line:key.

use crate::error::{PtxError, Result};
use crate::parser::{parse_module, Entry, Module};
use serde::Deserialize;

/// Warps per CTA the header may place (1024 threads).
pub const MAX_WARPS_PER_CTA: u32 = 32;
/// CTAs per cluster (16 with the non-portable opt-in on sm_90).
pub const MAX_CLUSTER: u32 = 16;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WarpPlacement {
    pub cta: u32,
    pub warp: u32,
    pub program: String,
    /// Threads of the warp (lanes 0..lanes), each running `program` with its
    /// own registers (`%laneid` tells them apart); default 1.
    #[serde(default = "one")]
    pub lanes: u32,
}

/// A host (CPU) thread running an entry: memory accesses only (ld, st,
/// atom, red at system scope), fences and arithmetic; no SM units.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostPlacement {
    pub thread: u32,
    pub program: String,
}

/// Host threads a header may place.
pub const MAX_HOST_THREADS: u32 = 8;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    #[serde(default = "one")]
    pub ctas: u32,
    #[serde(default)]
    pub cluster: Option<u32>,
    pub warps: Vec<WarpPlacement>,
    /// Host threads (`hosts: [{thread: 0, program: reader}]`).
    #[serde(default)]
    pub hosts: Vec<HostPlacement>,
    /// A litmus test's expectations (`litmus/`, `docs/litmus.md`); checked by `sm-exec`.
    #[serde(default)]
    pub litmus: Option<Litmus>,
}

/// The `litmus:` key of a litmus test file: which registers are observed and
/// which outcomes the fenced test forbids.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Litmus {
    /// Observed registers as `CTA/WARP/%reg`, e.g. `1/0/%r1`.
    pub observe: Vec<String>,
    /// Outcomes (one value per observed register) forbidden with the fences.
    pub forbidden: Vec<Vec<i64>>,
    /// Outcomes the PTX memory model allows for this file (any other outcome fails).
    pub allowed: Vec<Vec<i64>>,
    /// `never`: a forbidden outcome must never appear (fenced test); `seen`:
    /// it must appear (the twin without the fence, or a too-narrow scope);
    /// `stronger`: PTX allows it but this model cannot produce it (documented).
    pub expect: String,
    /// The file of the other half of the pair (fenced / unfenced).
    #[serde(default)]
    pub twin: Option<String>,
    /// One line on what the test shows.
    #[serde(default)]
    pub note: Option<String>,
}

fn one() -> u32 {
    1
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    pub file: String,
    pub header: Header,
    pub module: Module,
}

impl Program {
    pub fn entry(&self, name: &str) -> Option<&Entry> {
        self.module.entries.iter().find(|e| e.name == name)
    }
    /// A cluster launch (`cluster` given in the header).
    pub fn cluster_launch(&self) -> bool {
        self.header.cluster.is_some()
    }
}

/// Parse a program file (header + PTX). `file` is used in error messages.
pub fn parse(file: &str, src: &str) -> Result<Program> {
    if src.starts_with('\u{feff}') {
        return Err(PtxError::new(
            file,
            1,
            1,
            "the file starts with a UTF-8 byte-order mark (bytes EF BB BF), expected the YAML header's first line `---`; save the file without a BOM",
        ));
    }
    let lines: Vec<&str> = src.split('\n').collect();
    if lines.first().map(|l| l.trim_end()) != Some("---") {
        return Err(PtxError::new(
            file,
            1,
            1,
            format!(
                "found {}, expected the YAML header: a first line `---`, keys warps/ctas/cluster, and a closing `---` (a PTX module as nvcc writes it runs with `membar run FILE.ptx --launch L.yaml`, docs/kernels.md)",
                lines.first().map(|l| format!("`{}`", l.chars().take(40).collect::<String>())).unwrap_or_else(|| "an empty file".into())
            ),
        ));
    }
    let Some(close) = lines
        .iter()
        .skip(1)
        .position(|l| l.trim_end() == "---")
        .map(|i| i + 1)
    else {
        return Err(PtxError::new(
            file,
            lines.len(),
            1,
            "found the end of the file, expected `---` closing the YAML header",
        ));
    };
    let head_text = lines[1..close].join("\n");
    let header = parse_header(file, &head_text)?;
    let body = lines[close + 1..].join("\n");
    let module = parse_module(file, &body, close + 2)?;
    let prog = Program {
        file: file.to_string(),
        header,
        module,
    };
    check(&prog, &lines[1..close])?;
    Ok(prog)
}

fn parse_header(file: &str, text: &str) -> Result<Header> {
    serde_yaml::from_str::<Header>(text).map_err(|e| {
        let (line, col) = e
            .location()
            .map(|l| (l.line() + 1, l.column()))
            .unwrap_or((2, 1));
        // serde_yaml's message names the key path and ends with its own location; keep the key part.
        let msg = e.to_string();
        let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
        PtxError::new(file, line, col, format!("header: {msg}"))
    })
}

/// The file line of `key` in the `i`-th `warps` item (or of the top-level key).
fn key_line(head: &[&str], item: Option<usize>, key: &str) -> (usize, usize) {
    let find = |from: usize, to: usize| {
        (from..to).find_map(|n| head[n].find(&format!("{key}:")).map(|c| (n + 2, c + 1)))
    };
    match item {
        None => head
            .iter()
            .position(|l| l.starts_with(&format!("{key}:")))
            .map(|n| (n + 2, 1))
            .unwrap_or((1, 1)),
        Some(i) => {
            let start = head
                .iter()
                .position(|l| l.starts_with("warps:"))
                .unwrap_or(0);
            let items: Vec<usize> = (start + 1..head.len())
                .filter(|&n| head[n].trim_start().starts_with("- ") || head[n].trim() == "-")
                .collect();
            match items.get(i) {
                Some(&s) => {
                    let e = items.get(i + 1).copied().unwrap_or(head.len());
                    find(s, e).unwrap_or((s + 2, 1))
                }
                None => (start + 2, 1),
            }
        }
    }
}

fn check(p: &Program, head: &[&str]) -> Result<()> {
    let h = &p.header;
    let err = |item: Option<usize>, key: &str, msg: String| {
        let (l, c) = key_line(head, item, key);
        let k = match item {
            Some(i) => format!("warps[{i}].{key}"),
            None => key.to_string(),
        };
        Err(PtxError::new(
            &p.file,
            l,
            c,
            format!("header key `{k}`: {msg}"),
        ))
    };
    if h.ctas == 0 || h.ctas > 1024 {
        return err(None, "ctas", format!("found {}, expected 1..1024", h.ctas));
    }
    if let Some(c) = h.cluster {
        if c == 0 || c > MAX_CLUSTER || !h.ctas.is_multiple_of(c) {
            return err(
                None,
                "cluster",
                format!(
                    "found {c}, expected 1..{MAX_CLUSTER} dividing ctas = {}",
                    h.ctas
                ),
            );
        }
    }
    if h.warps.is_empty() {
        return err(
            None,
            "warps",
            "found an empty list, expected at least one warp".into(),
        );
    }
    for (i, w) in h.warps.iter().enumerate() {
        if w.cta >= h.ctas {
            return err(
                Some(i),
                "cta",
                format!(
                    "found {}, expected 0..{} (ctas = {})",
                    w.cta,
                    h.ctas - 1,
                    h.ctas
                ),
            );
        }
        if w.warp >= MAX_WARPS_PER_CTA {
            return err(
                Some(i),
                "warp",
                format!("found {}, expected 0..{}", w.warp, MAX_WARPS_PER_CTA - 1),
            );
        }
        if let Some(j) = h.warps[..i]
            .iter()
            .position(|v| v.cta == w.cta && v.warp == w.warp)
        {
            return err(
                Some(i),
                "warp",
                format!(
                    "found cta {} warp {} placed twice (also warps[{j}]), expected each warp once",
                    w.cta, w.warp
                ),
            );
        }
        if w.lanes == 0 || w.lanes > 32 {
            return err(
                Some(i),
                "lanes",
                format!("found {}, expected 1..32", w.lanes),
            );
        }
        if p.entry(&w.program).is_none() {
            let names: Vec<&str> = p.module.entries.iter().map(|e| e.name.as_str()).collect();
            return err(
                Some(i),
                "program",
                format!(
                    "found `{}`, expected an entry of this file ({})",
                    w.program,
                    names.join(", ")
                ),
            );
        }
    }
    for (i, hp) in h.hosts.iter().enumerate() {
        let (l, c) = key_line(head, None, "hosts");
        let e = |msg: String| {
            Err(PtxError::new(
                &p.file,
                l,
                c,
                format!("header key `hosts[{i}]`: {msg}"),
            ))
        };
        if hp.thread >= MAX_HOST_THREADS {
            return e(format!(
                "thread {} found, expected 0..{}",
                hp.thread,
                MAX_HOST_THREADS - 1
            ));
        }
        if h.hosts[..i].iter().any(|o| o.thread == hp.thread) {
            return e(format!(
                "host thread {} placed twice, expected each once",
                hp.thread
            ));
        }
        if p.entry(&hp.program).is_none() {
            return e(format!(
                "program `{}` is not an entry of this file",
                hp.program
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = ".version 8.0\n.target sm_90\n.entry a {\n  membar.gl;\n}\n";

    #[test]
    fn a_byte_order_mark_is_named() {
        let e = parse("f.ptx", "\u{feff}---\nwarps: []\n---\n").unwrap_err();
        let m = e.to_string();
        assert!(
            m.contains("f.ptx:1:1") && m.contains("byte-order mark"),
            "{m}"
        );
        assert!(!m.contains('\u{feff}'), "{m}");
    }

    #[test]
    fn header_places_warps() {
        let src = format!("---\nctas: 2\ncluster: 2\nwarps:\n  - {{cta: 0, warp: 0, program: a}}\n  - {{cta: 1, warp: 3, program: a}}\n---\n{BODY}");
        let p = parse("t.ptx", &src).unwrap();
        assert_eq!(p.header.warps.len(), 2);
        assert!(p.cluster_launch());
        assert_eq!(p.module.entries[0].insts().next().unwrap().line, 11);
    }

    #[test]
    fn unknown_key_names_file_line_key() {
        let src = format!(
            "---\nwarps:\n  - cta: 0\n    warp: 0\n    program: a\n    lane: 3\n---\n{BODY}"
        );
        let e = parse("t.ptx", &src).unwrap_err();
        assert_eq!(e.line, 6, "{e}");
        assert!(e.to_string().starts_with("t.ptx:6:"), "{e}");
        assert!(e.msg.contains("lane"), "{e}");
        let src = format!("---\nwarp: []\n---\n{BODY}");
        let e = parse("t.ptx", &src).unwrap_err();
        assert!(e.msg.contains("warp") && e.line == 2, "{e}");
    }

    #[test]
    fn semantic_errors_name_the_key_line() {
        let src = format!("---\nctas: 1\nwarps:\n  - cta: 0\n    warp: 0\n    program: a\n  - cta: 0\n    warp: 1\n    program: b\n---\n{BODY}");
        let e = parse("t.ptx", &src).unwrap_err();
        assert_eq!(
            (e.line, e.msg.contains("warps[1].program")),
            (9, true),
            "{e}"
        );
        let src = format!("---\nctas: 1\nwarps:\n  - {{cta: 1, warp: 0, program: a}}\n---\n{BODY}");
        let e = parse("t.ptx", &src).unwrap_err();
        assert!(e.msg.contains("warps[0].cta") && e.line == 4, "{e}");
        let src = format!(
            "---\nctas: 3\ncluster: 2\nwarps:\n  - {{cta: 1, warp: 0, program: a}}\n---\n{BODY}"
        );
        let e = parse("t.ptx", &src).unwrap_err();
        assert!(e.msg.contains("`cluster`") && e.line == 3, "{e}");
        let src = format!("---\nwarps:\n  - {{cta: 0, warp: 0, program: a}}\n  - {{cta: 0, warp: 0, program: a}}\n---\n{BODY}");
        assert!(parse("t.ptx", &src)
            .unwrap_err()
            .msg
            .contains("placed twice"));
    }

    #[test]
    fn missing_header_or_close() {
        let e = parse("t.ptx", BODY).unwrap_err();
        assert_eq!((e.line, e.col), (1, 1));
        assert!(e.msg.contains("YAML header"));
        let e = parse("t.ptx", "---\nwarps: []\n").unwrap_err();
        assert!(e.msg.contains("closing"));
    }
}
