//! sm-sync-model: the reference model of `sm_sync` (contract:
//! `spec/sm_sync.md`), the SM's four synchronisation units — membar,
//! named barriers, mbarrier, async-group tracker — behind one
//! decoded-instruction port from warp issue.
//!
//! | file | what | RTL twin (`hw/sm_sync`) |
//! | --- | --- | --- |
//! | `config.rs` | the four units' configurations, one W | `dispatch.rs` |
//! | `ports.rs` | the one port declaration `sm_sync_ports!`, encodings | the top's `Signal` fields |
//! | `model.rs` | decoder `route`, pure kernel `eval` composing the unit kernels | `decoder.rs`, `sm_sync.rs` |
//! | `port_reg.rs` | the registered instruction port | `port_reg.rs` |
//! | `mutants.rs` | deliberate bugs as wrappers around the kernel's stages (feature `mutants`, tests only) | — |
//! | `scoreboard.rs` | port-only checker of S1–S6 | — |
//! | `coverage.rs` | functional coverage bins | — |
//! | `stream.rs` | random PTX-derived instruction streams and the memory side | — |

pub mod config;
pub mod coverage;
pub mod encode;
pub mod model;
// Test-only machinery: off by default, on in test crates' dev-dependencies.
#[cfg(feature = "mutants")]
pub mod mutants;
pub mod port_reg;
pub mod ports;
pub mod scoreboard;
pub mod stream;

pub use config::Config;
pub use model::SmSyncModel;
pub use ports::{Inputs, Outputs, SmSyncPorts};
