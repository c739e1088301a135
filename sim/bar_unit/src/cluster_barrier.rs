//! Golden model of `cluster_barrier`, the per-cluster aggregator of
//! `barrier.cluster.arrive` / `barrier.cluster.wait`. Contract:
//! `spec/cluster_barrier.md`.
//!
//! Each CTA rank's SM collects its own CTA's arrivals locally (every live
//! thread of the CTA) and sends one pulse on its `arv` bit per phase; a CTA
//! that has exited holds its `gone` bit. The aggregator completes the phase
//! when every rank has arrived or is gone (and at least one arrived), and
//! broadcasts `done` with the phase parity. The cross-SM path (SM → aggregator
//! and back) is a latency of the environment (`timing.rs`, `workload.rs`),
//! not of this block.
//!
//! # Registers the RTL holds (N = `ranks`)
//!
//! `arrived` (N), `phase` (1), and the done register `done_q` (1) +
//! `done_phase_q` (1). `err`/`err_rank` are combinational.
//!
//! # One cycle
//!
//! Legal arrivals (a rank not yet arrived in this phase and not gone) are
//! added to `arrived`; if `arrived | legal arv | gone` then covers all N ranks
//! (with at least one arrival), the phase completes at this edge: `arrived`
//! clears, `phase` toggles, and `done` pulses in the next cycle with the old
//! parity. **Bound: done 1 cycle after the last arrival (or the `gone` that
//! completed the phase); at most one completion per cycle.** Arrivals in the
//! `done` cycle belong to the next phase.

use crate::config::ClusterConfig;
use crate::ports::{ClusterInputs, ClusterOutputs};

/// Registered state of `cluster_barrier`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ClusterState {
    pub arrived: u32,
    pub phase: bool,
    pub done_q: bool,
    pub done_phase_q: bool,
}

/// The kernel: outputs of this cycle and the state after the clock edge.
pub fn eval(
    cfg: &ClusterConfig,
    s: &ClusterState,
    i: &ClusterInputs,
) -> (ClusterOutputs, ClusterState) {
    if i.reset {
        return (ClusterOutputs::default(), ClusterState::default());
    }
    let all = cfg.rank_mask();
    let arv = i.arv & all;
    let gone = i.gone & all;
    let bad = arv & (s.arrived | gone);
    let good = arv & !bad;
    let o = ClusterOutputs {
        done: s.done_q,
        done_phase: s.done_q && s.done_phase_q,
        phase: s.phase,
        arrived: s.arrived,
        err: bad != 0,
        err_rank: bad,
    };
    let arrived = s.arrived | good;
    let mut next = ClusterState {
        arrived,
        phase: s.phase,
        done_q: false,
        done_phase_q: false,
    };
    if arrived != 0 && (arrived | gone) == all {
        next = ClusterState {
            arrived: 0,
            phase: !s.phase,
            done_q: true,
            done_phase_q: s.phase,
        };
    }
    (o, next)
}

/// The golden model: registers plus the clock edge.
#[derive(Clone, Debug)]
pub struct ClusterBarrierModel {
    pub cfg: ClusterConfig,
    pub state: ClusterState,
}

impl ClusterBarrierModel {
    pub fn new(cfg: ClusterConfig) -> ClusterBarrierModel {
        ClusterBarrierModel {
            cfg,
            state: ClusterState::default(),
        }
    }
    /// One clock cycle: outputs of the cycle, then the edge.
    pub fn step(&mut self, i: &ClusterInputs) -> ClusterOutputs {
        let (o, n) = eval(&self.cfg, &self.state, i);
        self.state = n;
        o
    }
}

impl unit_ports::Dut<crate::ports::ClusterBarrierPorts> for ClusterBarrierModel {
    fn step(&mut self, i: &ClusterInputs) -> ClusterOutputs {
        ClusterBarrierModel::step(self, i)
    }
    fn name(&self) -> &str {
        "model"
    }
}
