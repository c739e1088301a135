//! `membar soak --unit bar|cluster|mbarrier|async_groups`: a long cosimulation of the unit's
//! Verilog (Verilator) against its golden model in lockstep
//! (`unit_ports::lockstep::run`), in chunks: every chunk starts from a fresh
//! Verilated instance and model held in reset, with its own seed derived
//! from `--seed` and the chunk number (as `membar soak` does for membar).
//! Resets in the middle of traffic come from the unit's own stimulus (its
//! seeded knobs include a reset probability; the stimulus then clears its
//! view of the unit), not from the runner, whose resets the stimulus could
//! not see. Every output port is compared every cycle, the unit's scoreboard checks
//! the Verilog's outputs, coverage accumulates over the chunks; a failure
//! prints the command that replays the run up to the failing chunk.

use crate::common::shell_word;
use crate::common::{CmdError, CmdResult};
use crate::kit::{Kit, StimDriver};
use std::path::Path;
use unit_ports::lockstep::{run, RunOptions};
use unit_ports::{Dut, UnitConfig};

pub struct Args<'a> {
    pub config: &'a Path,
    pub verilog: Option<&'a Path>,
    pub cycles: u64,
    pub seed: u64,
    pub chunk: u64,
}

/// The seed of chunk `n` of a soak with seed `seed` (membar's derivation).
pub fn chunk_seed(seed: u64, n: u64) -> u64 {
    seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(n)
}

pub fn soak<K: Kit>(a: &Args) -> CmdResult {
    let cfg = K::load(a.config)?;
    let verilog = K::verilog(&cfg, a.config, a.verilog)?;
    let dut0 = crate::kit::verilator::<K>(&verilog, a.verilog.is_some(), &cfg)?;
    println!(
        "membar soak --unit {}: {} ({}), Verilog {}, {} cycles, seed {}, chunks of {}",
        K::FLAG,
        a.config.display(),
        cfg.short_name(),
        verilog.display(),
        a.cycles,
        a.seed,
        a.chunk
    );
    let t0 = std::time::Instant::now();
    let mut coverage = K::coverage(&cfg);
    let (mut done, mut chunk_no, mut dut_secs) = (0u64, 0u64, 0.0f64);
    while done < a.cycles {
        let n = a.chunk.min(a.cycles - done);
        let seed = chunk_seed(a.seed, chunk_no);
        let replay = format!(
            "membar soak --unit {} --config {}{} --cycles {} --seed {} --chunk {} (chunk {chunk_no}, chunk seed {seed})",
            K::FLAG,
            shell_word(&a.config.display().to_string()),
            a.verilog
                .map(|v| format!(" --verilog {}", shell_word(&v.display().to_string())))
                .unwrap_or_default(),
            done + n,
            a.seed,
            a.chunk
        );
        let mut dut = dut0
            .fresh()
            .map_err(|e| CmdError::input(format!("--verilog {}: {e}", verilog.display())))?;
        let mut model = K::model(&cfg, coverage);
        let mut drv = StimDriver::new(K::stimulus(&cfg, seed));
        let mut sb = K::scoreboard(&cfg);
        let opts = RunOptions {
            cycles: n,
            drain_cycles: 0,
            seed,
            replay: Some(replay.clone()),
            ..RunOptions::default()
        };
        let res = run(
            &mut model,
            Some(&mut dut as &mut dyn Dut<K::U>),
            &mut drv,
            &opts,
            &mut [sb.as_mut()],
        );
        coverage = K::into_coverage(model);
        match res {
            Err(m) => return Err(CmdError::failed(format!("{m}MISMATCH in {replay}"))),
            Ok(r) => {
                dut_secs += r.dut_secs;
                if let Some(f) = r.failure {
                    return Err(CmdError::failed(format!(
                        "{} scoreboard violation on the Verilog's outputs: {f}\nin {replay}",
                        K::PROPS
                    )));
                }
            }
        }
        done += n;
        chunk_no += 1;
        // Progress on stderr, as membar's soak: every 10 chunks and at the end.
        if chunk_no.is_multiple_of(10) || done == a.cycles {
            eprintln!(
                "  {done}/{} cycles, {:.1} s",
                a.cycles,
                t0.elapsed().as_secs_f64()
            );
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    println!("cycles                 {done} in {chunk_no} chunks (each from reset, its own seed)");
    println!("mismatches             0 (every output port equal to the golden model every cycle)");
    println!(
        "scoreboard violations  0 ({} on the Verilog's outputs)",
        K::PROPS
    );
    println!(
        "throughput             {:.2} M cycles/s overall, Verilator step {:.2} M cycles/s",
        done as f64 / secs.max(1e-9) / 1e6,
        done as f64 / dut_secs.max(1e-9) / 1e6
    );
    println!("{}", K::coverage_report(&coverage));
    let unhit = K::coverage_unhit(&coverage);
    if !unhit.is_empty() {
        println!("coverage holes: {}", unhit.join(", "));
    }
    Ok(())
}
