#!/usr/bin/env python3
"""Writes the launch files and data of the project's own kernels (o*.cu, compiled by build.sh):
each kernel's inputs and the outputs its CUDA source computes. Run from this folder."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kdata import khash, launch, s32, write  # noqa: E402


def o1():
    NB = 2
    a = [khash(i + 7) % 1000 for i in range(NB * 256)]
    a[256 + 100] = 1234
    out = []
    for b in range(NB):
        blk = a[b * 256:(b + 1) * 256]
        out += [sum(blk), sum(v % 3 == 0 for v in blk), int(any(v > 990 for v in blk)),
                int(all(v < 1000 for v in blk))]
    write("o1_bar_red_block.in.txt", a)
    write("o1_bar_red_block.out.txt", out)
    launch("o1_bar_red_block", "2-D blocks (32 x 8): shared tree + __syncthreads_count/or/and (bar.red)",
           "_Z13bar_red_blockPKiPi", [NB, 1, 1], [32, 8, 1],
           [f"name: in, type: s32, len: {len(a)}, file: o1_bar_red_block.in.txt",
            f"name: out, type: s32, len: {4 * NB}, fill: -1"],
           ["in", "out"], ["buffer: out, file: o1_bar_red_block.out.txt"])


def o2():
    TILES, TILE = 6, 96
    a = [khash(i + 21) & 0xFFF for i in range(TILES * TILE)]
    out = [s32(sum(5 * a[t * TILE + c] + (c % 32) for c in range(TILE))) for t in range(TILES)]
    write("o2_named_barrier_ws.in.txt", a)
    write("o2_named_barrier_ws.out.txt", out)
    launch("o2_named_barrier_ws", "1 producer + 3 consumer warps, 3-stage ring, bar.sync/bar.arrive with immediate ids",
           "_Z16named_barrier_wsPKiPi", [1, 1, 1], [128, 1, 1],
           [f"name: in, type: s32, len: {len(a)}, file: o2_named_barrier_ws.in.txt",
            f"name: out, type: s32, len: {TILES}, fill: 0"],
           ["in", "out"], ["buffer: out, file: o2_named_barrier_ws.out.txt"])


def o3():
    NB, TILES, TILE = 2, 4, 512
    n = NB * TILES * TILE
    a = [(khash(i + 3) & 0xFFFF) - 0x8000 for i in range(n)]
    write("o3_bulk_copy_mbarrier.in.txt", a)
    write("o3_bulk_copy_mbarrier.out.txt", [2 * x + 1 for x in a])
    launch("o3_bulk_copy_mbarrier", "bulk copies in (mbarrier full/empty, try_wait.parity) and out (fence.proxy.async, bulk_group)",
           "_Z18bulk_copy_mbarrierPKiPi", [NB, 1, 1], [96, 1, 1],
           [f"name: in, type: s32, len: {n}, file: o3_bulk_copy_mbarrier.in.txt",
            f"name: out, type: s32, len: {n}, fill: 0"],
           ["in", "out"], ["buffer: out, file: o3_bulk_copy_mbarrier.out.txt"],
           extra="dynamic_smem: 6272   # sizeof(Smem): 2 x 2 KB ring, 2 KB out, 4 mbarriers, 128-aligned\n")


def o4():
    NB, TILES, TILE = 2, 6, 128
    n = NB * TILES * TILE
    a = [khash(5 * i + 2) & 0xFFFF for i in range(n)]
    out = []
    for tt in range(NB * TILES):
        t = a[tt * TILE:(tt + 1) * TILE]
        out += [t[i] + t[(i + 1) % TILE] for i in range(TILE)]
    write("o4_cp_async_pipeline.in.txt", a)
    write("o4_cp_async_pipeline.out.txt", out)
    launch("o4_cp_async_pipeline", "2-stage cp.async.ca (8 B per thread) pipeline: commit_group, wait_group 1, __syncthreads",
           "_Z17cp_async_pipelinePKiPi", [NB, 1, 1], [64, 1, 1],
           [f"name: in, type: s32, len: {n}, file: o4_cp_async_pipeline.in.txt",
            f"name: out, type: s32, len: {n}, fill: 0"],
           ["in", "out"], ["buffer: out, file: o4_cp_async_pipeline.out.txt"])


def o5():
    NB, CL = 8, 4
    a = [khash(i + 99) & 0x3FF for i in range(NB * 128)]
    part = [sum(a[b * 128:(b + 1) * 128]) for b in range(NB)]
    out = []
    for b in range(NB):
        c0 = b // CL * CL
        r = b % CL
        out += [sum(part[c0:c0 + CL]), part[c0 + (r + 1) % CL]]
    write("o5_cluster_dsmem.in.txt", a)
    write("o5_cluster_dsmem.out.txt", out)
    launch("o5_cluster_dsmem", "clusters of 4 CTAs: barrier.cluster, mapa + loads of other CTAs' shared memory",
           "_Z13cluster_dsmemPKiPi", [NB, 1, 1], [128, 1, 1],
           [f"name: in, type: s32, len: {len(a)}, file: o5_cluster_dsmem.in.txt",
            f"name: out, type: s32, len: {2 * NB}, fill: 0"],
           ["in", "out"], ["buffer: out, file: o5_cluster_dsmem.out.txt"],
           extra=f"cluster: [{CL}, 1, 1]\n")


def o6():
    NB = 4
    a = [khash(i + 1234) & 0xFFF for i in range(NB * 64)]
    T = sum(a)
    out = [T] * NB + [NB * T + sum(range(NB))] * NB
    write("o6_grid_sync.in.txt", a)
    launch("o6_grid_sync", "cooperative launch: three grid.sync() (atom.add.release.gpu, ld.acquire.gpu spin)",
           "_Z9grid_syncPKiPiS1_", [NB, 1, 1], [64, 1, 1],
           [f"name: in, type: s32, len: {len(a)}, file: o6_grid_sync.in.txt",
            f"name: partial, type: s32, len: {NB}, fill: 0",
            f"name: out, type: s32, len: {2 * NB}, fill: 0"],
           ["in", "partial", "out"], [f"buffer: out, values: {out}"],
           extra="cooperative: true\n")


def o7():
    NB = 6
    a = [khash(i + 77) & 0xFFF for i in range(NB * 128)]
    write("o7_last_block_reduce.in.txt", a)
    launch("o7_last_block_reduce", "threadFenceReduction: partials, __threadfence (membar.gl), atomicInc ticket, the last block sums",
           "_Z17last_block_reducePKiPViPi", [NB, 1, 1], [128, 1, 1],
           [f"name: in, type: s32, len: {len(a)}, file: o7_last_block_reduce.in.txt",
            f"name: partial, type: s32, len: {NB}, fill: 0",
            "name: out, type: s32, len: 2, fill: -1"],
           ["in", "partial", "out"], [f"buffer: out, values: [{sum(a)}, {NB}]"])


def o8():
    out = [7 * i + 3 + 1 for i in range(64)] + [sum(7 * i + 3 for i in range(64))]
    launch("o8_flag_release_acquire", "message passing between CTAs: st.release.gpu / ld.acquire.gpu flags both ways",
           "_Z20flag_release_acquirePiS_S_", [2, 1, 1], [64, 1, 1],
           ["name: data, type: s32, len: 65, fill: 0", "name: flags, type: s32, len: 2, fill: 0",
            "name: out, type: s32, len: 65, fill: -1"],
           ["data", "flags", "out"], [f"buffer: out, values: {out}"])


def o9():
    NB = 2
    a = [khash(i + 5) % 200 for i in range(NB * 64)]
    out = []
    for t, x in enumerate(a):
        if t % 64 % 2:
            v = (x - 100) ** 2 if x > 100 else (100 - x) ** 2 + 1
        else:
            v = x * x
        out.append(v if v & 1 else -v)
    write("o9_device_calls.in.txt", a)
    write("o9_device_calls.out.txt", out)
    launch("o9_device_calls", "device-function calls: nested, on divergent paths (inlined per call site)",
           "_Z12device_callsPKiPi", [NB, 1, 1], [64, 1, 1],
           [f"name: in, type: s32, len: {len(a)}, file: o9_device_calls.in.txt",
            f"name: out, type: s32, len: {len(a)}, fill: 0"],
           ["in", "out"], ["buffer: out, file: o9_device_calls.out.txt"])


for k in (o1, o2, o3, o4, o5, o6, o7, o8, o9):
    k()
