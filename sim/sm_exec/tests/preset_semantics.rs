//! A timing preset changes when things happen, never what a race-free
//! program computes (`docs/architecture.md`). The preset reorders code the
//! way `ptxas` does (`schedule.rs`: loads and address arithmetic moved up,
//! read-only loads moved past barriers and predicated blocks, counted loops'
//! back edges, short forward branches run as predication), so random
//! race-free one-warp programs built from exactly those shapes must end with
//! the same registers in every lane with and without `--preset h100`.
//!
//! `PRESET_SEEDS=<n>` programs (default 300) from base seed `SEED` (default 1);
//! a failure prints the program's seed and the command that replays it.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sm_exec::sm_timing::SmTiming;
use sm_exec::{run_source, Outcome, RunOptions};
use unit_ports::lockstep::{env_u64, replay_command, seed_from_env};

const REGS: usize = 8;

/// One random statement on registers %r0..%r7 (never the scratch %r9..%r12
/// or the loop counter %r15). Shared accesses touch only the lane's own
/// slots; global loads read constant data: no races.
fn statement(rng: &mut ChaCha8Rng, out: &mut String) {
    let r = |rng: &mut ChaCha8Rng| rng.gen_range(0..REGS);
    match rng.gen_range(0..8) {
        0 => {
            let (a, b, c) = (r(rng), r(rng), r(rng));
            *out += &format!("    add.u32 %r{a}, %r{b}, %r{c};\n");
        }
        1 => {
            let (a, b) = (r(rng), r(rng));
            *out += &format!("    mul.lo.u32 %r{a}, %r{b}, {};\n", rng.gen_range(1..9));
        }
        2 => {
            let (a, b, c) = (r(rng), r(rng), r(rng));
            *out += &format!("    xor.b32 %r{a}, %r{b}, %r{c};\n");
        }
        3 => {
            // st.shared to one of the lane's 4 slots.
            let (k, b) = (rng.gen_range(0..4), r(rng));
            *out += &format!("    st.shared.u32 [%r13+{}], %r{b};\n", k * 128);
        }
        4 => {
            let (a, k) = (r(rng), rng.gen_range(0..4));
            *out += &format!("    ld.shared.u32 %r{a}, [%r13+{}];\n", k * 128);
        }
        5 if rng.gen_bool(0.5) => {
            // A read-only global load at an index computed from a register.
            let (a, b) = (r(rng), r(rng));
            *out += &format!(
                "    and.b32 %r9, %r{b}, 63;\n    mul.wide.u32 %rd2, %r9, 4;\n    add.s64 %rd3, %rd1, %rd2;\n    ld.global.nc.u32 %r{a}, [%rd3];\n"
            );
        }
        5 => {
            // ... at a fixed element: its address is ready from the start, so
            // the preset moves it up past barriers and predicated blocks.
            let a = r(rng);
            *out += &format!(
                "    ld.global.nc.u32 %r{a}, [%rd1+{}];\n",
                4 * rng.gen_range(0..64)
            );
        }
        6 => *out += "    bar.sync 0;\n",
        _ => {
            let (a, b) = (r(rng), r(rng));
            *out += &format!("    add.u32 %r{a}, %r{b}, {};\n", rng.gen_range(0..100));
        }
    }
}

fn program(seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut body = String::from(
        "    mov.u32 %r0, %laneid;\n    mov.u32 %r1, 3;\n    mov.u32 %r2, 5;\n    mov.u32 %r3, 7;\n    mov.u32 %r4, 11;\n    mov.u32 %r5, 13;\n    mov.u32 %r6, 17;\n    mov.u32 %r7, 19;\n    mov.u32 %r13, sarr;\n    shl.b32 %r10, %r0, 2;\n    add.u32 %r13, %r13, %r10;\n    mov.u64 %rd1, garr;\n",
    );
    let mut label = 0;
    for _ in 0..rng.gen_range(4..12) {
        match rng.gen_range(0..4) {
            // A forward branch over 1..7 statements: divergent or not.
            0 => {
                label += 1;
                let (a, cmp) = (
                    rng.gen_range(0..REGS),
                    ["lt", "ge", "ne", "eq"][rng.gen_range(0..4)],
                );
                body += &format!(
                    "    setp.{cmp}.u32 %p1, %r{a}, {};\n    @%p1 bra F{label};\n",
                    rng.gen_range(0..40)
                );
                for _ in 0..rng.gen_range(1..8) {
                    statement(&mut rng, &mut body);
                }
                body += &format!("F{label}:\n");
            }
            // A counted loop.
            1 => {
                label += 1;
                body += &format!("    mov.u32 %r15, 0;\nL{label}:\n");
                for _ in 0..rng.gen_range(1..5) {
                    statement(&mut rng, &mut body);
                }
                body += &format!(
                    "    add.u32 %r15, %r15, 1;\n    setp.lt.u32 %p2, %r15, {};\n    @%p2 bra L{label};\n",
                    rng.gen_range(1..5)
                );
            }
            _ => {
                for _ in 0..rng.gen_range(1..6) {
                    statement(&mut rng, &mut body);
                }
            }
        }
    }
    let init: Vec<String> = (0..64).map(|i| ((i * 37 + 5) % 101).to_string()).collect();
    format!(
        "---\nctas: 1\nwarps:\n  - {{cta: 0, warp: 0, program: t, lanes: 32}}\n---\n.version 8.0\n.target sm_90\n.global .align 4 .u32 garr[64] = {{{}}};\n.shared .align 4 .u32 sarr[512];\n\n.entry t\n{{\n    .reg .b32 %r<16>;\n    .reg .b64 %rd<4>;\n    .reg .pred %p<4>;\n{body}    ret;\n}}\n",
        init.join(", ")
    )
}

#[test]
fn a_preset_never_changes_what_a_race_free_program_computes() {
    let base = seed_from_env(1);
    let n: u64 = env_u64("PRESET_SEEDS").unwrap_or(300);
    println!(
        "base seed {base}; replay: {}",
        replay_command(
            "sm-exec --test preset_semantics",
            "a_preset_never_changes_what_a_race_free_program_computes",
            base,
            None
        )
    );
    let mut shapes = [0u32; 2];
    for k in 0..n {
        let seed = base.wrapping_add(k);
        let src = program(seed);
        let run = |t: Option<SmTiming>| {
            let o = RunOptions {
                sm_timing: t,
                max_cycles: 1_000_000,
                ..RunOptions::default()
            };
            let r =
                run_source("p.ptx", &src, o).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{src}"));
            assert_eq!(r.outcome, Outcome::Finished, "seed {seed}\n{src}");
            r
        };
        let (f, t) = (run(None), run(Some(SmTiming::h100())));
        let replay = replay_command(
            "sm-exec --test preset_semantics",
            "a_preset_never_changes_what_a_race_free_program_computes",
            seed,
            None,
        );
        for lane in 0..32 {
            for i in 0..REGS {
                let name = format!("%r{i}");
                assert_eq!(
                    f.lane_reg(0, 0, lane, &name),
                    t.lane_reg(0, 0, lane, &name),
                    "seed {seed}: lane {lane} {name} differs under the preset; replay: PRESET_SEEDS=1 {replay}\n{src}"
                );
            }
        }
        shapes[0] += src.contains("@%p1 bra F") as u32;
        shapes[1] += src.contains("ld.global.nc") as u32;
    }
    // The generator reaches the shapes the preset transforms.
    assert!(shapes.iter().all(|&c| c * 4 > n as u32), "{shapes:?}");
}
