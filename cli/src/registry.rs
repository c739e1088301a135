//! The table of units behind `--unit`: one entry per unit with the
//! functions that `generate`, `cosim`, `sim`, `synth`, `soak`, `bench`,
//! `formal` and `calibrate` call. `main.rs` dispatches those commands through
//! [`entry`] (one arm each, not one per unit), and `synth --all-configs`
//! walks [`REGISTRY`] in order. A unit whose command does not honour a flag
//! has it refused before dispatch (`flags.rs`), so every entry takes the same
//! arguments.

use crate::common::{CmdError, CmdResult};
use crate::unit_kit::{async_groups::AsyncGroups, bar::Bar, cluster::Cluster, mbarrier::Mbarrier};
use crate::units::Unit;
use crate::{rtl_cmd, sim_cmd, synth};
use crate::{
    unit_async_groups, unit_bar, unit_bench, unit_cluster, unit_mbarrier, unit_sm_sync, unit_soak,
};
use std::path::Path;

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
    pub rows: fn() -> Result<Vec<crate::calibrate_units::Row>, String>,
    /// The table's title.
    pub title: &'static str,
    /// Where the measurements come from.
    pub source: &'static str,
    /// The timing preset that computes the model column.
    pub preset: &'static str,
}

/// One unit of the command line.
pub struct UnitEntry {
    pub unit: Unit,
    /// The folder under `verilog_out/` holding the unit's shipped
    /// configurations (`""`: membar's sit at the top, beside the others').
    pub dir: &'static str,
    /// The Verilog file stem of its top (`<dir>/<config>/<module>.v`).
    pub module: &'static str,
    /// A shipped configuration file of the unit, for messages.
    pub example_config: &'static str,
    pub generate: fn(&Path, &Path) -> CmdResult,
    pub cosim: fn(&CosimArgs) -> CmdResult,
    pub sim: fn(&SimArgs) -> CmdResult,
    pub synth: fn(&synth::Options) -> Result<synth::Figures, CmdError>,
    /// `soak --unit` through the unit's kit (`unit_kit.rs`); `None`: membar
    /// has its own soak, sm_sync is soaked by `cosim --unit sm_sync`.
    pub soak: Option<fn(&unit_soak::Args) -> CmdResult>,
    /// `bench --unit` (config, cycles, seed) through the unit's kit; `None`
    /// as for `soak`.
    pub bench: Option<fn(&Path, u64, u64) -> CmdResult>,
    /// `formal --unit`.
    pub formal: FormalEntry,
    /// `calibrate --unit`; `None`: membar's is `calibrate` without `--unit`,
    /// the others have no H100 table of their own.
    pub calibrate: Option<CalibrationEntry>,
    /// The `(command, flag id)` pairs of `flags::NOT_HONOURED` this unit's
    /// commands do not take (refused with exit 2 before dispatch).
    pub not_honoured: &'static [&'static [(&'static str, &'static str)]],
}

