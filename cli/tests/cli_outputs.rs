//! End-to-end tests of the no-clobber rule for every output of `membar`
//! (issue 11, item 1): an output never replaces a file the command did not
//! write itself, nor an input of the same run; its own earlier output it may
//! replace. Also: a waveform path that cannot be written is an input error.

use std::path::{Path, PathBuf};
mod common;
use common::{membar, root, text, tmp_dir};

fn copy_default_config(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::copy(root().join("configs/default.yaml"), &p).unwrap();
    p
}

#[test]
fn cosim_waves_never_overwrites_its_own_config() {
    let dir = tmp_dir("waves-config");
    let cfg = copy_default_config(&dir, "v.yaml");
    let before = std::fs::read(&cfg).unwrap();
    let c = cfg.to_str().unwrap();
    let o = membar(&["cosim", "--config", c, "--cycles", "100", "--waves", c]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("--waves") && t.contains("input"), "{t}");
    assert_eq!(
        std::fs::read(&cfg).unwrap(),
        before,
        "the config was changed"
    );
}

#[test]
fn cosim_waves_never_overwrites_the_verilog_it_runs() {
    let dir = tmp_dir("waves-verilog");
    let v = dir.join("membar_unit.v");
    std::fs::copy(root().join("verilog_out/default/membar_unit.v"), &v).unwrap();
    let before = std::fs::read(&v).unwrap();
    let vs = v.to_str().unwrap();
    let o = membar(&[
        "cosim",
        "--config",
        "configs/default.yaml",
        "--verilog",
        vs,
        "--cycles",
        "100",
        "--waves",
        vs,
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert_eq!(
        std::fs::read(&v).unwrap(),
        before,
        "the Verilog was changed"
    );
}

#[test]
fn cosim_waves_replaces_only_its_own_waveform() {
    let dir = tmp_dir("waves-own");
    let w = dir.join("run.fst");
    let ws = w.to_str().unwrap();
    let args = [
        "cosim",
        "--config",
        "configs/default.yaml",
        "--cycles",
        "200",
        "--waves",
        ws,
    ];
    let o = membar(&args);
    assert!(o.status.success(), "{}", text(&o));
    assert!(std::fs::metadata(&w).unwrap().len() > 0);
    // Its own waveform: replaced.
    let o = membar(&args);
    assert!(o.status.success(), "second run: {}", text(&o));
    // No temporary file left beside it.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["run.fst".to_string()], "{names:?}");
    // A user's file of the same name: refused, untouched.
    std::fs::write(&w, "my notes\n").unwrap();
    let o = membar(&args);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&w).unwrap(), "my notes\n");
}

#[test]
fn cosim_waves_in_an_unwritable_place_is_an_input_error() {
    let o = membar(&[
        "cosim",
        "--config",
        "configs/default.yaml",
        "--cycles",
        "100",
        "--waves",
        "/proc/x.fst",
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("--waves /proc/x.fst"), "{t}");
    assert!(!t.contains("membar_trace_open"), "{t}");
}

fn tiny_grid(dir: &Path) -> PathBuf {
    let g = dir.join("tiny.yaml");
    std::fs::write(
        &g,
        "cycles: 2000\nways: [1, 4]\nplots:\n  - {x: ways, y: wait_gl_mean}\n",
    )
    .unwrap();
    g
}

#[test]
fn sweep_out_never_replaces_a_users_csv_or_svg() {
    let dir = tmp_dir("sweep-foreign");
    let g = tiny_grid(&dir);
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let args = [
        "sweep",
        "--grid",
        g.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--jobs",
        "1",
    ];
    // A user's CSV where the sweep's CSV goes.
    std::fs::write(out.join("tiny.csv"), "a,b\n1,2\n").unwrap();
    let o = membar(&args);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(out.join("tiny.csv")).unwrap(),
        "a,b\n1,2\n"
    );
    // A user's SVG where a plot goes.
    std::fs::remove_file(out.join("tiny.csv")).unwrap();
    let svg = out.join("tiny_wait_gl_mean_vs_ways.svg");
    std::fs::write(&svg, "<svg>mine</svg>\n").unwrap();
    let o = membar(&args);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&svg).unwrap(), "<svg>mine</svg>\n");
    // Its own outputs: replaced on a rerun.
    std::fs::remove_file(&svg).unwrap();
    let o = membar(&args);
    assert!(o.status.success(), "{}", text(&o));
    let o = membar(&args);
    assert!(o.status.success(), "rerun: {}", text(&o));
}

#[test]
fn sweep_out_never_replaces_the_grid_itself() {
    let dir = tmp_dir("sweep-grid-in-out");
    // The grid is named like the CSV the sweep writes into its own directory.
    let g = dir.join("tiny.csv");
    std::fs::write(&g, "cycles: 2000\nways: [1, 4]\n").unwrap();
    let o = membar(&[
        "sweep",
        "--grid",
        g.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
        "--jobs",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(&g).unwrap(),
        "cycles: 2000\nways: [1, 4]\n"
    );
}

#[test]
fn synth_keep_never_writes_into_a_foreign_directory() {
    let dir = tmp_dir("keep-foreign");
    std::fs::write(dir.join("synth.ys"), "# my script\n").unwrap();
    std::fs::write(dir.join("membar_unit.v"), "module mine; endmodule\n").unwrap();
    let o = membar(&[
        "synth",
        "--config",
        "configs/default.yaml",
        "--target",
        "generic",
        "--keep",
        dir.to_str().unwrap(),
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("--keep"), "{t}");
    assert_eq!(
        std::fs::read_to_string(dir.join("synth.ys")).unwrap(),
        "# my script\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("membar_unit.v")).unwrap(),
        "module mine; endmodule\n"
    );
    // A fresh directory is used, and may be used again.
    let k = dir.join("kept");
    for run in 0..2 {
        let o = membar(&[
            "synth",
            "--config",
            "configs/default.yaml",
            "--target",
            "generic",
            "--keep",
            k.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "run {run}: {}", text(&o));
    }
    assert!(k.join("synth.ys").is_file());
}
