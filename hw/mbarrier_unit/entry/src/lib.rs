//! The transaction-barrier unit and the bulk async-group tracker as the
//! `membar` command sees them: one [`UnitEntry`] each, listed once in
//! `cli/src/registry.rs`. Everything a command runs of these units is here,
//! beside their model (`sim/mbarrier_unit`) and RTL (`hw/mbarrier_unit`):
//!
//! - [`mbarrier`], [`async_groups`]: `generate`, `cosim`, `sim`, `synth`
//!   and the formal harness's configuration;
//! - [`mbarrier_kit`], [`async_groups_kit`]: the pieces `soak` and `bench`
//!   combine;
//! - the `*_formal` modules: each unit's SymbiYosys harness (properties
//!   over its ports, invariants over its registers) and counterexample
//!   replay through its model;
//! - [`sweep`]: one point of `sweep --unit mbarrier|async_groups`.

use cli_kit::entry::{
    one_at_a_time, CalibrationEntry, FormalEntry, ScalingEntry, Unit, UnitEntry, KIT,
    UNIT_CALIBRATION,
};
use mbarrier_unit_model::config::Config;

pub mod async_groups;
pub mod async_groups_formal;
pub mod async_groups_kit;
pub mod mbarrier;
pub mod mbarrier_formal;
pub mod mbarrier_kit;
pub mod sweep;

/// `--unit mbarrier`.
pub static MBARRIER: UnitEntry = UnitEntry {
    unit: Unit("mbarrier"),
    aliases: &[],
    about: "The transaction-barrier unit (spec/mbarrier_unit.md)",
    dir: "mbarrier_unit",
    module: "mbarrier_unit",
    example_config: "verilog_out/mbarrier_unit/default/config.yaml",
    generate: mbarrier::generate,
    release: mbarrier_unit_rtl::ip_release,
    cosim: |a| mbarrier::cosim(a.config, a.verilog, a.workload, a.cycles, a.seed, a.waves),
    sim: |a| mbarrier::sim(a.config, a.workload, a.cycles, a.seed, a.trace, a.coverage),
    synth: mbarrier::synth,
    soak: Some(cli_kit::soak::soak::<mbarrier_kit::Mbarrier>),
    bench: Some(cli_kit::bench::bench::<mbarrier_kit::Mbarrier>),
    sweep: Some(sweep::MBARRIER),
    formal: FormalEntry {
        groups: mbarrier_formal::GROUPS,
        pdr_skip: mbarrier_formal::PDR_SKIP,
        skip_engine: "kind --depth 2",
        spec: mbarrier::formal_spec,
    },
    calibrate: Some(CalibrationEntry {
        rows: mbarrier_unit_model::timing::h100_calibration_rows,
        title: "mbarrier_unit / async_groups",
        source: "data/calibration/h100_sync_mbarrier.csv (tables 2.1, 2.2, 2.3, 4.1)",
        preset: "mbarrier_unit_model::timing::H100::preset() (sim/mbarrier_unit/src/timing.rs)",
    }),
    not_honoured: &[KIT, UNIT_CALIBRATION],
    scaling: Some(ScalingEntry {
        about: || {
            let d = Config::default();
            format!(
                "The default configuration (W={} warps, M={} entries, {}-bit counts and \
                 tx-counts, F={}) with W or M changed.",
                d.warps, d.entries, d.count_bits, d.wake_fanout
            )
        },
        configs: || {
            one_at_a_time(
                &Config::default(),
                &[
                    ("W", &[8, 16, 32, 64], |c, v| c.warps = v),
                    ("M", &[8, 16, 32, 64], |c, v| c.entries = v),
                ],
                mbarrier_unit_rtl::verilog::config_yaml,
            )
        },
    }),
};

/// `--unit async_groups`.
pub static ASYNC_GROUPS: UnitEntry = UnitEntry {
    unit: Unit("async_groups"),
    aliases: &["async-groups"],
    about: "The bulk async-group tracker (spec/async_groups.md)",
    dir: "async_groups",
    module: "async_groups",
    example_config: "verilog_out/async_groups/default/config.yaml",
    generate: async_groups::generate,
    release: mbarrier_unit_rtl::ag_ip_release,
    cosim: |a| async_groups::cosim(a.config, a.verilog, a.workload, a.cycles, a.seed, a.waves),
    sim: |a| async_groups::sim(a.config, a.workload, a.cycles, a.seed, a.trace, a.coverage),
    synth: async_groups::synth,
    soak: Some(cli_kit::soak::soak::<async_groups_kit::AsyncGroups>),
    bench: Some(cli_kit::bench::bench::<async_groups_kit::AsyncGroups>),
    sweep: Some(sweep::ASYNC_GROUPS),
    formal: FormalEntry {
        groups: async_groups_formal::GROUPS,
        pdr_skip: &[],
        skip_engine: "kind --depth 2",
        spec: async_groups::formal_spec,
    },
    calibrate: None,
    not_honoured: &[KIT],
    scaling: Some(ScalingEntry {
        about: || {
            let d = Config::default();
            format!(
                "The default configuration (W={} warps, G={} groups per warp, {}-bit \
                 operation counters) with W or G changed.",
                d.warps, d.group_depth, d.group_op_bits
            )
        },
        configs: || {
            one_at_a_time(
                &Config::default(),
                &[
                    ("W", &[8, 16, 32, 64], |c, v| c.warps = v),
                    ("G", &[2, 4, 8, 16], |c, v| c.group_depth = v),
                ],
                mbarrier_unit_rtl::ag_verilog::ag_config_yaml,
            )
        },
    }),
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Every scaling row of both units is a valid configuration the unit
    /// reads back, with exactly the labelled parameter changed.
    #[test]
    fn scaling_rows_are_valid_configurations_with_one_change() {
        let d = Config::default();
        for (entry, other) in [(&MBARRIER, "M"), (&ASYNC_GROUPS, "G")] {
            let rows = (entry.scaling.as_ref().unwrap().configs)();
            assert_eq!(rows.len(), 8);
            for (label, yaml) in rows {
                let c =
                    Config::from_yaml_str(&yaml, &label).unwrap_or_else(|e| panic!("{label}: {e}"));
                let (k, v) = label.split_once('=').unwrap();
                let v: u32 = v.parse().unwrap();
                let mut want = d;
                if k == "W" {
                    want.warps = v;
                } else {
                    assert_eq!(k, other, "{label}");
                    if k == "M" {
                        want.entries = v;
                    } else {
                        want.group_depth = v;
                    }
                }
                if entry.unit == ASYNC_GROUPS.unit {
                    // The tracker's file carries its own keys only.
                    assert_eq!(
                        (c.warps, c.group_depth, c.group_op_bits),
                        (want.warps, want.group_depth, want.group_op_bits),
                        "{label}"
                    );
                } else {
                    assert_eq!(c, want, "{label}");
                }
            }
        }
    }
}
