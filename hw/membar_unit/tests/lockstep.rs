//! Lockstep: the rust-hdl model and the reference model get the same random
//! inputs every cycle and must agree on every output port every cycle.
//!
//! A mismatch reports the configuration, seed, cycle, port, both values and
//! the last inputs, on the one lockstep runner (`unit_ports::lockstep`).
//! Rerun one with `SEED=<seed>`; lengthen runs with `CYCLES=<n>` (the
//! report prints the exact command). Each run also checks that the stimulus reached the
//! corners that matter (every close reason, full counters, spurious acks,
//! reserved ops, resets, multi-slot releases where the config allows them).

mod common;

use common::Stimulus;
use membar_unit_model::config::LevelMix;
use membar_unit_model::coverage::{EventCounted, EventCounts};
use membar_unit_model::ports::{MembarUnitPorts, Outputs};
use membar_unit_model::{Config, Inputs, MembarModel};
use std::time::Instant;
use unit_ports::lockstep::{
    cycles_from_env, replay_command, seed_from_env, Driver, Phase, RunOptions,
};

const CYCLES: u64 = 200_000;

/// The random stimulus as the runner's driver.
impl Driver<MembarUnitPorts> for Stimulus {
    fn drive(&mut self, _cycle: u64, i: &mut Inputs, _phase: Phase) {
        *i = self.next();
    }
    fn observe(&mut self, _cycle: u64, i: &Inputs, o: &Outputs) {
        Stimulus::observe(self, i, o);
    }
}

fn run(name: &str, cfg: &Config, default_seed: u64) {
    let seed = seed_from_env(default_seed);
    let cycles = cycles_from_env(CYCLES);
    let mut model = MembarModel::new(cfg);
    let mut reference = EventCounted::new(&mut model);
    let mut rtl = membar_unit_rtl::hdl_dut(cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut stim = Stimulus::new(cfg, seed);
    let test = std::thread::current()
        .name()
        .unwrap_or("lockstep")
        .to_string();
    let opts = RunOptions {
        cycles,
        drain_cycles: 0,
        reset_cycles: 0,
        seed,
        replay: Some(replay_command("membar-unit-rtl", &test, seed, Some(cycles))),
        ..RunOptions::default()
    };
    let start = Instant::now();
    match unit_ports::lockstep::run(&mut reference, Some(&mut *rtl), &mut stim, &opts, &mut []) {
        Ok(_) => {}
        Err(m) => panic!(
            "{name} ({}): rust-hdl disagrees with the model\n{m}",
            cfg.short_name()
        ),
    }
    let cov = reference.counts;
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{name} ({}): {cycles} cycles agree, seed {seed}, {secs:.1} s ({:.0} cycles/s both models); replay: {}\n  {cov:?}",
        cfg.short_name(),
        cycles as f64 / secs,
        opts.replay.as_deref().unwrap_or("")
    );
    if cycles >= CYCLES {
        check_coverage(name, cfg, &cov);
    }
}

/// The stimulus must have reached the corners this configuration has.
fn check_coverage(name: &str, cfg: &Config, cov: &EventCounts) {
    let mut missing = Vec::new();
    let mut need = |hit: u64, what: &str| {
        if hit == 0 {
            missing.push(what.to_string());
        }
    };
    need(cov.release_cycles, "releases");
    need(cov.closes_by_window, "close by window");
    if cfg.lone_window < cfg.coalesce_window {
        need(cov.closes_by_lone, "close by the lone window");
    }
    if cfg.counter_bits <= 10 {
        need(cov.counter_full_refusals, "full counter refusal");
    }
    need(cov.spurious_acks, "spurious ack");
    need(cov.spurious_bar_acks, "spurious bar_ack");
    need(cov.reserved_ops, "reserved op");
    need(cov.reset_cycles, "reset");
    if cfg.ways < cfg.warps && cfg.ways <= 16 {
        need(cov.membar_no_room, "MEMBAR refused (no room)");
    }
    need(
        cov.close_blocked_by_stale,
        "close held back by a stale next slot",
    );
    if cfg.ways > 1 {
        need(cov.joined_existing, "MEMBAR joining a slot with members");
        need(cov.level_mixed, "levels mixed in one slot");
    }
    if cfg.ways <= 8 {
        need(cov.closes_by_full, "close because full");
    }
    if cfg.level_mix == LevelMix::Split && cfg.ways > 1 {
        need(cov.closes_by_split, "close because of a level split");
    }
    if cfg.max_outstanding > 1 {
        need(
            cov.multi_slot_release,
            "several slots released in one cycle",
        );
    }
    assert!(
        missing.is_empty(),
        "{name}: the stimulus never reached: {}",
        missing.join(", ")
    );
}

