//! The named-barrier unit and the cluster barrier as the `membar` command
//! sees them: one [`UnitEntry`] each, listed once in `cli/src/registry.rs`.
//! Everything a command runs of these units is here, beside their model
//! (`sim/bar_unit`) and RTL (`hw/bar_unit`):
//!
//! - [`bar`], [`cluster`]: `generate`, `cosim`, `sim`, `synth` and the
//!   formal harness's configuration;
//! - [`bar_kit`], [`cluster_kit`]: the pieces `soak` and `bench` combine;
//! - the `*_formal` modules: each unit's SymbiYosys harness (properties
//!   over its ports, invariants over its registers) and counterexample
//!   replay through its model;
//! - [`sweep`]: one point of `sweep --unit bar|cluster`.

use bar_unit_model::config::BarConfig;
use cli_kit::entry::{
    one_at_a_time, CalibrationEntry, FormalEntry, ScalingEntry, Unit, UnitEntry, KIT,
    UNIT_CALIBRATION,
};

pub mod bar;
pub mod bar_formal;
pub mod bar_kit;
pub mod cluster;
pub mod cluster_formal;
pub mod cluster_kit;
pub mod sweep;

/// `--unit bar`.
pub static BAR: UnitEntry = UnitEntry {
    unit: Unit("bar"),
    aliases: &[],
    about: "The named-barrier unit (spec/bar_unit.md): bar.sync / bar.arrive / bar.red",
    dir: "bar_unit",
    module: "bar_unit",
    example_config: "configs/bar_unit/default.yaml",
    generate: bar::generate,
    release: bar_unit_rtl::ip_release,
    cosim: |a| bar::cosim(a.config, a.verilog, a.cycles, a.seed, a.waves),
    sim: |a| bar::sim(a.config, a.workload, a.cycles, a.seed, a.coverage),
    synth: bar::synth,
    soak: Some(cli_kit::soak::soak::<bar_kit::Bar>),
    bench: Some(cli_kit::bench::bench::<bar_kit::Bar>),
    sweep: Some(sweep::BAR),
    formal: FormalEntry {
        groups: bar_formal::GROUPS,
        pdr_skip: bar_formal::PDR_SKIP,
        skip_engine: "kind --depth 2",
        spec: bar::formal_spec,
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
    scaling: Some(ScalingEntry {
        about: || {
            let d = BarConfig::default();
            format!(
                "The default configuration (W={} warps, C={} CTA slots, 16 barriers per CTA \
                 slot in block RAM) with W or C changed.",
                d.warps, d.cta_slots
            )
        },
        configs: bar_scaling_configs,
    }),
};

/// The bar unit's scaling rows: the default with W (8..64) or C (1..8) changed.
fn bar_scaling_configs() -> Vec<(String, String)> {
    one_at_a_time(
        &BarConfig::default(),
        &[
            ("W", &[8, 16, 32, 64], |c, v| c.warps = v),
            ("C", &[1, 2, 4, 8], |c, v| c.cta_slots = v),
        ],
        bar_unit_rtl::config_yaml,
    )
}

/// `--unit cluster`.
pub static CLUSTER: UnitEntry = UnitEntry {
    unit: Unit("cluster"),
    aliases: &[],
    about: "The cluster barrier aggregator (spec/cluster_barrier.md)",
    dir: "cluster_barrier",
    module: "cluster_barrier",
    example_config: "configs/cluster_barrier/default.yaml",
    generate: cluster::generate,
    release: bar_unit_rtl::cluster_ip_release,
    cosim: |a| cluster::cosim(a.config, a.verilog, a.cycles, a.seed, a.waves),
    sim: |a| cluster::sim(a.config, a.workload, a.cycles, a.seed, a.coverage),
    synth: cluster::synth,
    soak: Some(cli_kit::soak::soak::<cluster_kit::Cluster>),
    bench: Some(cli_kit::bench::bench::<cluster_kit::Cluster>),
    sweep: Some(sweep::CLUSTER),
    formal: FormalEntry {
        groups: cluster_formal::GROUPS,
        pdr_skip: &[],
        skip_engine: "kind --depth 2",
        spec: cluster::formal_spec,
    },
    calibrate: None,
    not_honoured: &[KIT, &[("cosim", "workload"), ("sim", "trace")]],
    // The shipped configurations (n1, n2, default, n16) are its scale.
    scaling: None,
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Every scaling row is a valid configuration the unit reads back, with
    /// exactly the labelled parameter changed from the default.
    #[test]
    fn scaling_rows_are_valid_configurations_with_one_change() {
        let d = BarConfig::default();
        let rows = (BAR.scaling.as_ref().unwrap().configs)();
        assert_eq!(rows.len(), 8);
        for (label, yaml) in rows {
            let c = BarConfig::from_yaml(&yaml, &label).unwrap_or_else(|e| panic!("{label}: {e}"));
            let (k, v) = label.split_once('=').unwrap();
            let v: u32 = v.parse().unwrap();
            match k {
                "W" => assert_eq!((c.warps, c.cta_slots), (v, d.cta_slots), "{label}"),
                "C" => assert_eq!((c.warps, c.cta_slots), (d.warps, v), "{label}"),
                _ => panic!("{label}: unknown parameter"),
            }
        }
        assert!(CLUSTER.scaling.is_none());
    }
}
