//! End-to-end tests of `membar`'s flags as users meet them (issue 11): flag
//! ranges (`--cycles`, `--jobs`, `--tolerance`, `--chunk`) refused with the
//! allowed values and exit 2 instead of wrapping, hanging or aborting; a
//! closed stdout ends the command quietly; replay hints that reproduce;
//! `--verilog` checked the same way by every command; the smaller things
//! (help texts, names, paths, defaults that need the repo root, README).

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
mod common;
use common::{membar, membar_bin, root, stdout, text, tmp_dir};

/// Run `membar ARGS` in `cwd`, killing it after `secs` (a hang is a failure,
/// not a stuck test). Returns (exit code, everything printed, seconds).
fn membar_timed(args: &[&str], cwd: &Path, secs: u64) -> (Option<i32>, String, f64) {
    let t0 = Instant::now();
    let mut child = Command::new(membar_bin())
        .args(args)
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run membar");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let code = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st.code();
        }
        if t0.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("membar {} did not finish within {secs} s", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let t = format!("{}{}", t_out.join().unwrap(), t_err.join().unwrap());
    (code, t, t0.elapsed().as_secs_f64())
}

const RANGE: &str = "1..=1000000000000";

#[test]
fn cycles_out_of_range_is_refused_by_every_command() {
    let huge = "18446744073709551615";
    let cases: Vec<Vec<&str>> = vec![
        vec!["sim", "--config", "configs/default.yaml", "--cycles", huge],
        vec![
            "sim",
            "--config",
            "configs/default.yaml",
            "--cycles",
            "18446744073709551612",
        ],
        vec!["sim", "--config", "configs/default.yaml", "--cycles", "0"],
        vec!["cosim", "--config", "configs/default.yaml", "--cycles", "0"],
        vec![
            "cosim",
            "--config",
            "configs/default.yaml",
            "--cycles",
            huge,
        ],
        vec![
            "sweep",
            "--grid",
            "grids/default_sweep.yaml",
            "--cycles",
            huge,
        ],
        vec![
            "sweep",
            "--grid",
            "grids/default_sweep.yaml",
            "--cycles",
            "0",
        ],
        vec!["soak", "--cycles", "0"],
        vec!["soak", "--cycles", huge],
    ];
    for args in cases {
        let (code, t, _) = membar_timed(&args, &root(), 120);
        assert_eq!(code, Some(2), "membar {}: {t}", args.join(" "));
        assert!(
            t.contains("--cycles") && t.contains(RANGE),
            "membar {}: {t}",
            args.join(" ")
        );
        assert!(!t.contains("PASS"), "membar {}: {t}", args.join(" "));
    }
    // bench records its input trace: bounded, refused with the bound, no abort.
    for c in ["0", "1000000000000"] {
        let (code, t, _) = membar_timed(&["bench", "--cycles", c], &root(), 120);
        assert_eq!(code, Some(2), "bench --cycles {c}: {t}");
        assert!(t.contains("1..=20000000"), "bench --cycles {c}: {t}");
    }
}

#[test]
fn jobs_beyond_the_cap_are_refused_at_once() {
    let dir = tmp_dir("jobs");
    let g = dir.join("two.yaml");
    std::fs::write(&g, "cycles: 1000\nways: [1, 4]\n").unwrap();
    let out = dir.join("out");
    for jobs in ["100000", "10000", "0"] {
        let (code, t, secs) = membar_timed(
            &[
                "sweep",
                "--grid",
                g.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--jobs",
                jobs,
            ],
            &root(),
            60,
        );
        assert_eq!(code, Some(2), "sweep --jobs {jobs}: {t}");
        assert!(t.contains("1..=256"), "sweep --jobs {jobs}: {t}");
        assert!(secs < 10.0, "sweep --jobs {jobs} took {secs:.1} s");
        let (code, t, secs) = membar_timed(&["calibrate", "--jobs", jobs], &root(), 60);
        assert_eq!(code, Some(2), "calibrate --jobs {jobs}: {t}");
        assert!(t.contains("1..=256"), "calibrate --jobs {jobs}: {t}");
        assert!(secs < 10.0, "calibrate --jobs {jobs} took {secs:.1} s");
    }
    // More jobs than points is fine: capped at the points.
    let (code, t, _) = membar_timed(
        &[
            "sweep",
            "--grid",
            g.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "64",
        ],
        &root(),
        120,
    );
    assert_eq!(code, Some(0), "{t}");
    assert!(t.contains("2 jobs"), "{t}");
}

#[test]
fn tolerance_and_chunk_out_of_range_are_refused() {
    for tol in ["nan", "-5", "inf"] {
        let o = membar(&["calibrate", &format!("--tolerance={tol}")]);
        assert_eq!(o.status.code(), Some(2), "--tolerance {tol}: {}", text(&o));
        assert!(text(&o).contains("0..=1000"), "{}", text(&o));
    }
    for chunk in ["1", "2", "999"] {
        let o = membar(&["soak", "--cycles", "5000", "--chunk", chunk]);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "--chunk {chunk}: {t}");
        assert!(t.contains("--chunk") && t.contains("1000 or more"), "{t}");
        assert!(!t.contains("discarded"), "{t}");
    }
}

