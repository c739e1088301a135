//! `membar sweep --grid FILE.yaml [--out DIR] [--jobs N]`: run the cartesian
//! product of configuration keys and workload parameters, in parallel, and
//! write one CSV row per point plus SVG plots of the main curves.
//!
//! The grid files, the runner, the metrics and the plots are crate
//! `membar-explore` (`sim/explore/`: `grid`, `sweep`, `plot`); this file is
//! the command: options, progress, sharding, output files, exit codes.

use crate::common::{CmdError, CmdResult};
use crate::output::{self, RunInputs};
use crate::shard::Shard;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use membar_explore::grid::{value_text, Grid, Point};
use membar_explore::plot::draw_plot;
use membar_explore::sweep::{csv_header, csv_row, is_sweep_csv, is_sweep_svg, run_point, Table};
use rayon::prelude::*;
use std::path::{Path, PathBuf};

pub struct Options {
    pub grid: PathBuf,
    pub out: PathBuf,
    pub jobs: Option<usize>,
    pub no_check: bool,
    pub cycles: Option<u64>,
    /// Run only this slice of the points (`--shard I/N`).
    pub shard: Option<Shard>,
    /// Join the shard CSVs in these directories instead of running (`--merge`).
    pub merge: Vec<PathBuf>,
}

fn write_csv(
    path: &Path,
    header: &[String],
    rows: &[&Vec<String>],
    inputs: &RunInputs,
) -> Result<(), CmdError> {
    output::write_file(
        "--out",
        path,
        inputs,
        output::Owner::Header(is_sweep_csv),
        "a sweep CSV",
        |w| {
            let mut cw = csv::Writer::from_writer(w);
            cw.write_record(header)?;
            for r in rows {
                cw.write_record(r.iter())?;
            }
            cw.flush()
        },
    )
}

// ---------------------------------------------------------------------------
// The command
// ---------------------------------------------------------------------------

fn grid_stem(grid: &Path) -> String {
    grid.file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "sweep".into())
}

/// Draw every plot of the grid from the table; print what was written.
fn draw_all(
    opt: &Options,
    stem: &str,
    grid: &Grid,
    table: &Table,
    inputs: &RunInputs,
) -> CmdResult {
    for spec in &grid.plots {
        if let Some(plot) = draw_plot(&opt.out, stem, grid, table, spec).map_err(CmdError::input)? {
            output::write_file(
                "--out",
                &plot.path,
                inputs,
                output::Owner::Header(is_sweep_svg),
                "a sweep plot",
                |w| w.write_all(plot.text.as_bytes()),
            )?;
            println!(
                "wrote {} ({} series, {} points)",
                plot.path.display(),
                plot.series,
                plot.points
            );
        }
    }
    Ok(())
}

/// The `check` column's verdicts: exit 1 naming every flagged point.
fn verdict(grid: &Grid, table: &Table, checked: bool) -> CmdResult {
    let col = table.columns.get("check").copied();
    let mut failed = Vec::new();
    let mut checks = 0u64;
    for p in &grid.points {
        let Some(Some(row)) = table.rows.get(p.index) else {
            continue;
        };
        let cell = col.and_then(|c| row.get(c)).map_or("", |s| s.as_str());
        if let Some(v) = cell.strip_prefix("VIOLATION: ") {
            failed.push(format!(
                "point {} ({}; scenario {}, seed {}): {v}",
                p.index,
                p.params
                    .iter()
                    .map(|(k, v)| format!("{k}={}", value_text(v)))
                    .collect::<Vec<_>>()
                    .join(", "),
                p.scenario,
                p.seed
            ));
        } else if let Some(n) = cell
            .strip_prefix("PASS (")
            .and_then(|r| r.strip_suffix(" checks)"))
        {
            checks += n.parse::<u64>().unwrap_or(0);
        }
    }
    if !failed.is_empty() {
        return Err(CmdError::failed(format!(
            "scoreboard violation on {} points:\n  {}",
            failed.len(),
            failed.join("\n  ")
        )));
    }
    if checked {
        println!("scoreboard: PASS on every point ({checks} property checks)");
    }
    Ok(())
}

fn run_inputs(opt: &Options, grid: &Grid) -> RunInputs {
    let mut inputs = RunInputs::new().with("--grid", &opt.grid);
    for f in &grid.input_files {
        inputs.add("--grid (a file it names)", f);
    }
    inputs
}

