//! The executor's `ptxas` rules against the SASS `ptxas` made of the same
//! PTX (`kernels/sass/*.sass`, written by `kernels/sass/make_sass.sh` with
//! ptxas 13.0.88, the version of the kernels' nvcc): what the issue model
//! takes for a register operand of a named barrier is what the SASS has.
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

/// Per named barrier of the PTX, in code order: the register path under
/// the H100 preset.
fn model_paths(dir: &str, name: &str) -> Vec<bool> {
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
    m.barrier_operand_paths()
        .into_iter()
        .map(|(_, reg)| reg)
        .collect()
}

/// Per `BAR.SYNC` / `BAR.ARV` of the SASS, in address order: exactly one
/// of its operands a register (`BAR.SYNC R4, 0xc0`, `BAR.ARV 0x1, R4`; not
/// `BAR.SYNC R7, R7`, id and count packed in one register).
fn sass_paths(name: &str) -> Vec<bool> {
    let text = std::fs::read_to_string(kernels().join(format!("sass/{name}.sass"))).unwrap();
    let mut out = vec![];
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let Some((_, inst)) = line.split_once(' ') else {
            continue;
        };
        let inst = inst
            .trim_start_matches(|c: char| c == '@' || c == '!' || c == 'P' || c.is_ascii_digit());
        let inst = inst.trim_start();
        if !(inst.starts_with("BAR.SYNC") || inst.starts_with("BAR.ARV")) {
            continue;
        }
        let operands = inst.split_once(' ').map_or("", |(_, o)| o);
        let regs = operands
            .split(',')
            .filter(|o| {
                let o = o.trim();
                o.starts_with('R') && o[1..].chars().all(|c| c.is_ascii_digit())
            })
            .count();
        out.push(regs == 1);
    }
    out
}

#[test]
fn named_barrier_operands_are_registers_where_the_sass_has_registers() {
    let mut checked = 0;
    for (dir, name) in [
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
    ] {
        let model = model_paths(dir, name);
        let sass = sass_paths(name);
        assert!(!model.is_empty() && !sass.is_empty(), "{name}: no barrier");
        // `ptxas` lays the blocks out in its own order (k3's roles) and
        // unrolls loops (k1's, k5's: the SASS holds k copies of the PTX's
        // barriers): per kernel, the SASS has k times the PTX's barriers,
        // and k times its register-path ones.
        let reg = |v: &[bool]| v.iter().filter(|&&r| r).count();
        // o6's grid sync: a `BRA.DIV` fallback (`cooperative_groups`' for
        // a diverged warp) holds 5 more copies of its barriers, in the packed
        // two-register form: its PTX barriers once, plus those.
        let sass = if name == "o6_grid_sync" {
            assert_eq!(sass.len(), model.len() + 5, "{name}");
            sass[..model.len()].to_vec()
        } else {
            sass
        };
        let k = sass.len() / model.len();
        eprintln!(
            "{name}: {} SASS barriers ({} with one register operand), the model {} ({})",
            sass.len(),
            reg(&sass),
            model.len(),
            reg(&model)
        );
        assert_eq!(
            (sass.len(), reg(&sass)),
            (k * model.len(), k * reg(&model)),
            "{name}: SASS barriers (all, with one register operand) against the model's"
        );
        checked += sass.len();
    }
    assert!(checked >= 150, "{checked} SASS barriers checked");
}

/// The rule itself on a small program: a count moved from an immediate
/// right before the barrier is an immediate, one from a parameter is a
/// register, and both in registers are the packed (immediate-path) form.
#[test]
fn a_count_moved_from_an_immediate_is_an_immediate() {
    let src = "\
.version 8.0
.target sm_90a
.address_size 64
.visible .entry t(.param .u32 t_param_0)
{
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
}
";
    let dir = std::env::temp_dir().join(format!("sass_rules_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let launch_file = dir.join("t.launch.yaml");
    std::fs::write(
        &launch_file,
        "entry: t\ngrid: [1, 1, 1]\nblock: [64, 1, 1]\nbuffers: []\nparams: [64]\n",
    )
    .unwrap();
    let l = launch::load(&launch_file).unwrap();
    let (prog, kernel) = kernel_program("t.ptx", src, &l).unwrap();
    let opts = RunOptions {
        sm_timing: Some(SmTiming::h100()),
        ..RunOptions::default()
    };
    let m = Machine::for_kernel(&prog, opts, kernel).unwrap();
    let paths: Vec<bool> = m
        .barrier_operand_paths()
        .into_iter()
        .map(|(_, r)| r)
        .collect();
    std::fs::remove_dir_all(&dir).unwrap();
    // The `add` of an immediate is not a `mov`: the rule takes it for a
    // register (`ptxas` would fold it; nvcc writes counts with `mov`).
    assert_eq!(paths, [false, true, true, false, true]);
}
