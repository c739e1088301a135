//! The table of units behind `--unit`: one entry per unit with the
//! functions that `generate`, `cosim`, `sim` and `synth` call. `main.rs` dispatches those commands through
//! [`entry`] (one arm each, not one per unit), and `synth --all-configs`
//! walks [`REGISTRY`] in order. A unit whose command does not honour a flag
//! has it refused before dispatch (`flags.rs`), so every entry takes the same
//! arguments.

use crate::common::{CmdError, CmdResult};
use crate::units::Unit;
use crate::{rtl_cmd, sim_cmd, synth};
use crate::{unit_async_groups, unit_bar, unit_cluster, unit_mbarrier, unit_sm_sync};
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

/// One unit of the command line.
pub struct UnitEntry {
    pub unit: Unit,
    pub generate: fn(&Path, &Path) -> CmdResult,
    pub cosim: fn(&CosimArgs) -> CmdResult,
    pub sim: fn(&SimArgs) -> CmdResult,
    pub synth: fn(&synth::Options) -> Result<synth::Figures, CmdError>,
}

/// Every unit, in the order of reports (`synth --all-configs`).
pub static REGISTRY: &[UnitEntry] = &[
    UnitEntry {
        unit: Unit::Membar,
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
    },
    UnitEntry {
        unit: Unit::Bar,
        generate: unit_bar::generate,
        cosim: |a| unit_bar::cosim(a.config, a.verilog, a.cycles, a.seed, a.waves),
        sim: |a| unit_bar::sim(a.config, a.workload, a.cycles, a.seed, a.coverage),
        synth: unit_bar::synth,
    },
    UnitEntry {
        unit: Unit::Cluster,
        generate: unit_cluster::generate,
        cosim: |a| unit_cluster::cosim(a.config, a.verilog, a.cycles, a.seed, a.waves),
        sim: |a| unit_cluster::sim(a.config, a.workload, a.cycles, a.seed, a.coverage),
        synth: unit_cluster::synth,
    },
    UnitEntry {
        unit: Unit::Mbarrier,
        generate: unit_mbarrier::generate,
        cosim: |a| unit_mbarrier::cosim(a.config, a.verilog, a.workload, a.cycles, a.seed, a.waves),
        sim: |a| unit_mbarrier::sim(a.config, a.workload, a.cycles, a.seed, a.trace, a.coverage),
        synth: unit_mbarrier::synth,
    },
    UnitEntry {
        unit: Unit::AsyncGroups,
        generate: unit_async_groups::generate,
        cosim: |a| {
            unit_async_groups::cosim(a.config, a.verilog, a.workload, a.cycles, a.seed, a.waves)
        },
        sim: |a| {
            unit_async_groups::sim(a.config, a.workload, a.cycles, a.seed, a.trace, a.coverage)
        },
        synth: unit_async_groups::synth,
    },
    UnitEntry {
        unit: Unit::SmSync,
        generate: unit_sm_sync::generate,
        cosim: |a| unit_sm_sync::cosim(a.config, a.verilog, a.workload, a.cycles, a.seed, a.waves),
        sim: |a| unit_sm_sync::sim(a.config, a.workload, a.cycles, a.seed, a.trace, a.coverage),
        synth: unit_sm_sync::synth,
    },
];

/// The entry of `unit`.
pub fn entry(unit: Unit) -> &'static UnitEntry {
    REGISTRY
        .iter()
        .find(|e| e.unit == unit)
        .expect("every Unit has a registry entry (tested)")
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
}
