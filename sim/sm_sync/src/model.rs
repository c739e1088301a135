//! The reference model of `sm_sync`: the composition of the four unit
//! models through their public pure kernels (`membar_unit::eval`,
//! `bar_unit::eval`, `mbarrier_unit::eval`, `async_groups::eval`) — no unit
//! logic is copied here. [`route`] is the decoder (spec §Decode): it turns
//! the decoder's instruction and the memory-side inputs into each unit's
//! inputs; [`eval_core`] steps every unit and combines their outputs (spec
//! §Outputs); [`eval`] puts the registered instruction port
//! (`crate::port_reg`) in front of it when the configuration has one.
//!
//! The deliberate bugs of the mutant tests (which prove that every
//! scoreboard property can fail) are not here: they wrap these stages from
//! outside, in `crate::mutants` (feature `mutants`, tests only).

use crate::config::Config;
use crate::port_reg::{self, PortReg};
use crate::ports::{src, unit, Inputs, Outputs};
use bar_unit_model::ports::{BarInputs, BarOutputs};
use mbarrier_unit_model::ports::{async_groups as ag, mbarrier as mb};
use membar_unit_model::ports as mp;

/// What each unit sees in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Routed {
    pub membar: mp::Inputs,
    pub bar: BarInputs,
    pub mb: mb::Inputs,
    pub ag: ag::Inputs,
    /// The decoder refuses this cycle's instruction (reserved unit or op).
    pub refused: bool,
}

/// What each unit answers in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UnitOutputs {
    pub membar: mp::Outputs,
    pub bar: BarOutputs,
    pub mb: mb::Outputs,
    pub ag: ag::Outputs,
}

/// Registered state: the four units' states and the registered
/// instruction port (always empty without one).
#[derive(Clone, Debug)]
pub struct State {
    pub membar: membar_unit_model::membar_unit::State,
    pub bar: bar_unit_model::bar_unit::State,
    pub mb: mbarrier_unit_model::mbarrier_unit::State,
    pub ag: mbarrier_unit_model::async_groups::State,
    pub port: PortReg,
}

impl State {
    pub fn new(cfg: &Config) -> State {
        State {
            membar: Default::default(),
            bar: bar_unit_model::bar_unit::State::new(&cfg.bar),
            mb: Default::default(),
            ag: Default::default(),
            port: None,
        }
    }
}

/// The decoder: each unit's inputs for this cycle's top inputs (spec §Decode).
/// Operand fields reach the selected unit truncated to its port widths;
/// the memory-side inputs go to their unit unchanged; `reset` to all.
pub fn route(cfg: &Config, i: &Inputs) -> Routed {
    let refused = i.in_valid && unit::refused(i.in_unit, i.in_op);
    let go = |u: u8| i.in_valid && !refused && i.in_unit == u;
    let membar = mp::Inputs {
        reset: i.reset,
        req_valid: go(unit::MEMBAR),
        req_warp: i.in_warp,
        req_op: i.in_op,
        req_level: i.in_level,
        req_ivall: i.in_ivall,
        req_id: i.in_id,
        dn_ready: i.dn_ready,
        ack_valid: i.ack_valid,
        ack_tag: i.ack_tag,
        bar_ack_valid: i.bar_ack_valid,
        bar_ack_tag: i.bar_ack_tag,
    }
    .masked_for(&cfg.membar);
    let bar = BarInputs {
        reset: i.reset,
        req_valid: go(unit::BAR),
        req_warp: i.in_warp,
        req_op: i.in_op,
        req_id: i.in_id as u8,
        req_all: i.in_all,
        req_count: i.in_count as u8,
        req_pred: i.in_pred,
        ctl_valid: i.ctl_valid,
        ctl_op: i.ctl_op,
        ctl_slot: i.ctl_slot,
        ctl_warps: i.ctl_warps,
        ctl_warp: i.ctl_warp,
    }
    .masked_for(&cfg.bar);
    let mbi = mb::Inputs {
        reset: i.reset,
        op_valid: go(unit::MBARRIER),
        op_warp: i.in_warp,
        op_code: i.in_op,
        op_entry: i.in_id as u8,
        op_count: i.in_count,
        op_tx: i.in_tx,
        op_parity: i.in_parity,
        ctx_valid: i.ctx_valid,
        ctx_entry: i.ctx_entry,
        ctx_bytes: i.ctx_bytes,
        rarv_valid: i.rarv_valid,
        rarv_entry: i.rarv_entry,
        rarv_count: i.rarv_count,
    }
    .masked_for(&cfg.mbarrier);
    let agi = ag::Inputs {
        reset: i.reset,
        ag_valid: go(unit::ASYNC),
        ag_warp: i.in_warp,
        ag_op: i.in_op,
        ag_n: i.in_count as u8,
        rd_valid: i.rd_valid,
        rd_warp: i.rd_warp,
        wr_valid: i.wr_valid,
        wr_warp: i.wr_warp,
    }
    .masked_for(&cfg.mbarrier);
    Routed {
        membar,
        bar,
        mb: mbi,
        ag: agi,
        refused,
    }
}

