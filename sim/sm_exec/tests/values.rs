//! Values the executor computes (issue #23, "silently wrong"): signed and
//! unsigned atomics, a thread's own atomics seen by its later loads,
//! distinct addresses for named variables, and the errors for what the
//! model does not define (undeclared and unmodelled registers, parameters).

use sm_exec::{run_source, Outcome, RunOptions, RunResult};

fn opts(seed: u64) -> RunOptions {
    RunOptions {
        seed,
        max_cycles: 100_000,
        ..RunOptions::default()
    }
}

/// One warp running entry `t` with `body` (declarations and instructions).
fn one_warp(body: &str) -> String {
    format!(
        "---\nwarps:\n  - {{cta: 0, warp: 0, program: t}}\n---\n.version 8.0\n.target sm_90\n.entry t {{\n{body}\n    ret;\n}}\n"
    )
}

fn finished(file: &str, src: &str, seed: u64) -> RunResult {
    let r = run_source(file, src, opts(seed)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.outcome, Outcome::Finished, "{file} seed {seed}");
    r
}

/// `atom.min/max.s32/.s64` compare signed, `.u32/.u64` unsigned, and 64-bit
/// atomics keep all 64 bits (global and shared memory).
#[test]
fn atomic_min_max_compare_with_the_type_s_signedness() {
    for space in ["global", "shared"] {
        let src = one_warp(&format!(
            "    .reg .b32 %r<8>;\n    .reg .b64 %rd<8>;\n\
    mov.u64 %rd0, 4096;\n\
    st.{space}.u32 [%rd0], 3;\n\
    atom.{space}.min.s32 %r1, [%rd0], -5;\n\
    atom.{space}.max.s32 %r2, [%rd0], 2;\n\
    atom.{space}.min.u32 %r3, [%rd0], -1;\n\
    atom.{space}.max.u32 %r4, [%rd0], -7;\n\
    atom.{space}.exch.b32 %r5, [%rd0], 0;\n\
    st.{space}.u64 [%rd0+8], 3;\n\
    atom.{space}.min.s64 %rd1, [%rd0+8], -5;\n\
    atom.{space}.max.s64 %rd2, [%rd0+8], 2;\n\
    atom.{space}.max.u64 %rd3, [%rd0+8], 0x10000000000;\n\
    atom.{space}.min.u64 %rd4, [%rd0+8], -1;\n\
    atom.{space}.exch.b64 %rd5, [%rd0+8], 0;"
        ));
        for seed in 0..10 {
            let r = finished("atom.ptx", &src, seed);
            let reg = |n: &str| r.reg(0, 0, n).unwrap();
            let m32 = |v: i64| v as u64 & 0xffff_ffff;
            assert_eq!(reg("%r1"), 3, "{space}");
            // min.s32(3, -5) = -5; unsigned it would stay 3.
            assert_eq!(reg("%r2"), m32(-5), "{space} seed {seed}");
            // max.s32(-5, 2) = 2; unsigned it would stay 0xfffffffb.
            assert_eq!(reg("%r3"), 2, "{space} seed {seed}");
            // min.u32(2, 0xffffffff) = 2; signed it would be -1.
            assert_eq!(reg("%r4"), 2, "{space} seed {seed}");
            // max.u32(2, 0xfffffff9) = 0xfffffff9; signed it would stay 2.
            assert_eq!(reg("%r5"), m32(-7), "{space} seed {seed}");
            assert_eq!(reg("%rd1"), 3, "{space}");
            assert_eq!(reg("%rd2"), -5i64 as u64, "{space} seed {seed}");
            assert_eq!(reg("%rd3"), 2, "{space} seed {seed}");
            assert_eq!(reg("%rd4"), 1 << 40, "{space} seed {seed}");
            assert_eq!(reg("%rd5"), 1 << 40, "{space} seed {seed}");
        }
    }
}

/// A thread's load after its own `atom.exch` / `atom.cas` (same address)
/// returns the atomic's result, never the value from before it (a store
/// still in the store buffer, or the L1 line), for weak and strong loads.
#[test]
fn a_load_after_the_thread_s_own_atomic_sees_its_result() {
    let src = one_warp(
        "    .reg .b32 %r<8>;\n    .reg .b64 %rd<2>;\n\
    mov.u64 %rd0, 4096;\n\
    st.global.u32 [%rd0], 1;\n\
    atom.global.exch.b32 %r1, [%rd0], 5;\n\
    ld.global.u32 %r2, [%rd0];\n\
    atom.global.cas.b32 %r3, [%rd0], 5, 9;\n\
    ld.relaxed.gpu.global.u32 %r4, [%rd0];\n\
    red.global.add.u32 [%rd0], 1;\n\
    ld.global.u32 %r5, [%rd0];",
    );
    for seed in 0..60 {
        let r = finished("coherence.ptx", &src, seed);
        let got: Vec<u64> = ["%r1", "%r2", "%r3", "%r4", "%r5"]
            .iter()
            .map(|n| r.reg(0, 0, n).unwrap())
            .collect();
        assert_eq!(got, [1, 5, 5, 9, 10], "seed {seed}");
    }
}
