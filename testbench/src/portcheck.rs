//! Checks that a Verilog file's `module membar_unit` has exactly the SPEC.md
//! ports (names, directions, widths) for a configuration, before spending a
//! Verilator build on it. A light scanner, not a Verilog parser: it reads
//! `input`/`output` declarations (ANSI header or Verilog-95 body) inside the
//! module; ranges must be numeric (`[4:0]`), as emitted files have them.

use membar_unit_env::Config;

pub use membar_unit_env::ports::{spec_ports, Dir};

/// A declared port: name, direction, width (None when the range is not numeric).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    pub name: String,
    pub dir: Dir,
    pub width: Option<u32>,
}

fn strip_comments(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && i + 1 < b.len() && b[i + 1] == b'/' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && i + 1 < b.len() && b[i + 1] == b'*' {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
            out.push(' ');
        } else {
            // Push whole UTF-8 characters.
            let ch = s[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

fn tokens(s: &str) -> Vec<String> {
    let mut t = Vec::new();
    let mut cur = String::new();
    for c in s.chars() {
        if c.is_alphanumeric() || c == '_' || c == '$' || c == '\'' || c == '\\' {
            cur.push(c);
        } else {
            if !cur.is_empty() {
                t.push(std::mem::take(&mut cur));
            }
            if !c.is_whitespace() {
                t.push(c.to_string());
            }
        }
    }
    if !cur.is_empty() {
        t.push(cur);
    }
    t
}

fn parse_int(s: &str) -> Option<i64> {
    // 4, 'd4, 32'd4, 4'h3
    let s = s.replace('_', "");
    if let Some(pos) = s.find('\'') {
        let rest = &s[pos + 1..];
        let (radix, digits) = match rest.chars().next()? {
            'd' | 'D' => (10, &rest[1..]),
            'h' | 'H' => (16, &rest[1..]),
            'b' | 'B' => (2, &rest[1..]),
            'o' | 'O' => (8, &rest[1..]),
            _ => return None,
        };
        i64::from_str_radix(digits, radix).ok()
    } else {
        s.parse().ok()
    }
}

/// The ports declared in `module <name>`; `None` when the module is absent.
pub fn module_ports(verilog: &str, module: &str) -> Option<Vec<Port>> {
    let toks = tokens(&strip_comments(verilog));
    let start = toks
        .windows(2)
        .position(|w| w[0] == "module" && w[1] == module)?;
    let end = toks[start..]
        .iter()
        .position(|t| t == "endmodule")
        .map(|e| start + e)
        .unwrap_or(toks.len());
    let t = &toks[start..end];
    let mut ports = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let dir = match t[i].as_str() {
            "input" => Dir::In,
            "output" => Dir::Out,
            _ => {
                i += 1;
                continue;
            }
        };
        i += 1;
        while i < t.len()
            && matches!(
                t[i].as_str(),
                "wire" | "reg" | "logic" | "signed" | "unsigned" | "var"
            )
        {
            i += 1;
        }
        let mut width = Some(1u32);
        if i < t.len() && t[i] == "[" {
            let close = t[i..]
                .iter()
                .position(|x| x == "]")
                .map(|p| i + p)
                .unwrap_or(t.len());
            let inner = &t[i + 1..close.min(t.len())];
            width = match inner {
                [a, c, b] if c == ":" => match (parse_int(a), parse_int(b)) {
                    (Some(a), Some(b)) => Some((a - b).unsigned_abs() as u32 + 1),
                    _ => None,
                },
                _ => None,
            };
            i = close + 1;
        }
        // Names until `;` or `)` or the next direction keyword.
        while i < t.len() {
            let tok = t[i].as_str();
            if tok == ";" || tok == ")" || tok == "input" || tok == "output" {
                break;
            }
            if tok != ","
                && tok != "="
                && tok
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '\\')
            {
                ports.push(Port {
                    name: tok.trim_start_matches('\\').to_string(),
                    dir,
                    width,
                });
            }
            i += 1;
        }
    }
    Some(ports)
}

/// Problems with the ports of `module membar_unit` in `verilog` for `cfg`
/// (empty when it matches SPEC.md).
pub fn check_ports(verilog: &str, cfg: &Config) -> Vec<String> {
    use membar_unit_env::ports::{MembarUnitPorts, Unit};
    check_unit_ports(
        verilog,
        MembarUnitPorts::MODULE,
        &MembarUnitPorts::ports(cfg),
        &cfg.short_name(),
    )
}

/// Problems with the ports of `module <module>` in `verilog` against its
/// declared port table `spec` (configuration `cfg_name`); empty when they match.
pub fn check_unit_ports(
    verilog: &str,
    module: &str,
    spec: &[unit_ports::Port],
    cfg_name: &str,
) -> Vec<String> {
    let Some(ports) = module_ports(verilog, module) else {
        return vec![format!("no `module {module}` in the file")];
    };
    let mut problems = Vec::new();
    for &unit_ports::Port { name, dir, width } in spec {
        let dir = if dir == Dir::Clock { Dir::In } else { dir };
        match ports.iter().find(|p| p.name == name) {
            None => problems.push(format!(
                "port `{name}` is missing (SPEC.md: {} [{}])",
                dir_name(dir),
                width
            )),
            Some(p) => {
                if p.dir != dir {
                    problems.push(format!(
                        "port `{name}` is an {}, SPEC.md says {}",
                        dir_name(p.dir),
                        dir_name(dir)
                    ));
                }
                if let Some(w) = p.width {
                    if w != width {
                        problems.push(format!(
                            "port `{name}` is {w} bit(s) wide, SPEC.md says {width} for {cfg_name}"
                        ));
                    }
                }
            }
        }
    }
    for p in &ports {
        if !spec.iter().any(|s| s.name == p.name) {
            problems.push(format!(
                "port `{}` ({}) is not a SPEC.md port",
                p.name,
                dir_name(p.dir)
            ));
        }
    }
    problems
}

fn dir_name(d: Dir) -> &'static str {
    match d {
        Dir::In | Dir::Clock => "input",
        Dir::Out => "output",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ansi_and_95_styles() {
        let cfg = Config::default();
        let v = crate::standin::standin_verilog(&cfg);
        assert_eq!(check_ports(&v, &cfg), Vec::<String>::new());
        let v95 = "module membar_unit(clock, reset);\n input clock; // c\n input wire [0:0] reset;\nendmodule\n";
        let p = module_ports(v95, "membar_unit").unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[1].width, Some(1));
        let probs = check_ports(v95, &cfg);
        assert!(
            probs.iter().any(|s| s.contains("`req_warp` is missing")),
            "{probs:?}"
        );
        let wrong = v.replace("[4:0] req_warp", "[5:0] req_warp");
        let probs = check_ports(&wrong, &cfg);
        assert!(
            probs.iter().any(|s| s.contains("`req_warp` is 6 bit")),
            "{probs:?}"
        );
    }
}
