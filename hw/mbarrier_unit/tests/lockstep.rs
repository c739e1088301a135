//! Lockstep: the golden model and the rust-hdl simulation of the RTL on
//! seeded random legal + illegal stimulus, every output compared every
//! cycle, the port-only scoreboard (M1–M8) on the RTL's outputs, the model
//! crate's coverage on the RTL run (every bin hit over the runs). Four
//! configurations: 10^5 cycles on the default, fewer on the others. Replay:
//! `SEED=<n> CYCLES=<n> cargo test --release -p mbarrier-unit-rtl --test lockstep`.

mod common;
use common::*;
use mbarrier_unit_model::config::Config;
use mbarrier_unit_model::coverage::Coverage;
use std::time::Instant;

#[test]
fn rtl_matches_model_on_random_stimulus() {
    let mut total = Coverage::new(
        &Config {
            warps: 64,
            entries: 64,
            ..Config::default()
        },
        true,
        false,
    );
    let mut rates = Vec::new();
    // The shipped configurations (PTX's ranges) and the reduced-range ones.
    let configs = mbarrier_unit_rtl::shipped()
        .into_iter()
        .chain(mbarrier_unit_rtl::reduced_range());
    for (k, (name, cfg)) in configs.enumerate() {
        // Default: 4 seeds x 25k = 10^5 cycles; others 2 seeds x 10k.
        let (n_seeds, n) = if k == 0 { (4, 25_000) } else { (2, 10_000) };
        let n = cycles(n);
        for seed in seeds(n_seeds) {
            println!(
                "{name} seed {seed}: replay with {}",
                replay("lockstep", seed, n)
            );
            let mut dut = mbarrier_unit_rtl::hdl_dut(&cfg).expect("shipped configuration has RTL");
            let mut cov = Coverage::new(&cfg, true, false);
            let t = Instant::now();
            match lockstep(&cfg, seed, n, dut.as_mut(), &mut cov) {
                Ok(checked) => assert_eq!(checked, n, "every cycle checked"),
                Err(e) => panic!(
                    "{name} seed {seed}: RTL differs from the model: {e}\nreplay: {}",
                    replay("lockstep", seed, n)
                ),
            }
            let rate = n as f64 / t.elapsed().as_secs_f64();
            if k == 0 {
                rates.push(rate);
            }
            total.merge(&cov);
        }
    }
    if !rates.is_empty() {
        let avg = rates.iter().sum::<f64>() / rates.len() as f64;
        println!(
            "rust-hdl lockstep (with model + scoreboard), default configuration: {avg:.0} cycles/s"
        );
    }
    println!("{}", total.report());
    if std::env::var("SEED").is_err() {
        assert!(
            total.unhit().is_empty(),
            "coverage bins not hit by the RTL run: {:?}",
            total.unhit()
        );
    }
}

#[test]
fn not_compiled_in_or_invalid_configuration_is_a_clear_error() {
    let cfg = Config {
        warps: 8,
        entries: 64,
        ..Config::default()
    };
    let e = match mbarrier_unit_rtl::hdl_dut(&cfg) {
        Ok(_) => panic!("w8 m64 is not compiled in"),
        Err(e) => e,
    };
    // Its Verilog comes from a specialized emitter (tests/specialized.rs).
    assert!(
        e.contains("not compiled in") && e.contains("compiled in: (32, 16"),
        "{e}"
    );
    let bad = Config {
        warps: 12,
        ..Config::default()
    };
    let e = match mbarrier_unit_rtl::hdl_dut(&bad) {
        Ok(_) => panic!("warps 12 is not a configuration"),
        Err(e) => e,
    };
    assert!(e.contains("warps") && e.contains("12"), "{e}");
}
