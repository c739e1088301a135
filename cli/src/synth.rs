//! `membar synth`: FPGA area and fmax of the emitted Verilog.
//!
//! Two targets (`--target`):
//! - `ice40` (default): yosys `synth_ice40` (LUTs = `SB_LUT4`, flip-flops =
//!   `SB_DFF*`, carries = `SB_CARRY`), then nextpnr-ice40 places and routes the
//!   netlist on an iCE40 HX8K (`--hx8k --package ct256`, unconstrained pins,
//!   fixed `--seed`): logic cells (`ICESTORM_LC` of 7680), I/O, the post-route
//!   fmax estimate and its critical path.
//! - `generic`: yosys' technology-independent `synth -flatten -lut 4` (LUTs =
//!   `$lut`, flip-flops = `$_*DFF*`) and the longest LUT path (`ltp -noff`),
//!   no place and route, no fmax. Quick, and needs yosys only.
//!
//! The tools come from Debian (`.ci/install-tools`); a missing one is an input
//! error (exit 2) that says how to install it. Each tool runs in a temporary
//! directory (or `--keep DIR`) under a timeout; a tool that fails or times out
//! is a failed check (exit 1) with the end of its log. The fmax is reported,
//! never asserted: a figure below `--freq` still exits 0.
//!
//! `--csv F` appends one row (with a header when `F` is new or empty) and
//! refuses, before running anything, a file whose header is not this one.
//!
//! The parsers ([`parse_yosys_stat`], [`parse_ltp`], [`parse_nextpnr_log`])
//! read the tools' text reports; the unit tests below hold them to captured
//! output of yosys 0.23 and nextpnr-ice40 0.4 (`fpga/testdata/`).

use crate::common::{load_config, CmdError, CmdResult};
use membar_sim::Config;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Which flow `membar synth` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// yosys synth_ice40 + nextpnr-ice40 (iCE40 HX8K): LUTs, FFs, carries, logic cells, fmax.
    Ice40,
    /// yosys generic synth -lut 4: LUTs, FFs, LUT depth (no place and route, no fmax).
    Generic,
}

impl Target {
    pub fn name(self) -> &'static str {
        match self {
            Target::Ice40 => "ice40",
            Target::Generic => "generic",
        }
    }
}

/// Options of `membar synth`.
#[derive(Debug, Clone)]
pub struct Options {
    pub config: PathBuf,
    /// Synthesise this file instead of generating the config's Verilog.
    pub verilog: Option<PathBuf>,
    pub target: Target,
    /// Append a row to this CSV file.
    pub csv: Option<PathBuf>,
    /// nextpnr placer seed.
    pub seed: u64,
    /// Clock target handed to nextpnr (MHz); the verdict line compares against it.
    pub freq: f64,
    /// Seconds each tool may run.
    pub timeout: u64,
    /// Work (and leave the scripts, logs, netlist, report) in this directory.
    pub keep: Option<PathBuf>,
}

/// The iCE40 part and package nextpnr places on.
pub const DEVICE_ARGS: [&str; 3] = ["--hx8k", "--package", "ct256"];
pub const DEVICE_NAME: &str = "iCE40 HX8K ct256";

/// How to install each tool (Debian/Ubuntu package names).
fn install_hint(tool: &str) -> &'static str {
    match tool {
        "yosys" => "sudo apt-get install -y yosys",
        "nextpnr-ice40" => "sudo apt-get install -y nextpnr-ice40 fpga-icestorm",
        _ => "see .ci/install-tools",
    }
}

/// `tool` on `PATH` (an executable file), if any.
pub fn find_tool(tool: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(tool))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    match std::fs::metadata(p) {
        Ok(m) if m.is_file() => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                m.permissions().mode() & 0o111 != 0
            }
            #[cfg(not(unix))]
            {
                true
            }
        }
        _ => false,
    }
}

fn require_tool(tool: &str, target: Target) -> Result<PathBuf, CmdError> {
    find_tool(tool).ok_or_else(|| {
        CmdError::input(format!(
            "membar synth --target {} needs `{tool}`, which is not on PATH: install it with `{}` (Debian/Ubuntu), \
             or run `bash .ci/install-tools`, which installs every tool the project uses",
            target.name(),
            install_hint(tool)
        ))
    })
}

// ---------------------------------------------------------------------------
// Parsers of the tools' reports.

/// Cell counts of the last cell table of a yosys `stat` report, by cell type.
///
/// Reads both layouts: yosys 0.23's `     SB_LUT4                      1010`
/// under `Number of cells:`, and newer releases' `       1010   SB_LUT4` under
/// `       1359 cells`.
pub fn parse_yosys_stat(text: &str) -> Result<BTreeMap<String, u64>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let is_cells_header = |l: &str| {
        let t = l.trim();
        let toks: Vec<&str> = t.split_whitespace().collect();
        t.starts_with("Number of cells:")
            || (toks.len() == 2 && toks[0].parse::<u64>().is_ok() && toks[1] == "cells")
    };
    let start = lines
        .iter()
        .rposition(|l| is_cells_header(l))
        .ok_or("no cell table (`Number of cells:`) in the yosys stat report")?;
    let mut cells = BTreeMap::new();
    for l in &lines[start + 1..] {
        let toks: Vec<&str> = l.split_whitespace().collect();
        if toks.len() != 2 {
            break;
        }
        let (name, n) = match (toks[0].parse::<u64>(), toks[1].parse::<u64>()) {
            (Err(_), Ok(n)) => (toks[0], n),
            (Ok(n), Err(_)) => (toks[1], n),
            _ => break,
        };
        *cells.entry(name.to_string()).or_insert(0) += n;
    }
    if cells.is_empty() {
        return Err("the yosys stat report lists no cell types".into());
    }
    Ok(cells)
}

