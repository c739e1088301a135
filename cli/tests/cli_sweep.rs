//! End-to-end tests of `membar sweep`: the CSV (columns, one row per point),
//! the SVG plots, the scoreboard on every point (baselines included), the
//! coalescing-vs-baselines barrier traffic, and clear errors for bad grids.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
mod common;
use common::{membar, root, stderr, stdout, tmp_dir};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// The CSV as (header, rows of column -> value).
fn read_csv(p: &Path) -> (Vec<String>, Vec<HashMap<String, String>>) {
    let mut r = csv::Reader::from_path(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let header: Vec<String> = r.headers().unwrap().iter().map(|s| s.to_string()).collect();
    let rows = r
        .records()
        .map(|rec| {
            header
                .iter()
                .cloned()
                .zip(rec.unwrap().iter().map(|s| s.to_string()))
                .collect()
        })
        .collect();
    (header, rows)
}

fn num(row: &HashMap<String, String>, col: &str) -> f64 {
    row.get(col)
        .unwrap_or_else(|| panic!("no column {col}"))
        .parse()
        .unwrap_or_else(|_| panic!("{col} = {:?} is not a number", row[col]))
}

fn run_ok(args: &[&str]) -> String {
    let o = membar(args);
    assert!(
        o.status.success(),
        "membar {args:?} failed ({:?}):\n{}{}",
        o.status.code(),
        stdout(&o),
        stderr(&o)
    );
    stdout(&o)
}

#[test]
fn small_grid_writes_one_csv_row_per_point_and_svg_plots() {
    let dir = tmp_dir("small");
    let grid = write(
        &dir,
        "small.yaml",
        "scenario: random_mix\ncycles: 20000\nways: [1, 4, 8]\nslots: [2, 4]\ncoalesce_window: [0, 16]\nmembar_prob: [0.02, 0.1]\n",
    );
    let out = dir.join("out");
    let text = run_ok(&[
        "sweep",
        "--grid",
        grid.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--jobs",
        "2",
    ]);
    assert!(text.contains("24 points"), "{text}");
    assert!(text.contains("scoreboard: PASS on every point"), "{text}");
    let (header, rows) = read_csv(&out.join("small.csv"));
    assert_eq!(rows.len(), 3 * 2 * 2 * 2, "one row per point");
    for col in [
        "point",
        "arch",
        "ways",
        "slots",
        "coalesce_window",
        "membar_prob",
        "seed",
        "cycles",
        "lat_cta_mean",
        "lat_cta_p50",
        "lat_cta_p99",
        "lat_vc_mean",
        "lat_gl_mean",
        "lat_gl_p50",
        "lat_gl_p99",
        "lat_sys_mean",
        "lat_sys_p99",
        "wait_gl_mean",
        "barriers_per_membar",
        "accepted_per_cycle",
        "warp_stall_cycles",
        "barrier_traffic",
        "peak_counter_occupancy",
        "check",
    ] {
        assert!(
            header.iter().any(|h| h == col),
            "missing column {col} in {header:?}"
        );
    }
    // Every combination appears exactly once, and every point passed the scoreboard.
    let mut seen = std::collections::HashSet::new();
    for r in &rows {
        assert!(r["check"].starts_with("PASS"), "{:?}", r);
        assert!(seen.insert((
            r["ways"].clone(),
            r["slots"].clone(),
            r["coalesce_window"].clone(),
            r["membar_prob"].clone()
        )));
        assert!(num(r, "sim_cycles") >= 20000.0);
        assert!(num(r, "accepted_per_cycle") > 0.0 && num(r, "membars") > 0.0);
        let ways: f64 = num(r, "ways");
        // P6: never more BARRIERs than MEMBARs; with ways = 1 every MEMBAR
        // that needs one gets its own (plain CTA needs none).
        assert!(num(r, "barriers_per_membar") <= 1.0 + 1e-9);
        if ways == 1.0 {
            assert!((num(r, "membars_per_barrier") - 1.0).abs() < 1e-9, "{r:?}");
        }
    }
    // Coalescing lowers barrier traffic: ways 8 below ways 1 at the same point.
    let traffic = |w: &str, p: &str| {
        rows.iter()
            .filter(|r| {
                r["ways"] == w
                    && r["membar_prob"] == p
                    && r["slots"] == "4"
                    && r["coalesce_window"] == "16"
            })
            .map(|r| num(r, "barriers_per_membar"))
            .next()
            .unwrap()
    };
    assert!(
        traffic("8", "0.1") < 0.7 * traffic("1", "0.1"),
        "{} vs {}",
        traffic("8", "0.1"),
        traffic("1", "0.1")
    );
    // Default plots: latency and barrier traffic against ways, slots, window, barrier rate.
    let svgs: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "svg"))
        .collect();
    assert_eq!(svgs.len(), 8, "{svgs:?}");
    for x in ["ways", "slots", "coalesce_window", "membar_prob"] {
        for y in ["wait_gl_mean", "barrier_traffic_per_membar"] {
            assert!(
                svgs.iter()
                    .any(|p| p.to_string_lossy().contains(&format!("{y}_vs_{x}"))),
                "no {y} vs {x} plot in {svgs:?}"
            );
        }
    }
    for p in &svgs {
        let s = std::fs::read_to_string(p).unwrap();
        // membar's signature comment, then the SVG.
        let s = match s.strip_prefix("<!-- membar sweep plot") {
            Some(r) => r.split_once("-->\n").map_or("", |x| x.1).to_string(),
            None => s,
        };
        assert!(
            s.starts_with("<svg") && s.trim_end().ends_with("</svg>"),
            "{}",
            p.display()
        );
        assert!(s.contains("<polyline"), "{}: no curve", p.display());
        // Text renders with the SVG backend without fonts: title, axis labels, legend.
        assert!(
            s.matches("<text").count() >= 10,
            "{}: too little text",
            p.display()
        );
        assert!(s.contains("vs "), "{}: no title", p.display());
    }
}

