//! `bar-unit-model`: golden models of the SM's named-barrier unit
//! (`bar_unit`: `bar.sync`/`bar.arrive`/`bar.red`, 16 barriers per CTA, several
//! CTAs per SM) and of the cluster barrier aggregator (`cluster_barrier`:
//! `barrier.cluster.arrive`/`wait`), with their port declarations,
//! parameters, port-only property scoreboards (B1–B7, C1–C4), functional
//! coverage, seeded random stimulus, named workload scenarios and the H100
//! timing preset. Contracts: `spec/bar_unit.md`, `spec/cluster_barrier.md`.

pub mod bar_unit;
pub mod cluster_barrier;
pub mod config;
pub mod coverage;
pub mod ports;
pub mod scoreboard;
pub mod stimulus;
pub mod timing;
pub mod workload;