/// Flags a unit kit's sweep, bench and synth do not take (every unit but
/// membar, whose exploration and CSV columns are its own).
const KIT: &[(&str, &str)] = &[
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
const UNIT_CALIBRATION: &[(&str, &str)] = &[
    ("calibrate", "preset"),
    ("calibrate", "data"),
    ("calibrate", "fit"),
    ("calibrate", "seed"),
    ("calibrate", "jobs"),
];

/// Every unit, in the order of reports (`synth --all-configs`).
pub static REGISTRY: &[UnitEntry] = &[
    UnitEntry {
        unit: Unit::Membar,
        dir: "",
        module: "membar_unit",
        example_config: "configs/default.yaml",
        generate: rtl_cmd::generate,
        cosim: |a| {
            rtl_cmd::cosim(&rtl_cmd::CosimArgs {
                config: a.config,
                verilog: a.verilog,
                workload: a.workload,
                cycles: a.cycles,
                seed: a.seed,
                waves: a.waves,
            })
        },
        sim: |a| sim_cmd::sim(a.config, a.workload, a.cycles, a.seed, a.trace, a.coverage),
        synth: synth::synth,
        soak: None,
        bench: None,
        formal: FormalEntry {
            groups: membar_formal::harness::GROUPS,
            pdr_skip: &["p5"],
            skip_engine: "bmc",
            spec: rtl_cmd::formal_spec,
        },
        calibrate: None,
        not_honoured: &[&[("calibrate", "markdown")]],
    },
    UnitEntry {
        unit: Unit::Bar,
        dir: "bar_unit",
        module: "bar_unit",
        example_config: "configs/bar_unit/default.yaml",
        generate: unit_bar::generate,
        cosim: |a| unit_bar::cosim(a.config, a.verilog, a.cycles, a.seed, a.waves),
        sim: |a| unit_bar::sim(a.config, a.workload, a.cycles, a.seed, a.coverage),
        synth: unit_bar::synth,
        soak: Some(unit_soak::soak::<Bar>),
        bench: Some(unit_bench::bench::<Bar>),
        formal: FormalEntry {
            groups: membar_formal::bar::GROUPS,
            pdr_skip: membar_formal::bar::PDR_SKIP,
            skip_engine: "kind --depth 2",
            spec: unit_bar::formal_spec,
        },
        calibrate: Some(CalibrationEntry {
            rows: || Ok(bar_unit_model::timing::h100_calibration_rows()),
            title: "bar_unit / cluster_barrier",
            source: "data/calibration/h100_sync_bar.csv (tables 1.1, 1.2, 1.4, 3.1)",
            preset: "bar_unit_model::config::TimingConfig::h100() (sim/bar_unit/src/timing.rs)",
        }),
        not_honoured: &[
            KIT,
            UNIT_CALIBRATION,
            &[("cosim", "workload"), ("sim", "trace")],
        ],
    },
    UnitEntry {
        unit: Unit::Cluster,
        dir: "cluster_barrier",
        module: "cluster_barrier",
        example_config: "configs/cluster_barrier/default.yaml",
        generate: unit_cluster::generate,
        cosim: |a| unit_cluster::cosim(a.config, a.verilog, a.cycles, a.seed, a.waves),
        sim: |a| unit_cluster::sim(a.config, a.workload, a.cycles, a.seed, a.coverage),
        synth: unit_cluster::synth,
        soak: Some(unit_soak::soak::<Cluster>),
        bench: Some(unit_bench::bench::<Cluster>),
        formal: FormalEntry {
            groups: membar_formal::cluster::GROUPS,
            pdr_skip: &[],
            skip_engine: "kind --depth 2",
            spec: unit_cluster::formal_spec,
        },
        calibrate: None,
        not_honoured: &[KIT, &[("cosim", "workload"), ("sim", "trace")]],
    },
    UnitEntry {
        unit: Unit::Mbarrier,
        dir: "mbarrier_unit",
        module: "mbarrier_unit",
        example_config: "verilog_out/mbarrier_unit/default/config.yaml",
        generate: unit_mbarrier::generate,
        cosim: |a| unit_mbarrier::cosim(a.config, a.verilog, a.workload, a.cycles, a.seed, a.waves),
        sim: |a| unit_mbarrier::sim(a.config, a.workload, a.cycles, a.seed, a.trace, a.coverage),
        synth: unit_mbarrier::synth,
        soak: Some(unit_soak::soak::<Mbarrier>),
        bench: Some(unit_bench::bench::<Mbarrier>),
        formal: FormalEntry {
            groups: membar_formal::mbarrier::GROUPS,
            pdr_skip: membar_formal::mbarrier::PDR_SKIP,
            skip_engine: "kind --depth 2",
            spec: unit_mbarrier::formal_spec,
        },
        calibrate: Some(CalibrationEntry {
            rows: mbarrier_unit_model::timing::h100_calibration_rows,
            title: "mbarrier_unit / async_groups",
            source: "data/calibration/h100_sync_mbarrier.csv (tables 2.1, 2.2, 2.3, 4.1)",
            preset: "mbarrier_unit_model::timing::H100::preset() (sim/mbarrier_unit/src/timing.rs)",
        }),
        not_honoured: &[KIT, UNIT_CALIBRATION],
    },
    UnitEntry {
        unit: Unit::AsyncGroups,
        dir: "async_groups",
        module: "async_groups",
        example_config: "verilog_out/async_groups/default/config.yaml",
        generate: unit_async_groups::generate,
        cosim: |a| {
            unit_async_groups::cosim(a.config, a.verilog, a.workload, a.cycles, a.seed, a.waves)
        },
        sim: |a| {
            unit_async_groups::sim(a.config, a.workload, a.cycles, a.seed, a.trace, a.coverage)
        },
        synth: unit_async_groups::synth,
        soak: Some(unit_soak::soak::<AsyncGroups>),
        bench: Some(unit_bench::bench::<AsyncGroups>),
        formal: FormalEntry {
            groups: membar_formal::async_groups::GROUPS,
            pdr_skip: &[],
            skip_engine: "kind --depth 2",
            spec: unit_async_groups::formal_spec,
        },
        calibrate: None,
        not_honoured: &[KIT],
    },
    UnitEntry {
        unit: Unit::SmSync,
        dir: "sm_sync",
        module: "sm_sync",
        example_config: "configs/sm_sync_small.yaml",
        generate: unit_sm_sync::generate,
        cosim: |a| unit_sm_sync::cosim(a.config, a.verilog, a.workload, a.cycles, a.seed, a.waves),
        sim: |a| unit_sm_sync::sim(a.config, a.workload, a.cycles, a.seed, a.trace, a.coverage),
        synth: unit_sm_sync::synth,
        soak: None,
        bench: None,
        formal: FormalEntry {
            groups: membar_formal::sm_sync::GROUPS,
            pdr_skip: membar_formal::sm_sync::PDR_SKIP,
            skip_engine: "kind --depth 2",
            spec: unit_sm_sync::formal_spec,
        },
        calibrate: None,
        not_honoured: &[KIT, &[("sim", "trace")]],
    },
];

/// The entry of `unit`.
pub fn entry(unit: Unit) -> &'static UnitEntry {
    REGISTRY
        .iter()
        .find(|e| e.unit == unit)
        .expect("every Unit has a registry entry (tested)")
}

