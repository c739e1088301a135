//! The rust-hdl simulation of [`SmSync`] as a lockstep [`Dut`] (as
//! `hw/membar_unit/src/hdl_dut.rs` does for `membar_unit`): drive the inputs with the
//! clock low and settle, read the outputs, raise the clock and settle.

use rust_hdl::prelude::*;
use sm_sync_model::ports::{Inputs, Outputs, SmSyncPorts};
use sm_sync_model::Config;
use unit_ports::Dut;

/// Most `update_all` passes one settle may take.
const MAX_PASSES: usize = 1000;

/// A rust-hdl-simulated `sm_sync` whose circuit can be inspected.
pub trait HdlModel: Dut<SmSyncPorts> {
    /// The circuit, for rust-hdl's checks and Verilog generation.
    fn block(&self) -> &dyn Block;
}

/// The lockstep wrapper around one rust-hdl top `T`.
pub struct HdlDut<T: Block> {
    pub(crate) uut: T,
    pub(crate) cfg: Config,
}

impl<T: Block> HdlDut<T> {
    /// Connect `uut` and run rust-hdl's structural checks.
    pub fn new(mut uut: T, cfg: &Config) -> Result<Self, String> {
        uut.connect_all();
        check_all(&uut).map_err(|e| {
            format!(
                "rust-hdl check of sm_sync ({}) failed: {e:?}",
                unit_ports::UnitConfig::short_name(cfg)
            )
        })?;
        Ok(HdlDut {
            uut,
            cfg: cfg.clone(),
        })
    }
}

/// Step one cycle of an `SmSync` instance `$u` (a macro because the port
/// fields belong to the concrete const-generic type).
macro_rules! step_impl {
    ($($g:ident),*) => {
        impl<$(const $g: usize),*> Dut<SmSyncPorts> for HdlDut<crate::sm_sync::SmSync<$($g),*>> {
            fn step(&mut self, i: &Inputs) -> Outputs {
                let i = i.masked_for(&self.cfg);
                let u = &mut self.uut;
                sm_sync_model::sm_sync_ports!(hdl_kit::hdl_port_io, (drive u i));
                u.clock.next = false.into();
                assert!(
                    simulate(&mut self.uut, MAX_PASSES),
                    "rust-hdl simulation of sm_sync did not settle in {MAX_PASSES} passes"
                );
                let u = &self.uut;
                let mut o = Outputs::default();
                sm_sync_model::sm_sync_ports!(hdl_kit::hdl_port_io, (read u o));
                self.uut.clock.next = true.into();
                assert!(
                    simulate(&mut self.uut, MAX_PASSES),
                    "rust-hdl simulation of sm_sync did not settle in {MAX_PASSES} passes"
                );
                o
            }
            fn name(&self) -> &str {
                "rust-hdl"
            }
        }
        impl<$(const $g: usize),*> HdlModel for HdlDut<crate::sm_sync::SmSync<$($g),*>> {
            fn block(&self) -> &dyn Block {
                &self.uut
            }
        }
    };
}
step_impl!(W, WB, K, TB, MB, C, SB, BCB, RB, BAB, M, EB, MCB, MTB, XB, TMB, F, G, HB, NB, OB, CNT);
