//! The executor's `ptxas` rules against the SASS `ptxas` made of the same
//! PTX (`kernels/sass/*.sass`, written by `kernels/sass/make_sass.sh` with
//! ptxas 13.0.88, the version of the kernels' nvcc): what the issue model
//! takes for a register operand of a named barrier is what the SASS has,
//! and so (but for four of the kernels' barriers) are the barriers it
//! gives a `WARPSYNC.ALL`.
//!
//! nvcc writes every named barrier of the reference kernels with register
//! operands (`mov.u32 %r225, 192; bar.sync %r224, %r225;`); `ptxas` makes
//! the constant ones immediates, and the SM releases a barrier with one
//! register operand 12 cycles later than one with none
//! (`kernels/micro/h100_bar_operands.cu`). Until 2026-11-29 the executor
//! took every PTX register count for a register: k3's barriers, all
//! `BAR.SYNC R6, 0xc0` or `BAR.SYNC 0x5, 0x80` in the SASS, took the slow
//! path for their counts, and its register ids did not.

use sm_exec::exec::{Machine, RunOptions};
use sm_exec::kernel::kernel_program;
use sm_exec::launch;
use sm_exec::sm_timing::SmTiming;
use std::path::{Path, PathBuf};

fn kernels() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../kernels")
}

/// Per barrier of the PTX, in code order, under the H100 preset: its
/// kind (`SYN`, `ARV`, `RED`), the register path, the `WARPSYNC`.
fn model_forms(dir: &str, name: &str) -> Vec<(String, bool, bool)> {
    let d = kernels().join(dir);
    let ptx = d.join(format!("{name}.ptx"));
    let l = launch::load(&d.join(format!("{name}.launch.yaml"))).unwrap();
    let src = std::fs::read_to_string(&ptx).unwrap();
    let (prog, kernel) = kernel_program(&ptx.display().to_string(), &src, &l).unwrap();
    let opts = RunOptions {
        sm_timing: Some(SmTiming::h100()),
        ..RunOptions::default()
    };
    let m = Machine::for_kernel(&prog, opts, kernel).unwrap();
    m.barrier_forms()
        .into_iter()
        .map(|f| {
            let kind = if f.opcode.starts_with("bar.arrive") {
                "ARV"
            } else if f.opcode.starts_with("bar.red") {
                "RED"
            } else {
                "SYN"
            };
            (kind.to_string(), f.register_path, f.warpsync)
        })
        .collect()
}

/// Per `BAR.SYNC` / `BAR.ARV` / `BAR.RED` of the SASS, in address order:
/// its kind, exactly one of its operands a register (`BAR.SYNC R4, 0xc0`,
/// `BAR.ARV 0x1, R4`; not `BAR.SYNC R7, R7`, id and count packed in one
/// register), and a `WARPSYNC.ALL` since the barrier, branch or `BSYNC`
/// before it.
fn sass_forms(name: &str) -> Vec<(String, bool, bool)> {
    let text = std::fs::read_to_string(kernels().join(format!("sass/{name}.sass"))).unwrap();
    let mut out = vec![];
    let mut recent: Vec<String> = vec![];
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let Some((_, inst)) = line.split_once(' ') else {
            continue;
        };
        let inst = inst
            .split_once(' ')
            .filter(|(g, _)| g.starts_with('@'))
            .map_or(inst, |(_, rest)| rest);
        let op = inst.split(' ').next().unwrap_or("").to_string();
        if let Some(kind) = ["SYNC", "ARV", "RED"]
            .iter()
            .find(|k| op.starts_with(&format!("BAR.{k}")))
        {
            let operands = inst.split_once(' ').map_or("", |(_, o)| o);
            let regs = operands
                .split(',')
                .filter(|o| {
                    let o = o.trim();
                    o.starts_with('R') && o[1..].chars().all(|c| c.is_ascii_digit())
                })
                .count();
            // Since the last barrier, branch or `BSYNC`.
            let ws = recent
                .iter()
                .rev()
                .take_while(|o| {
                    !["BAR.", "BRA", "BSYNC", "EXIT"]
                        .iter()
                        .any(|p| o.starts_with(p))
                })
                .any(|o| o.starts_with("WARPSYNC"));
            out.push((kind[..3].to_string(), regs == 1 && *kind != "RED", ws));
        }
        recent.push(op);
    }
    out
}

/// (barriers, with the register path, with a `WARPSYNC`).
type Counts = (usize, usize, usize);