/// The top's outputs from the units' outputs (spec §Outputs).
pub fn combine(cfg: &Config, i: &Inputs, r: &Routed, u: &UnitOutputs) -> Outputs {
    let m = &u.membar;
    let b = &u.bar;
    let x = &u.mb;
    let g = &u.ag;
    let in_ready = i.in_valid
        && (r.refused
            || match i.in_unit {
                unit::MEMBAR => m.req_ready,
                unit::BAR => b.req_ready,
                unit::MBARRIER => x.op_ready,
                unit::ASYNC => g.ag_ready,
                _ => false,
            })
        && !i.reset;
    let membar_rel = if m.release_valid { m.release_mask } else { 0 };
    let mut err_src = 0u8;
    if m.err {
        err_src |= src::MEMBAR;
    }
    if b.err {
        err_src |= src::BAR;
    }
    if x.err {
        err_src |= src::MBARRIER;
    }
    if g.err {
        err_src |= src::ASYNC;
    }
    let flag = r.refused && !i.reset;
    if flag {
        err_src |= src::DECODER;
    }
    let o = Outputs {
        in_ready,
        warp_blocked: m.warp_blocked | b.blocked | x.suspended | g.blocked,
        release_mask: membar_rel | b.rel_mask | x.wake_mask | g.release_mask,
        err: m.err || b.err || x.err || g.err || flag,
        err_src,
        dn_valid: m.dn_valid,
        dn_kind: m.dn_kind,
        dn_tag: m.dn_tag,
        dn_warp: m.dn_warp,
        dn_op: m.dn_op,
        dn_level: m.dn_level,
        dn_ack_req: m.dn_ack_req,
        dn_id: m.dn_id,
        bar_rel_valid: b.rel_valid,
        bar_rel_slot: b.rel_slot,
        bar_rel_id: b.rel_id,
        bar_rel_op: b.rel_op,
        bar_rel_result: b.rel_result,
        bar_err_code: b.err_code,
        mb_ctx_ready: x.ctx_ready,
        mb_rarv_ready: x.rarv_ready,
        mb_rsp_valid: x.rsp_valid,
        mb_rsp_warp: x.rsp_warp,
        mb_rsp_op: x.rsp_op,
        mb_rsp_token: x.rsp_token,
        mb_rsp_done: x.rsp_done,
        mb_rsp_suspended: x.rsp_suspended,
        mb_wake_mask: x.wake_mask,
        mb_wake_done: x.wake_done,
        mb_err_src: x.err_src,
        mb_err_cause: x.err_cause,
        ag_err_cause: g.err_cause,
    };
    o.masked_for(cfg)
}

/// Step the four unit kernels on routed inputs.
pub fn eval_units(cfg: &Config, q: &State, r: &Routed) -> (UnitOutputs, State) {
    let (mo, md, _) = membar_unit_model::membar_unit::eval(&cfg.membar, &q.membar, &r.membar);
    let (bo, bd) = bar_unit_model::bar_unit::eval(&cfg.bar, &q.bar, &r.bar);
    let (xo, xd) = mbarrier_unit_model::mbarrier_unit::eval(&cfg.mbarrier, &q.mb, &r.mb);
    let (go, gd) = mbarrier_unit_model::async_groups::eval(&cfg.mbarrier, &q.ag, &r.ag);
    (
        UnitOutputs {
            membar: mo,
            bar: bo,
            mb: xo,
            ag: go,
        },
        State {
            membar: md,
            bar: bd,
            mb: xd,
            ag: gd,
            port: q.port,
        },
    )
}

/// The top without a registered port: the decoder reads `i` (masked).
pub fn eval_core(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State) {
    let r = route(cfg, i);
    let (u, d) = eval_units(cfg, q, &r);
    (combine(cfg, i, &r, &u), d)
}

/// The registered instruction port around a top `core` (the golden
/// [`eval_core`], or a mutant's): the decoder sees last cycle's
/// instruction, `in_ready` answers for it (0 when there is none), and the
/// register takes this cycle's.
pub fn with_port_reg(
    q: &State,
    i: &Inputs,
    core: impl FnOnce(&Inputs) -> (Outputs, State),
) -> (Outputs, State) {
    let at_decoder = port_reg::at_decoder(q.port.as_ref(), i);
    let (o, mut d) = core(&at_decoder);
    d.port = port_reg::next(i.reset, i);
    (o, d)
}

/// The pure kernel: this cycle's outputs and the next state.
pub fn eval(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State) {
    let i = i.masked_for(cfg);
    if cfg.registered_port {
        with_port_reg(q, &i, |x| eval_core(cfg, q, x))
    } else {
        eval_core(cfg, q, &i)
    }
}

/// The reference model as a lockstep back end.
pub struct SmSyncModel {
    pub cfg: Config,
    pub state: State,
}

impl SmSyncModel {
    pub fn new(cfg: &Config) -> SmSyncModel {
        SmSyncModel {
            cfg: cfg.clone(),
            state: State::new(cfg),
        }
    }
}

impl unit_ports::Dut<crate::ports::SmSyncPorts> for SmSyncModel {
    fn step(&mut self, i: &Inputs) -> Outputs {
        let (o, d) = eval(&self.cfg, &self.state, i);
        self.state = d;
        o
    }
    fn name(&self) -> &str {
        "model"
    }
}
