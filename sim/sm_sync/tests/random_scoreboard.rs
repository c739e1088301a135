//! The reference model under random PTX-derived streams: the scoreboard
//! (S1–S6) holds, every coverage bin is hit, and every mutant is caught.
//! SEED / CYCLES replay a run (the command is printed).

use sm_sync_model::coverage::Coverage;
use sm_sync_model::mutants::{Fault, MutantModel};
use sm_sync_model::scoreboard::Scoreboard;
use sm_sync_model::stream::StreamDriver;
use sm_sync_model::{Config, SmSyncModel, SmSyncPorts};
use unit_ports::lockstep::{cycles_from_env, replay_command, run, seed_from_env, RunOptions};
use unit_ports::Dut;

fn opts(seed: u64, cycles: u64, test: &str) -> RunOptions {
    RunOptions {
        cycles,
        drain_cycles: 2_000,
        reset_prob: 0.0003,
        seed,
        replay: Some(replay_command("sm-sync-model", test, seed, Some(cycles))),
        ..RunOptions::default()
    }
}

fn run_model(
    cfg: &Config,
    model: &mut dyn Dut<SmSyncPorts>,
    seed: u64,
    cycles: u64,
    test: &str,
) -> (Option<String>, Coverage, u64) {
    let mut drv = StreamDriver::new(cfg, seed);
    let mut sb = Scoreboard::new(cfg);
    let mut cov = Coverage::new(cfg);
    let o = opts(seed, cycles, test);
    let rep = run::<SmSyncPorts>(model, None, &mut drv, &o, &mut [&mut sb, &mut cov])
        .expect("no design under test: no mismatch");
    (rep.failure, cov, sb.accepted)
}

#[test]
fn model_meets_s1_to_s6_and_covers_every_bin() {
    let seed = seed_from_env(14);
    let cycles = cycles_from_env(40_000);
    println!(
        "seed {seed}; replay: {}",
        replay_command("sm-sync-model", "model_meets", seed, Some(cycles))
    );
    let mut configs = Config::named();
    // `small` with its port read directly (the PTX executor's SM has no
    // register; the shipped configurations all have one).
    configs.push((
        "small, port not registered",
        Config {
            registered_port: false,
            ..Config::small()
        },
    ));
    for (name, cfg) in configs {
        cfg.validate().unwrap();
        let t = std::time::Instant::now();
        let mut m = SmSyncModel::new(&cfg);
        let (fail, cov, acc) = run_model(&cfg, &mut m, seed, cycles, "model_meets");
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{name}: {cycles} cycles, {acc} instructions accepted, {:.0} cycles/s (model + scoreboard + coverage)",
            cycles as f64 / secs
        );
        assert!(fail.is_none(), "{name}: {}", fail.unwrap());
        let miss = cov.missing();
        assert!(
            miss.is_empty(),
            "{name}: coverage bins never hit: {miss:?}\n{}",
            cov.report()
        );
        println!("{name}: all {} coverage bins hit", cov.bins());
    }
}

#[test]
fn every_mutant_is_caught_by_the_scoreboard() {
    let seed = seed_from_env(7);
    println!(
        "seed {seed}; replay: {}",
        replay_command("sm-sync-model", "every_mutant", seed, Some(80_000))
    );
    // The decoder's and the units' faults with the port read directly and
    // with it registered; the registered port's own faults with it.
    let direct = Config {
        registered_port: false,
        ..Config::small()
    };
    let registered = Config::small();
    for cfg in [&direct, &registered] {
        for f in Fault::ALL {
            if f.in_port_reg() && !cfg.registered_port {
                continue;
            }
            let mut m = MutantModel::new(cfg, f);
            let (fail, _, _) = run_model(cfg, &mut m, seed, 80_000, "every_mutant");
            let msg = fail.unwrap_or_else(|| {
                panic!(
                    "mutant {f:?} (registered port {}) was not caught (seed {seed})",
                    cfg.registered_port
                )
            });
            println!(
                "{f:?} (registered port {}): caught: {msg}",
                cfg.registered_port
            );
        }
    }
}
