//! The rust-hdl simulation of [`BarUnit`] as a lockstep [`Dut`].
//!
//! One [`Dut::step`]: drive this cycle's inputs with the clock low and let the
//! circuit settle, read the outputs (combinational ones such as `req_ready`
//! and `err` already see this cycle's inputs), then raise the clock and settle
//! again. Every flop and RAM sits at the same depth (inside the blocks, none
//! in the top), so each one samples a `d` computed from the pre-edge state.

use bar_unit_model::config::BarConfig;
use bar_unit_model::ports::{BarInputs, BarOutputs, BarUnitPorts};
use rust_hdl::prelude::*;
use unit_ports::{Dut, UnitConfig};

use crate::bar_unit::BarUnit;

/// Most `update_all` passes one settle may take; hitting it means a loop.
const MAX_PASSES: usize = 1000;

/// A rust-hdl-simulated `bar_unit` whose circuit can be inspected.
pub trait HdlBarModel: Dut<BarUnitPorts> {
    /// The circuit, for rust-hdl's checks and Verilog generation.
    fn block(&self) -> &dyn Block;
}

/// The lockstep wrapper around one configuration of [`BarUnit`].
pub struct HdlBarDut<
    const W: usize,
    const WB: usize,
    const C: usize,
    const SB: usize,
    const CB: usize,
    const RB: usize,
    const AB: usize,
> {
    uut: BarUnit<W, WB, C, SB, CB, RB, AB>,
    cfg: BarConfig,
}

impl<
        const W: usize,
        const WB: usize,
        const C: usize,
        const SB: usize,
        const CB: usize,
        const RB: usize,
        const AB: usize,
    > HdlBarDut<W, WB, C, SB, CB, RB, AB>
{
    /// Build and connect the circuit for `cfg` and run rust-hdl's structural checks.
    pub fn new(cfg: &BarConfig) -> Result<Self, String> {
        let mut uut = BarUnit::<W, WB, C, SB, CB, RB, AB>::default();
        uut.connect_all();
        check_all(&uut).map_err(|e| {
            format!(
                "rust-hdl check of bar_unit ({}) failed: {e:?}",
                cfg.short_name()
            )
        })?;
        Ok(HdlBarDut { uut, cfg: *cfg })
    }

    fn settle(&mut self) {
        assert!(
            simulate(&mut self.uut, MAX_PASSES),
            "rust-hdl simulation of bar_unit did not settle in {MAX_PASSES} passes (combinational loop)"
        );
    }
}

impl<
        const W: usize,
        const WB: usize,
        const C: usize,
        const SB: usize,
        const CB: usize,
        const RB: usize,
        const AB: usize,
    > Dut<BarUnitPorts> for HdlBarDut<W, WB, C, SB, CB, RB, AB>
{
    fn step(&mut self, i: &BarInputs) -> BarOutputs {
        let i = i.masked_for(&self.cfg);
        let u = &mut self.uut;
        bar_unit_model::bar_unit_ports!(hdl_kit::hdl_port_io, (drive u i));
        u.clock.next = false.into();
        self.settle();
        let u = &self.uut;
        let mut o = BarOutputs::default();
        bar_unit_model::bar_unit_ports!(hdl_kit::hdl_port_io, (read u o));
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
        const C: usize,
        const SB: usize,
        const CB: usize,
        const RB: usize,
        const AB: usize,
    > HdlBarModel for HdlBarDut<W, WB, C, SB, CB, RB, AB>
{
    fn block(&self) -> &dyn Block {
        &self.uut
    }
}
