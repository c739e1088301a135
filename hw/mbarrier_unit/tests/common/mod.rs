//! Shared helpers of the RTL tests: env-var overrides (`SEED`, `CYCLES`,
//! `SEEDS`) and the lockstep runner (golden model vs a back end, with the
//! port-only scoreboard on the back end's outputs and the model's coverage).
#![allow(dead_code)]

use mbarrier_unit_model::config::Config;
use mbarrier_unit_model::coverage::Coverage;
use mbarrier_unit_model::mbarrier_unit::MbarrierModel;
use mbarrier_unit_model::ports::mbarrier::MbarrierUnitPorts;
use mbarrier_unit_model::scoreboard::MbarScoreboard;
use mbarrier_unit_model::workload::MbarRandomEnv;
use unit_ports::{Dut, PortBundle};

pub fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

/// Seeds to run: `SEED` alone if set, else `0..SEEDS` (default `n`).
pub fn seeds(n: u64) -> Vec<u64> {
    match env_u64("SEED") {
        Some(s) => vec![s],
        None => (0..env_u64("SEEDS").unwrap_or(n)).collect(),
    }
}

/// `CYCLES` if set, else `n`.
pub fn cycles(n: u64) -> u64 {
    env_u64("CYCLES").unwrap_or(n)
}

/// The command that replays one run.
pub fn replay(test: &str, seed: u64, cycles: u64) -> String {
    format!("SEED={seed} CYCLES={cycles} cargo test --release -p mbarrier-unit-rtl --test {test}")
}

/// Drive `dut` and the golden model in lockstep for `n` cycles of seeded
/// random legal + illegal stimulus; the scoreboard checks the DUT's outputs
/// and the coverage observes them. `Err` names the cycle, the first port
/// that differs (DUT vs model) or the property violated.
pub fn lockstep(
    cfg: &Config,
    seed: u64,
    n: u64,
    dut: &mut dyn Dut<MbarrierUnitPorts>,
    cov: &mut Coverage,
) -> Result<u64, String> {
    let mut model = MbarrierModel::new(cfg);
    let mut sb = MbarScoreboard::new(cfg);
    let mut env = MbarRandomEnv::new(cfg, seed);
    for c in 0..n {
        let i = env.drive(c);
        let want = model.step(&i);
        let got = dut.step(&i);
        if let Some((port, g, w)) = got.first_difference(&want) {
            return Err(format!(
                "cycle {c}: port `{port}`: {} {g:#x}, model {w:#x}\ninputs: {}",
                dut.name(),
                i.describe()
            ));
        }
        sb.check(c, &i, &got)
            .map_err(|v| format!("cycle {c}: scoreboard on {}: {v}", dut.name()))?;
        cov.observe_mbar(&i, &got, &model.last_events);
        env.observe(c, &i, &got);
    }
    Ok(sb.checks())
}
