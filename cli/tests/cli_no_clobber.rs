//! Issue 22 (round 2), items 1-4: no output replaces a file the command did
//! not write. `cosim --unit U --waves` and `calibrate --unit U --markdown`
//! go through the one writer (`cli/kit/src/output.rs`); "written by membar" is
//! decided by a marker line holding the SHA-256 of the file's own content,
//! never by first bytes another tool (Icarus, a user) also writes; outputs
//! get the usual 0666 less the umask, not the temporary file's 0600.
//!
//! Each test fails on a build without the fix (`MEMBAR_BIN=/path/to/old`).

mod common;
use common::{membar, root, text, tmp_dir};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const MBAR_CONFIG: &str = "verilog_out/mbarrier_unit/default/config.yaml";

fn copy_mbar_config(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::copy(root().join(MBAR_CONFIG), &p).unwrap();
    p
}

/// An Icarus Verilog style VCD: it starts like ours (`$date`).
const ICARUS_VCD: &str = "$date\n\tMon Nov 23 10:00:00 2026\n$end\n$version\n\tIcarus Verilog\n$end\n$timescale 1s $end\n$scope module tb $end\n$var wire 1 ! clk $end\n$upscope $end\n$enddefinitions $end\n#0\n0!\n";

/// Item 1: `cosim --unit mbarrier|async_groups|sm_sync --waves` never
/// replaces its own `--config` (nor a user's file).
#[test]
fn unit_cosim_waves_never_overwrites_its_config() {
    let dir = tmp_dir("nc-unit-waves-config");
    for (unit, cfg) in [
        ("mbarrier", MBAR_CONFIG),
        (
            "async_groups",
            "verilog_out/async_groups/default/config.yaml",
        ),
        ("sm_sync", "configs/sm_sync_small.yaml"),
    ] {
        let c = dir.join(format!("{unit}.vcd"));
        std::fs::copy(root().join(cfg), &c).unwrap();
        let before = std::fs::read(&c).unwrap();
        let cs = c.to_str().unwrap();
        let o = membar(&[
            "cosim", "--unit", unit, "--config", cs, "--cycles", "50", "--waves", cs,
        ]);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{unit}: {t}");
        assert!(t.contains("--waves") && t.contains("input"), "{unit}: {t}");
        assert_eq!(std::fs::read(&c).unwrap(), before, "{unit}: config changed");
    }
}

/// Items 1 and 3: a unit cosim's waveform replaces only its own earlier
/// waveform; an Icarus VCD, an empty file or an edited copy of ours is
/// refused and left as it was.
#[test]
fn unit_cosim_waves_replaces_only_its_own_waveform() {
    let dir = tmp_dir("nc-unit-waves-own");
    let c = copy_mbar_config(&dir, "m.yaml");
    let w = dir.join("run.vcd");
    let args = [
        "cosim",
        "--unit",
        "mbarrier",
        "--config",
        c.to_str().unwrap(),
        "--cycles",
        "100",
        "--waves",
        w.to_str().unwrap(),
    ];
    let o = membar(&args);
    assert!(o.status.success(), "{}", text(&o));
    let first = std::fs::read_to_string(&w).unwrap();
    assert!(first.contains("$enddefinitions"), "not a VCD");
    assert!(
        first
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("$comment written by membar; sha256")),
        "no marker line"
    );
    let o = membar(&args);
    assert!(o.status.success(), "second run: {}", text(&o));
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "temporary file left: {names:?}");
    for (what, body) in [
        ("Icarus VCD", ICARUS_VCD.to_string()),
        ("empty file", String::new()),
        ("edited copy", format!("{first}#9999\n")),
    ] {
        std::fs::write(&w, &body).unwrap();
        let o = membar(&args);
        assert_eq!(o.status.code(), Some(2), "{what}: {}", text(&o));
        assert!(text(&o).contains("refusing to overwrite"), "{}", text(&o));
        assert_eq!(std::fs::read_to_string(&w).unwrap(), body, "{what}");
    }
}

/// Item 2: `calibrate --unit bar|mbarrier --markdown F` goes through the
/// writer: a user's file (or an empty one) is refused and untouched, its own
/// table is replaced.
#[test]
fn calibrate_unit_markdown_never_overwrites_a_users_file() {
    let dir = tmp_dir("nc-calibrate-md");
    for unit in ["bar", "mbarrier"] {
        let md = dir.join(format!("{unit}.md"));
        let ms = md.to_str().unwrap();
        for body in ["my notes\n", ""] {
            std::fs::write(&md, body).unwrap();
            let o = membar(&["calibrate", "--unit", unit, "--markdown", ms]);
            assert_eq!(o.status.code(), Some(2), "{unit}: {}", text(&o));
            assert!(text(&o).contains("--markdown"), "{}", text(&o));
            assert_eq!(std::fs::read_to_string(&md).unwrap(), body);
        }
        std::fs::remove_file(&md).unwrap();
        let o = membar(&["calibrate", "--unit", unit, "--markdown", ms]);
        assert!(o.status.success(), "{}", text(&o));
        let o = membar(&["calibrate", "--unit", unit, "--markdown", ms]);
        assert!(o.status.success(), "own table replaced: {}", text(&o));
    }
}

