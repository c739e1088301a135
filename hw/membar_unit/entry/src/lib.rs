//! The memory-barrier unit as the `membar` command sees it: its
//! [`UnitEntry`] (the default `--unit`), listed once in
//! `cli/src/registry.rs`, beside its model (`sim/membar_unit`,
//! environment `sim/membar_env`) and RTL (`hw/membar_unit`):
//!
//! - [`membar`]: `generate`, `cosim`, `soak` (the unit's own long
//!   cosimulation under an adversarial memory system) and the formal
//!   harness's configuration (the harness is `membar_formal::harness`);
//! - [`membar_sim`]: `sim` and `bench` on the unit's environment.
//!
//! Its sweep, calibration and synthesis CSV are the exploration layer's
//! (`sim/explore`), reached from `cli/src/main.rs` directly.

use cli_kit::entry::{one_at_a_time, FormalEntry, ScalingEntry, Unit, UnitEntry};
use membar_unit_env::Config;

pub mod membar;
pub mod membar_sim;

/// `--unit membar`, the default unit.
pub static MEMBAR: UnitEntry = UnitEntry {
    unit: Unit::MEMBAR,
    aliases: &[],
    about: "The memory-barrier unit (spec/membar_unit.md), the default",
    dir: "",
    module: "membar_unit",
    example_config: "configs/default.yaml",
    generate: membar::generate,
    release: membar_unit_rtl::ip_release,
    cosim: |a| {
        membar::cosim(&membar::CosimArgs {
            config: a.config,
            verilog: a.verilog,
            workload: a.workload,
            cycles: a.cycles,
            seed: a.seed,
            waves: a.waves,
        })
    },
    sim: |a| membar_sim::sim(a.config, a.workload, a.cycles, a.seed, a.trace, a.coverage),
    synth: cli_kit::synth::synth,
    soak: None,
    bench: None,
    sweep: None,
    formal: FormalEntry {
        groups: membar_formal::harness::GROUPS,
        pdr_skip: &["p5"],
        skip_engine: "bmc",
        spec: membar::formal_spec,
    },
    calibrate: None,
    not_honoured: &[&[("calibrate", "markdown")]],
    scaling: Some(ScalingEntry {
        about: || {
            let d = Config::default();
            format!(
                "The default configuration (W={} warps, K={} slots (coalescing indices), \
                 C={} counter bits, N={} ways) with one of W, K, C changed.",
                d.warps, d.slots, d.counter_bits, d.ways
            )
        },
        configs: scaling_configs,
    }),
};

/// The scaling table's rows: the default with W, K or C changed.
fn scaling_configs() -> Vec<(String, String)> {
    one_at_a_time(
        &Config::default(),
        &[
            ("W", &[8, 16, 32, 64], |c, v| c.warps = v),
            ("K", &[2, 4, 8], |c, v| c.slots = v),
            ("C", &[4, 6, 8], |c, v| c.counter_bits = v),
        ],
        Config::to_yaml,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every scaling row is a valid configuration the unit reads back, with
    /// exactly the labelled parameter changed from the default.
    #[test]
    fn scaling_rows_are_valid_configurations_with_one_change() {
        let d = Config::default();
        let rows = (MEMBAR.scaling.as_ref().unwrap().configs)();
        assert_eq!(rows.len(), 10);
        for (label, yaml) in rows {
            let c = Config::from_yaml_str(&yaml, &label).unwrap_or_else(|e| panic!("{label}: {e}"));
            let (k, v) = label.split_once('=').unwrap();
            let v: u32 = v.parse().unwrap();
            let mut want = d.clone();
            match k {
                "W" => want.warps = v,
                "K" => want.slots = v,
                "C" => want.counter_bits = v,
                _ => panic!("{label}: unknown parameter"),
            }
            assert_eq!(c, want, "{label}");
        }
    }
}
