//! The rust-hdl simulation of [`MembarUnit`] as a lockstep [`Dut`].
//!
//! One [`Dut::step`]: drive this cycle's inputs with the clock low and let the
//! circuit settle (`simulate` repeats `update_all` until no signal changes),
//! read the outputs (combinational ones such as `req_ready` already see this
//! cycle's inputs), then raise the clock and settle again: every flop sees
//! the rising edge in the same pass because they all sit at the same depth
//! (inside the blocks, none in the top), so each one samples a `d` computed
//! from the pre-edge state.
//!
//! This drives the circuit directly instead of through rust-hdl's threaded
//! `Simulation` (a thread per testbench and a channel round trip per event),
//! which is about a hundred times slower.

use membar_sim::ports::{Dut, Inputs, Outputs};
use membar_sim::Config;
use rust_hdl::prelude::*;

use crate::membar_unit::MembarUnit;

/// Most `update_all` passes one settle may take. The design settles in about
/// seven; hitting this means logic that oscillates.
const MAX_PASSES: usize = 1000;

/// A rust-hdl-simulated `membar_unit` whose circuit can be inspected.
pub trait HdlModel: Dut {
    /// The circuit, for rust-hdl's checks and Verilog generation.
    fn block(&self) -> &dyn Block;
}

/// The lockstep wrapper around one configuration of [`MembarUnit`].
pub struct HdlDut<const W: usize, const WB: usize, const K: usize, const TB: usize, const MB: usize>
{
    uut: MembarUnit<W, WB, K, TB, MB>,
}

impl<const W: usize, const WB: usize, const K: usize, const TB: usize, const MB: usize>
    HdlDut<W, WB, K, TB, MB>
{
    /// Build and connect the circuit for `cfg` and run rust-hdl's structural
    /// checks (unconnected signals, logic loops, writes to inputs).
    pub fn new(cfg: &Config) -> Result<Self, String> {
        let mut uut = MembarUnit::new(cfg)?;
        uut.connect_all();
        check_all(&uut).map_err(|e| {
            format!(
                "rust-hdl check of membar_unit ({}) failed: {e:?}",
                cfg.short_name()
            )
        })?;
        Ok(HdlDut { uut })
    }

    fn settle(&mut self) {
        assert!(
            simulate(&mut self.uut, MAX_PASSES),
            "rust-hdl simulation of membar_unit did not settle in {MAX_PASSES} passes (combinational loop)"
        );
    }
}

impl<const W: usize, const WB: usize, const K: usize, const TB: usize, const MB: usize> Dut
    for HdlDut<W, WB, K, TB, MB>
{
    fn step(&mut self, i: &Inputs) -> Outputs {
        let i = i.masked(WB as u32, TB as u32);
        let u = &mut self.uut;
        u.reset.next = i.reset;
        u.req_valid.next = i.req_valid;
        u.req_warp.next = u64::from(i.req_warp).into();
        u.req_op.next = u64::from(i.req_op).into();
        u.req_level.next = u64::from(i.req_level).into();
        u.req_ivall.next = u64::from(i.req_ivall).into();
        u.req_id.next = u64::from(i.req_id).into();
        u.dn_ready.next = i.dn_ready;
        u.ack_valid.next = i.ack_valid;
        u.ack_tag.next = u64::from(i.ack_tag).into();
        u.bar_ack_valid.next = i.bar_ack_valid;
        u.bar_ack_tag.next = u64::from(i.bar_ack_tag).into();
        u.clock.next = false.into();
        self.settle();

        let u = &self.uut;
        let o = Outputs {
            req_ready: u.req_ready.val(),
            dn_valid: u.dn_valid.val(),
            dn_kind: u64::from(u.dn_kind.val()) as u8,
            dn_tag: u64::from(u.dn_tag.val()) as u8,
            dn_warp: u64::from(u.dn_warp.val()) as u8,
            dn_op: u64::from(u.dn_op.val()) as u8,
            dn_level: u64::from(u.dn_level.val()) as u8,
            dn_ack_req: u.dn_ack_req.val(),
            dn_id: u64::from(u.dn_id.val()) as u16,
            warp_blocked: u64::from(u.warp_blocked.val()),
            release_valid: u.release_valid.val(),
            release_mask: u64::from(u.release_mask.val()),
            err: u.err.val(),
        };
        self.uut.clock.next = true.into();
        self.settle();
        o
    }

    fn name(&self) -> &str {
        "rust-hdl"
    }
}

impl<const W: usize, const WB: usize, const K: usize, const TB: usize, const MB: usize> HdlModel
    for HdlDut<W, WB, K, TB, MB>
{
    fn block(&self) -> &dyn Block {
        &self.uut
    }
}
