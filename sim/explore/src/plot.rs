//! SVG plots of a sweep (plotters): a metric against a swept key, one series
//! per value of another, the other swept keys held at their reference value.

use crate::grid::{value_text, Grid, PlotSpec, Point};
use crate::sweep::{Table, SVG_SIGNATURE};
use membar_unit_env::config::Config;
use serde_yaml::Value;
use std::path::{Path, PathBuf};

/// A drawn plot: where it goes, its SVG text, how many series and points.
pub struct Plot {
    pub path: PathBuf,
    pub text: String,
    pub series: usize,
    pub points: usize,
}

/// The value of `key` at point `p` as text (swept keys, then the configuration).
fn param_text(p: &Point, key: &str) -> Option<String> {
    if let Some((_, v)) = p.params.iter().find(|(k, _)| k == key) {
        return Some(value_text(v));
    }
    // `KEY.SUB`: a number inside a mapping value.
    if let Some((base, sub)) = key.rsplit_once('.') {
        if let Some((_, Value::Mapping(m))) = p.params.iter().find(|(k, _)| k == base) {
            return Some(
                m.get(Value::from(sub))
                    .map(value_text)
                    .unwrap_or_else(|| "0".into()),
            );
        }
    }
    p.cfg
        .describe()
        .into_iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
}

/// The reference value of a key: the grid's `reference`, else the default
/// configuration's value if some point has it, else the first point's value.
fn reference_value(grid: &Grid, key: &str) -> Option<String> {
    if let Some((_, v)) = grid.reference.iter().find(|(k, _)| k == key) {
        return Some(value_text(v));
    }
    let def = Config::default()
        .describe()
        .into_iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v);
    if let Some(d) = def {
        if grid
            .points
            .iter()
            .any(|p| param_text(p, key).as_deref() == Some(d.as_str()))
        {
            return Some(d);
        }
    }
    grid.points.first().and_then(|p| param_text(p, key))
}

fn axis_label(key: &str) -> String {
    match key {
        "ways" => "ways (N, barriers per coalesced barrier)".into(),
        "slots" => "slots (K, coalescing indices)".into(),
        "coalesce_window" => "coalesce_window (cycles)".into(),
        "membar_prob" => "membar_prob (barrier rate: MEMBARs per request)".into(),
        "lat_gl_mean" => "MEMBAR.GL release latency, mean (cycles)".into(),
        "wait_gl_mean" => "MEMBAR.GL latency seen by the warp, mean (cycles)".into(),
        "wait_gl_p99" => "MEMBAR.GL latency seen by the warp, p99 (cycles)".into(),
        "wait_all_mean" => "MEMBAR latency seen by the warp, all levels, mean (cycles)".into(),
        "wait_cta_mean" => "MEMBAR.CTA latency seen by the warp, mean (cycles)".into(),
        "lat_gl_p99" => "MEMBAR.GL release latency, p99 (cycles)".into(),
        "lat_all_mean" => "MEMBAR release latency, all levels, mean (cycles)".into(),
        "barrier_traffic_per_membar" => "BARRIER + INVAL commands per MEMBAR".into(),
        "barriers_per_membar" => "BARRIER commands per MEMBAR".into(),
        "accepted_per_cycle" => "accepted requests per cycle".into(),
        other => other.replace('_', " "),
    }
}

/// Okabe–Ito colour-blind-safe palette (no yellow: too light on white).
pub const PALETTE: &[(u8, u8, u8)] = &[
    (0, 114, 178),   // blue
    (213, 94, 0),    // vermillion
    (0, 158, 115),   // bluish green
    (204, 121, 167), // reddish purple
    (86, 180, 233),  // sky blue
    (230, 159, 0),   // orange
    (0, 0, 0),       // black
];

/// Canvas of every plot, and the width of the legend panel at its right
/// (outside the data area).
const PLOT_W: u32 = 900;
const PLOT_H: u32 = 580;
const LEGEND_W: u32 = 190;

