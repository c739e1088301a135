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

use membar_unit_model::ports::{Dut, Inputs, MembarUnitPorts, Outputs};
use membar_unit_model::Config;
use rust_hdl::prelude::*;

use crate::membar_unit::MembarUnit;

/// Most `update_all` passes one settle may take. The design settles in about
/// seven; hitting this means logic that oscillates.
const MAX_PASSES: usize = 1000;

/// A rust-hdl-simulated `membar_unit` whose circuit can be inspected.
pub trait HdlModel: Dut<MembarUnitPorts> {
    /// The circuit, for rust-hdl's checks and Verilog generation.
    fn block(&self) -> &dyn Block;
}

/// The lockstep wrapper around one configuration of [`MembarUnit`].
pub struct HdlDut<const W: usize, const WB: usize, const K: usize, const TB: usize, const MB: usize>
{
    uut: MembarUnit<W, WB, K, TB, MB>,
    cfg: Config,
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
        Ok(HdlDut {
            uut,
            cfg: cfg.clone(),
        })
    }

    fn settle(&mut self) {
        assert!(
            simulate(&mut self.uut, MAX_PASSES),
            "rust-hdl simulation of membar_unit did not settle in {MAX_PASSES} passes (combinational loop)"
        );
    }
}

impl<const W: usize, const WB: usize, const K: usize, const TB: usize, const MB: usize>
    unit_ports::Dut<MembarUnitPorts> for HdlDut<W, WB, K, TB, MB>
{
    fn step(&mut self, i: &Inputs) -> Outputs {
        let i = i.masked_for(&self.cfg);
        let u = &mut self.uut;
        membar_unit_model::membar_unit_ports!(hdl_kit::hdl_port_io, (drive u i));
        u.clock.next = false.into();
        self.settle();

        let u = &self.uut;
        let mut o = Outputs::default();
        membar_unit_model::membar_unit_ports!(hdl_kit::hdl_port_io, (read u o));
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
