//! The rust-hdl top in lockstep with the reference model on random
//! PTX-derived instruction streams, every output compared every cycle, the
//! scoreboard (S1–S6) on the RTL's outputs, over every supported
//! configuration. SEED / CYCLES replay a run (the command is printed).

use sm_sync_model::scoreboard::Scoreboard;
use sm_sync_model::stream::StreamDriver;
use sm_sync_model::{Config, SmSyncModel, SmSyncPorts};
use unit_ports::lockstep::{cycles_from_env, replay_command, run, seed_from_env, RunOptions};

#[test]
fn rust_hdl_matches_the_model_on_random_ptx_streams() {
    let seed = seed_from_env(1414);
    let cycles = cycles_from_env(5_000);
    let replay = replay_command("sm-sync-rtl", "rust_hdl_matches", seed, Some(cycles));
    println!("seed {seed}; replay: {replay}");
    for (name, cfg) in Config::named() {
        let mut model = SmSyncModel::new(&cfg);
        let mut rtl = sm_sync_rtl::hdl_dut(&cfg).unwrap();
        let mut drv = StreamDriver::new(&cfg, seed);
        let mut sb = Scoreboard::new(&cfg);
        let opts = RunOptions {
            cycles,
            drain_cycles: 500,
            reset_prob: 0.001,
            seed,
            replay: Some(replay.clone()),
            ..RunOptions::default()
        };
        let rep = run::<SmSyncPorts>(&mut model, Some(&mut *rtl), &mut drv, &opts, &mut [&mut sb])
            .unwrap_or_else(|m| panic!("{name}: {m}"));
        assert!(rep.failure.is_none(), "{name}: {}", rep.failure.unwrap());
        println!(
            "{name}: {} cycles in lockstep, {} instructions accepted, {} refused; rust-hdl {:.0} cycles/s",
            rep.cycles,
            sb.accepted,
            sb.refused,
            rep.cycles as f64 / rep.dut_secs
        );
        assert!(
            sb.accepted > 100,
            "{name}: too few instructions ({})",
            sb.accepted
        );
    }
}

#[test]
fn invalid_or_not_compiled_in_configuration_is_an_error_naming_it() {
    let mut cfg = Config::small();
    cfg.bar.warps = 16;
    let e = sm_sync_rtl::hdl_dut(&cfg).err().expect("must be refused");
    assert!(e.contains("bar.warps") && e.contains("16"), "{e}");
    let mut cfg = Config::small();
    cfg.membar.slots = 4;
    // Valid, but its rust-hdl simulation is not compiled in (its Verilog is
    // emitted by a specialized emitter: tests/specialized.rs).
    let e = sm_sync_rtl::hdl_dut(&cfg).err().expect("must be refused");
    assert!(e.contains("not compiled in") && e.contains("w8_k4"), "{e}");
}
