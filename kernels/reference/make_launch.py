#!/usr/bin/env python3
"""Writes the launch files and data of the reference kernels (nvcc's PTX of
../shared/kernels, copied here unmodified): each kernel's input as its host
code makes it (khash, kcommon.cuh) and the expected output its host code
checks. Run from this folder: python3 make_launch.py"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kdata import M, khash, launch, write  # noqa: E402

KRECW = 8 + 2 * 14  # kcommon.cuh: KNFIX + 2 * NCAT u64 words per warp record
KLOGCAP = 64  # uint4 events per warp


def prof_buffers(warps):
    """The instrumentation buffers every reference kernel takes (rec, glog)."""
    return [f"name: rec, type: u64, len: {warps * KRECW}, fill: 0",
            f"name: glog, type: u32, len: {warps * KLOGCAP * 4}, fill: 0"]


def both_builds(kernel, about, entry, grid, block, buffers, params, extra=""):
    """The launch files of the noprof and prof builds of `kernel`."""
    warps = grid[0] * grid[1] * grid[2] * ((block[0] * block[1] * block[2] + 31) // 32)
    for variant in ("noprof", "prof"):
        launch(f"{kernel}_{variant}", about, entry, grid, block, buffers + prof_buffers(warps),
               params, [f"buffer: out, file: {kernel}.out.txt"], extra)


def reference(kernel, about, entry, blocks, threads, ty, inp, out, params, fill=0, extra=""):
    """A reference kernel's data (`inp`, the expected `out`) and the launch
    files of both builds: `blocks` CTAs of `threads` threads, an `in`
    buffer of `inp` and an `out` buffer of len(out) elements filled with
    `fill`, both of type `ty`."""
    write(f"{kernel}.in.txt", inp)
    write(f"{kernel}.out.txt", out)
    both_builds(kernel, about, entry, [blocks, 1, 1], [threads, 1, 1],
                [f"name: in, type: {ty}, len: {len(inp)}, file: {kernel}.in.txt",
                 f"name: out, type: {ty}, len: {len(out)}, fill: {fill}"],
                params, extra)


def k1():
    NB, NT, ITERS, THRESH = 4, 256, 4, 500
    n = NB * ITERS * NT
    a = [khash(i + 1) % 1000 for i in range(n)]
    a[1 * ITERS * NT + 2 * NT + 77] = -5
    a[3 * ITERS * NT + 1 * NT + 200] = 1500
    out = []
    for b in range(NB):
        blk = a[b * ITERS * NT:(b + 1) * ITERS * NT]
        out += [sum(blk), sum(v > THRESH for v in blk), int(any(v < 0 for v in blk)),
                int(all(abs(v) < 1000 for v in blk))]
    reference("k1_block_reduce",
              "4 CTAs x 256 threads: __syncthreads tree, cg::reduce (redux.sync), __syncthreads_count/or/and (bar.red)",
              "_Z12block_reducePKiP8BlockOutPyP5uint4", NB, NT, "s32", a, out,
              ["in", "out", "rec", "glog"], fill=-1)


def k3():
    NB, NT, NTILES, TILE = 2, 192, 8, 1024
    n = NB * NTILES * TILE
    a = [khash(i + 11) & 0xFFFF for i in range(n)]
    ref = []
    for b in range(NB):
        for t in range(NTILES):
            s = 0
            for i in range(TILE):
                x = (3 * a[(b * NTILES + t) * TILE + i] + 1) & M
                s = (s + (x * x + (x ^ i))) & M
            ref.append(s)
    reference("k3_named_barrier_ws",
              "2 producer + 4 consumer warps, 2-stage ring, named barriers bar.sync/bar.arrive with register id and count",
              "_Z17ws_named_barriersPKjPjPyP5uint4", NB, NT, "u32", a, ref,
              ["in", "out", "rec", "glog"])


def k4():
    NB, NT, NTILES, TILE, A, B = 2, 160, 8, 1024, 3, -7
    n = NB * NTILES * TILE
    a = [(khash(i + 5) & 0xFFFFF) - 0x80000 for i in range(n)]
    reference("k4_tma_pipeline",
              "1 producer + 4 consumer warps, 3-stage bulk-copy ring with full/empty mbarriers, proxy fence, bulk stores out",
              "_Z12tma_pipelinePKiPiiiPyP5uint4", NB, NT, "s32", a, [A * x + B for x in a],
              ["in", "out", A, B, "rec", "glog"], extra="dynamic_smem: 20608\n")


def k5():
    NB, NT, NTILES, VEC = 4, 128, 8, 4
    TILE = NT * VEC
    n = NB * NTILES * TILE
    a = [khash(3 * i + 1) & 0xFFFF for i in range(n)]
    ref = []
    for tt in range(NB * NTILES):
        t = a[tt * TILE:(tt + 1) * TILE]
        ref += [t[(i + TILE - 1) % TILE] + 2 * t[i] + t[(i + 1) % TILE] for i in range(TILE)]
    reference("k5_cpasync_pipeline",
              "3-stage cuda::pipeline of non-bulk cp.async (LDGSTS), cp.async.wait_group, __syncthreads",
              "_Z15cpasync_stencilPKiPiPyP5uint4", NB, NT, "s32", a, ref,
              ["in", "out", "rec", "glog"])


k1()
k3()
k4()
k5()
