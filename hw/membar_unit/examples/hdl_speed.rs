//! Simulation speed of the rust-hdl model (cycles per second), per grid
//! configuration, under the lockstep tests' random stimulus.
//!
//! `cargo run -p membar-unit-rtl --release --example hdl_speed [cycles [config name]]`

use membar_unit_model::ports::kind;
use membar_unit_model::{Config, Inputs};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

fn main() {
    let cycles: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(200_000);
    let only = std::env::args().nth(2);
    for (name, cfg) in Config::grid()
        .into_iter()
        .filter(|(n, _)| only.as_deref().is_none_or(|o| o == *n))
    {
        let inputs = stimulus(&cfg, cycles);
        let mut dut = membar_unit_rtl::hdl_dut(&cfg).expect("grid configurations are supported");
        let start = Instant::now();
        let mut sent = 0u64;
        for i in &inputs {
            let o = dut.step(i);
            sent += u64::from(o.dn_valid && i.dn_ready && o.dn_kind == kind::TXN);
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name:>16}: {:>8.0} cycles/s ({cycles} cycles, {sent} TXNs sent)",
            cycles as f64 / secs
        );
    }
}

/// Busy random traffic, drawn up front so only the simulation is timed.
fn stimulus(cfg: &Config, cycles: u64) -> Vec<Inputs> {
    let mut r = ChaCha8Rng::seed_from_u64(1);
    (0..cycles)
        .map(|_| Inputs {
            reset: false,
            req_valid: r.gen_bool(0.9),
            req_warp: r.gen_range(0..cfg.warps) as u8,
            req_op: if r.gen_bool(0.1) {
                4
            } else {
                r.gen_range(0..4)
            },
            req_level: r.gen_range(0..4),
            req_ivall: if r.gen_bool(0.1) {
                r.gen_range(1..4)
            } else {
                0
            },
            req_id: r.gen(),
            dn_ready: r.gen_bool(0.9),
            ack_valid: r.gen_bool(0.5),
            ack_tag: r.gen_range(0..cfg.slots) as u8,
            bar_ack_valid: r.gen_bool(0.1),
            bar_ack_tag: r.gen_range(0..cfg.slots) as u8,
        })
        .collect()
}
