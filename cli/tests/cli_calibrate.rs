//! End-to-end tests of `membar calibrate`: the model-vs-measured tables for
//! the shipped presets, the cells the calibration claims (within ±20 %), the
//! way H100 fences of different warps combine (reproduced by the unit's
//! mechanism), `--fit` reproducing the shipped presets, and clear errors.
//! The measurements are the repository's `data/calibration/` (built into the binary).

use std::collections::HashMap;
mod common;
use common::{membar, root, stderr, stdout};

/// One row of the cell table.
#[derive(Debug, Clone)]
struct Row {
    group: String,
    label: String,
    measured: f64,
    model: f64,
    error_pct: f64,
    mark: String,
}

/// The cell rows of one preset's section (`## H100 ...` up to the summary).
fn rows(out: &str, gpu: &str) -> Vec<Row> {
    let start = out
        .find(&format!("## {gpu} — model vs measured"))
        .unwrap_or_else(|| panic!("no {gpu} section in\n{out}"));
    let sec = &out[start..];
    let end = sec.find(&format!("\n{gpu}: ")).unwrap_or(sec.len());
    let mut group = String::new();
    let mut v = Vec::new();
    for l in sec[..end].lines() {
        if let Some(g) = l.strip_prefix("**").and_then(|x| x.strip_suffix("**")) {
            group = g.to_string();
            continue;
        }
        let f: Vec<&str> = l.split('|').map(|s| s.trim()).collect();
        if f.len() == 7 && f[4].ends_with('%') {
            v.push(Row {
                group: group.clone(),
                label: f[1].to_string(),
                measured: f[2].parse().unwrap(),
                model: f[3].parse().unwrap(),
                error_pct: f[4].trim_end_matches('%').trim().parse().unwrap(),
                mark: f[5].to_string(),
            });
        }
    }
    v
}

/// The combining tables: (scope, Δ) -> (measured, rule, model).
fn combining(out: &str, gpu: &str) -> HashMap<(String, i64), (f64, f64, f64)> {
    let start = out.find(&format!("## {gpu} — model vs measured")).unwrap();
    let sec = &out[start..];
    let end = sec.find(&format!("\n{gpu}: ")).unwrap_or(sec.len());
    let mut scope = String::new();
    let mut m = HashMap::new();
    for l in sec[..end].lines() {
        if l.starts_with("**GPU scope") {
            scope = "GPU".into();
        } else if l.starts_with("**SYS scope") {
            scope = "SYS".into();
        } else if l.starts_with("**") {
            scope.clear();
        }
        let f: Vec<&str> = l.split('|').map(|s| s.trim()).collect();
        if !scope.is_empty() && f.len() == 6 {
            if let (Ok(d), Ok(a), Ok(b), Ok(c)) = (
                f[1].parse::<i64>(),
                f[2].parse::<f64>(),
                f[3].parse::<f64>(),
                f[4].parse::<f64>(),
            ) {
                m.insert((scope.clone(), d), (a, b, c));
            }
        }
    }
    m
}

fn calibrate_output() -> String {
    let o = membar(&["calibrate"]);
    assert!(
        o.status.success(),
        "membar calibrate failed:\n{}{}",
        stdout(&o),
        stderr(&o)
    );
    stdout(&o)
}

