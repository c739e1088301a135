//! The rust-hdl simulation of [`AsyncGroups`] as a lockstep [`Dut`].
//!
//! One [`Dut::step`]: drive this cycle's inputs with the clock low and let
//! the circuit settle, read the outputs (`ag_ready`, `blocked` and
//! `release_mask` already see this cycle's inputs and `reset`), then raise
//! the clock and settle again (as `hdl_dut.rs` does for `mbarrier_unit`).

use mbarrier_unit_model::config::Config;
use mbarrier_unit_model::ports::async_groups::{AsyncGroupsPorts, Inputs, Outputs};
use rust_hdl::prelude::*;
use unit_ports::{Dut, UnitConfig};

use crate::async_groups::AsyncGroups;

/// Most `update_all` passes one settle may take; hitting it means a loop.
const MAX_PASSES: usize = 1000;

/// A rust-hdl-simulated `async_groups` whose circuit can be inspected.
pub trait AgHdlModel: Dut<AsyncGroupsPorts> {
    /// The circuit, for rust-hdl's checks and Verilog generation.
    fn block(&self) -> &dyn Block;
}

/// The lockstep wrapper around one configuration of [`AsyncGroups`].
pub struct AgHdlDut<
    const W: usize,
    const WB: usize,
    const G: usize,
    const HB: usize,
    const NB: usize,
    const OB: usize,
> {
    uut: AsyncGroups<W, WB, G, HB, NB, OB>,
    cfg: Config,
}

impl<
        const W: usize,
        const WB: usize,
        const G: usize,
        const HB: usize,
        const NB: usize,
        const OB: usize,
    > AgHdlDut<W, WB, G, HB, NB, OB>
{
    /// Build and connect the circuit for `cfg` and run rust-hdl's structural
    /// checks (unconnected signals, logic loops, writes to inputs).
    pub fn new(cfg: &Config) -> Result<Self, String> {
        let mut uut = AsyncGroups::default();
        uut.connect_all();
        check_all(&uut).map_err(|e| {
            format!(
                "rust-hdl check of async_groups ({}) failed: {e:?}",
                cfg.short_name()
            )
        })?;
        Ok(AgHdlDut { uut, cfg: *cfg })
    }

    fn settle(&mut self) {
        assert!(
            simulate(&mut self.uut, MAX_PASSES),
            "rust-hdl simulation of async_groups did not settle in {MAX_PASSES} passes (combinational loop)"
        );
    }
}

impl<
        const W: usize,
        const WB: usize,
        const G: usize,
        const HB: usize,
        const NB: usize,
        const OB: usize,
    > Dut<AsyncGroupsPorts> for AgHdlDut<W, WB, G, HB, NB, OB>
{
    fn step(&mut self, i: &Inputs) -> Outputs {
        let i = i.masked_for(&self.cfg);
        let u = &mut self.uut;
        mbarrier_unit_model::async_groups_ports!(hdl_kit::hdl_port_io, (drive u i));
        u.clock.next = false.into();
        self.settle();
        let u = &self.uut;
        let mut o = Outputs::default();
        mbarrier_unit_model::async_groups_ports!(hdl_kit::hdl_port_io, (read u o));
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
        const G: usize,
        const HB: usize,
        const NB: usize,
        const OB: usize,
    > AgHdlModel for AgHdlDut<W, WB, G, HB, NB, OB>
{
    fn block(&self) -> &dyn Block {
        &self.uut
    }
}