#[test]
fn calibrate_reports_the_tolerance_it_was_given() {
    let o = membar(&[
        "calibrate",
        "--tolerance",
        "5",
        "--preset",
        "configs/h100.yaml",
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", text(&o));
    assert!(out.contains("within ±5 %"), "{out}");
    assert!(!out.contains("±20 %"), "{out}");
}

/// Start `membar ARGS` with its stdout a pipe whose reading end is closed at
/// once (`membar ... | true`): it must end without a panic or a message,
/// either exiting 0 or killed by SIGPIPE like other Unix tools.
fn closed_pipe(args: &[&str]) {
    let mut child = Command::new(membar_bin())
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run membar");
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    use std::os::unix::process::ExitStatusExt;
    let quiet = o.status.success() || o.status.signal() == Some(13);
    assert!(
        quiet && !err.contains("panicked"),
        "membar {}: status {:?}, stderr: {err}",
        args.join(" "),
        o.status
    );
}

#[test]
fn a_closed_stdout_ends_the_command_quietly() {
    closed_pipe(&[
        "sim",
        "--config",
        "configs/default.yaml",
        "--cycles",
        "100000",
    ]);
    let dir = tmp_dir("pipe");
    let g = dir.join("two.yaml");
    std::fs::write(&g, "cycles: 20000\nways: [1, 4]\n").unwrap();
    closed_pipe(&[
        "sweep",
        "--grid",
        g.to_str().unwrap(),
        "--out",
        dir.join("out").to_str().unwrap(),
    ]);
    closed_pipe(&["calibrate", "--preset", "configs/h100.yaml"]);
}

#[test]
fn a_closed_pipe_after_the_first_line_like_head() {
    // `membar calibrate | head -1`, with a real shell pipeline: head exits
    // after the H100 table's first line, the H200 table comes later.
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' calibrate | head -1; echo \"status ${{PIPESTATUS:-}}\"",
            membar_bin().display()
        ))
        .current_dir(root())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(!err.contains("panicked") && err.trim().is_empty(), "{err}");
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 2);
}

