//! `membar bench --unit bar|cluster|mbarrier|async_groups`: simulated cycles per second of the
//! unit's golden model alone, of its Verilated Verilog, and of the whole
//! lockstep loop (stimulus + model + Verilator + compare + scoreboard), on
//! the unit's seeded random stimulus through `unit_ports::lockstep::run`.
//! Figures are printed, never asserted.

use crate::common::{CmdError, CmdResult};
use crate::kit::{Kit, StimDriver};
use std::path::Path;
use unit_ports::lockstep::{run, RunOptions};
use unit_ports::{Dut, UnitConfig};

fn opts(cycles: u64, seed: u64) -> RunOptions {
    RunOptions {
        cycles,
        drain_cycles: 0,
        seed,
        history: 0,
        ..RunOptions::default()
    }
}

pub fn bench<K: Kit>(config: &Path, cycles: u64, seed: u64) -> CmdResult {
    let cfg = K::load(config)?;
    let verilog = K::verilog(&cfg, config, None)?;
    // The model alone (with the scoreboard, as a simulation runs it).
    let mut model = K::model(&cfg, K::coverage(&cfg));
    let mut drv = StimDriver::new(K::stimulus(&cfg, seed));
    let mut sb = K::scoreboard(&cfg);
    let o = opts(cycles, seed);
    let alone = run(&mut model, None, &mut drv, &o, &mut [sb.as_mut()])
        .map_err(|m| CmdError::failed(m.to_string()))?;
    if let Some(f) = alone.failure {
        return Err(CmdError::failed(format!(
            "bench --unit {}: scoreboard violation on the model: {f}",
            K::FLAG
        )));
    }
    // Lockstep against the Verilated Verilog.
    let mut dut = crate::kit::verilator::<K>(&verilog, false, &cfg)?;
    let mut model = K::model(&cfg, K::coverage(&cfg));
    let mut drv = StimDriver::new(K::stimulus(&cfg, seed));
    let mut sb = K::scoreboard(&cfg);
    let ls = run(
        &mut model,
        Some(&mut dut as &mut dyn Dut<K::U>),
        &mut drv,
        &o,
        &mut [sb.as_mut()],
    )
    .map_err(|m| CmdError::failed(m.to_string()))?;
    if let Some(f) = ls.failure {
        return Err(CmdError::failed(format!(
            "bench --unit {}: scoreboard violation on the Verilog: {f}",
            K::FLAG
        )));
    }
    let rate = |c: u64, s: f64| c as f64 / s.max(1e-9);
    let model_step = rate(alone.cycles, alone.reference_secs);
    let model_loop = rate(alone.cycles, alone.total_secs);
    let verilator = rate(ls.cycles, ls.dut_secs);
    let lockstep = rate(ls.cycles, ls.total_secs);
    println!(
        "membar bench --unit {}: {} ({}), Verilog {}, {} cycles, seed {seed}",
        K::FLAG,
        config.display(),
        cfg.short_name(),
        verilog.display(),
        cycles
    );
    println!("model step             {:>12.0} cycles/s", model_step);
    println!(
        "model loop             {:>12.0} cycles/s  (stimulus + model + {} scoreboard)",
        model_loop,
        K::PROPS
    );
    println!(
        "verilator step         {:>12.0} cycles/s  ({:.2}x the model step)",
        verilator,
        verilator / model_step.max(1e-9)
    );
    println!(
        "lockstep loop          {:>12.0} cycles/s  ({:.2}x the model loop; model + Verilator + compare + scoreboard)",
        lockstep,
        lockstep / model_loop.max(1e-9)
    );
    Ok(())
}
