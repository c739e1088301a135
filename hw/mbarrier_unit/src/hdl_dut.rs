//! The rust-hdl simulation of [`MbarrierUnit`] as a lockstep [`Dut`].
//!
//! One [`Dut::step`]: drive this cycle's inputs with the clock low and let
//! the circuit settle, read the outputs (`op_ready` already sees this
//! cycle's `reset`), then raise the clock and settle again; every flop sits
//! inside a block at the same depth, so each samples a `d` computed from the
//! pre-edge state. Driving the circuit directly is about a hundred times
//! faster than rust-hdl's threaded `Simulation`.

use mbarrier_unit_model::config::Config;
use mbarrier_unit_model::ports::mbarrier::{Inputs, MbarrierUnitPorts, Outputs};
use rust_hdl::prelude::*;
use unit_ports::{Dut, UnitConfig};

use crate::mbarrier_unit::MbarrierUnit;

/// Most `update_all` passes one settle may take; hitting it means a loop.
const MAX_PASSES: usize = 1000;

/// A rust-hdl-simulated `mbarrier_unit` whose circuit can be inspected.
pub trait HdlModel: Dut<MbarrierUnitPorts> {
    /// The circuit, for rust-hdl's checks and Verilog generation.
    fn block(&self) -> &dyn Block;
}

/// The lockstep wrapper around one configuration of [`MbarrierUnit`].
pub struct HdlDut<
    const W: usize,
    const WB: usize,
    const M: usize,
    const EB: usize,
    const CB: usize,
    const TB: usize,
    const XB: usize,
    const TMB: usize,
    const F: usize,
> {
    uut: MbarrierUnit<W, WB, M, EB, CB, TB, XB, TMB, F>,
    cfg: Config,
}

impl<
        const W: usize,
        const WB: usize,
        const M: usize,
        const EB: usize,
        const CB: usize,
        const TB: usize,
        const XB: usize,
        const TMB: usize,
        const F: usize,
    > HdlDut<W, WB, M, EB, CB, TB, XB, TMB, F>
{
    /// Build and connect the circuit for `cfg` and run rust-hdl's structural
    /// checks (unconnected signals, logic loops, writes to inputs).
    pub fn new(cfg: &Config) -> Result<Self, String> {
        let mut uut = MbarrierUnit::new(cfg.try_wait_limit);
        uut.connect_all();
        check_all(&uut).map_err(|e| {
            format!(
                "rust-hdl check of mbarrier_unit ({}) failed: {e:?}",
                cfg.short_name()
            )
        })?;
        Ok(HdlDut { uut, cfg: *cfg })
    }

    fn settle(&mut self) {
        assert!(
            simulate(&mut self.uut, MAX_PASSES),
            "rust-hdl simulation of mbarrier_unit did not settle in {MAX_PASSES} passes (combinational loop)"
        );
    }
}

impl<
        const W: usize,
        const WB: usize,
        const M: usize,
        const EB: usize,
        const CB: usize,
        const TB: usize,
        const XB: usize,
        const TMB: usize,
        const F: usize,
    > Dut<MbarrierUnitPorts> for HdlDut<W, WB, M, EB, CB, TB, XB, TMB, F>
{
    fn step(&mut self, i: &Inputs) -> Outputs {
        let i = i.masked_for(&self.cfg);
        let u = &mut self.uut;
        mbarrier_unit_model::mbarrier_unit_ports!(hdl_kit::hdl_port_io, (drive u i));
        u.clock.next = false.into();
        self.settle();
        let u = &self.uut;
        let mut o = Outputs::default();
        mbarrier_unit_model::mbarrier_unit_ports!(hdl_kit::hdl_port_io, (read u o));
        self.uut.clock.next = true.into();
        self.settle();
        o
    }

    fn name(&self) -> &str {
        "rust-hdl"
    }
}

impl<
        const W: usize,
        const WB: usize,
        const M: usize,
        const EB: usize,
        const CB: usize,
        const TB: usize,
        const XB: usize,
        const TMB: usize,
        const F: usize,
    > HdlModel for HdlDut<W, WB, M, EB, CB, TB, XB, TMB, F>
{
    fn block(&self) -> &dyn Block {
        &self.uut
    }
}
