//! Helpers shared by the CLI end-to-end tests: run the `membar` binary from
//! the workspace root and read what it printed.
#![allow(dead_code)] // each test file uses its own subset

use std::path::PathBuf;
use std::process::{Command, Output};

/// The workspace root (where `configs/`, `workloads/` and `verilog_out/` are).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Run `membar ARGS` in the workspace root.
pub fn membar(args: &[&str]) -> Output {
    membar_env(args, &[])
}

/// The `membar` binary under test: this build's, or `$MEMBAR_BIN` (to check
/// that a test fails on an older build: `MEMBAR_BIN=/path/to/old/membar`).
pub fn membar_bin() -> PathBuf {
    match std::env::var_os("MEMBAR_BIN") {
        Some(b) if !b.is_empty() => PathBuf::from(b),
        _ => PathBuf::from(env!("CARGO_BIN_EXE_membar")),
    }
}

/// Run `membar ARGS` in the workspace root with extra environment variables.
pub fn membar_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(membar_bin());
    c.args(args).current_dir(root());
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run membar")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Everything printed, stdout then stderr.
pub fn text(o: &Output) -> String {
    format!("{}{}", stdout(o), stderr(o))
}

/// A fresh scratch directory for one test (`tag` keeps test files apart).
pub fn tmp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("membar-cli-test-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A file membar wrote through its writer, without its last line, the
/// ownership marker (`written by membar; sha256 of everything above this
/// line: ...`); panics if the marker is missing.
pub fn without_marker(file: &str) -> &str {
    let body = file.strip_suffix('\n').unwrap_or(file);
    let cut = body.rfind('\n').map_or(0, |i| i + 1);
    assert!(
        body[cut..].contains("written by membar; sha256 of everything above this line: "),
        "no membar marker line at the end: {:?}",
        &body[cut..]
    );
    &file[..cut]
}
