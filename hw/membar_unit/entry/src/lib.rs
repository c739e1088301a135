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

use cli_kit::entry::{FormalEntry, Unit, UnitEntry};

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
};