/// The [`Counts`] of a list.
fn counts(v: &[(String, bool, bool)]) -> Counts {
    (
        v.len(),
        v.iter().filter(|f| f.1).count(),
        v.iter().filter(|f| f.2).count(),
    )
}

/// The kernels, the model's barriers against the SASS's: per kernel the
/// same number of barriers (times `ptxas`'s unroll factor: k1's and k5's
/// loops), of register-path ones, and of ones behind a `WARPSYNC`.
const KERNELS: [(&str, &str); 16] = [
    ("reference", "k1_block_reduce_noprof"),
    ("reference", "k1_block_reduce_prof"),
    ("reference", "k3_named_barrier_ws_noprof"),
    ("reference", "k3_named_barrier_ws_prof"),
    ("reference", "k4_tma_pipeline_noprof"),
    ("reference", "k4_tma_pipeline_prof"),
    ("reference", "k5_cpasync_pipeline_noprof"),
    ("reference", "k5_cpasync_pipeline_prof"),
    ("own", "o1_bar_red_block"),
    ("own", "o2_named_barrier_ws"),
    ("own", "o3_bulk_copy_mbarrier"),
    ("own", "o4_cp_async_pipeline"),
    ("own", "o5_cluster_dsmem"),
    ("own", "o6_grid_sync"),
    ("own", "o7_last_block_reduce"),
    ("own", "o8_flag_release_acquire"),
];

/// (model, SASS) counts of each kernel, the SASS's divided by its unroll
/// factor; o6's `BRA.DIV` fallback (`cooperative_groups`' path for a
/// diverged warp: 5 more copies of its barriers, packed two-register forms
/// behind `WARPSYNC`s) left out.
fn kernel_counts() -> Vec<(&'static str, Counts, Counts)> {
    KERNELS
        .iter()
        .map(|&(dir, name)| {
            let model = model_forms(dir, name);
            let mut sass = sass_forms(name);
            assert!(!model.is_empty() && !sass.is_empty(), "{name}: no barrier");
            if name == "o6_grid_sync" {
                assert_eq!(sass.len(), model.len() + 5, "{name}");
                sass.truncate(model.len());
            }
            let k = sass.len() / model.len();
            assert_eq!(
                sass.len(),
                k * model.len(),
                "{name}: {} SASS barriers, {} PTX",
                sass.len(),
                model.len()
            );
            let (n, r, w) = counts(&sass);
            assert!(
                r % k == 0 && w % k == 0,
                "{name}: the unrolled copies differ"
            );
            (name, counts(&model), (n / k, r / k, w / k))
        })
        .collect()
}

#[test]
fn named_barrier_operands_are_registers_where_the_sass_has_registers() {
    let mut checked = 0;
    for (name, model, sass) in kernel_counts() {
        eprintln!("{name}: model {model:?}, SASS {sass:?} (barriers, register path, WARPSYNC)");
        assert_eq!(model.0, sass.0, "{name}: barriers");
        assert_eq!(
            model.1, sass.1,
            "{name}: register-path barriers, the model's against the SASS's"
        );
        checked += sass.0;
    }
    assert!(checked >= 100, "{checked} barriers checked");
}

/// The `WARPSYNC` rule (`sm_exec::warpsync`) against the SASS: 14 of the
/// 16 kernel builds have their `WARPSYNC`s where the SASS has them, and
/// the two others differ by the stated count. k3's `noprof` build: `ptxas`
/// puts three more (its consumer loop's first barrier, its predicated
/// arrive, the `bar.sync` after its shuffles) on the same PTX structure as
/// the `prof` build, where it puts none (the loop counter's uniformity,
/// which the PTX does not show). o8:
/// one more, at the join of its lane-0 `ld.acquire` spin (a loop with a
/// `YIELD`, joined without `BSSY`; k4's lane-0 `try_wait` loop is joined
/// with one).
#[test]
fn barriers_behind_a_warpsync_are_where_the_sass_has_them() {
    let mut exact = 0;
    for (name, model, sass) in kernel_counts() {
        let more = match name {
            "k3_named_barrier_ws_noprof" => 3,
            "o8_flag_release_acquire" => 1,
            _ => 0,
        };
        assert_eq!(
            model.2 + more,
            sass.2,
            "{name}: barriers behind a WARPSYNC, model {model:?}, SASS {sass:?}"
        );
        exact += (more == 0) as usize;
    }
    assert_eq!(exact, KERNELS.len() - 2);
}

