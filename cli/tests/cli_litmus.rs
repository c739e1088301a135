//! `membar litmus` as users meet it: an observed register that does not
//! exist is refused (exit 2, FILE:LINE and the register) instead of passing
//! vacuously; a failed verdict says what was observed and how often and
//! prints the command that replays the test; a refused file does not stop
//! the others (they run and are reported; exit 2 at the end: 2 over 1 over
//! 0); the Markdown header states the run that was made.

mod common;
use common::{membar, root, stderr, stdout, text};

/// `litmus/mp_gpu.ptx` with its text edited by `f`, written into `dir/name`.
fn variant(dir: &std::path::Path, name: &str, from: &str, f: impl Fn(String) -> String) -> String {
    let src = std::fs::read_to_string(root().join(from)).unwrap();
    let edited = f(src.clone());
    assert_ne!(src, edited, "the edit must apply");
    let p = dir.join(name);
    std::fs::write(&p, edited).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn observing_a_register_that_does_not_exist_exits_2_naming_file_line_and_register() {
    let dir = common::tmp_dir("litmus-noreg");
    let f = variant(&dir, "noreg.ptx", "litmus/mp_gpu.ptx", |s| {
        s.replace("[1/0/%r1, 1/0/%r2]", "[1/0/%r1, 1/0/%r9]")
    });
    let o = membar(&["litmus", &f, "--runs", "3"]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(e.contains("noreg.ptx:9:1:"), "{e}");
    assert!(e.contains("%r9") && e.contains("does not exist"), "{e}");
    assert!(e.contains("consumer"), "{e}");
    assert!(!e.contains("panicked"), "{e}");
}

#[test]
fn a_failed_verdict_says_what_was_observed_and_prints_the_replay_command() {
    let dir = common::tmp_dir("litmus-fail");
    // The unfenced twin judged as if it were fenced: the forbidden outcome shows.
    let f = variant(&dir, "mp_wrong.ptx", "litmus/mp_gpu_nofence.ptx", |s| {
        s.replace("expect: seen", "expect: never")
    });
    let o = membar(&["litmus", &f, "--runs", "60", "--seed", "3"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = stdout(&o);
    let row = out
        .lines()
        .find(|l| l.starts_with("| mp_wrong |"))
        .unwrap_or_else(|| panic!("{out}"));
    let seen: u64 = row.split(" | ").nth(3).unwrap().trim().parse().unwrap();
    assert!(seen > 0, "{row}");
    assert!(
        row.contains(&format!(
            "FAIL: forbidden outcome observed in {seen} of 60 runs (expected: never)"
        )),
        "{row}"
    );
    assert!(!row.contains("never observed"), "{row}");
    let e = stderr(&o);
    assert!(
        e.contains(&format!("membar litmus {f} --runs 60 --seed 3")),
        "{e}"
    );
    // The replay command of the first forbidden run reproduces it.
    let line = e
        .lines()
        .find(|l| l.contains("first run with the forbidden outcome: membar run"))
        .unwrap_or_else(|| panic!("{e}"));
    let seed = line.rsplit(' ').next().unwrap();
    let r = membar(&["run", &f, "--seed", seed]);
    assert!(
        stdout(&r).contains("FORBIDDEN with the fence"),
        "{}",
        text(&r)
    );
}

#[test]
fn a_refused_file_does_not_stop_the_others_and_the_run_exits_2() {
    let dir = common::tmp_dir("litmus-multi");
    let bad = variant(&dir, "bad.ptx", "litmus/mp_gpu.ptx", |s| {
        s.replace("[1/0/%r1, 1/0/%r2]", "[1/0/%r1, 7/0/%r2]")
    });
    let o = membar(&[
        "litmus",
        "litmus/mp_gpu.ptx",
        &bad,
        "litmus/sb_gpu.ptx",
        "--runs",
        "5",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let out = stdout(&o);
    assert!(out.contains("| mp_gpu | 5 |"), "{out}");
    assert!(out.contains("| sb_gpu | 5 |"), "{out}");
    let e = stderr(&o);
    assert!(e.contains("bad.ptx:9:1:") && e.contains("refused"), "{e}");
    // A failed verdict next to a refused file: still 2 (2 over 1).
    let wrong = variant(&dir, "mp_wrong.ptx", "litmus/mp_gpu_nofence.ptx", |s| {
        s.replace("expect: seen", "expect: never")
    });
    let o = membar(&["litmus", &wrong, &bad, "--runs", "60"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        stderr(&o).contains("FAIL: forbidden outcome observed"),
        "{}",
        text(&o)
    );
}

#[test]
fn the_markdown_header_states_the_run_that_was_made() {
    let dir = common::tmp_dir("litmus-md");
    let md = dir.join("t.md");
    let o = membar(&[
        "litmus",
        "litmus/mp_gpu.ptx",
        "--runs",
        "7",
        "--seed",
        "5",
        "--markdown",
        md.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let t = std::fs::read_to_string(&md).unwrap();
    let head = t.lines().nth(2).unwrap();
    assert!(head.contains("--runs 7 --seed 5"), "{head}");
    assert!(head.contains("litmus/mp_gpu.ptx"), "{head}");
    assert!(!head.contains("all files of"), "{head}");
    assert!(!head.contains("docs/results/litmus.md"), "{head}");
}