/// Tick label text of an x value.
fn tick_text(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{}", x.round())
    } else {
        let t = format!("{x:.4}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// One plot of the slice `spec` names, as SVG text for `dir`; `None` when
/// the slice has nothing to draw.
pub fn draw_plot(
    dir: &Path,
    stem: &str,
    grid: &Grid,
    table: &Table,
    spec: &PlotSpec,
) -> Result<Option<Plot>, String> {
    use plotters::prelude::*;
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    // The slice: every other swept key at its reference value (except the series key).
    let fixed: Vec<(String, Option<String>)> = grid
        .keys
        .iter()
        .filter(|k| {
            let xbase = spec.x.rsplit_once('.').map_or(spec.x.as_str(), |x| x.0);
            **k != spec.x
                && k.as_str() != xbase
                && Some(*k) != spec.series.as_ref()
                && *k != "seed"
                && !spec.free.contains(k)
        })
        .map(|k| match spec.at.iter().find(|(a, _)| a == k) {
            Some((_, v)) => (k.clone(), Some(v.clone())),
            None => (k.clone(), reference_value(grid, k)),
        })
        .collect();
    let mut series: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for p in &grid.points {
        let in_slice = fixed.iter().all(|(k, v)| {
            // A key a point's block does not sweep does not restrict it.
            p.params.iter().all(|(pk, _)| pk != k) || param_text(p, k) == *v
        });
        if !in_slice {
            continue;
        }
        // Curves against x come from the blocks that sweep x.
        let xbase = spec.x.rsplit_once('.').map_or(spec.x.as_str(), |x| x.0);
        if !p.params.iter().any(|(k, _)| k == &spec.x || k == xbase) {
            continue;
        }
        let Some(x) = param_text(p, &spec.x).and_then(|t| t.parse::<f64>().ok()) else {
            continue;
        };
        let y = table.metric(p.index, &spec.y);
        if !y.is_finite() {
            continue;
        }
        let label = match &spec.series {
            Some(s) => format!("{s} = {}", param_text(p, s).unwrap_or_default()),
            None => spec.y.clone(),
        };
        match series.iter_mut().find(|(l, _)| *l == label) {
            Some((_, v)) => v.push((x, y)),
            None => series.push((label, vec![(x, y)])),
        }
    }
    // Seeds at the same x: average.
    for (_, v) in series.iter_mut() {
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut merged: Vec<(f64, f64, u32)> = Vec::new();
        for &(x, y) in v.iter() {
            match merged.last_mut() {
                Some(m) if m.0 == x => {
                    m.1 += y;
                    m.2 += 1;
                }
                _ => merged.push((x, y, 1)),
            }
        }
        *v = merged
            .into_iter()
            .map(|(x, y, n)| (x, y / n as f64))
            .collect();
    }
    series.retain(|(_, v)| !v.is_empty());
    // Single points next to real curves are slices of other blocks: drop them.
    if series.iter().any(|(_, v)| v.len() >= 2) {
        series.retain(|(_, v)| v.len() >= 2);
    }
    let npts: usize = series.iter().map(|(_, v)| v.len()).sum();
    if npts == 0 {
        return Ok(None);
    }
    let mut name = match &spec.series {
        Some(s) => format!("{stem}_{}_vs_{}_by_{s}", spec.y, spec.x),
        None => format!("{stem}_{}_vs_{}", spec.y, spec.x),
    };
    for (k, v) in &spec.at {
        name.push_str(&format!("_at_{k}_{v}"));
    }
    let path = dir.join(format!("{}.svg", name.replace(['.', '/', ' '], "_")));
    // The swept x values that are drawn: the ticks.
    let mut xs: Vec<f64> = series
        .iter()
        .flat_map(|(_, v)| v.iter().map(|p| p.0))
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let (xmin, xmax) = (xs[0], xs[xs.len() - 1]);
    let ymax = series
        .iter()
        .flat_map(|(_, v)| v.iter().map(|p| p.1))
        .fold(0.0f64, f64::max);
    // Wide positive ranges (ways 1..32, rates 0.01..0.3) on a log axis.
    let log_x = xmin > 0.0 && xmax / xmin >= 8.0;
    let tx = |x: f64| if log_x { x.log2() } else { x };
    let err = |e: &dyn std::fmt::Display| format!("{}: drawing the plot: {e}", path.display());
    let title = format!("{} vs {}", axis_label(&spec.y), spec.x);
    let held: Vec<String> = fixed
        .iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}={v}")))
        .collect();
    let subtitle = if held.is_empty() {
        "held fixed: nothing else is swept".to_string()
    } else {
        format!("held fixed: {}", held.join(", "))
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (PLOT_W, PLOT_H)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let (top, body) = root.split_vertically(52);
        let (plot_area, legend_area) = body.split_horizontally(PLOT_W - LEGEND_W);
        top.draw_text(
            &title,
            &TextStyle::from(("sans-serif", 16).into_font()).pos(Pos::new(HPos::Center, VPos::Top)),
            (PLOT_W as i32 / 2, 6),
        )
        .map_err(|e| err(&e))?;
        top.draw_text(
            &subtitle,
            &TextStyle::from(("sans-serif", 11).into_font())
                .color(&RGBColor(60, 60, 60))
                .pos(Pos::new(HPos::Center, VPos::Top)),
            (PLOT_W as i32 / 2, 30),
        )
        .map_err(|e| err(&e))?;
        let y_hi = if ymax <= 0.0 { 1.0 } else { ymax * 1.12 };
        let (x0, x1) = (tx(xmin), tx(xmax));
        let pad = if x1 > x0 { (x1 - x0) * 0.05 } else { 1.0 };
        let mut chart = ChartBuilder::on(&plot_area)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(70)
            .build_cartesian_2d((x0 - pad)..(x1 + pad), 0f64..y_hi)
            .map_err(|e| err(&e))?;
        let yfmt = |v: &f64| {
            if v.abs() >= 100.0 {
                format!("{v:.0}")
            } else {
                format!("{v:.2}")
            }
        };
        // No automatic x ticks: they fall between the swept values on a
        // log axis. The ticks are drawn below at the swept values.
        chart
            .configure_mesh()
            .x_desc(if log_x {
                format!("{} (log scale)", axis_label(&spec.x))
            } else {
                axis_label(&spec.x)
            })
            .y_desc(axis_label(&spec.y))
            .x_labels(0)
            .disable_x_mesh()
            .y_label_formatter(&yfmt)
            .light_line_style(WHITE)
            .label_style(("sans-serif", 13))
            .draw()
            .map_err(|e| err(&e))?;
        let tick_style =
            TextStyle::from(("sans-serif", 13).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
        let mut last_right = i32::MIN;
        for &x in &xs {
            let (px, py) = chart.backend_coord(&(tx(x), 0.0));
            root.draw(&PathElement::new(
                vec![(px, py), (px, py + 5)],
                BLACK.stroke_width(1),
            ))
            .map_err(|e| err(&e))?;
            // Skip a label that would overlap the previous one.
            let t = tick_text(x);
            let half = (t.len() as i32 * 7) / 2 + 2;
            if px - half > last_right {
                root.draw_text(&t, &tick_style, (px, py + 7))
                    .map_err(|e| err(&e))?;
                last_right = px + half;
            }
        }
        for (n, (_, pts)) in series.iter().enumerate() {
            let (r, g, b) = PALETTE[n % PALETTE.len()];
            let color = RGBColor(r, g, b);
            chart
                .draw_series(
                    LineSeries::new(pts.iter().map(|&(x, y)| (tx(x), y)), color.stroke_width(2))
                        .point_size(4),
                )
                .map_err(|e| err(&e))?;
        }
        // The legend, in its own panel right of the data.
        let lstyle =
            TextStyle::from(("sans-serif", 13).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
        for (n, (label, _)) in series.iter().enumerate() {
            let (r, g, b) = PALETTE[n % PALETTE.len()];
            let color = RGBColor(r, g, b);
            let y = 24 + 22 * n as i32;
            legend_area
                .draw(&PathElement::new(
                    vec![(4, y), (26, y)],
                    color.stroke_width(2),
                ))
                .map_err(|e| err(&e))?;
            legend_area
                .draw(&Circle::new((15, y), 4, color.filled()))
                .map_err(|e| err(&e))?;
            legend_area
                .draw_text(label, &lstyle, (32, y))
                .map_err(|e| err(&e))?;
        }
        root.present().map_err(|e| err(&e))?;
    }
    let text = format!(
        "{SVG_SIGNATURE}: {} of {stem}; {} -->\n{svg}",
        name.replace("--", "-"),
        subtitle.replace("--", "-")
    );
    Ok(Some(Plot {
        path,
        text,
        series: series.len(),
        points: npts,
    }))
}
