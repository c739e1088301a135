//! The `sm_sync` top (the four units behind one decoded-instruction port) as
//! the `membar` command sees it: one [`UnitEntry`], listed once in
//! `cli/src/registry.rs`. [`sm_sync`] holds `generate`, `cosim`, `sim`,
//! `synth` and the formal harness's configuration, beside the top's model
//! (`sim/sm_sync`) and RTL (`hw/sm_sync`). `soak`, `bench` and `sweep` take
//! the units one by one, so the top has none of its own.

use cli_kit::entry::{FormalEntry, Unit, UnitEntry, KIT};

pub mod sm_sync;
pub mod sm_sync_formal;

/// `--unit sm_sync`.
pub static SM_SYNC: UnitEntry = UnitEntry {
    unit: Unit("sm_sync"),
    aliases: &["sm-sync"],
    about: "The four units behind one decoded-instruction port (spec/sm_sync.md)",
    dir: "sm_sync",
    module: "sm_sync",
    example_config: "configs/sm_sync_small.yaml",
    generate: sm_sync::generate,
    release: sm_sync_rtl::ip_release,
    cosim: |a| sm_sync::cosim(a.config, a.verilog, a.workload, a.cycles, a.seed, a.waves),
    sim: |a| sm_sync::sim(a.config, a.workload, a.cycles, a.seed, a.trace, a.coverage),
    synth: sm_sync::synth,
    soak: None,
    bench: None,
    sweep: None,
    formal: FormalEntry {
        groups: sm_sync_formal::GROUPS,
        pdr_skip: sm_sync_formal::PDR_SKIP,
        skip_engine: "kind --depth 2",
        spec: sm_sync::formal_spec,
    },
    calibrate: None,
    not_honoured: &[KIT, &[("sim", "trace")]],
    // Its four units' scaling tables are its scale.
    scaling: None,
};