/// Longest combinational path of yosys `ltp -noff`: (length in cells, first
/// and last net).
pub fn parse_ltp(text: &str) -> Result<(u64, String, String), String> {
    let lines: Vec<&str> = text.lines().collect();
    let head = lines
        .iter()
        .rposition(|l| l.contains("Longest topological path in"))
        .ok_or("no `Longest topological path` line in the ltp report")?;
    let l = lines[head];
    let len = l
        .split("length=")
        .nth(1)
        .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|s| s.parse::<u64>().ok())
        .ok_or_else(|| format!("cannot read the length in {l:?}"))?;
    let mut nets = Vec::new();
    for l in &lines[head + 1..] {
        let t = l.trim();
        let Some((idx, rest)) = t.split_once(':') else {
            break;
        };
        if idx.parse::<u64>().is_err() {
            break;
        }
        let net = rest
            .trim()
            .split(" (via")
            .next()
            .unwrap_or("")
            .trim()
            .trim_start_matches('\\');
        nets.push(net.to_string());
    }
    let first = nets.first().cloned().unwrap_or_default();
    let last = nets.last().cloned().unwrap_or_default();
    Ok((len, first, last))
}

/// The post-route critical path of one clock, as nextpnr reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct CriticalPath {
    pub clock: String,
    /// Total delay (ns), logic and routing parts.
    pub total_ns: f64,
    pub logic_ns: f64,
    pub routing_ns: f64,
    /// Cells on the path, launching flop first (nextpnr's `Source` lines).
    pub cells: Vec<String>,
    /// The pin the path ends on (`Setup` line), e.g. `..._LC.CEN`.
    pub endpoint: String,
}

impl CriticalPath {
    /// Cells after the launching flop (LUTs, carries, global buffers).
    pub fn hops(&self) -> usize {
        self.cells.len().saturating_sub(1)
    }
}

/// What nextpnr-ice40 reports (last occurrence of each figure: post-route).
#[derive(Debug, Clone, PartialEq)]
pub struct PnrFigures {
    pub lc_used: u64,
    pub lc_total: u64,
    pub io_used: u64,
    pub io_total: u64,
    /// Clock name and its post-route fmax estimate (MHz); the slowest clock
    /// when there are several.
    pub clock: String,
    pub fmax_mhz: f64,
    /// `Max delay <async> -> posedge clk` (input pin to flop) and
    /// `posedge clk -> <async>` (flop to output pin), ns.
    pub in_to_reg_ns: Option<f64>,
    pub reg_to_out_ns: Option<f64>,
    pub critical: Option<CriticalPath>,
}

/// Strip nextpnr's `Info:` / `Warning:` prefix.
fn np_body(l: &str) -> &str {
    let t = l.trim_start();
    for p in ["Info:", "Warning:", "ERROR:", "Error:"] {
        if let Some(r) = t.strip_prefix(p) {
            return r;
        }
    }
    t
}

fn parse_used_total(rest: &str) -> Option<(u64, u64)> {
    let (u, t) = rest.split_once('/')?;
    let used = u.trim().parse().ok()?;
    let total = t.split_whitespace().next()?.parse().ok()?;
    Some((used, total))
}

/// Figures of a nextpnr-ice40 log (`--log` file or its stderr).
pub fn parse_nextpnr_log(text: &str) -> Result<PnrFigures, String> {
    let mut lc = None;
    let mut io = None;
    let mut fmax: BTreeMap<String, f64> = BTreeMap::new();
    let mut in_to_reg = None;
    let mut reg_to_out = None;
    let lines: Vec<&str> = text.lines().collect();
    for l in &lines {
        let b = np_body(l).trim();
        if let Some(rest) = b.strip_prefix("ICESTORM_LC:") {
            lc = parse_used_total(rest).or(lc);
        } else if let Some(rest) = b.strip_prefix("SB_IO:") {
            io = parse_used_total(rest).or(io);
        } else if let Some(rest) = b.strip_prefix("Max frequency for clock") {
            // ` 'clock$SB_IO_IN_$glb_clk': 61.42 MHz (FAIL at 100.00 MHz)`
            let rest = rest.trim();
            let (name, after) = match rest.strip_prefix('\'').and_then(|r| r.split_once("':")) {
                Some((n, a)) => (n.to_string(), a),
                None => match rest.rsplit_once(':') {
                    Some((n, a)) => (n.trim().to_string(), a),
                    None => continue,
                },
            };
            if let Some(mhz) = after
                .split_whitespace()
                .next()
                .and_then(|v| v.parse::<f64>().ok())
            {
                fmax.insert(name, mhz);
            }
        } else if let Some(rest) = b.strip_prefix("Max delay") {
            let Some((what, v)) = rest.rsplit_once(':') else {
                continue;
            };
            let Some(ns) = v
                .split_whitespace()
                .next()
                .and_then(|v| v.parse::<f64>().ok())
            else {
                continue;
            };
            let parts: Vec<&str> = what.split("->").map(str::trim).collect();
            if parts.len() == 2 {
                if parts[0].starts_with("<async>") && parts[1].starts_with("posedge") {
                    in_to_reg = Some(ns);
                } else if parts[0].starts_with("posedge") && parts[1].starts_with("<async>") {
                    reg_to_out = Some(ns);
                }
            }
        }
    }
    let (lc_used, lc_total) =
        lc.ok_or("no `ICESTORM_LC: used/ total` utilisation line in the nextpnr log")?;
    let (io_used, io_total) = io.unwrap_or((0, 0));
    let (clock, fmax_mhz) = fmax
        .iter()
        .min_by(|a, b| a.1.total_cmp(b.1))
        .map(|(c, f)| (c.clone(), *f))
        .ok_or("no `Max frequency for clock` line in the nextpnr log")?;
    let critical = parse_critical_path(&lines, &clock);
    Ok(PnrFigures {
        lc_used,
        lc_total,
        io_used,
        io_total,
        clock,
        fmax_mhz,
        in_to_reg_ns: in_to_reg,
        reg_to_out_ns: reg_to_out,
        critical,
    })
}

