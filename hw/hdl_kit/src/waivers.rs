//! Lint waivers that still waive something.
//!
//! Every unit lints its emitted Verilog with `verilator --lint-only -Wall`
//! and a waiver file (`hw/<unit>/lint/<top>.vlt`, one comment per waiver).
//! A waiver whose warning the generator no longer produces hides nothing
//! today but would hide a new warning of the same form tomorrow, and its
//! comment explains code that is gone. This module parses a waiver file
//! ([`parse`]), collects the warnings Verilator gives without it
//! ([`warnings_without_waivers`]) and names the waivers none of them
//! matches ([`unused`]). `tests/waivers_in_use.rs` runs it on every unit's
//! shipped Verilog.
//!
//! Matching follows Verilator's `lint_off -rule R -file F -match M`: the
//! rule names the warning, `-file` is a wildcard on the file name and
//! `-match` a wildcard on the message (`*` any run of characters, `?` one
//! character).

use std::path::Path;
use std::process::Command;

/// One `lint_off` line of a waiver file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiver {
    /// 1-based line in the waiver file.
    pub line: usize,
    pub rule: String,
    /// The `-file` wildcard (`*` when absent).
    pub file: String,
    /// The `-match` wildcard (`*` when absent).
    pub pattern: String,
}

/// One warning of a Verilator run: its rule, the file it names and the
/// whole first line of its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub rule: String,
    pub file: String,
    pub text: String,
}

/// The quoted value after `key` on a `lint_off` line.
fn quoted(line: &str, key: &str) -> Option<String> {
    let at = line.find(key)? + key.len();
    let rest = line[at..].trim_start().strip_prefix('"')?;
    Some(rest[..rest.find('"')?].to_string())
}

/// The `lint_off` lines of a waiver file's text (`name` for errors). A
/// `lint_off` without `-rule`, or with an unterminated quote, is an error
/// naming the line.
pub fn parse(name: &str, text: &str) -> Result<Vec<Waiver>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if !line.starts_with("lint_off") {
            continue;
        }
        let rule = line
            .split_whitespace()
            .skip_while(|w| *w != "-rule")
            .nth(1)
            .ok_or_else(|| format!("{name}:{}: a lint_off without -rule: {line}", i + 1))?;
        let get = |key: &str| -> Result<String, String> {
            if line.contains(key) {
                quoted(line, key)
                    .ok_or_else(|| format!("{name}:{}: {key} needs a quoted value: {line}", i + 1))
            } else {
                Ok("*".into())
            }
        };
        out.push(Waiver {
            line: i + 1,
            rule: rule.to_string(),
            file: get("-file")?,
            pattern: get("-match")?,
        });
    }
    Ok(out)
}

/// Verilator's wildcard match: `*` any run of characters, `?` one.
pub fn wildcard(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    // Greedy with backtracking to the last `*`.
    let (mut i, mut j, mut star, mut mark) = (0, 0, None, 0);
    while j < t.len() {
        if i < p.len() && (p[i] == '?' || p[i] == t[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some(i);
            mark = j;
            i += 1;
        } else if let Some(s) = star {
            i = s + 1;
            mark += 1;
            j = mark;
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

/// The warnings of Verilator's text output (`%Warning-RULE: file:line:col: message`).
pub fn parse_warnings(output: &str) -> Vec<Warning> {
    output
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("%Warning-")?;
            let (rule, msg) = rest.split_once(':')?;
            let file = msg.trim_start().split(':').next().unwrap_or("").to_string();
            Some(Warning {
                rule: rule.to_string(),
                file,
                text: l.to_string(),
            })
        })
        .collect()
}

/// `verilator --lint-only -Wall -Wno-fatal` on `verilog` (top `top`)
/// without any waiver file: every warning it gives.
pub fn warnings_without_waivers(verilog: &Path, top: &str) -> Result<Vec<Warning>, String> {
    let out = Command::new("verilator")
        .args(["--lint-only", "-Wall", "-Wno-fatal", "--top-module", top])
        .arg(verilog)
        .output()
        .map_err(|e| {
            format!("verilator could not be run ({e}); install it with `sudo apt-get install -y verilator`")
        })?;
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    if !out.status.success() {
        return Err(format!(
            "verilator failed on {}:\n{text}",
            verilog.display()
        ));
    }
    Ok(parse_warnings(&text))
}

/// Does `w` waive `warning`?
pub fn waives(w: &Waiver, warning: &Warning) -> bool {
    w.rule == warning.rule
        && wildcard(&w.file, &warning.file)
        && wildcard(&w.pattern, &warning.text)
}

/// The waivers that no warning of `warnings` matches.
pub fn unused<'a>(waivers: &'a [Waiver], warnings: &[Warning]) -> Vec<&'a Waiver> {
    waivers
        .iter()
        .filter(|w| !warnings.iter().any(|x| waives(w, x)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_match_as_verilator_does() {
        assert!(wildcard("*sm_sync.v", "/a/b/sm_sync.v"));
        assert!(!wildcard("*sm_sync.v", "/a/b/sm_sync.vh"));
        assert!(wildcard(
            "*VARREF 'enc_?__age' generates*",
            "x VARREF 'enc_r__age' generates 3"
        ));
        assert!(!wildcard(
            "*VARREF 'enc_?__age' generates*",
            "x VARREF 'enc__age' generates 3"
        ));
        assert!(wildcard("*", ""));
        assert!(wildcard("a*b*c", "aXXbYbc"));
        assert!(!wildcard("a*b*c", "aXXbYb"));
    }

    #[test]
    fn a_waiver_without_its_warning_is_reported() {
        let vlt = "`verilator_config\n// why\nlint_off -rule WIDTH -file \"*u.v\" -match \"*'x' generates 1 bits.\"\n\
                   lint_off -rule DECLFILENAME -file \"*u.v\"\nlint_off -rule UNUSEDSIGNAL -file \"*u.v\" -match \"*'gone'\"\n";
        let ws = parse("u.vlt", vlt).unwrap();
        assert_eq!(ws.len(), 3);
        assert_eq!(ws[2].line, 5);
        let out = "%Warning-WIDTH: /t/u.v:3:5: Operator AND expects 4 bits on the LHS, but LHS's VARREF 'x' generates 1 bits.\n\
                   : ... note\n%Warning-DECLFILENAME: /t/u.v:1:8: Filename 'u' does not match MODULE name: 'v'\n";
        let warns = parse_warnings(out);
        assert_eq!(warns.len(), 2);
        assert_eq!(warns[0].file, "/t/u.v");
        let left: Vec<usize> = unused(&ws, &warns).iter().map(|w| w.line).collect();
        assert_eq!(left, vec![5]);
    }

    #[test]
    fn a_lint_off_without_a_rule_is_an_error() {
        let e = parse("u.vlt", "lint_off -file \"*u.v\"\n").unwrap_err();
        assert!(e.contains("u.vlt:1"), "{e}");
    }
}
