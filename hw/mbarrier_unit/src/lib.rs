//! mbarrier-unit-rtl: the synthesizable rust-hdl description of
//! `mbarrier_unit` (`spec/mbarrier_unit.md`), its lockstep simulation and its
//! Verilog.
//!
//! The RTL computes the golden kernel `mbarrier_unit_model::mbarrier_unit::eval`
//! cycle for cycle (same registers, same outputs, reset included), one block
//! per file:
//!
//! | file | block | kernel part |
//! | --- | --- | --- |
//! | `mbarrier_unit.rs` | [`MbarrierUnit`]: top, wiring, reset gating | — |
//! | `port_arbiter.rs` | one request a cycle over the three ports (`*_ready`) | `grant`, `State::pp` |
//! | `request_reg.rs` | the accepted request | `State::req` |
//! | `entry_file.rs` | M entries (counters in block RAM, `hdl_kit::ram_fwd`), the word read at acceptance (with forwarding), write-back | `State::entries` |
//! | `entry_step.rs` | the step's checks + update + completion | the step, `complete_if_due` |
//! | `op_port.rs` | decode/checks of the stepped request, response and `err` registers | the step, reported error |
//! | `waiters.rs` | try_wait suspension, decisions, wake registers | `State::waiters`, decisions |
//! | `wake_arbiter.rs` | F round-robin wake grants | wake arbiter, `State::rr` |
//! | `rank_pick.rs` | the first F of two candidate sets by prefix counts (the wake arbiter's F > 1 grants) | wake arbiter |
//!
//! Around it: `dispatch.rs` maps a runtime `Config` to the const-generic
//! unit, `hdl_dut.rs` steps its rust-hdl simulation in lockstep,
//! `verilog.rs` emits `mbarrier_unit.v`.
//!
//! The crate also holds the RTL twin of the async-group tracker
//! `mbarrier_unit_model::async_groups` (`spec/async_groups.md`):
//!
//! | file | block | kernel part |
//! | --- | --- | --- |
//! | `async_groups.rs` | [`AsyncGroups`]: top, warp decode, `err` register | `eval`, reported error |
//! | `ag_warp.rs` | one warp: ring of its non-empty groups, read frontier, open group, wait, retirement (×W) | `WarpGroups`, per-warp steps |
//!
//! with `ag_dispatch.rs`, `ag_hdl_dut.rs`, `ag_verilog.rs` (`async_groups.v`)
//! around it.

pub mod ag_dispatch;
pub mod ag_hdl_dut;
pub mod ag_verilog;
pub mod ag_warp;
pub mod async_groups;
pub mod dispatch;
pub mod entry_file;
pub mod entry_step;
pub mod hdl_dut;
pub mod ip_release;
pub mod mbarrier_unit;
pub mod op_port;
pub mod port_arbiter;
pub mod rank_pick;
pub mod request_reg;
pub mod verilog;
pub mod waiters;
pub mod wake_arbiter;

pub use ag_dispatch::AG_SUPPORTED;
pub use ag_verilog::{
    ag_config_name, ag_config_yaml, ag_describe, ag_fusesoc_core, ag_generate_verilog,
    ag_module_prefix, ag_synth_harness, AG_HARNESS_TOP,
};
pub use async_groups::AsyncGroups;
pub use dispatch::SUPPORTED;
pub use ip_release::{ag_ip_release, ip_release};
pub use mbarrier_unit::MbarrierUnit;
pub use verilog::{
    config_name, config_yaml, fusesoc_core, generate_verilog, module_prefix, synth_harness,
    HARNESS_TOP,
};

use mbarrier_unit_model::config::Config;
use mbarrier_unit_model::ports::async_groups::AsyncGroupsPorts;
use mbarrier_unit_model::ports::mbarrier::MbarrierUnitPorts;

/// The rust-hdl simulation of `mbarrier_unit` for `cfg`, stepped in lockstep
/// like the golden model. `Err` (naming the keys, the value and what is
/// allowed) when `cfg` has no RTL.
pub fn hdl_dut(cfg: &Config) -> Result<Box<dyn unit_ports::Dut<MbarrierUnitPorts>>, String> {
    let m: Box<dyn unit_ports::Dut<MbarrierUnitPorts>> = dispatch::build(cfg)?;
    Ok(m)
}