/// The issue model's barrier forms of a one-entry kernel (entry `t`, one
/// `.u32` parameter, 64 threads) whose body is `body`.
fn small_kernel_forms(body: &str) -> Vec<sm_exec::exec::BarrierForm> {
    let src = format!(
        ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry t(.param .u32 t_param_0)\n{{\n{body}}}\n"
    );
    let dir =
        std::env::temp_dir().join(format!("sass_rules_{}_{:x}", std::process::id(), src.len()));
    std::fs::create_dir_all(&dir).unwrap();
    let launch_file = dir.join("t.launch.yaml");
    std::fs::write(
        &launch_file,
        "entry: t\ngrid: [1, 1, 1]\nblock: [64, 1, 1]\nbuffers: []\nparams: [64]\n",
    )
    .unwrap();
    let l = launch::load(&launch_file).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let (prog, kernel) = kernel_program("t.ptx", &src, &l).unwrap();
    let opts = RunOptions {
        sm_timing: Some(SmTiming::h100()),
        ..RunOptions::default()
    };
    Machine::for_kernel(&prog, opts, kernel)
        .unwrap()
        .barrier_forms()
}

/// The rule itself on a small program: a count moved from an immediate
/// right before the barrier is an immediate, one from a parameter is a
/// register, and both in registers are the packed (immediate-path) form.
#[test]
fn a_count_moved_from_an_immediate_is_an_immediate() {
    let body = "\
    .reg .b32 %r<8>;
    ld.param.u32 %r1, [t_param_0];
    mov.u32 %r2, 64;
    bar.sync 1, %r2;
    bar.sync 1, %r1;
    bar.sync %r1, 64;
    bar.sync %r1, %r1;
    add.s32 %r3, %r2, 0;
    bar.arrive 1, %r3;
    ret;
";
    let paths: Vec<bool> = small_kernel_forms(body)
        .into_iter()
        .map(|f| f.register_path)
        .collect();
    // The `add` of an immediate is not a `mov`: the rule takes it for a
    // register (`ptxas` would fold it; nvcc writes counts with `mov`).
    assert_eq!(paths, [false, true, true, false, true]);
}

/// The `WARPSYNC` rule on small programs, one case each: a barrier right
/// at the start has none; after `if (tid == 0) { store }` (its sides hold
/// no barrier: `BSSY`/`BSYNC`) none; the first barrier on each side of a
/// branch on the thread index has one, the next on the same side none, and
/// the first after their join one; a branch on a uniform value (a
/// parameter) sets nothing; a short branch `ptxas` predicates sets nothing.
#[test]
fn barriers_get_a_warpsync_after_a_thread_dependent_branch() {
    let body = "\
    .reg .b32 %r<8>;
    .reg .pred %p<4>;
    .shared .align 4 .b8 s[256];
    ld.param.u32 %r1, [t_param_0];
    mov.u32 %r2, %tid.x;
    bar.sync 0;
    setp.ne.s32 %p1, %r2, 0;
    @%p1 bra SKIP;
    st.shared.u32 [s], %r2;
    add.s32 %r3, %r2, 1;
    add.s32 %r3, %r3, 1;
    add.s32 %r3, %r3, 1;
    add.s32 %r3, %r3, 1;
    add.s32 %r3, %r3, 1;
    st.shared.u32 [s+4], %r3;
SKIP:
    bar.sync 0;
    setp.lt.u32 %p2, %r2, 32;
    @%p2 bra ROLE_A;
    bar.sync 1, 32;
    bar.sync 1, 32;
    bra.uni JOIN;
ROLE_A:
    bar.arrive 2, 32;
JOIN:
    bar.sync 0;
    setp.eq.u32 %p3, %r1, 7;
    @%p3 bra UNI;
    add.s32 %r4, %r1, 1;
    add.s32 %r4, %r4, 1;
    add.s32 %r4, %r4, 1;
    add.s32 %r4, %r4, 1;
    add.s32 %r4, %r4, 1;
    add.s32 %r4, %r4, 1;
UNI:
    bar.sync 0;
    @%p1 bra PRED;
    add.s32 %r5, %r2, 1;
PRED:
    bar.sync 0;
    ret;
";
    let ws: Vec<bool> = small_kernel_forms(body)
        .into_iter()
        .map(|f| f.warpsync)
        .collect();
    assert_eq!(ws, [false, false, true, false, true, true, false, false]);
}
