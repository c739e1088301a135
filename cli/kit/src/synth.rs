//! `membar synth`: FPGA area and fmax of the emitted Verilog, through the
//! unit-agnostic flows of crate `fpga-synth` (`hw/synth/`: yosys + nextpnr for
//! iCE40 and ECP5, yosys generic LUT4; the runners and the report parsers).
//! This file holds what is membar's: the options, the `--csv` row of
//! membar_unit's parameters, and the command for `--unit membar`.
//!
//! `--csv F` appends one row (with a header when `F` is new or empty) and
//! refuses, before running anything, a file whose header is not this one.

use crate::common::{load_config, CmdError};
pub use fpga_synth::{Figures, Target, WorkDir};
use membar_unit_env::Config;
use std::io::Write;
use std::path::{Path, PathBuf};

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

impl Options {
    fn flow(&self) -> fpga_synth::FlowOptions {
        fpga_synth::FlowOptions {
            target: self.target,
            seed: self.seed,
            freq: self.freq,
            timeout: self.timeout,
            keep: self.keep.clone(),
            serial_harness: false,
            progress: crate::common::progress_every(),
        }
    }
}

/// `--target`: every flow of `fpga-synth`, by name.
pub fn target_parser() -> impl clap::builder::TypedValueParser<Value = Target> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Target::ALL.map(Target::name)).map(|s| {
        s.parse::<Target>()
            .expect("the possible values are the targets' names")
    })
}

impl From<fpga_synth::SynthError> for CmdError {
    fn from(e: fpga_synth::SynthError) -> Self {
        match e {
            fpga_synth::SynthError::Input(m) => CmdError::input(m),
            fpga_synth::SynthError::Failed(m) => CmdError::failed(m),
        }
    }
}

/// [`fpga_synth::run_flow`] with the options of the command.
pub fn run_flow(
    opts: &Options,
    verilog: &str,
    top: &str,
    prefix: &str,
    source: &str,
    label: &str,
) -> Result<(Figures, WorkDir), CmdError> {
    Ok(fpga_synth::run_flow(
        &opts.flow(),
        verilog,
        top,
        prefix,
        source,
        label,
    )?)
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
        membar_unit_rtl::module_prefix(cfg),
        cfg.warps.to_string(),
        cfg.ways.to_string(),
        cfg.slots.to_string(),
        cfg.counter_bits.to_string(),
        cfg.coalesce_window.to_string(),
        cfg.max_outstanding.to_string(),
        cfg.level_mix.name().to_string(),
        cfg.gl_bar_ack.to_string(),
        opts.target.name().to_string(),
        opts.target.device().to_string(),
        match opts.target.has_pnr() {
            true => opts.seed.to_string(),
            false => String::new(),
        },
        match opts.target.has_pnr() {
            true => format!("{}", opts.freq),
            false => String::new(),
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
    let text =
        crate::common::read_input_text("--csv", path, "synth CSV", crate::common::MAX_CSV_BYTES)?;
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

pub fn synth(opts: &Options) -> Result<Figures, CmdError> {
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
    let prefix = membar_unit_rtl::module_prefix(&cfg);
    let (verilog, source) = match &opts.verilog {
        None => (
            membar_unit_rtl::generate_verilog(&cfg)
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
    Ok(fig)
}

/// What `membar synth --unit U` needs to know of a unit other than membar.
pub struct UnitSynth<'a> {
    /// The unit's name on the command line (`bar`, `mbarrier`, …).
    pub unit: &'a str,
    /// The configuration's short name, for the report's label.
    pub config_name: String,
    /// The unit's top module for this configuration (`--verilog` must hold it).
    pub prefix: String,
    /// The module to synthesise: the unit's top, or the harness's.
    pub top: &'a str,
    /// A serial-in / XOR-out harness put in front of the unit when its ports
    /// outnumber the package's pins.
    pub harness: Option<String>,
    /// Whether `--verilog` may replace the generated Verilog.
    pub verilog_flag: bool,
}

/// `membar synth --unit U` for every unit but membar: the `--csv` refusal, the
/// `--verilog` file (checked to hold the configuration's top module) or the
/// generated text, the harness, and the flow.
pub fn synth_unit(
    opts: &Options,
    u: UnitSynth,
    generate: impl FnOnce() -> Result<String, CmdError>,
) -> Result<Figures, CmdError> {
    if opts.csv.is_some() {
        return Err(CmdError::input(format!(
            "--csv: not available with --unit {} (the CSV columns are the membar unit's parameters)",
            u.unit
        )));
    }
    let (verilog, source) = match &opts.verilog {
        Some(p) if !u.verilog_flag => {
            return Err(CmdError::input(format!(
            "--verilog {}: not available with --unit {} (the configuration's Verilog is generated)",
            p.display(),
            u.unit
        )))
        }
        None => (generate()?, "generated for this config".to_string()),
        Some(p) => {
            let text = crate::common::read_verilog_text("--verilog", p)?;
            if !text.contains(&format!("module {}", u.prefix)) {
                return Err(CmdError::input(format!(
                    "--verilog {}: it was not generated for {} (no module {}); pass the configuration it was generated from",
                    p.display(),
                    opts.config.display(),
                    u.prefix
                )));
            }
            (text, p.display().to_string())
        }
    };
    let label = format!(
        "unit {}, config {} ({})",
        u.unit,
        opts.config.display(),
        u.config_name
    );
    let serial_harness = u.harness.is_some();
    let (text, source) = match u.harness {
        Some(h) => (
            format!("{h}{verilog}"),
            format!("{source} + synthesis harness {}", u.top),
        ),
        None => (verilog, source),
    };
    // Units inside a serial-in / XOR-out harness: the pins are the harness's.
    let mut flow = opts.flow();
    flow.serial_harness = serial_harness;
    Ok(fpga_synth::run_flow(&flow, &text, u.top, &u.prefix, &source, &label)?.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_lines_quote_and_terminate() {
        assert_eq!(
            csv_line(&["a".into(), "b,c".into(), String::new()]),
            "a,\"b,c\",\n"
        );
        let opts = Options {
            config: "c.yaml".into(),
            verilog: None,
            target: Target::Ecp5,
            csv: None,
            seed: 1,
            freq: 100.0,
            timeout: 60,
            keep: None,
        };
        let row = csv_row(&opts, &Config::default(), &Figures::default());
        assert_eq!(CSV_HEADER.len(), row.len());
        assert_eq!(row[12], "ECP5 LFE5U-85F CABGA381");
    }
}