/// The last `Critical path report for clock '<clock>'` section.
fn parse_critical_path(lines: &[&str], clock: &str) -> Option<CriticalPath> {
    let head = format!("Critical path report for clock '{clock}'");
    let start = lines.iter().rposition(|l| l.contains(&head))?;
    let mut cells = Vec::new();
    let mut endpoint = String::new();
    let mut total = 0.0;
    for l in &lines[start + 1..] {
        let b = np_body(l).trim();
        if b.contains("ns logic,") && b.contains("ns routing") {
            // `5.0 ns logic, 11.2 ns routing`
            let nums: Vec<f64> = b
                .split_whitespace()
                .filter_map(|t| t.trim_end_matches(',').parse().ok())
                .collect();
            let (logic_ns, routing_ns) = (*nums.first()?, *nums.get(1)?);
            let total_ns = if total > 0.0 {
                total
            } else {
                logic_ns + routing_ns
            };
            return Some(CriticalPath {
                clock: clock.to_string(),
                total_ns,
                logic_ns,
                routing_ns,
                cells,
                endpoint,
            });
        }
        let toks: Vec<&str> = b.split_whitespace().collect();
        // `0.5  0.5  Source cell.O`, `0.1 16.3  Setup cell.CEN`
        if toks.len() >= 4 && toks[0].parse::<f64>().is_ok() {
            if let Ok(t) = toks[1].parse::<f64>() {
                total = t;
            }
            match toks[2] {
                "Source" => cells.push(toks[3].to_string()),
                "Setup" => endpoint = toks[3].to_string(),
                _ => {}
            }
        }
    }
    None
}

/// The RTL name behind a packed cell or net name of yosys/nextpnr, e.g.
/// `core.ring.members__1.q_SB_DFFESR_Q_7_D_SB_LUT4_O_LC.O` -> `core.ring.members__1.q`.
pub fn rtl_name(cell: &str) -> String {
    let s = cell.trim_start_matches("$gbuf_");
    let cut = ["_SB_", "$", "_LC."]
        .iter()
        .filter_map(|m| s.find(m))
        .filter(|&i| i > 0)
        .min()
        .unwrap_or(s.len());
    s[..cut].to_string()
}

// ---------------------------------------------------------------------------
// Running the tools.

/// The file `--keep DIR` gets, marking the directory as one membar synth
/// works in (a later `--keep DIR` may replace its files).
pub const KEEP_MARKER: &str = ".membar-synth-keep";

/// A work directory: a fresh temporary one (removed on drop) or `--keep DIR`.
pub struct WorkDir {
    pub path: PathBuf,
    remove: bool,
}

