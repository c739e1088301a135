//! End-to-end tests of `membar sweep`'s outputs and limits (issue 11): the
//! plots (legend outside the data, x ticks at the swept values, a
//! colour-blind-safe palette, what was held fixed in the title), the CSV
//! without a wall-time column (same bytes every run), grid size limit, true
//! wall time, and `preset:` paths relative to the grid file.

use std::path::{Path, PathBuf};
use std::time::Instant;
mod common;
use common::{membar, root, stdout, text, tmp_dir};

/// Okabe–Ito, as `rgb(r,g,b)` / `#rrggbb` spellings plotters may use.
const PALETTE: &[(u8, u8, u8)] = &[
    (0, 114, 178),
    (213, 94, 0),
    (0, 158, 115),
    (204, 121, 167),
    (86, 180, 233),
    (230, 159, 0),
    (0, 0, 0),
];

fn attr(tag: &str, name: &str) -> Option<f64> {
    let key = format!(" {name}=\"");
    let i = tag.find(&key)? + key.len();
    let j = tag[i..].find('"')?;
    tag[i..i + j].parse().ok()
}

/// `(x, text)` of every `<text>` element.
fn texts(svg: &str) -> Vec<(f64, String)> {
    let mut v = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find("<text") {
        let r = &rest[i..];
        let close = r.find('>').unwrap();
        let tag = &r[..close];
        let end = r.find("</text>").unwrap();
        let body = r[close + 1..end].trim().to_string();
        v.push((attr(tag, "x").unwrap_or(f64::NAN), body));
        rest = &r[end..];
    }
    v
}

/// Centres of the data markers (`<circle>`).
fn circles(svg: &str) -> Vec<(f64, String)> {
    let mut v = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find("<circle") {
        let r = &rest[i..];
        let close = r.find('>').unwrap();
        let tag = &r[..close];
        v.push((attr(tag, "cx").unwrap(), tag.to_string()));
        rest = &r[close..];
    }
    v
}

fn colour_of(tag: &str) -> Option<(u8, u8, u8)> {
    for key in ["fill=\"", "stroke=\""] {
        if let Some(i) = tag.find(key) {
            let v = &tag[i + key.len()..];
            let v = &v[..v.find('"').unwrap()];
            if let Some(h) = v.strip_prefix('#') {
                let p = |k: usize| u8::from_str_radix(&h[k..k + 2], 16).unwrap();
                return Some((p(0), p(2), p(4)));
            }
            if let Some(r) = v.strip_prefix("rgb(") {
                let n: Vec<u8> = r
                    .trim_end_matches(')')
                    .split(',')
                    .map(|x| x.trim().parse().unwrap())
                    .collect();
                return Some((n[0], n[1], n[2]));
            }
        }
    }
    None
}