#[test]
fn cosim_of_a_binary_file_is_an_input_error() {
    let dir = tmp_dir("binary");
    let f = dir.join("random.bin");
    let bytes: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(&f, bytes).unwrap();
    let o = membar(&[
        "cosim",
        "--config",
        "configs/default.yaml",
        "--verilog",
        f.to_str().unwrap(),
        "--cycles",
        "10",
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(
        t.contains("--verilog") && t.contains("not a Verilog text file"),
        "{t}"
    );
}

#[test]
fn synth_checks_the_ports_of_its_verilog_like_cosim() {
    let dir = tmp_dir("renamed-port");
    let src = std::fs::read_to_string(root().join("verilog_out/default/membar_unit.v")).unwrap();
    assert!(src.contains("req_valid"), "anchor req_valid gone");
    let f = dir.join("membar_unit.v");
    std::fs::write(&f, src.replace("req_valid", "req_vld")).unwrap();
    for cmd in ["synth", "cosim"] {
        let mut args = vec![
            cmd,
            "--config",
            "configs/default.yaml",
            "--verilog",
            f.to_str().unwrap(),
        ];
        if cmd == "synth" {
            args.extend(["--target", "generic"]);
        } else {
            args.extend(["--cycles", "10"]);
        }
        let o = membar(&args);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {t}");
        assert!(t.contains("req_valid"), "{cmd}: {t}");
    }
}

/// The command after `replay: ` or `in ` up to `)`/` (`, split into words.
fn replay_words(t: &str, start: &str) -> Vec<String> {
    let i = t
        .find(start)
        .unwrap_or_else(|| panic!("no {start:?} in {t}"));
    let rest = &t[i + start.len()..];
    let end = rest
        .find(" (")
        .into_iter()
        .chain(rest.find(')'))
        .chain(rest.find('\n'))
        .min()
        .unwrap_or(rest.len());
    rest[..end]
        .split_whitespace()
        .map(|s| s.trim_matches('\'').to_string())
        .collect()
}

fn buggy_verilog(tag: &str) -> std::path::PathBuf {
    let src = std::fs::read_to_string(root().join("verilog_out/default/membar_unit.v")).unwrap();
    let needle = "if (out_txn)";
    assert!(src.contains(needle), "anchor `{needle}` not found");
    let dir = tmp_dir(tag);
    let f = dir.join("membar_unit.v");
    std::fs::write(&f, src.replacen(needle, "if (~out_txn)", 1)).unwrap();
    f
}

#[test]
fn cosim_replay_hint_reproduces_the_mismatch() {
    let f = buggy_verilog("replay-cosim");
    let o = membar(&[
        "cosim",
        "--config",
        "configs/default.yaml",
        "--verilog",
        f.to_str().unwrap(),
        "--cycles",
        "20000",
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    let words = replay_words(&t, "replay: membar ");
    assert!(words.iter().any(|w| w == "--verilog"), "{words:?}");
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    let o = membar(&args);
    assert_eq!(
        o.status.code(),
        Some(1),
        "the replay `membar {}` did not reproduce:\n{}",
        args.join(" "),
        text(&o)
    );
    assert!(text(&o).contains("MISMATCH at cycle"), "{}", text(&o));
}

#[test]
fn soak_replay_hint_reproduces_the_failure() {
    let f = buggy_verilog("replay-soak");
    let o = membar(&[
        "soak",
        "--verilog",
        f.to_str().unwrap(),
        "--cycles",
        "20000",
        "--chunk",
        "5000",
        "--seed",
        "7",
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    let words = replay_words(&t, "in membar ");
    for flag in ["--verilog", "--seed", "--chunk", "--cycles"] {
        assert!(words.iter().any(|w| w == flag), "{flag} missing: {words:?}");
    }
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    let o2 = membar(&args);
    assert_eq!(
        o2.status.code(),
        Some(1),
        "the replay `membar {}` did not reproduce:\n{}",
        args.join(" "),
        text(&o2)
    );
    // The same failure: the same first line of the report.
    let first = |s: &str| {
        s.lines()
            .find(|l| l.contains("MISMATCH"))
            .map(str::to_string)
    };
    assert_eq!(first(&t), first(&text(&o2)), "{t}\n---\n{}", text(&o2));
}

#[test]
fn every_flag_has_help_text_and_cosim_states_its_default_length() {
    for cmd in [
        "generate",
        "cosim",
        "soak",
        "sim",
        "bench",
        "sweep",
        "calibrate",
        "synth",
    ] {
        let o = membar(&[cmd, "--help"]);
        let out = stdout(&o);
        assert!(o.status.success(), "{cmd}: {}", text(&o));
        // clap prints `--flag <VALUE>` and its help on the same line, or the
        // help on the next line when it is long: a flag line alone with the
        // next line another flag (or the end) has no help.
        let lines: Vec<&str> = out.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            let t = l.trim_start();
            if !t.starts_with("--") || t.starts_with("--help") || t.starts_with("--version") {
                continue;
            }
            let words = t.split_whitespace().count();
            let has_inline = words > 2 || (words == 2 && !t.contains('<'));
            let next = lines.get(i + 1).map(|n| n.trim_start()).unwrap_or("");
            let has_below = !next.is_empty() && !next.starts_with('-');
            assert!(
                has_inline || has_below,
                "membar {cmd}: {t:?} has no help\n{out}"
            );
        }
    }
    let out = stdout(&membar(&["cosim", "--help"]));
    assert!(out.contains("100000"), "{out}");
}

#[test]
fn configurations_are_named_as_their_files_are() {
    let o = membar(&[
        "sim",
        "--config",
        "configs/w16_k4_n4_c6.yaml",
        "--cycles",
        "1000",
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", text(&o));
    assert!(out.contains("w16_k4_n4_c6"), "{out}");
    assert!(!out.contains("w16_n4_k4_c6"), "{out}");
}

#[test]
fn printed_paths_have_no_parent_dir_detours() {
    let o = membar(&[
        "cosim",
        "--config",
        "configs/default.yaml",
        "--cycles",
        "100",
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("membar-generated"), "{t}");
    assert!(!t.contains("/../"), "{t}");
}

#[test]
fn commands_with_default_paths_work_outside_the_repo_root() {
    let dir = tmp_dir("elsewhere");
    let (code, t, _) = membar_timed(&["bench", "--cycles", "2000"], &dir, 300);
    assert_eq!(code, Some(0), "bench from {}: {t}", dir.display());
    let (code, t, _) = membar_timed(&["soak", "--cycles", "4000", "--chunk", "2000"], &dir, 300);
    assert_eq!(code, Some(0), "soak from {}: {t}", dir.display());
}

#[test]
fn sim_coverage_prints_its_summary_once() {
    let o = membar(&[
        "sim",
        "--config",
        "configs/default.yaml",
        "--cycles",
        "5000",
        "--coverage",
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(out.matches("bins hit").count(), 1, "{out}");
}

#[test]
fn readme_example_writes_only_into_ignored_build() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("## Emitting Verilog for your own configuration")
        .expect("README section");
    let section = &readme[start..];
    let block = section
        .split("```sh")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a sh block");
    let gitignore = std::fs::read_to_string(root().join(".gitignore")).unwrap();
    assert!(
        gitignore.lines().any(|l| l.trim() == "/build"),
        "{gitignore}"
    );
    let mut written = Vec::new();
    for l in block.lines() {
        let w: Vec<&str> = l.split_whitespace().collect();
        for (i, t) in w.iter().enumerate() {
            if (*t == ">" || *t == "--out") && i + 1 < w.len() {
                written.push(w[i + 1].trim_matches('\'').to_string());
            }
        }
    }
    assert!(!written.is_empty(), "{block}");
    for p in written {
        assert!(
            p.starts_with("build/"),
            "the README example writes {p} outside build/"
        );
    }
}