impl WorkDir {
    fn new(keep: Option<&Path>) -> Result<WorkDir, CmdError> {
        if let Some(k) = keep {
            if k.exists() && !k.is_dir() {
                return Err(CmdError::input(format!(
                    "--keep {}: exists and is not a directory",
                    k.display()
                )));
            }
            if k.is_dir() && !k.join(KEEP_MARKER).is_file() {
                let used = std::fs::read_dir(k)
                    .map_err(|e| CmdError::input(format!("--keep {}: {e}", k.display())))?
                    .next()
                    .is_some();
                if used {
                    return Err(CmdError::input(format!(
                        "--keep {}: the directory is not empty and no earlier `membar synth --keep` used it; refusing to write the scripts, logs and netlist among other files (pass a new or empty directory)",
                        k.display()
                    )));
                }
            }
            std::fs::create_dir_all(k)
                .map_err(|e| CmdError::input(format!("--keep {}: {e}", k.display())))?;
            std::fs::write(
                k.join(KEEP_MARKER),
                "membar synth --keep works in this directory and replaces its files on the next run\n",
            )
            .map_err(|e| CmdError::input(format!("--keep {}: {e}", k.display())))?;
            return Ok(WorkDir {
                path: k.to_path_buf(),
                remove: false,
            });
        }
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let path =
            std::env::temp_dir().join(format!("membar-synth-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&path).map_err(|e| {
            CmdError::input(format!(
                "cannot create the work directory {}: {e}",
                path.display()
            ))
        })?;
        Ok(WorkDir { path, remove: true })
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        if self.remove {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

/// The last `n` lines of `text`, the error lines first if there are any.
fn log_tail(text: &str, n: usize) -> String {
    let errs: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("ERROR") || l.contains("Error") || l.contains("error:"))
        .collect();
    let lines: Vec<&str> = text.lines().collect();
    let tail = &lines[lines.len().saturating_sub(n)..];
    let mut out = String::new();
    for l in errs.iter().take(5) {
        out.push_str(&format!("  | {l}\n"));
    }
    if !errs.is_empty() {
        out.push_str("  | ...\n");
    }
    for l in tail {
        out.push_str(&format!("  | {l}\n"));
    }
    out
}

/// Run `program args` in `dir` with stdout and stderr to `dir/<name>.out`,
/// killing it after `timeout`. Returns the seconds it took.
fn run_tool(
    dir: &Path,
    name: &str,
    program: &Path,
    args: &[String],
    timeout: Duration,
    keep_hint: bool,
) -> Result<f64, CmdError> {
    let out_path = dir.join(format!("{name}.out"));
    let out = std::fs::File::create(&out_path)
        .map_err(|e| CmdError::input(format!("{}: {e}", out_path.display())))?;
    let err = out
        .try_clone()
        .map_err(|e| CmdError::input(format!("{}: {e}", out_path.display())))?;
    let t0 = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::from(out))
        .stderr(Stdio::from(err))
        .spawn()
        .map_err(|e| CmdError::input(format!("cannot run {}: {e}", program.display())))?;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if t0.elapsed() >= timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(CmdError::failed(format!(
                    "{name} did not finish within {} s (raise --timeout){}",
                    timeout.as_secs(),
                    if keep_hint {
                        ""
                    } else {
                        "; --keep DIR keeps its log"
                    }
                )));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => {
                return Err(anyhow::Error::new(e)
                    .context(format!("waiting for {name}"))
                    .into())
            }
        }
    };
    let secs = t0.elapsed().as_secs_f64();
    if !status.success() {
        let text = std::fs::read_to_string(&out_path).unwrap_or_default();
        return Err(CmdError::failed(format!(
            "{name} failed ({status}) after {secs:.1} s; end of its output:\n{}{}",
            log_tail(&text, 15),
            if keep_hint {
                String::new()
            } else {
                "(--keep DIR keeps the scripts and logs)".to_string()
            }
        )));
    }
    Ok(secs)
}

/// First line of `tool --version`-like output, or "?".
fn tool_version(program: &Path, arg: &str) -> String {
    Command::new(program)
        .arg(arg)
        .stdin(Stdio::null())
        .output()
        .ok()
        .map(|o| {
            let s = String::from_utf8_lossy(&o.stdout).into_owned()
                + &String::from_utf8_lossy(&o.stderr);
            let l = s.lines().next().unwrap_or("?").trim().to_string();
            // `nextpnr-ice40 -- Next Generation Place and Route (Version 0.4-1+b1)` -> `nextpnr-ice40 0.4-1+b1`
            match l.split_once("(Version ") {
                Some((head, v)) => format!(
                    "{} {}",
                    head.split(" -- ").next().unwrap_or(head).trim(),
                    v.trim_end_matches(')')
                ),
                None => l,
            }
        })
        .unwrap_or_else(|| "?".into())
}

// ---------------------------------------------------------------------------
// Figures, CSV.

/// Everything one `membar synth` run measures.
#[derive(Debug, Clone, Default)]
pub struct Figures {
    pub luts: u64,
    pub ffs: u64,
    pub carries: Option<u64>,
    /// Longest LUT path (generic target).
    pub lut_depth: Option<u64>,
    pub pnr: Option<PnrFigures>,
    pub yosys_secs: f64,
    pub nextpnr_secs: Option<f64>,
    pub yosys_version: String,
    pub nextpnr_version: Option<String>,
}

/// LUTs, flip-flops and carries of a yosys cell table for `target`.
pub fn area_from_cells(cells: &BTreeMap<String, u64>, target: Target) -> (u64, u64, Option<u64>) {
    let count = |pred: &dyn Fn(&str) -> bool| {
        cells
            .iter()
            .filter(|(k, _)| pred(k))
            .map(|(_, n)| *n)
            .sum::<u64>()
    };
    match target {
        Target::Ice40 => (
            count(&|k| k == "SB_LUT4"),
            count(&|k| k.starts_with("SB_DFF")),
            Some(count(&|k| k == "SB_CARRY")),
        ),
        Target::Generic => (
            count(&|k| k == "$lut"),
            count(&|k| k.to_ascii_lowercase().contains("dff")),
            None,
        ),
    }
}