/// The configurations whose Verilog is checked in
/// (`verilog_out/mbarrier_unit/<name>/mbarrier_unit.v`): the default and
/// three grid points (8 warps and 8 entries, fan-out 2 with 32 entries, 64
/// warps with fan-out 4). Every one holds PTX's ranges (`count_bits` =
/// `tx_bits` = 20: counts up to 2^20 − 1, tx-count ±(2^20 − 1)), so any
/// PTX-legal `mbarrier.init` / `expect_tx` runs on it. Name `default` or
/// [`config_name`]. Reduced-range configurations are [`reduced_range`].
pub fn shipped() -> Vec<(String, Config)> {
    let d = Config::default();
    let grid = [
        Config {
            warps: 8,
            entries: 8,
            try_wait_limit: 8,
            wake_fanout: 1,
            ..d
        },
        Config {
            warps: 16,
            entries: 32,
            try_wait_limit: 40,
            wake_fanout: 2,
            ..d
        },
        Config {
            warps: 64,
            entries: 8,
            try_wait_limit: 200,
            wake_fanout: 4,
            ..d
        },
    ];
    let mut v = vec![("default".to_string(), d)];
    v.extend(grid.iter().map(|c| (config_name(c), *c)));
    v
}

/// Where the reduced-range configurations' Verilog is checked in, under
/// `verilog_out/mbarrier_unit/`: apart from the shipped ones, because they
/// cannot run every PTX program (`spec/mbarrier_unit.md` §Reduced-range
/// configurations).
pub use hdl_kit::emit::REDUCED_RANGE_DIR;

/// Reduced-range configurations (`count_bits` or `tx_bits` below PTX's 20),
/// for exploration and for formal proofs that finish in CI: `w8_m8_c4_t6_l8_f1`
/// takes counts up to 15 and tx-counts ±63 only, so an `mbarrier.init` with
/// a count above 15, an arrive of a whole warp (count 32) or an
/// `expect_tx` of more than 63 bytes is refused with `err` there
/// (`membar run` refuses such a program before it starts). Checked in under
/// `verilog_out/mbarrier_unit/reduced_range/<name>/`.
pub fn reduced_range() -> Vec<(String, Config)> {
    let c = Config {
        warps: 8,
        entries: 8,
        count_bits: 4,
        tx_bits: 6,
        try_wait_limit: 8,
        wake_fanout: 1,
        ..Config::default()
    };
    vec![(config_name(&c), c)]
}

/// The rust-hdl simulation of `async_groups` for `cfg`, stepped in lockstep
/// like the golden model `AsyncGroupsModel`. `Err` (naming the keys, the
/// value and what is allowed) when `cfg` has no RTL.
pub fn ag_hdl_dut(cfg: &Config) -> Result<Box<dyn unit_ports::Dut<AsyncGroupsPorts>>, String> {
    let m: Box<dyn unit_ports::Dut<AsyncGroupsPorts>> = ag_dispatch::build(cfg)?;
    Ok(m)
}

/// The `async_groups` configurations whose Verilog is checked in
/// (`verilog_out/async_groups/<name>/async_groups.v`): the default
/// (32 warps, 8 groups, 4-bit counters) and three grid points (two groups of
/// one operation on 8 warps, 4 groups of 3 operations on 16 warps, 4
/// groups of 255 operations on 64 warps). Name `default` or [`ag_config_name`].
pub fn ag_shipped() -> Vec<(String, Config)> {
    let d = Config::default();
    let grid = [
        Config {
            warps: 8,
            group_depth: 2,
            group_op_bits: 1,
            ..d
        },
        Config {
            warps: 16,
            group_depth: 4,
            group_op_bits: 2,
            ..d
        },
        Config {
            warps: 64,
            group_depth: 4,
            group_op_bits: 8,
            ..d
        },
    ];
    let mut v = vec![("default".to_string(), d)];
    v.extend(grid.iter().map(|c| (ag_config_name(c), *c)));
    v
}