fn grid(name: &str) -> Config {
    Config::grid()
        .into_iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no grid config {name}"))
        .1
}

#[test]
fn grid_default() {
    run("default", &grid("default"), 1);
}

#[test]
fn grid_w32_k4_n8_c8() {
    run("w32_k4_n8_c8", &grid("w32_k4_n8_c8"), 2);
}

#[test]
fn grid_w8_k2_n1_c4() {
    run("w8_k2_n1_c4", &grid("w8_k2_n1_c4"), 3);
}

#[test]
fn grid_w64_k8_n16_c8() {
    run("w64_k8_n16_c8", &grid("w64_k8_n16_c8"), 4);
}

#[test]
fn grid_w16_k4_n4_c6() {
    run("w16_k4_n4_c6", &grid("w16_k4_n4_c6"), 5);
}

#[test]
fn level_mix_split() {
    run(
        "split",
        &Config {
            level_mix: LevelMix::Split,
            ..Config::default()
        },
        6,
    );
}

#[test]
fn gl_bar_ack() {
    run(
        "gl_bar_ack",
        &Config {
            gl_bar_ack: true,
            ..Config::default()
        },
        7,
    );
}

#[test]
fn coalesce_window_0() {
    run(
        "window0",
        &Config {
            coalesce_window: 0,
            ..Config::default()
        },
        8,
    );
}

/// `lone_window = coalesce_window`: the unit before issue 15 (every
/// coalesced barrier waits the full window, even a lone one).
#[test]
fn lone_window_legacy() {
    run(
        "lone16",
        &Config {
            lone_window: 16,
            ..Config::default()
        },
        16,
    );
}

/// A short lone window with two barriers outstanding: both windows in use.
#[test]
fn lone_window_3_max_outstanding_2() {
    run(
        "lone3_mo2",
        &Config {
            lone_window: 3,
            max_outstanding: 2,
            ..Config::default()
        },
        17,
    );
}

#[test]
fn max_outstanding_2_slots_4() {
    run(
        "mo2_k4",
        &Config {
            max_outstanding: 2,
            slots: 4,
            ..Config::default()
        },
        9,
    );
}

#[test]
fn counter_bits_4_and_16() {
    run(
        "c4",
        &Config {
            counter_bits: 4,
            ..Config::default()
        },
        10,
    );
    run(
        "c16",
        &Config {
            counter_bits: 16,
            ways: 32,
            ..Config::default()
        },
        11,
    );
}

#[test]
fn warps_64_slots_8_everything() {
    let cfg = Config {
        warps: 64,
        slots: 8,
        ways: 64,
        counter_bits: 5,
        coalesce_window: 3,
        max_outstanding: 7,
        level_mix: LevelMix::Split,
        gl_bar_ack: true,
        ..Config::default()
    };
    run("w64_k8_all", &cfg, 12);
}

#[test]
fn small_ring_many_outstanding() {
    let cfg = Config {
        warps: 8,
        slots: 2,
        ways: 8,
        counter_bits: 6,
        coalesce_window: 1,
        ..Config::default()
    };
    run("w8_k2_n8", &cfg, 13);
    let cfg = Config {
        warps: 16,
        slots: 8,
        ways: 3,
        coalesce_window: 0,
        max_outstanding: 5,
        gl_bar_ack: true,
        ..Config::default()
    };
    run("w16_k8_n3_mo5", &cfg, 14);
}