/// Columns of the `--csv` file, in order.
pub const CSV_HEADER: [&str; 27] = [
    "config",
    "verilog",
    "module",
    "warps",
    "ways",
    "slots",
    "counter_bits",
    "coalesce_window",
    "max_outstanding",
    "level_mix",
    "gl_bar_ack",
    "target",
    "device",
    "seed",
    "freq_target_mhz",
    "luts",
    "flip_flops",
    "carries",
    "logic_cells",
    "logic_cells_total",
    "io",
    "fmax_mhz",
    "critical_path_ns",
    "lut_depth",
    "yosys_secs",
    "nextpnr_secs",
    "tools",
];

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// The CSV row of one run (same order as [`CSV_HEADER`]).
pub fn csv_row(opts: &Options, cfg: &Config, f: &Figures) -> Vec<String> {
    let pnr = f.pnr.as_ref();
    vec![
        opts.config.display().to_string(),
        opts.verilog
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "generated".into()),
        membar_hw::module_prefix(cfg),
        cfg.warps.to_string(),
        cfg.ways.to_string(),
        cfg.slots.to_string(),
        cfg.counter_bits.to_string(),
        cfg.coalesce_window.to_string(),
        cfg.max_outstanding.to_string(),
        cfg.level_mix.name().to_string(),
        cfg.gl_bar_ack.to_string(),
        opts.target.name().to_string(),
        match opts.target {
            Target::Ice40 => DEVICE_NAME.to_string(),
            Target::Generic => "generic LUT4".to_string(),
        },
        match opts.target {
            Target::Ice40 => opts.seed.to_string(),
            Target::Generic => String::new(),
        },
        match opts.target {
            Target::Ice40 => format!("{}", opts.freq),
            Target::Generic => String::new(),
        },
        f.luts.to_string(),
        f.ffs.to_string(),
        opt(f.carries),
        opt(pnr.map(|p| p.lc_used)),
        opt(pnr.map(|p| p.lc_total)),
        opt(pnr.map(|p| p.io_used)),
        opt(pnr.map(|p| format!("{:.2}", p.fmax_mhz))),
        opt(pnr
            .and_then(|p| p.critical.as_ref())
            .map(|c| format!("{:.2}", c.total_ns))),
        opt(f.lut_depth),
        format!("{:.1}", f.yosys_secs),
        opt(f.nextpnr_secs.map(|s| format!("{s:.1}"))),
        match &f.nextpnr_version {
            Some(n) => format!("{}; {n}", f.yosys_version),
            None => f.yosys_version.clone(),
        },
    ]
}

/// Check that `--csv path` can take our rows: new, empty, or with exactly our
/// header. Returns whether the header must be written.
pub fn check_csv(path: &Path) -> Result<bool, CmdError> {
    if path.is_dir() {
        return Err(CmdError::input(format!(
            "--csv {}: is a directory; expected a file path",
            path.display()
        )));
    }
    if !path.exists() {
        return Ok(true);
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| CmdError::input(format!("--csv {}: {e}", path.display())))?;
    let Some(first) = text.lines().next() else {
        return Ok(true);
    };
    let ours = CSV_HEADER.join(",");
    if first.trim_end_matches('\r') != ours {
        return Err(CmdError::input(format!(
            "--csv {}: the file's header is not the one membar synth writes; refusing to append to it (pick another file)\n  its header: {}\n  ours:       {ours}",
            path.display(),
            first.chars().take(300).collect::<String>()
        )));
    }
    Ok(false)
}

fn csv_line(fields: &[String]) -> String {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    w.write_record(fields).expect("csv to memory");
    String::from_utf8(w.into_inner().expect("csv to memory")).expect("utf-8 fields")
}

/// Append `row` to `path` (after [`check_csv`]), with the header first if asked.
pub fn append_csv(path: &Path, header: bool, row: &[String]) -> Result<(), CmdError> {
    let io = |e: std::io::Error| CmdError::input(format!("--csv {}: {e}", path.display()));
    let needs_newline = !header
        && std::fs::read(path)
            .map(|b| !b.is_empty() && !b.ends_with(b"\n"))
            .unwrap_or(false);
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io)?;
    let mut text = String::new();
    if needs_newline {
        text.push('\n');
    }
    if header {
        text.push_str(&csv_line(
            &CSV_HEADER.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        ));
    }
    text.push_str(&csv_line(row));
    f.write_all(text.as_bytes()).map_err(io)
}

// ---------------------------------------------------------------------------
// The command.

/// yosys script of `target` for the Verilog top module `top`: reads
/// `<top>.v`, writes the cell table to `stat.txt` (and `ltp.txt`, or the
/// netlist `<top>.json`).
pub fn yosys_script(target: Target, top: &str) -> String {
    let synth = match target {
        Target::Ice40 => format!("synth_ice40 -top {top} -json {top}.json\ntee -q -o stat.txt stat\n"),
        Target::Generic => format!("synth -flatten -top {top} -lut 4\ntee -q -o stat.txt stat\ntee -q -o ltp.txt ltp -noff\n"),
    };
    format!(
        "# membar synth --target {}\nread_verilog {top}.v\nhierarchy -check -top {top}\n{synth}",
        target.name()
    )
}