#[test]
fn plots_put_the_legend_outside_tick_the_swept_values_and_say_what_is_fixed() {
    let dir = tmp_dir("plots");
    let g = dir.join("rates.yaml");
    std::fs::write(
        &g,
        "cycles: 4000\nways: 4\nslots: [2, 4]\nmembar_prob: [0.01, 0.03, 0.1, 0.3]\narch: [coalescing, per_warp_drain, lsu_flush]\nplots:\n  - {x: membar_prob, y: wait_gl_mean, series: arch}\n",
    )
    .unwrap();
    let out = dir.join("out");
    let o = membar(&[
        "sweep",
        "--grid",
        g.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let svg_path = out.join("rates_wait_gl_mean_vs_membar_prob_by_arch.svg");
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let t = texts(&svg);
    // Ticks at exactly the swept values, none between them.
    for v in ["0.01", "0.03", "0.1", "0.3"] {
        assert!(t.iter().any(|(_, s)| s == v), "no tick {v}: {t:?}");
    }
    for v in ["0.016", "0.031", "0.063", "0.125", "0.25"] {
        assert!(
            !t.iter().any(|(_, s)| s == v),
            "tick {v} is not a swept value"
        );
    }
    // The title says what was held fixed (slots at its reference value).
    assert!(
        t.iter()
            .any(|(_, s)| s.contains("held fixed") && s.contains("slots=")),
        "{t:?}"
    );
    // The legend's labels sit right of every data point.
    let cs = circles(&svg);
    assert!(cs.len() >= 12, "{} markers", cs.len());
    let max_cx = cs.iter().map(|c| c.0).fold(f64::MIN, f64::max);
    let legend: Vec<&(f64, String)> = t.iter().filter(|(_, s)| s.starts_with("arch = ")).collect();
    assert_eq!(legend.len(), 3, "{t:?}");
    for (x, s) in legend {
        assert!(
            *x > max_cx + 10.0,
            "legend {s:?} at x={x} overlaps data (max cx {max_cx})"
        );
    }
    // Every series colour from the colour-blind-safe palette.
    for (_, tag) in &cs {
        let c = colour_of(tag).unwrap_or_else(|| panic!("no colour in {tag}"));
        assert!(
            PALETTE.contains(&c),
            "colour {c:?} not in the palette: {tag}"
        );
    }
    // Signed as membar's own output.
    assert!(svg.starts_with("<!-- membar sweep plot"), "{}", &svg[..80]);
}

#[test]
fn the_csv_is_the_same_bytes_on_every_run() {
    let dir = tmp_dir("csv-stable");
    let g = dir.join("stable.yaml");
    std::fs::write(&g, "cycles: 3000\nways: [1, 4]\n").unwrap();
    let mut csvs = Vec::new();
    for run in ["a", "b"] {
        let out = dir.join(run);
        let o = membar(&[
            "sweep",
            "--grid",
            g.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", text(&o));
        csvs.push(std::fs::read(out.join("stable.csv")).unwrap());
    }
    let header = String::from_utf8_lossy(&csvs[0])
        .lines()
        .next()
        .unwrap()
        .to_string();
    assert!(!header.split(',').any(|c| c == "secs"), "{header}");
    assert!(
        csvs[0] == csvs[1],
        "two runs of one grid wrote different CSVs"
    );
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn oversized_grids_are_refused_at_once() {
    let dir = tmp_dir("huge");
    let list = |n: usize| {
        format!(
            "[{}]",
            (0..n)
                .map(|i| format!("{}", i % 250 + 1))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let g = write(
        &dir,
        "huge.yaml",
        &format!(
            "cycles: 1000\ncoalesce_window: {}\nseed: {}\nmembar_prob: [{}]\n",
            list(1000),
            list(1000),
            (1..=256)
                .map(|i| format!("{:.3}", i as f64 / 1000.0))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
    // Killed after 30 s: a build that tries to run the grid must fail here,
    // not eat the machine's memory.
    let t0 = Instant::now();
    let mut child = std::process::Command::new(common::membar_bin())
        .args([
            "sweep",
            "--grid",
            g.to_str().unwrap(),
            "--out",
            dir.join("o").to_str().unwrap(),
        ])
        .current_dir(root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed().as_secs() > 30 {
            let _ = child.kill();
            let _ = child.wait();
            panic!("a 256,000,000-point grid was not refused within 30 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let o = child.wait_with_output().unwrap();
    let secs = t0.elapsed().as_secs_f64();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("at most 20000 points"), "{}", text(&o));
    assert!(secs < 20.0, "refusing took {secs:.1} s");
}

#[test]
fn reported_wall_time_covers_the_whole_run() {
    // Many cheap points: building them and writing the outputs is a real
    // share of the run, which the wall time must include.
    let dir = tmp_dir("wall");
    let vals = |n: usize| {
        format!(
            "[{}]",
            (0..n)
                .map(|i| (i + 1).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let g = write(
        &dir,
        "wall.yaml",
        &format!(
            "cycles: 1\ncoalesce_window: {}\nseed: {}\n",
            vals(100),
            vals(150)
        ),
    );
    let t0 = Instant::now();
    let o = membar(&[
        "sweep",
        "--grid",
        g.to_str().unwrap(),
        "--out",
        dir.join("o").to_str().unwrap(),
        "--no-check",
    ]);
    let outside = t0.elapsed().as_secs_f64();
    let out = stdout(&o);
    assert!(o.status.success(), "{}", text(&o));
    let line = out
        .lines()
        .find(|l| l.contains(" s wall"))
        .expect("wall line");
    let wall: f64 = line
        .split(" s wall")
        .next()
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        wall >= 0.8 * outside - 0.3,
        "reported {wall} s wall, the process took {outside:.2} s: {line}"
    );
}

#[test]
fn preset_paths_are_found_beside_the_grid_and_errors_name_grid_and_key() {
    let dir = tmp_dir("preset-rel");
    std::fs::copy(root().join("configs/h100.yaml"), dir.join("h100.yaml")).unwrap();
    let g = write(
        &dir,
        "p.yaml",
        "preset: h100.yaml\ncycles: 2000\nways: [1, 4]\n",
    );
    let o = membar(&[
        "sweep",
        "--grid",
        g.to_str().unwrap(),
        "--out",
        dir.join("o").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    // From another working directory too.
    let o = std::process::Command::new(common::membar_bin())
        .args(["sweep", "--grid", "p.yaml", "--out", "o2"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let bad = write(&dir, "bad.yaml", "preset: nope.yaml\nways: [1, 4]\n");
    let o = membar(&[
        "sweep",
        "--grid",
        bad.to_str().unwrap(),
        "--out",
        dir.join("o3").to_str().unwrap(),
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(
        t.contains("bad.yaml") && t.contains("preset") && t.contains("nope.yaml"),
        "{t}"
    );
}