pub fn sweep(opt: &Options) -> CmdResult {
    let t0 = std::time::Instant::now();
    let grid = Grid::load(&opt.grid, opt.cycles)?;
    let stem = grid_stem(&opt.grid);
    if !opt.merge.is_empty() {
        return merge(opt, &grid, &stem);
    }
    let inputs = run_inputs(opt, &grid);
    if opt.out.exists() && !opt.out.is_dir() {
        return Err(CmdError::input(format!(
            "--out {}: exists and is not a directory",
            opt.out.display()
        )));
    }
    std::fs::create_dir_all(&opt.out)
        .map_err(|e| CmdError::input(format!("--out {}: {e}", opt.out.display())))?;
    let points: Vec<&Point> = grid
        .points
        .iter()
        .filter(|p| match opt.shard {
            Some(s) => s.owns(p.index),
            None => true,
        })
        .collect();
    let n = points.len();
    let csv_path = match opt.shard {
        Some(s) => opt.out.join(s.file_name(&stem)),
        None => opt.out.join(format!("{stem}.csv")),
    };
    // Refuse to clobber before spending hours on the points.
    output::check_target(
        "--out",
        &csv_path,
        &inputs,
        output::Owner::Header(is_sweep_csv),
        "a sweep CSV",
    )?;
    let jobs = opt
        .jobs
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
        .clamp(1, n.max(1));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| CmdError::input(format!("--jobs {jobs}: {e}")))?;
    let pb = ProgressBar::with_draw_target(Some(n as u64), ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} points  eta {eta}  {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let check = !opt.no_check;
    println!(
        "membar sweep: {} ({} points{} × {} cycles, {} jobs, scoreboard {})",
        opt.grid.display(),
        n,
        opt.shard
            .map(|s| format!(" of {} in shard {s}", grid.points.len()))
            .unwrap_or_default(),
        grid.cycles,
        jobs,
        if check { "on" } else { "off (--no-check)" }
    );
    // Each point's result becomes its CSV row at once: the heavy statistics
    // are not kept.
    let res: Vec<(Vec<String>, u64, f64)> = pool.install(|| {
        points
            .par_iter()
            .map(|p| {
                let r = run_point(p, check);
                pb.inc(1);
                (csv_row(&grid, p, &r), r.sim_cycles, r.secs)
            })
            .collect()
    });
    pb.finish_and_clear();
    let sim: u64 = res.iter().map(|r| r.1).sum();
    let busy: f64 = res.iter().map(|r| r.2).sum();
    let header = csv_header(&grid);
    let rows: Vec<&Vec<String>> = res.iter().map(|r| &r.0).collect();
    write_csv(&csv_path, &header, &rows, &inputs)?;
    println!("wrote {} ({} rows)", csv_path.display(), rows.len());
    let mut table = Table {
        rows: vec![None; grid.points.len()],
        columns: header
            .iter()
            .enumerate()
            .map(|(i, h)| (h.clone(), i))
            .collect(),
    };
    for (p, r) in points.iter().zip(&res) {
        table.rows[p.index] = Some(&r.0);
    }
    match opt.shard {
        Some(s) => println!(
            "shard {s}: no plots; when every shard is done: membar sweep --grid {} --merge DIR... --out DIR",
            opt.grid.display()
        ),
        None => draw_all(opt, &stem, &grid, &table, &inputs)?,
    }
    let wall = t0.elapsed().as_secs_f64();
    println!(
        "swept {n} points, {sim} cycles simulated in {wall:.1} s wall, grid loading and outputs included ({:.2} M cycles/s overall, {:.2} M cycles/s per job)",
        sim as f64 / wall.max(1e-9) / 1e6,
        sim as f64 / busy.max(1e-9) / 1e6
    );
    verdict(&grid, &table, check)
}

