//! The membar unit's side of the one lockstep runner
//! ([`unit_ports::lockstep::run`]): its environment is an upstream (warps)
//! and a downstream (memory system) pair, joined here into one
//! [`Driver`]; [`run`] steps one back end, [`lockstep`] two on identical
//! inputs. Statistics, the VCD writer and the P1–P7 scoreboard are
//! observers of any run.

use crate::ports::{Downstream, Dut, Inputs, MembarUnitPorts, Outputs, Upstream};
use crate::stats::Stats;
use crate::vcd::VcdWriter;
use std::io::Write;
pub use unit_ports::lockstep::{Driver, Observer, Phase, RunOptions, RunReport};

/// A membar lockstep mismatch.
pub type Mismatch = unit_ports::lockstep::Mismatch<MembarUnitPorts>;

impl Observer<MembarUnitPorts> for Stats {
    fn observe(&mut self, cycle: u64, i: &Inputs, o: &Outputs) -> Result<(), String> {
        Stats::observe(self, cycle, i, o);
        Ok(())
    }
}

impl<W: Write> Observer<MembarUnitPorts> for VcdWriter<W> {
    fn observe(&mut self, cycle: u64, i: &Inputs, o: &Outputs) -> Result<(), String> {
        self.cycle(cycle, i, o)
            .map_err(|e| format!("writing the trace: {e}"))
    }
}

/// The membar unit's environment as one driver: the upstream sets the
/// `req_*` inputs (none during the drain), the downstream the memory-side
/// ones; the drain ends when no warp is blocked, nothing is presented
/// downstream and the downstream has nothing outstanding.
pub struct UpDown<'a> {
    pub up: &'a mut dyn Upstream,
    pub dn: &'a mut dyn Downstream,
}

impl Driver<MembarUnitPorts> for UpDown<'_> {
    fn drive(&mut self, cycle: u64, i: &mut Inputs, phase: Phase) {
        self.up.drive(cycle, i);
        if phase == Phase::Drain {
            i.req_valid = false;
        }
        self.dn.drive(cycle, i);
    }
    fn observe(&mut self, cycle: u64, i: &Inputs, o: &Outputs) {
        self.up.observe(cycle, i, o);
        self.dn.observe(cycle, i, o);
    }
    fn idle(&self, o: &Outputs) -> bool {
        o.warp_blocked == 0 && !o.dn_valid && self.dn.outstanding() == 0
    }
}

/// Run `dut` with `up`/`dn` for `opts.cycles` cycles and then drain; every
/// observer sees every cycle.
pub fn run(
    dut: &mut dyn Dut<MembarUnitPorts>,
    up: &mut dyn Upstream,
    dn: &mut dyn Downstream,
    opts: &RunOptions,
    observers: &mut [&mut dyn Observer<MembarUnitPorts>],
) -> RunReport {
    match unit_ports::lockstep::run(dut, None, &mut UpDown { up, dn }, opts, observers) {
        Ok(r) => r,
        Err(m) => unreachable!("a run with one back end cannot mismatch: {m}"),
    }
}

/// Run `reference` and `dut` on identical inputs, comparing every output
/// port every cycle. The stimulus and the observers see the outputs of
/// `dut`, so a memory model reacts to the real hardware; the run stops at
/// the first difference (`Err`) or at the first observer failure
/// (`RunReport::failure`).
pub fn lockstep(
    reference: &mut dyn Dut<MembarUnitPorts>,
    dut: &mut dyn Dut<MembarUnitPorts>,
    up: &mut dyn Upstream,
    dn: &mut dyn Downstream,
    opts: &RunOptions,
    observers: &mut [&mut dyn Observer<MembarUnitPorts>],
) -> Result<RunReport, Box<Mismatch>> {
    unit_ports::lockstep::run(
        reference,
        Some(dut),
        &mut UpDown { up, dn },
        opts,
        observers,
    )
}
