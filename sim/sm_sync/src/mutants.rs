//! Deliberately broken variants of the `sm_sync` top, for mutation testing
//! (feature `mutants`, off by default; test crates turn it on in their
//! dev-dependencies): each [`Fault`] must be caught by the port-only
//! scoreboard (S1–S6) as its property, and by a lockstep comparison with
//! the golden top.
//!
//! Test-only machinery, kept out of the golden kernel: every mutant is a
//! wrapper around the golden kernel's own stages ([`route`],
//! [`eval_units`], [`combine`]), which edits the routed unit inputs, the
//! unit outputs or the top outputs between them. None of those stages knows
//! of a fault.

use crate::config::Config;
use crate::model::{combine, eval_units, route, with_port_reg, Routed, State, UnitOutputs};
use crate::ports::{src, unit, Inputs, Outputs, SmSyncPorts};

/// A deliberate bug of the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// bar instructions go to the bar unit with `req_all` dropped (S1).
    BarDropsAll,
    /// mbarrier ops are delivered to the async-group tracker's port too (S1).
    MbarrierAlsoToAsync,
    /// `in_ready` is 1 whatever the unit says (S2).
    ReadyAlways,
    /// `warp_blocked` leaves out the async-group tracker (S3).
    BlockedMissesAsync,
    /// `release_mask` leaves out the mbarrier unit's wakes (S4).
    ReleaseMissesWake,
    /// A reserved membar op (5..7) is passed to the membar unit instead of refused (S5).
    ReservedOpForwarded,
    /// `err_src` drops the bar bit (S6).
    ErrSrcMissesBar,
    /// A refused instruction is taken silently: no `err`, no decoder bit (S5).
    RefusalNotFlagged,
    /// Registered port: the decoder reads the port, not the register (S1, S2).
    PortBypassed,
    /// Registered port: `in_count` is not registered: the decoder takes
    /// it from the port, with the previous cycle's other fields (S1).
    PortCountBypassed,
    /// Registered port: a refused instruction stays in the register and is
    /// presented to its unit again, in place of the port's next one (S1).
    PortKeepsRefused,
}

impl Fault {
    /// Every fault.
    pub const ALL: [Fault; 11] = [
        Fault::BarDropsAll,
        Fault::MbarrierAlsoToAsync,
        Fault::ReadyAlways,
        Fault::BlockedMissesAsync,
        Fault::ReleaseMissesWake,
        Fault::ReservedOpForwarded,
        Fault::ErrSrcMissesBar,
        Fault::RefusalNotFlagged,
        Fault::PortBypassed,
        Fault::PortCountBypassed,
        Fault::PortKeepsRefused,
    ];

    /// Does the fault live in the registered port (and need one to show)?
    pub fn in_port_reg(self) -> bool {
        matches!(
            self,
            Fault::PortBypassed | Fault::PortCountBypassed | Fault::PortKeepsRefused
        )
    }
}

/// The decoder's result as the faulty top delivers it: the golden
/// [`route`] of the (masked) inputs `i`, edited.
fn routed(cfg: &Config, i: &Inputs, fault: Fault) -> Routed {
    let mut r = route(cfg, i);
    match fault {
        Fault::BarDropsAll => r.bar.req_all = false,
        // The golden decoder's `go(MBARRIER)` is the mbarrier unit's `op_valid`.
        Fault::MbarrierAlsoToAsync => r.ag.ag_valid |= r.mb.op_valid,
        // The codes 5..7 of a 3-bit membar op field: not refused, delivered.
        Fault::ReservedOpForwarded
            if r.refused && i.in_valid && i.in_unit == unit::MEMBAR && i.in_op < 8 =>
        {
            r.refused = false;
            r.membar.req_valid = true;
        }
        _ => {}
    }
    r
}

/// The top outputs as the faulty top combines them: the golden [`combine`]
/// of edited unit outputs, its result edited.
fn combined(cfg: &Config, i: &Inputs, r: &Routed, u: &UnitOutputs, fault: Fault) -> Outputs {
    let mut u = *u;
    if fault == Fault::BlockedMissesAsync {
        u.ag.blocked = 0;
    }
    let mut o = combine(cfg, i, r, &u);
    match fault {
        Fault::ReadyAlways => o.in_ready = !i.reset,
        Fault::ReleaseMissesWake => {
            // `release_mask` as if the mbarrier unit woke no warp; its own
            // `mb_wake_mask` port still shows the wakes.
            let mut nowake = u;
            nowake.mb.wake_mask = 0;
            o.release_mask = combine(cfg, i, r, &nowake).release_mask;
        }
        Fault::ErrSrcMissesBar => o.err_src &= !src::BAR,
        Fault::RefusalNotFlagged => {
            // `err` / `err_src` as if nothing were refused; `in_ready` still
            // takes the refused instruction.
            let silent = combine(
                cfg,
                i,
                &Routed {
                    refused: false,
                    ..*r
                },
                &u,
            );
            o.err = silent.err;
            o.err_src = silent.err_src;
        }
        _ => {}
    }
    o
}

/// One cycle of the top with `fault`: the stages of
/// [`crate::model::eval`], with the mutant's edits between them.
pub fn eval(cfg: &Config, q: &State, i: &Inputs, fault: Fault) -> (Outputs, State) {
    let i = i.masked_for(cfg);
    let core = |x: &Inputs| {
        let r = routed(cfg, x, fault);
        let (u, d) = eval_units(cfg, q, &r);
        (combined(cfg, x, &r, &u, fault), d)
    };
    if !cfg.registered_port || fault == Fault::PortBypassed {
        return core(&i);
    }
    let (o, mut d) = with_port_reg(q, &i, |x| {
        let mut x = *x;
        if fault == Fault::PortCountBypassed {
            x.in_count = i.in_count;
        }
        core(&x)
    });
    if fault == Fault::PortKeepsRefused && q.port.is_some() && !o.in_ready && !i.reset {
        d.port = q.port;
    }
    (o, d)
}

/// The top with one deliberate bug, as a lockstep back end.
pub struct MutantModel {
    pub cfg: Config,
    pub state: State,
    pub fault: Fault,
}

impl MutantModel {
    /// The top of `cfg` with `fault`, out of reset.
    pub fn new(cfg: &Config, fault: Fault) -> MutantModel {
        MutantModel {
            cfg: cfg.clone(),
            state: State::new(cfg),
            fault,
        }
    }
}

impl unit_ports::Dut<SmSyncPorts> for MutantModel {
    fn step(&mut self, i: &Inputs) -> Outputs {
        let (o, d) = eval(&self.cfg, &self.state, i, self.fault);
        self.state = d;
        o
    }
    fn name(&self) -> &str {
        "mutant"
    }
}