/// `--merge DIR...`: the shard CSVs of this grid in the directories, joined
/// into `<out>/<grid>.csv` in point order (byte for byte what the unsharded
/// run writes), after checking that they are one complete set of shards of
/// this grid: one shard count, every shard once, the grid's header, every
/// point exactly once with the grid's scenario, seed and cycles.
fn merge(opt: &Options, grid: &Grid, stem: &str) -> CmdResult {
    let mut inputs = run_inputs(opt, grid);
    let mut files: Vec<(Shard, PathBuf)> = Vec::new();
    for d in &opt.merge {
        let rd = std::fs::read_dir(d).map_err(|e| {
            CmdError::input(format!(
                "--merge {}: {e}; expected a directory holding {stem}.shard-I-of-N.csv files",
                d.display()
            ))
        })?;
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if let Some(s) = Shard::from_file_name(stem, &name) {
                files.push((s, e.path()));
            }
        }
    }
    if files.is_empty() {
        return Err(CmdError::input(format!(
            "--merge {}: no {stem}.shard-I-of-N.csv files there (written by membar sweep --grid {} --shard I/N)",
            opt.merge
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(" "),
            opt.grid.display()
        )));
    }
    files.sort_by_key(|(s, p)| (s.count, s.index, p.clone()));
    let count = files[0].0.count;
    if let Some((s, p)) = files.iter().find(|(s, _)| s.count != count) {
        return Err(CmdError::input(format!(
            "--merge: {} is shard {s}, but {} is of {count} shards: one sweep's shards only",
            p.display(),
            files[0].1.display()
        )));
    }
    let mut seen: Vec<Option<&PathBuf>> = vec![None; count];
    for (s, p) in &files {
        if let Some(q) = seen[s.index] {
            return Err(CmdError::input(format!(
                "--merge: shard {s} twice: {} and {}",
                q.display(),
                p.display()
            )));
        }
        seen[s.index] = Some(p);
    }
    let missing: Vec<String> = (0..count)
        .filter(|i| seen[*i].is_none())
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(CmdError::input(format!(
            "--merge: shards missing: {} (run membar sweep --grid {} --shard I/{count} for each)",
            missing.join(", "),
            opt.grid.display()
        )));
    }
    let header = csv_header(grid);
    let mut all: Vec<Option<Vec<String>>> = vec![None; grid.points.len()];
    let col = |name: &str| header.iter().position(|h| h == name).unwrap_or(0);
    let (c_scen, c_seed, c_cycles) = (col("scenario"), col("seed"), col("cycles"));
    for (s, p) in &files {
        inputs.add("--merge", p);
        let bad = |what: String| CmdError::input(format!("--merge: {}: {what}", p.display()));
        let text = crate::common::read_input_text(
            "--merge",
            p,
            "shard CSV",
            crate::common::MAX_CSV_BYTES,
        )?;
        let mut r = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(text.as_bytes());
        let mut recs = r.records();
        let h: Vec<String> = match recs.next() {
            Some(Ok(h)) => h.iter().map(str::to_string).collect(),
            Some(Err(e)) => return Err(bad(e.to_string())),
            None => return Err(bad("empty file".into())),
        };
        if h != header {
            return Err(bad(format!(
                "its header is not that of {} (expected {} columns starting {})",
                opt.grid.display(),
                header.len(),
                header[..6].join(",")
            )));
        }
        for (line, rec) in recs.enumerate() {
            let row: Vec<String> = rec
                .map_err(|e| bad(e.to_string()))?
                .iter()
                .map(str::to_string)
                .collect();
            let at = |what: String| bad(format!("row {}: {what}", line + 2));
            let idx: usize = row[0]
                .parse()
                .map_err(|_| at(format!("point {:?} is not a point index", row[0])))?;
            let Some(pt) = grid.points.get(idx) else {
                return Err(at(format!(
                    "point {idx}: the grid has {} points (0..={})",
                    grid.points.len(),
                    grid.points.len().saturating_sub(1)
                )));
            };
            if !s.owns(idx) {
                return Err(at(format!("point {idx} does not belong to shard {s}")));
            }
            if row[c_scen] != pt.scenario
                || row[c_seed] != pt.seed.to_string()
                || row[c_cycles] != pt.cycles.to_string()
            {
                return Err(at(format!(
                    "point {idx} has scenario {}, seed {}, cycles {}; the grid's point {idx} has {}, {}, {} (another grid, or --cycles differed?)",
                    row[c_scen], row[c_seed], row[c_cycles], pt.scenario, pt.seed, pt.cycles
                )));
            }
            if all[idx].is_some() {
                return Err(at(format!("point {idx} appears twice")));
            }
            all[idx] = Some(row);
        }
    }
    let missing: Vec<usize> = (0..all.len()).filter(|i| all[*i].is_none()).collect();
    if !missing.is_empty() {
        let shown: Vec<String> = missing.iter().take(20).map(|i| i.to_string()).collect();
        return Err(CmdError::input(format!(
            "--merge: {} of {} points missing (points {}{}): a shard did not finish?",
            missing.len(),
            all.len(),
            shown.join(", "),
            if missing.len() > 20 { ", ..." } else { "" }
        )));
    }
    std::fs::create_dir_all(&opt.out)
        .map_err(|e| CmdError::input(format!("--out {}: {e}", opt.out.display())))?;
    let csv_path = opt.out.join(format!("{stem}.csv"));
    let rows: Vec<&Vec<String>> = all.iter().flatten().collect();
    write_csv(&csv_path, &header, &rows, &inputs)?;
    println!(
        "merged {count} shards: wrote {} ({} rows)",
        csv_path.display(),
        rows.len()
    );
    let table = Table {
        rows: all.iter().map(|r| r.as_ref()).collect(),
        columns: header
            .iter()
            .enumerate()
            .map(|(i, h)| (h.clone(), i))
            .collect(),
    };
    draw_all(opt, stem, grid, &table, &inputs)?;
    verdict(grid, &table, false)
}
