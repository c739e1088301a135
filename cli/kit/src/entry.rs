//! A unit as the commands see it: one [`UnitEntry`] per unit, declared in
//! the unit's own folder (`hw/<unit>/entry`) and listed once in the
//! command's registry (`cli/src/registry.rs`). `generate`, `cosim`, `sim`,
//! `synth`, `soak`, `bench`, `sweep`, `formal` and `calibrate` call the
//! entry's functions; none of them keeps a list of units.

use crate::common::{CmdError, CmdResult};
use std::path::Path;

/// Which unit a command acts on: its `--unit` name. The names are the
/// registry's (`cli/src/registry.rs`), so a new unit needs no variant here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit(pub &'static str);

impl Unit {
    /// The memory-barrier unit, the default of `--unit`.
    pub const MEMBAR: Unit = Unit("membar");
}

impl std::fmt::Display for Unit {
    /// The `--unit` value.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// (sub-table, test, configuration, metric, measured, model).
pub type Row = (String, String, String, String, f64, f64);

/// `cosim`'s arguments, the same for every unit.
pub struct CosimArgs<'a> {
    pub config: &'a Path,
    pub verilog: Option<&'a Path>,
    pub workload: &'a str,
    pub cycles: Option<u64>,
    pub seed: u64,
    pub waves: Option<&'a Path>,
}

/// `sim`'s arguments, the same for every unit.
pub struct SimArgs<'a> {
    pub config: &'a Path,
    pub workload: &'a str,
    pub cycles: Option<u64>,
    pub seed: u64,
    pub trace: Option<&'a Path>,
    pub coverage: bool,
}

/// `formal --unit`: the unit's property groups and how to build its harness.
pub struct FormalEntry {
    /// Every property group of the unit's harness.
    pub groups: &'static [membar_formal::harness::Group],
    /// Groups pdr does not close: not run with pdr unless asked for.
    pub pdr_skip: &'static [&'static str],
    /// The engine flags that do close [`FormalEntry::pdr_skip`] (printed).
    pub skip_engine: &'static str,
    /// (spec, short configuration name, Verilog) of a configuration file
    /// and an optional `--verilog` (port-checked against the configuration).
    pub spec: FormalSpecFn,
}

/// See [`FormalEntry::spec`].
pub type FormalSpecFn =
    fn(
        &Path,
        Option<&Path>,
    ) -> Result<(membar_formal::unit::UnitSpec, String, std::path::PathBuf), CmdError>;

/// `calibrate --unit`: the unit's H100 calibration rows and their sources.
pub struct CalibrationEntry {
    /// (sub-table, test, configuration, metric, measured, model) per row.
    pub rows: fn() -> Result<Vec<crate::entry::Row>, String>,
    /// The table's title.
    pub title: &'static str,
    /// Where the measurements come from.
    pub source: &'static str,
    /// The timing preset that computes the model column.
    pub preset: &'static str,
}

/// One unit of the command line.
pub struct UnitEntry {
    /// The `--unit` value (`async_groups`, not `AsyncGroups`).
    pub unit: Unit,
    /// Other spellings `--unit` accepts (`async-groups`).
    pub aliases: &'static [&'static str],
    /// One line for `--unit`'s help: what the unit is and its contract.
    pub about: &'static str,
    /// The folder under `verilog_out/` holding the unit's shipped
    /// configurations (`""`: membar's sit at the top, beside the others').
    pub dir: &'static str,
    /// The Verilog file stem of its top (`<dir>/<config>/<module>.v`).
    pub module: &'static str,
    /// A shipped configuration file of the unit, for messages.
    pub example_config: &'static str,
    pub generate: fn(&Path, &Path) -> CmdResult,
    /// The unit's released IP set (`membar release`): every file
    /// `verilog_out/` holds for it, as data.
    pub release: fn() -> Result<Vec<hdl_kit::release::ReleasedFile>, String>,
    pub cosim: fn(&CosimArgs) -> CmdResult,
    pub sim: fn(&SimArgs) -> CmdResult,
    pub synth: fn(&crate::synth::Options) -> Result<crate::synth::Figures, CmdError>,
    /// `soak --unit` through the unit's kit (`unit_kit.rs`); `None`: membar
    /// has its own soak, sm_sync is soaked by `cosim --unit sm_sync`.
    pub soak: Option<fn(&crate::soak::Args) -> CmdResult>,
    /// `bench --unit` (config, cycles, seed) through the unit's kit; `None`
    /// as for `soak`.
    pub bench: Option<fn(&Path, u64, u64) -> CmdResult>,
    /// `sweep --unit` (its grid keys and one point's run); `None`: membar has
    /// its own sweep, sm_sync is swept unit by unit.
    pub sweep: Option<crate::sweep::SweepEntry>,
    /// `formal --unit`.
    pub formal: FormalEntry,
    /// `calibrate --unit`; `None`: membar's is `calibrate` without `--unit`,
    /// the others have no H100 table of their own.
    pub calibrate: Option<CalibrationEntry>,
    /// The `(command, flag id)` pairs of `flags::NOT_HONOURED` this unit's
    /// commands do not take (refused with exit 2 before dispatch).
    pub not_honoured: &'static [&'static [(&'static str, &'static str)]],
    /// `synth --all-configs`' scaling table of the unit; `None`: its shipped
    /// configurations already span its parameter.
    pub scaling: Option<ScalingEntry>,
}

/// A unit's scaling table (`synth --all-configs`): its default
/// configuration with one parameter changed at a time, so that a user sees
/// what a configuration costs before choosing it.
pub struct ScalingEntry {
    /// The table's lead sentence: the base configuration and which
    /// parameters change (`W` warps, `C` CTA slots, ...).
    pub about: fn() -> String,
    /// The table's rows, in order: (label such as `W=8`, the configuration
    /// as YAML text, what `--config` would read).
    pub configs: fn() -> Vec<(String, String)>,
}

/// A parameter of a scaling table: its label (`W`), its values, and how to
/// set it in a configuration.
pub type ScalingParam<C> = (&'static str, &'static [u32], fn(&mut C, u32));

/// The rows of a scaling table: `base` with one parameter of `params`
/// changed at a time (labelled `W=8`), each written as YAML by `yaml`.
pub fn one_at_a_time<C: Clone>(
    base: &C,
    params: &[ScalingParam<C>],
    yaml: impl Fn(&C) -> String,
) -> Vec<(String, String)> {
    let mut rows = Vec::new();
    for &(label, values, set) in params {
        for &v in values {
            let mut c = base.clone();
            set(&mut c, v);
            rows.push((format!("{label}={v}"), yaml(&c)));
        }
    }
    rows
}

/// Flags a unit kit's sweep, bench and synth do not take (every unit but
/// membar, whose exploration and CSV columns are its own).
pub const KIT: &[(&str, &str)] = &[
    ("sweep", "jobs"),
    ("sweep", "cycles"),
    ("sweep", "no_check"),
    ("sweep", "shard"),
    ("sweep", "merge"),
    ("bench", "workload"),
    ("synth", "csv"),
];

/// Flags of `calibrate` for membar's fitted table that a unit's built-in
/// H100 table does not take.
pub const UNIT_CALIBRATION: &[(&str, &str)] = &[
    ("calibrate", "preset"),
    ("calibrate", "data"),
    ("calibrate", "fit"),
    ("calibrate", "seed"),
    ("calibrate", "jobs"),
];