/// The units `soak --unit` / `bench --unit` run through their kits, as text.
pub fn kit_units() -> String {
    REGISTRY
        .iter()
        .filter(|e| e.soak.is_some())
        .map(|e| e.unit.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The units `calibrate --unit` takes (those with a calibration entry), as text.
pub fn calibrated_units() -> String {
    REGISTRY
        .iter()
        .filter(|e| e.calibrate.is_some())
        .map(|e| e.unit.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every unit, in registry order.
pub fn units() -> Vec<Unit> {
    REGISTRY.iter().map(|e| e.unit).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn every_unit_has_exactly_one_entry() {
        for u in Unit::value_variants() {
            assert_eq!(REGISTRY.iter().filter(|e| e.unit == *u).count(), 1, "{u:?}");
        }
        assert_eq!(REGISTRY.len(), Unit::value_variants().len());
        assert_eq!(units()[0], Unit::Membar, "membar first: the default unit");
    }

    #[test]
    fn every_not_honoured_pair_is_in_the_flag_table() {
        for e in REGISTRY {
            for &(cmd, id) in e.not_honoured.iter().flat_map(|l| l.iter()) {
                assert!(
                    crate::flags::NOT_HONOURED
                        .iter()
                        .any(|n| n.cmd == cmd && n.id == id),
                    "{}: ({cmd}, {id}) has no reason in flags::NOT_HONOURED",
                    e.unit
                );
            }
        }
        for n in crate::flags::NOT_HONOURED {
            assert!(
                REGISTRY
                    .iter()
                    .any(|e| crate::flags::not_honoured_by(e.unit, n.cmd, n.id)),
                "flags::NOT_HONOURED ({}, {}) is refused for no unit",
                n.cmd,
                n.id
            );
        }
    }

    #[test]
    fn calibrate_takes_membar_and_the_units_with_a_table() {
        // clap's --unit list of calibrate is the table's.
        let mut with_table: Vec<Unit> = vec![Unit::Membar];
        with_table.extend(
            REGISTRY
                .iter()
                .filter(|e| e.calibrate.is_some())
                .map(|e| e.unit),
        );
        assert_eq!(crate::units::CALIBRATE_UNITS, with_table.as_slice());
        assert_eq!(calibrated_units(), "bar, mbarrier");
    }

    #[test]
    fn every_unit_folder_and_example_exist() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for e in REGISTRY {
            assert!(
                root.join("verilog_out").join(e.dir).is_dir(),
                "{}: {}",
                e.unit,
                e.dir
            );
            assert!(
                root.join(e.example_config).is_file(),
                "{}: {}",
                e.unit,
                e.example_config
            );
        }
    }

    #[test]
    fn soak_and_bench_take_membar_and_the_units_with_a_kit() {
        // clap's --unit list of soak/bench/sweep is the table's.
        let mut with_kit: Vec<Unit> = vec![Unit::Membar];
        with_kit.extend(REGISTRY.iter().filter(|e| e.soak.is_some()).map(|e| e.unit));
        assert_eq!(crate::units::SOAK_UNITS, with_kit.as_slice());
        for e in REGISTRY {
            assert_eq!(e.soak.is_some(), e.bench.is_some(), "{}", e.unit);
        }
        assert_eq!(kit_units(), "bar, cluster, mbarrier, async_groups");
    }
}
