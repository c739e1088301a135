//! The released IP set of a unit: every file `verilog_out/` holds for it
//! (each shipped configuration's Verilog and `config.yaml`, its FuseSoC
//! core, the unit's Verilator waiver file), as data. One function per unit
//! builds the set (`<unit>_rtl::ip_release`); `membar release` writes it
//! (the only writer of `verilog_out/`) and `membar release --check`
//! compares it with a folder; each RTL crate's golden test checks the
//! checked-in copy through [`assert_current`].

use std::path::Path;

/// One file of a release: its path below the release folder (`/`-separated)
/// and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReleasedFile {
    pub path: String,
    pub text: String,
}

impl ReleasedFile {
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Self {
        ReleasedFile {
            path: path.into(),
            text: text.into(),
        }
    }
}

/// The first line where `actual` differs from `expected`, shown with both
/// lines (`None`: equal).
pub fn first_difference(expected: &str, actual: &str) -> Option<String> {
    if expected == actual {
        return None;
    }
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let n = e
        .iter()
        .zip(&a)
        .position(|(x, y)| x != y)
        .unwrap_or(e.len().min(a.len()));
    Some(format!(
        "first difference at line {}:\n  checked in: {}\n  generated:  {}",
        n + 1,
        a.get(n).copied().unwrap_or("<end of file>"),
        e.get(n).copied().unwrap_or("<end of file>")
    ))
}

/// Each file of `files` that is missing below `root` or differs from the
/// generated text, as one message per file.
pub fn stale<'a>(root: &Path, files: impl IntoIterator<Item = &'a ReleasedFile>) -> Vec<String> {
    let mut out = Vec::new();
    for f in files {
        let p = root.join(&f.path);
        match std::fs::read_to_string(&p) {
            Err(e) => out.push(format!("{}: missing ({e})", p.display())),
            Ok(have) => {
                if let Some(d) = first_difference(&f.text, &have) {
                    out.push(format!("{} is stale: {d}", p.display()));
                }
            }
        }
    }
    out
}

/// The golden check of a release: every file of `files` below `root`
/// equals its generated text, or the panic lists every stale or missing
/// file and the command that writes the release (`membar release`; the
/// tests only read).
pub fn assert_current(root: &Path, files: &[ReleasedFile]) {
    let problems = stale(root, files);
    assert!(
        problems.is_empty(),
        "{}\n\nIf the change is intended, write the release with\n  {REGENERATE}\nand review `git diff verilog_out`.",
        problems.join("\n\n")
    );
}

/// The `filesets` section of a unit's FuseSoC core: the Verilog file
/// (`verilog`, relative to `verilog_out/`) and the waiver file (`vlt`).
pub fn fusesoc_filesets(verilog: &str, vlt: &str) -> String {
    format!(
        "filesets:\n  rtl:\n    files:\n      - {verilog}\n    file_type: verilogSource\n  lint_waivers:\n    files:\n      - {vlt}\n    file_type: vlt\n"
    )
}

/// One entry of the `parameters` section of a unit's FuseSoC core (a
/// `vlogdefine` documenting a configuration key the netlist has baked in).
pub fn fusesoc_parameter(
    name: &str,
    datatype: &str,
    default: impl std::fmt::Display,
    description: &str,
) -> String {
    format!(
        "  {name}:\n    datatype: {datatype}\n    default: {default}\n    description: \"{description}\"\n    paramtype: vlogdefine\n"
    )
}

/// The `targets` section of a unit's FuseSoC core: `default` (toplevel
/// `toplevel`, the Verilog and the waivers: a design that depends on the
/// core and lints itself with Verilator gets them; other tools ignore
/// `vlt` files), `lint` (Verilator `-Wall` with the waivers of
/// `waivers_of`, copied to `<toplevel>.vlt`) and `synth` (yosys
/// `synth_<arch>` to a JSON netlist for nextpnr-`<arch>`; `synth_note` says
/// which command adds place and route).
pub fn fusesoc_targets(toplevel: &str, waivers_of: &str, arch: &str, synth_note: &str) -> String {
    format!(
        "targets:\n  default: &default\n    filesets: [rtl, lint_waivers]\n    toplevel: {toplevel}\n  lint:\n    <<: *default\n    description: \"verilator --lint-only -Wall with the waivers of {waivers_of} (copied to {toplevel}.vlt)\"\n    default_tool: verilator\n    tools:\n      verilator:\n        mode: lint-only\n        verilator_options: [-Wall]\n  synth:\n    <<: *default\n    description: \"yosys synth_{arch} to a JSON netlist for nextpnr-{arch} ({synth_note})\"\n    default_tool: yosys\n    tools:\n      yosys:\n        arch: {arch}\n        output_format: json\n"
    )
}

/// The command that writes `verilog_out/` (every unit's release).
pub const REGENERATE: &str = "cargo run --release --bin membar -- release";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_names_missing_and_different_files_only() {
        let d = tempfile_dir();
        std::fs::write(d.join("a.v"), "x\ny\n").unwrap();
        std::fs::write(d.join("b.v"), "x\nz\n").unwrap();
        let files = [
            ReleasedFile::new("a.v", "x\ny\n"),
            ReleasedFile::new("b.v", "x\ny\n"),
            ReleasedFile::new("c/c.v", "x\n"),
        ];
        let s = stale(&d, &files);
        assert_eq!(s.len(), 2, "{s:?}");
        assert!(
            s[0].contains("b.v is stale: first difference at line 2"),
            "{s:?}"
        );
        assert!(s[0].contains("checked in: z") && s[0].contains("generated:  y"));
        assert!(s[1].contains("c.v: missing"), "{s:?}");
        std::fs::remove_dir_all(d).unwrap();
    }

    fn tempfile_dir() -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("hdl_kit_release_{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }
}
