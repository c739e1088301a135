//! The table of units behind `--unit`: one entry per unit with the
//! functions that `generate`, `cosim`, `sim`, `synth`, `soak` and `bench`
//! call. `main.rs` dispatches those commands through
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

/// One unit of the command line.
pub struct UnitEntry {
    pub unit: Unit,
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
        soak: None,
        bench: None,
    },
    UnitEntry {
        unit: Unit::Bar,
        generate: unit_bar::generate,
        cosim: |a| unit_bar::cosim(a.config, a.verilog, a.cycles, a.seed, a.waves),
        sim: |a| unit_bar::sim(a.config, a.workload, a.cycles, a.seed, a.coverage),
        synth: unit_bar::synth,
        soak: Some(unit_soak::soak::<Bar>),
        bench: Some(unit_bench::bench::<Bar>),
    },
    UnitEntry {
        unit: Unit::Cluster,
        generate: unit_cluster::generate,
        cosim: |a| unit_cluster::cosim(a.config, a.verilog, a.cycles, a.seed, a.waves),
        sim: |a| unit_cluster::sim(a.config, a.workload, a.cycles, a.seed, a.coverage),
        synth: unit_cluster::synth,
        soak: Some(unit_soak::soak::<Cluster>),
        bench: Some(unit_bench::bench::<Cluster>),
    },
    UnitEntry {
        unit: Unit::Mbarrier,
        generate: unit_mbarrier::generate,
        cosim: |a| unit_mbarrier::cosim(a.config, a.verilog, a.workload, a.cycles, a.seed, a.waves),
        sim: |a| unit_mbarrier::sim(a.config, a.workload, a.cycles, a.seed, a.trace, a.coverage),
        synth: unit_mbarrier::synth,
        soak: Some(unit_soak::soak::<Mbarrier>),
        bench: Some(unit_bench::bench::<Mbarrier>),
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
        soak: Some(unit_soak::soak::<AsyncGroups>),
        bench: Some(unit_bench::bench::<AsyncGroups>),
    },
    UnitEntry {
        unit: Unit::SmSync,
        generate: unit_sm_sync::generate,
        cosim: |a| unit_sm_sync::cosim(a.config, a.verilog, a.workload, a.cycles, a.seed, a.waves),
        sim: |a| unit_sm_sync::sim(a.config, a.workload, a.cycles, a.seed, a.trace, a.coverage),
        synth: unit_sm_sync::synth,
        soak: None,
        bench: None,
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