#[test]
fn calibration_tables_and_the_cells_we_claim() {
    let out = calibrate_output();
    for gpu in ["H100", "H200"] {
        let r = rows(&out, gpu);
        assert!(r.len() > 200, "{gpu}: only {} cells", r.len());
        for row in &r {
            // The printed error is the error of the printed numbers.
            let e = (row.model - row.measured) / row.measured * 100.0;
            assert!(
                (e - row.error_pct).abs() < 0.2 || row.measured < 20.0,
                "{gpu} {row:?}"
            );
            let outside = row.error_pct.abs() > 20.0;
            assert_eq!(
                row.mark == "MISS",
                outside && !row.mark.starts_with("info"),
                "{gpu} {row:?}"
            );
        }
        // Claimed for both GPUs: lone fences, fences after S stores, GPU and SYS
        // fences of k warps without stores, every pair and group.
        for row in &r {
            let claimed = row.group.starts_with("1 warp")
                || (row.group.starts_with("k warps")
                    && !row.label.contains("cta")
                    && !row.label.contains("st+"))
                || (row.group.starts_with("pairs")
                    && !(gpu == "H200" && row.label.starts_with("st+")))
                || row.group.starts_with("groups");
            if claimed {
                assert!(
                    row.error_pct.abs() <= 20.0,
                    "{gpu}: claimed cell outside ±20 %: {row:?}"
                );
            }
        }
    }
    // H100: every goal cell but the two CTA-fence contention cells.
    let h100 = rows(&out, "H100");
    let misses: Vec<&Row> = h100.iter().filter(|r| r.mark == "MISS").collect();
    assert!(misses.len() <= 2, "H100 misses: {misses:#?}");
    assert!(
        misses.iter().all(|r| r.label.contains("fence.sc.cta")),
        "{misses:#?}"
    );
    // 32 warps together: within 5 % at GPU scope, 10 % at SYS.
    for row in h100
        .iter()
        .filter(|r| r.group.starts_with("k warps") && r.label.starts_with("k=32"))
    {
        if row.label.contains("gpu") {
            assert!(row.error_pct.abs() <= 5.0, "{row:?}");
        } else if row.label.contains("sys") {
            assert!(row.error_pct.abs() <= 10.0, "{row:?}");
        }
    }
    // How latency grows with the number of fencing warps (GPU scope): flat up
    // to 4 warps, then two alternating groups at about 2 x 463.
    let k = |k: u32| {
        h100.iter()
            .find(|r| r.label == format!("k={k:<2} fence.sc.gpu"))
            .unwrap()
            .model
    };
    assert!(
        k(1) == k(4) && (k(8) - 926.0).abs() < 30.0 && (k(32) - 926.0).abs() < 30.0,
        "{} {} {} {}",
        k(1),
        k(4),
        k(8),
        k(32)
    );
    assert!(
        out.contains("H100: 223 of 225 goal cells within ±20 %"),
        "summary changed:\n{}",
        out.lines()
            .filter(|l| l.contains("goal cells"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(out.contains("no violation"));
}

/// H100: fences within the window share one completion; fences behind an
/// outstanding barrier complete 463 (GPU) / 811 (SYS) cycles after it; later
/// ones at their own latency: done_B = max(issue_B + 668, done_A + 463).
#[test]
fn h100_combining_rule_comes_out_of_the_unit() {
    let out = calibrate_output();
    let m = combining(&out, "H100");
    assert!(m.len() >= 28, "{m:?}");
    for ((scope, d), (measured, rule, model)) in &m {
        assert!(
            (model - rule).abs() <= 2.0,
            "{scope} Δ={d}: model {model} vs rule {rule}"
        );
        if scope == "GPU" {
            assert!(
                (model - measured).abs() <= 3.0,
                "{scope} Δ={d}: model {model} vs measured {measured}"
            );
        }
    }
    // The groups: late fences at +153, +270, +426 all complete at A + 463.
    let g = rows(&out, "H100");
    let lat = |label: &str| {
        g.iter()
            .find(|r| r.label.starts_with(label))
            .unwrap_or_else(|| panic!("{label}"))
            .model
    };
    for (w, at) in [("B", 153.0), ("C", 270.0), ("D", 426.0)] {
        let done = at + lat(&format!("fence.sc.gpu merge:A0 B.2u C.5u D.8u warp {w}"));
        let a = lat("fence.sc.gpu merge:A0 B.2u C.5u D.8u warp A");
        assert!(
            (done - a - 463.0).abs() <= 3.0,
            "warp {w}: done at {done}, A at {a}"
        );
    }
}

#[test]
fn fit_reproduces_the_shipped_presets() {
    for (preset, needles) in [
        (
            "configs/h100.yaml",
            [
                "gl_bar_latency: 455",
                "sys_bar_latency: 803",
                "overhead: {cta: 8, vc: 8, gl: 181, sys: 568}",
            ],
        ),
        (
            "configs/h200.yaml",
            [
                "gl_bar_latency: 51",
                "sys_bar_latency: 799",
                "overhead: {cta: 8, vc: 8, gl: 181, sys: 181}",
            ],
        ),
    ] {
        let o = membar(&["calibrate", "--fit", "--preset", preset]);
        let s = stdout(&o);
        assert!(o.status.success(), "{s}{}", stderr(&o));
        let yaml = s
            .split("```yaml")
            .nth(1)
            .and_then(|x| x.split("```").next())
            .unwrap_or_else(|| panic!("no fitted YAML:\n{s}"));
        for n in needles {
            assert!(
                yaml.contains(n),
                "{preset}: fitted preset lacks {n:?}:\n{yaml}"
            );
        }
        let shipped = std::fs::read_to_string(root().join(preset)).unwrap();
        for n in needles {
            let key = n.split(':').next().unwrap();
            let line = shipped
                .lines()
                .find(|l| l.trim_start().starts_with(key))
                .unwrap();
            assert!(
                line.contains(n.split_once(": ").unwrap().1),
                "{preset} ships {line:?}, the fit gives {n:?}"
            );
        }
    }
}

#[test]
fn strict_mode_and_bad_inputs() {
    let o = membar(&["calibrate", "--strict"]);
    assert_eq!(o.status.code(), Some(1), "there are known misses");
    assert!(
        stderr(&o).contains("goal cells outside ±20 %") && stderr(&o).contains("fence.sc.cta"),
        "{}",
        stderr(&o)
    );
    let o = membar(&[
        "calibrate",
        "--strict",
        "--tolerance",
        "60",
        "--preset",
        "configs/h100.yaml",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));

    let o = membar(&["calibrate", "--preset", "/nonexistent/p.yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("/nonexistent/p.yaml") && stderr(&o).contains("cannot read"),
        "{}",
        stderr(&o)
    );

    let dir = std::env::temp_dir().join(format!("membar-cal-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (text, needles) in [
        ("name: h100\nunit: {ways: 40}\n", vec!["unit.ways", "40"]),
        (
            "name: h100\nsm: {overhead: {gpu: 1}}\n",
            vec!["sm.overhead.gpu", "cta, vc, gl, sys"],
        ),
        ("name: a100\n", vec!["name", "a100", "h100, h200"]),
        (
            "name: h100\nmmu: {gl_bar_latency: -3}\n",
            vec!["mmu.gl_bar_latency", "-3"],
        ),
    ] {
        let p = dir.join("bad.yaml");
        std::fs::write(&p, text).unwrap();
        let o = membar(&["calibrate", "--preset", p.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{text}");
        for n in needles {
            assert!(
                stderr(&o).contains(n),
                "{text}: {n:?} missing in {}",
                stderr(&o)
            );
        }
    }
    let o = membar(&["calibrate", "--data", "/nonexistent/dir"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/nonexistent/dir"));
}

/// The measurements ship with the repository and are built into the binary:
/// `membar calibrate` run from an empty directory, with no `data/` and no
/// other checkout beside it, still evaluates the H100 preset against them.
#[test]
fn calibrate_needs_nothing_outside_the_repository() {
    let dir = common::tmp_dir("calibrate-elsewhere");
    let preset = root().join("configs/h100.yaml");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_membar"))
        .args(["calibrate", "--preset"])
        .arg(&preset)
        .current_dir(&dir)
        .output()
        .expect("run membar");
    let out = stdout(&o);
    assert!(o.status.success(), "{}{}", out, stderr(&o));
    let r = rows(&out, "H100");
    assert!(r.len() > 100, "only {} H100 cells:\n{out}", r.len());
    assert!(
        out.contains("data/calibration"),
        "the report names its data source:\n{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `docs/results/calibration.md` is what `membar calibrate` prints now
/// (regenerate: `cargo run --release --bin membar -- calibrate >
/// docs/results/calibration.md`), so the documented tables cannot go stale.
#[test]
fn shipped_results_are_the_commands_output() {
    let o = membar(&["calibrate"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let path = root().join("docs/results/calibration.md");
    let shipped = std::fs::read_to_string(&path).expect("docs/results/calibration.md");
    let now = stdout(&o);
    if shipped != now {
        let line = shipped
            .lines()
            .zip(now.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(shipped.lines().count().min(now.lines().count()));
        panic!(
            "{} differs from `membar calibrate` at line {}: regenerate it with\n  cargo run --release --bin membar -- calibrate > docs/results/calibration.md",
            path.display(),
            line + 1
        );
    }
}