/// Item 3: `run --trace` and `sim --trace` refuse an Icarus VCD and an
/// empty file; their own trace is replaced.
#[test]
fn traces_refuse_icarus_vcds_and_empty_files() {
    let dir = tmp_dir("nc-traces");
    let t = dir.join("t.vcd");
    let ts = t.to_str().unwrap();
    let cmds: [Vec<&str>; 2] = [
        vec!["run", "examples/membar_flag.ptx", "--trace", ts],
        vec![
            "sim",
            "--config",
            "configs/default.yaml",
            "--cycles",
            "50",
            "--trace",
            ts,
        ],
    ];
    for args in &cmds {
        for body in [ICARUS_VCD, ""] {
            std::fs::write(&t, body).unwrap();
            let o = membar(args);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
            assert_eq!(std::fs::read_to_string(&t).unwrap(), body, "{args:?}");
        }
        std::fs::remove_file(&t).unwrap();
        let o = membar(args);
        assert!(o.status.success(), "{args:?}: {}", text(&o));
        let o = membar(args);
        assert!(o.status.success(), "{args:?} own trace: {}", text(&o));
    }
    // The Chrome-trace JSON carries its marker as its last member and stays JSON.
    let j = dir.join("t.json");
    let o = membar(&[
        "run",
        "examples/membar_flag.ptx",
        "--trace",
        j.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let body = std::fs::read_to_string(&j).unwrap();
    assert!(
        body.trim_end().lines().last().is_some_and(|l| l
            .starts_with("\"membar\": \"written by membar; sha256")
            && l.ends_with("\"}")),
        "{}",
        &body[body.len().saturating_sub(300)..]
    );
    let o = membar(&[
        "run",
        "examples/membar_flag.ptx",
        "--trace",
        j.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "own json: {}", text(&o));
    std::fs::write(
        &j,
        "{\"otherData\": {\"generator\": \"membar run (sm-exec)\"}}\n",
    )
    .unwrap();
    let o = membar(&[
        "run",
        "examples/membar_flag.ptx",
        "--trace",
        j.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

/// Item 3: `sweep --unit` refuses a user's CSV whose header starts `unit,`;
/// `litmus --markdown` a user's file starting `# Litmus results`.
#[test]
fn unit_sweep_csv_and_litmus_markdown_refuse_look_alikes() {
    let dir = tmp_dir("nc-lookalikes");
    let grid = dir.join("g.yaml");
    std::fs::write(
        &grid,
        "config: {warps: [8], cta_slots: [1]}\nworkload: {scenario: [syncthreads_loop], iterations: [2]}\n",
    )
    .unwrap();
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let csv = out.join("g.csv");
    let mine = "unit,my,own,columns\nbar,1,2,3\n";
    std::fs::write(&csv, mine).unwrap();
    let args = [
        "sweep",
        "--unit",
        "bar",
        "--grid",
        grid.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let o = membar(&args);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), mine);
    std::fs::remove_file(&csv).unwrap();
    let o = membar(&args);
    assert!(o.status.success(), "{}", text(&o));
    let o = membar(&args);
    assert!(o.status.success(), "own CSV replaced: {}", text(&o));

    let md = dir.join("litmus.md");
    let notes = "# Litmus results\n\nmy own notes on litmus tests\n";
    std::fs::write(&md, notes).unwrap();
    let o = membar(&[
        "litmus",
        "litmus/mp_gpu.ptx",
        "--runs",
        "2",
        "--markdown",
        md.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&md).unwrap(), notes);
}

/// `membar ARGS` run under `umask MASK` (through sh).
fn membar_umask(mask: &str, args: &[&str]) -> Output {
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg(format!("umask {mask} && exec \"$0\" \"$@\""))
        .arg(common::membar_bin())
        .args(args)
        .current_dir(root());
    c.output().expect("run membar through sh")
}

fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

/// Item 4: outputs get 0666 less the umask (0644 under 022, 0664 under
/// 002), not 0600.
#[test]
fn outputs_get_the_usual_permissions() {
    let dir = tmp_dir("nc-modes");
    for (mask, want) in [("022", 0o644), ("002", 0o664), ("077", 0o600)] {
        let sub = dir.join(mask);
        std::fs::create_dir_all(&sub).unwrap();
        let trace = sub.join("t.vcd");
        let o = membar_umask(
            mask,
            &[
                "run",
                "examples/membar_flag.ptx",
                "--trace",
                trace.to_str().unwrap(),
            ],
        );
        assert!(o.status.success(), "{}", text(&o));
        assert_eq!(mode(&trace), want, "run --trace under umask {mask}");
        let gen = sub.join("gen");
        let o = membar_umask(
            mask,
            &[
                "generate",
                "--config",
                "configs/default.yaml",
                "--out",
                gen.to_str().unwrap(),
            ],
        );
        assert!(o.status.success(), "{}", text(&o));
        assert_eq!(
            mode(&gen.join("membar_unit.v")),
            want,
            "generate under umask {mask}"
        );
        let md = sub.join("cal.md");
        let o = membar_umask(
            mask,
            &[
                "calibrate",
                "--unit",
                "bar",
                "--markdown",
                md.to_str().unwrap(),
            ],
        );
        assert!(o.status.success(), "{}", text(&o));
        assert_eq!(mode(&md), want, "calibrate --markdown under umask {mask}");
    }
}