/// nextpnr-ice40 arguments for the netlist `<top>.json`.
pub fn nextpnr_args(seed: u64, freq: f64, top: &str) -> Vec<String> {
    let mut a: Vec<String> = DEVICE_ARGS.iter().map(|s| s.to_string()).collect();
    let json = format!("{top}.json");
    for s in [
        "--json",
        json.as_str(),
        "--freq",
        &format!("{freq}"),
        "--pcf-allow-unconstrained",
        "--timing-allow-fail",
        "--seed",
        &seed.to_string(),
        "--log",
        "nextpnr.log",
        "--report",
        "report.json",
    ] {
        a.push(s.to_string());
    }
    a
}

/// How yosys reports a crash of its ABC subprocess.
const ABC_CRASH: &str = "ABC: execution of command";

fn read(dir: &Path, name: &str) -> Result<String, CmdError> {
    use anyhow::Context;
    let path = dir.join(name);
    Ok(std::fs::read_to_string(&path)
        .with_context(|| format!("the tool wrote no {name} ({})", path.display()))?)
}

/// Synthesis (and, for iCE40, place and route) of `verilog`, whose top
/// module is `top` (wrapping the rust-hdl top `prefix`), with the report
/// printed; the work directory is returned with the figures (kept with
/// `--keep`). Shared by every unit (`--unit`).
pub fn run_flow(
    opts: &Options,
    verilog: &str,
    top: &str,
    prefix: &str,
    source: &str,
    label: &str,
) -> Result<(Figures, WorkDir), CmdError> {
    let yosys = require_tool("yosys", opts.target)?;
    let nextpnr = match opts.target {
        Target::Ice40 => Some(require_tool("nextpnr-ice40", opts.target)?),
        Target::Generic => None,
    };
    let work = WorkDir::new(opts.keep.as_deref())?;
    let dir = &work.path;
    let wr = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text)
            .map_err(|e| CmdError::input(format!("{}: {e}", dir.join(name).display())))
    };
    wr(&format!("{top}.v"), verilog)?;
    wr("synth.ys", &yosys_script(opts.target, top))?;
    let timeout = Duration::from_secs(opts.timeout);
    let keep = opts.keep.is_some();

    println!(
        "membar synth: {label}, target {}{}",
        opts.target.name(),
        match opts.target {
            Target::Ice40 => format!(": yosys synth_ice40, nextpnr-ice40 {} --freq {} --seed {}", DEVICE_ARGS.join(" "), opts.freq, opts.seed),
            Target::Generic => ": yosys synth -flatten -lut 4 (technology-independent LUT4 mapping; no place and route)".into(),
        }
    );
    println!(
        "{:<27}{source} (top module {prefix}, {} lines)",
        "Verilog",
        verilog.lines().count()
    );

    let yosys_args: Vec<String> = ["-q", "-l", "yosys.log", "-s", "synth.ys"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let yosys_secs = match run_tool(dir, "yosys", &yosys, &yosys_args, timeout, keep) {
        // Debian's berkeley-abc (yosys 0.23) has been seen to abort once in a
        // while on a design it maps fine on the next run: retry that once.
        Err(e) if e.message.contains(ABC_CRASH) => {
            eprintln!("membar synth: yosys' ABC step crashed; running yosys once more");
            run_tool(dir, "yosys", &yosys, &yosys_args, timeout, keep)?
        }
        r => r?,
    };
    let cells = parse_yosys_stat(&read(dir, "stat.txt")?).map_err(CmdError::failed)?;
    let (luts, ffs, carries) = area_from_cells(&cells, opts.target);
    let mut fig = Figures {
        luts,
        ffs,
        carries,
        yosys_secs,
        yosys_version: tool_version(&yosys, "-V"),
        ..Figures::default()
    };
    if opts.target == Target::Generic {
        let (depth, from, to) = parse_ltp(&read(dir, "ltp.txt")?).map_err(CmdError::failed)?;
        fig.lut_depth = Some(depth);
        println!("{:<27}{luts}", "LUTs ($lut, 4-input)");
        println!("{:<27}{ffs}", "flip-flops ($_*DFF*)");
        println!("{:<27}{depth} levels ({from} -> {to})", "longest LUT path");
        println!(
            "{:<27}n/a (generic target: no timing model; use --target ice40)",
            "fmax estimate"
        );
        println!("{:<27}{} {:.1} s", "tools", fig.yosys_version, yosys_secs);
    } else {
        let np = nextpnr.expect("checked above");
        let np_secs = run_tool(
            dir,
            "nextpnr-ice40",
            &np,
            &nextpnr_args(opts.seed, opts.freq, top),
            timeout,
            keep,
        )?;
        let log = read(dir, "nextpnr.log")?;
        let pnr = parse_nextpnr_log(&log).map_err(CmdError::failed)?;
        fig.nextpnr_secs = Some(np_secs);
        fig.nextpnr_version = Some(tool_version(&np, "--version"));
        println!("{:<27}{luts}", "LUTs (SB_LUT4)");
        println!("{:<27}{ffs}", "flip-flops (SB_DFF*)");
        println!("{:<27}{}", "carries (SB_CARRY)", carries.unwrap_or(0));
        println!(
            "{:<27}{} / {} ({:.1} %)",
            "logic cells (ICESTORM_LC)",
            pnr.lc_used,
            pnr.lc_total,
            100.0 * pnr.lc_used as f64 / pnr.lc_total.max(1) as f64
        );
        println!(
            "{:<27}{} / {} (every port on a pin, placed freely)",
            "I/O (SB_IO)", pnr.io_used, pnr.io_total
        );
        let verdict = if pnr.fmax_mhz >= opts.freq {
            "meets"
        } else {
            "below"
        };
        println!(
            "{:<27}{:.2} MHz (nextpnr, post-route, seed {}; {verdict} the {} MHz target)",
            "fmax estimate", pnr.fmax_mhz, opts.seed, opts.freq
        );
        if let Some(c) = &pnr.critical {
            let first = c.cells.first().map(|s| rtl_name(s)).unwrap_or_default();
            let end = rtl_name(&c.endpoint);
            let pin = c.endpoint.rsplit('.').next().unwrap_or("");
            println!(
                "{:<27}{:.1} ns = {:.1} ns logic + {:.1} ns routing, {} cells after the launching flop: {first} -> {end} ({pin})",
                "critical path",
                c.total_ns,
                c.logic_ns,
                c.routing_ns,
                c.hops()
            );
            // The cells between are LUTs and carries that yosys names after
            // one of their nets (often an input port such as `req_valid`),
            // not signals the path goes through: name only the endpoints.
        }
        if let (Some(i), Some(o)) = (pnr.in_to_reg_ns, pnr.reg_to_out_ns) {
            println!("{:<27}input pin -> flop {i:.2} ns, flop -> output pin {o:.2} ns (pin placement is arbitrary)", "port paths");
        }
        println!(
            "{:<27}{} {:.1} s; {} {:.1} s",
            "tools",
            fig.yosys_version,
            yosys_secs,
            fig.nextpnr_version.as_deref().unwrap_or("nextpnr-ice40"),
            np_secs
        );
        fig.pnr = Some(pnr);
    }
    if keep {
        println!("{:<27}{}", "kept", dir.display());
    }
    Ok((fig, work))
}

