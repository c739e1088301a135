//! Golden models of the SM's transaction-barrier unit (`mbarrier_unit`) and
//! the per-warp bulk async-group tracker (`async_groups`), with their
//! port-only scoreboards (M1–M8, G1–G4), functional coverage, the copy-engine
//! environment, kernel-like workloads and the H100 timing preset.
//! Contracts: `spec/mbarrier_unit.md`, `spec/async_groups.md`.

pub mod async_groups;
pub mod config;
pub mod copy_engine;
pub mod coverage;
pub mod mbarrier_unit;
pub mod ports;
pub mod scoreboard;
pub mod timing;
pub mod workload;