#[test]
fn same_grid_same_results_and_no_check_skips_the_scoreboard() {
    let dir = tmp_dir("det");
    let grid = write(
        &dir,
        "det.yaml",
        "cycles: 10000\nways: [2, 8]\nseed: [5, 6]\n",
    );
    let a = dir.join("a");
    let b = dir.join("b");
    run_ok(&[
        "sweep",
        "--grid",
        grid.to_str().unwrap(),
        "--out",
        a.to_str().unwrap(),
        "--jobs",
        "2",
    ]);
    run_ok(&[
        "sweep",
        "--grid",
        grid.to_str().unwrap(),
        "--out",
        b.to_str().unwrap(),
        "--jobs",
        "1",
        "--no-check",
    ]);
    let (_, ra) = read_csv(&a.join("det.csv"));
    let (_, rb) = read_csv(&b.join("det.csv"));
    assert_eq!(ra.len(), 4);
    for (x, y) in ra.iter().zip(&rb) {
        for (k, v) in x {
            if k != "secs" && k != "check" {
                assert_eq!(v, &y[k], "column {k} differs between runs");
            }
        }
        assert!(x["check"].starts_with("PASS"));
        assert_eq!(y["check"], "skipped");
    }
}

/// The baselines (and coalescing with ways: 1) pass the P1–P7 scoreboard on
/// every adversarial-free scenario, for random seeds (printed).
#[test]
fn baselines_pass_the_scoreboard_on_scenarios_and_random_seeds() {
    let master: u64 = std::env::var("SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_secs()
        });
    let mut rng = ChaCha8Rng::seed_from_u64(master);
    let seeds: Vec<u64> = (0..3).map(|_| rng.gen_range(1..1_000_000)).collect();
    eprintln!("baselines scoreboard test: SEED={master} -> seeds {seeds:?}");
    let dir = tmp_dir("baselines");
    let grid = write(
        &dir,
        "baselines.yaml",
        &format!(
            "cycles: 15000\nscenario: [random_mix, producer_consumer, barrier_burst, sys_heavy, ivall_heavy, counter_saturation, h100_store_fence]\n\
             seed: {seeds:?}\nblocks:\n  - arch: [per_warp_drain, lsu_flush]\n    gl_bar_ack: [false, true]\n  - {{arch: coalescing, ways: 1}}\n"
        ),
    );
    let out = dir.join("out");
    let o = membar(&[
        "sweep",
        "--grid",
        grid.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        o.status.success(),
        "seeds {seeds:?} (SEED={master}):\n{}{}",
        stdout(&o),
        stderr(&o)
    );
    let (_, rows) = read_csv(&out.join("baselines.csv"));
    assert_eq!(rows.len(), 7 * 3 * 5);
    for r in &rows {
        assert!(r["check"].starts_with("PASS"), "SEED={master}: {r:?}");
        assert!(num(r, "membars") > 0.0, "{r:?}");
        if r["arch"] != "coalescing" {
            // One BARRIER per MEMBAR that needs one.
            assert!(
                (num(r, "membars_per_barrier") - 1.0).abs() < 1e-9
                    || num(r, "barrier_commands") == 0.0,
                "{r:?}"
            );
        }
    }
}