pub fn synth(opts: &Options) -> CmdResult {
    let cfg = load_config(&opts.config)?;
    if !(opts.freq.is_finite() && opts.freq > 0.0 && opts.freq <= 1000.0) {
        return Err(CmdError::input(format!(
            "--freq {}: expected a clock target in MHz, 0 < f <= 1000",
            opts.freq
        )));
    }
    if opts.timeout == 0 {
        return Err(CmdError::input(
            "--timeout 0: expected a number of seconds >= 1",
        ));
    }
    let csv_header = match &opts.csv {
        Some(p) => Some(check_csv(p)?),
        None => None,
    };
    let prefix = membar_hw::module_prefix(&cfg);
    let (verilog, source) = match &opts.verilog {
        None => (
            membar_hw::generate_verilog(&cfg)
                .map_err(|e| CmdError::input(format!("{}: {e}", opts.config.display())))?,
            "generated for this config".to_string(),
        ),
        Some(p) => {
            // The same check as cosim: text, SPEC.md ports of this config.
            let text = crate::common::read_verilog("--verilog", p, &cfg)?;
            if !text.contains(&format!("module {prefix}")) {
                return Err(CmdError::input(format!(
                    "--verilog {}: it was not generated for {} (no module {prefix}); pass the configuration it was generated from",
                    p.display(),
                    opts.config.display()
                )));
            }
            (text, p.display().to_string())
        }
    };

    let label = format!(
        "config {} ({})",
        opts.config.display(),
        crate::common::config_name(&cfg)
    );
    // The work directory lives until the CSV row is written.
    let (fig, _work) = run_flow(opts, &verilog, "membar_unit", &prefix, &source, &label)?;
    if let (Some(p), Some(header)) = (&opts.csv, csv_header) {
        // Re-check: another run may have created the file meanwhile.
        let header = header && check_csv(p)?;
        append_csv(p, header, &csv_row(opts, &cfg, &fig))?;
        println!("{:<27}{}", "appended a row to", p.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const ICE40_STAT: &str = include_str!("../../fpga/testdata/yosys023_ice40_stat.txt");
    const GENERIC_STAT: &str = include_str!("../../fpga/testdata/yosys023_generic_stat.txt");
    const NEW_STAT: &str = include_str!("../../fpga/testdata/yosys_new_format_stat.txt");
    const LTP: &str = include_str!("../../fpga/testdata/yosys023_ltp.txt");
    const NEXTPNR: &str = include_str!("../../fpga/testdata/nextpnr04_default.log");

    #[test]
    fn yosys_023_ice40_stat() {
        let cells = parse_yosys_stat(ICE40_STAT).unwrap();
        assert_eq!(cells.get("SB_LUT4"), Some(&1010));
        assert_eq!(
            area_from_cells(&cells, Target::Ice40),
            (1010, 279, Some(70))
        );
    }

    #[test]
    fn yosys_023_generic_stat_and_ltp() {
        let cells = parse_yosys_stat(GENERIC_STAT).unwrap();
        assert_eq!(area_from_cells(&cells, Target::Generic), (919, 279, None));
        let (len, from, to) = parse_ltp(LTP).unwrap();
        assert_eq!(
            (len, from.as_str(), to.as_str()),
            (14, "core.ring.level__2.q [1]", "release_valid")
        );
    }

    #[test]
    fn newer_yosys_stat_layout() {
        // Count first, then the cell type (yosys releases after 0.23).
        let cells = parse_yosys_stat(NEW_STAT).unwrap();
        assert_eq!(
            area_from_cells(&cells, Target::Ice40),
            (1010, 279, Some(70))
        );
    }

    #[test]
    fn stat_takes_the_last_table_and_rejects_garbage() {
        let two = format!("{GENERIC_STAT}\n{ICE40_STAT}");
        assert_eq!(parse_yosys_stat(&two).unwrap().get("SB_LUT4"), Some(&1010));
        assert!(parse_yosys_stat("").is_err());
        assert!(parse_yosys_stat("ERROR: Module `membar_unit' not found!\n").is_err());
        assert!(parse_yosys_stat("   Number of cells:                 0\n\n").is_err());
        assert!(parse_ltp("nothing here").is_err());
    }

    #[test]
    fn nextpnr_04_log() {
        let p = parse_nextpnr_log(NEXTPNR).unwrap();
        assert_eq!(
            (p.lc_used, p.lc_total, p.io_used, p.io_total),
            (1046, 7680, 137, 256)
        );
        // Post-route figure (the `Warning:` line), not the placement estimate before it.
        assert_eq!(p.fmax_mhz, 61.42);
        assert_eq!(p.clock, "clock$SB_IO_IN_$glb_clk");
        assert_eq!(
            (p.in_to_reg_ns, p.reg_to_out_ns),
            (Some(15.43), Some(18.61))
        );
        let c = p.critical.unwrap();
        // The clock's section, not the cross-domain (port) sections after it.
        assert_eq!((c.logic_ns, c.routing_ns, c.total_ns), (5.0, 11.2, 16.3));
        assert_eq!(c.hops(), 12, "{c:?}");
        assert_eq!(rtl_name(&c.cells[0]), "core.ring.members__1.q");
        assert_eq!(
            c.endpoint,
            "core.ring.ivall__0.q_SB_DFFESR_Q_D_SB_LUT4_O_LC.CEN"
        );
    }

    #[test]
    fn nextpnr_log_without_figures_is_an_error() {
        assert!(parse_nextpnr_log("").is_err());
        assert!(parse_nextpnr_log("Info: \t         ICESTORM_LC:  1046/ 7680    13%\n").is_err());
        let no_lc = NEXTPNR
            .lines()
            .filter(|l| !l.contains("ICESTORM_LC:"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(parse_nextpnr_log(&no_lc).is_err());
    }

    #[test]
    fn slowest_clock_wins() {
        let log = "Info: \t         ICESTORM_LC:  10/ 7680    0%\n\
                   Info: Max frequency for clock 'a': 120.00 MHz (PASS at 100.00 MHz)\n\
                   Info: Max frequency for clock 'b':  90.50 MHz (FAIL at 100.00 MHz)\n";
        let p = parse_nextpnr_log(log).unwrap();
        assert_eq!((p.clock.as_str(), p.fmax_mhz), ("b", 90.5));
        assert_eq!(p.critical, None);
    }

    #[test]
    fn rtl_names() {
        assert_eq!(
            rtl_name("core.ring.members__1.q_SB_DFFESR_Q_7_D_SB_LUT4_O_LC.O"),
            "core.ring.members__1.q"
        );
        assert_eq!(
            rtl_name("$gbuf_core.ring.ivall__0.q_SB_DFFESR_Q_E_$glb_ce.GLOBAL_BUFFER_OUTPUT"),
            "core.ring.ivall__0.q"
        );
        assert_eq!(
            rtl_name("warp_blocked_SB_LUT4_O_7_I2_SB_LUT4_O_1_LC.O"),
            "warp_blocked"
        );
    }

    #[test]
    fn csv_lines_quote_and_terminate() {
        assert_eq!(
            csv_line(&["a".into(), "b,c".into(), String::new()]),
            "a,\"b,c\",\n"
        );
        assert_eq!(
            CSV_HEADER.len(),
            csv_row(&test_opts(), &Config::default(), &Figures::default()).len()
        );
    }

    fn test_opts() -> Options {
        Options {
            config: "c.yaml".into(),
            verilog: None,
            target: Target::Ice40,
            csv: None,
            seed: 1,
            freq: 100.0,
            timeout: 60,
            keep: None,
        }
    }

    #[test]
    fn scripts_and_args() {
        assert!(yosys_script(Target::Ice40, "membar_unit")
            .contains("synth_ice40 -top membar_unit -json membar_unit.json"));
        assert!(yosys_script(Target::Ice40, "mbarrier_unit")
            .contains("read_verilog mbarrier_unit.v\nhierarchy -check -top mbarrier_unit\nsynth_ice40 -top mbarrier_unit -json mbarrier_unit.json"));
        assert!(yosys_script(Target::Generic, "membar_unit").contains("ltp -noff"));
        assert!(nextpnr_args(7, 100.0, "mbarrier_unit").contains(&"mbarrier_unit.json".to_string()));
        let a = nextpnr_args(7, 100.0, "membar_unit").join(" ");
        assert!(
            a.contains("--hx8k --package ct256")
                && a.contains("--seed 7")
                && a.contains("--freq 100"),
            "{a}"
        );
    }
}