#[test]
fn coalescing_beats_the_baselines_on_barrier_traffic_in_a_burst() {
    let dir = tmp_dir("burst");
    let grid = write(&dir, "burst.yaml", "scenario: barrier_burst\ncycles: 20000\nseed: [1, 2]\nblocks:\n  - {arch: coalescing, ways: [8, 32]}\n  - {arch: [per_warp_drain, lsu_flush]}\n");
    let out = dir.join("out");
    run_ok(&[
        "sweep",
        "--grid",
        grid.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let (_, rows) = read_csv(&out.join("burst.csv"));
    assert_eq!(rows.len(), 2 * 4);
    for r in &rows {
        assert_eq!(num(r, "membars"), 32.0, "{r:?}");
        let bars = num(r, "barrier_commands");
        match (r["arch"].as_str(), r["ways"].as_str()) {
            ("coalescing", "8") => assert!(bars <= 5.0, "{r:?}"),
            ("coalescing", "32") => assert!(bars <= 2.0, "{r:?}"),
            _ => assert_eq!(bars, 32.0, "a baseline sends one BARRIER per MEMBAR: {r:?}"),
        }
    }
    let coal: f64 = rows
        .iter()
        .filter(|r| r["arch"] == "coalescing")
        .map(|r| num(r, "barrier_traffic"))
        .fold(0.0, f64::max);
    let base: f64 = rows
        .iter()
        .filter(|r| r["arch"] != "coalescing")
        .map(|r| num(r, "barrier_traffic"))
        .fold(f64::MAX, f64::min);
    assert!(
        coal * 5.0 <= base,
        "coalescing {coal} vs baselines {base} barrier commands"
    );
}

#[test]
fn default_grid_has_100_points_and_runs_every_plot() {
    let text = std::fs::read_to_string(root().join("grids/default_sweep.yaml")).unwrap();
    assert!(
        text.contains("membar sweep --grid grids/default_sweep.yaml"),
        "the grid documents its command"
    );
    let dir = tmp_dir("default");
    // Short runs: this checks the grid and the plots, not the timing.
    let s = run_ok(&[
        "sweep",
        "--grid",
        "grids/default_sweep.yaml",
        "--out",
        dir.to_str().unwrap(),
        "--cycles",
        "4000",
    ]);
    assert!(s.contains("100 points"), "{s}");
    let (_, rows) = read_csv(&dir.join("default_sweep.csv"));
    assert_eq!(rows.len(), 100);
    assert_eq!(
        s.matches("wrote ").count(),
        1 + 14,
        "CSV and 14 plots:\n{s}"
    );
    for a in ["coalescing", "per_warp_drain", "lsu_flush"] {
        assert!(rows.iter().any(|r| r["arch"] == a));
    }
}

#[test]
fn bad_grid_files_are_clear_errors_with_exit_code_2() {
    let dir = tmp_dir("bad");
    let cases: &[(&str, &[&str])] = &[
        (
            "wayz: [1, 2]\n",
            &["wayz", "unknown key", "ways", "membar_prob", "mmu.KEY"],
        ),
        ("ways: [1, 0]\n", &["ways", "0", "1..=64"]),
        ("slots: [3]\n", &["slots", "3", "2, 4, 8"]),
        ("membar_prob: [0.1, 2]\n", &["membar_prob", "2", "0..=1"]),
        (
            "mmu.txn_latency: [-1]\n",
            &["mmu.txn_latency", "-1", "1..=1000000"],
        ),
        ("mmu.bar_gapp: [1]\n", &["mmu.bar_gapp", "unknown key"]),
        (
            "arch: [coalescing, vortex]\n",
            &["arch", "vortex", "per_warp_drain"],
        ),
        (
            "ways: [64]\n",
            &["ways", "64", "warps = 32", "at the point"],
        ),
        ("scenario: [nope]\n", &["scenario", "nope", "barrier_burst"]),
        ("ways: []\n", &["ways", "at least one value"]),
        (
            "ways: [1, 2]\nplots: [{x: ways, y: latency}]\n",
            &["plots[0].y", "latency", "wait_gl_mean"],
        ),
        (
            "ways: [1, 2]\nplots: [{x: ways, colour: red}]\n",
            &[
                "plots[0].colour",
                "red",
                "known keys: x, y, series, free, at",
            ],
        ),
        (
            "ways: [1, 2]\nplots: [{x: ways, at: 3}]\n",
            &["plots[0].at", "3", "a mapping key: value"],
        ),
        (
            "ways: [1, 2]\nplots: [{x: slots}]\n",
            &["plots", "slots", "a swept key"],
        ),
        ("cycles: 0\n", &["cycles", "1..="]),
        ("[1, 2]\n", &["<top level>", "mapping"]),
        ("ways: [1\n", &["YAML"]),
        (
            "preset: configs/nope.yaml\n",
            &["configs/nope.yaml", "cannot read"],
        ),
    ];
    for (n, (text, needles)) in cases.iter().enumerate() {
        let g = write(&dir, &format!("bad{n}.yaml"), text);
        let o = membar(&[
            "sweep",
            "--grid",
            g.to_str().unwrap(),
            "--out",
            dir.join("out").to_str().unwrap(),
        ]);
        assert_eq!(
            o.status.code(),
            Some(2),
            "{text:?}: {}{}",
            stdout(&o),
            stderr(&o)
        );
        let e = stderr(&o);
        assert!(
            e.contains(&format!("bad{n}.yaml")) || text.starts_with("preset"),
            "{text:?}: the error names the file: {e}"
        );
        for needle in needles.iter() {
            assert!(e.contains(needle), "{text:?}: {needle:?} missing in: {e}");
        }
    }
    let o = membar(&["sweep", "--grid", "/nonexistent/grid.yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/nonexistent/grid.yaml"));
}
