#!/usr/bin/env python3
"""Runs the timed own kernels (this folder's oN.ptx + oN.launch.yaml, written by
instrument.py) on the GPU and prints each warp's cycles, for
data/kernels/own_kernels_measured.csv.

Needs only python3 and the CUDA driver (libcuda.so.1, through ctypes); `ptxas` on the
PATH when there is one (the PTX is then assembled as nvcc would, -arch=sm_90a),
otherwise the driver's JIT. Per kernel: WARM untimed launches, then REPS launches, each
with every buffer re-uploaded and the module's uninitialised variables zeroed, its
expected outputs checked (a mismatch is an error),
and the `tim` buffer read back; a warp's total is the largest of its lanes' words.

  python3 run_device.py [OUTDIR]     prints `own_kernel,kernel,warp,median,min,max`
                                     (cycles over REPS launches); writes the raw
                                     per-launch figures to OUTDIR/own_raw.csv
"""
import ctypes
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
WARM, REPS = 5, 21
CTYPES = {"s32": ctypes.c_int32, "u32": ctypes.c_uint32, "s64": ctypes.c_int64, "u64": ctypes.c_uint64, "f32": ctypes.c_float}


def parse_launch(path):
    """The launch files' subset of YAML: scalars, [lists] and one-line {maps} in lists."""
    doc, key = {}, None
    for raw in path.read_text().split("\n"):
        line = raw.split(" #")[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not line:
            continue
        if line.startswith("  - "):
            item = {}
            for k, v in re.findall(r"(\w+): (\[[^\]]*\]|[^,}]+)", line[4:].strip()[1:-1]):
                item[k] = v.strip()
            doc.setdefault(key, []).append(item)
            continue
        k, _, v = line.partition(":")
        key, v = k.strip(), v.strip()
        if v:
            doc[key] = v
    return doc


def ints(v):
    return [int(x) for x in v.strip("[]").split(",") if x.strip()]


def values(item, base, n):
    if "file" in item:
        vs = [int(w) for w in (base / item["file"]).read_text().split()]
    elif "values" in item:
        vs = ints(item["values"])
    else:
        vs = [int(item.get("fill", 0))] * n
    if len(vs) != n:
        raise SystemExit(f"run_device.py: {item.get('name', item.get('buffer'))}: {len(vs)} values, expected {n}")
    return vs


class Cuda:
    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")
        self.ck(self.lib.cuInit(0), "cuInit")
        dev = ctypes.c_int()
        self.ck(self.lib.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
        self.ctx = ctypes.c_void_p()
        self.ck(self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(self.ctx), dev), "cuDevicePrimaryCtxRetain")
        self.ck(self.lib.cuCtxSetCurrent(self.ctx), "cuCtxSetCurrent")

    def ck(self, r, what):
        if r != 0:
            s = ctypes.c_char_p()
            self.lib.cuGetErrorString(r, ctypes.byref(s))
            raise SystemExit(f"run_device.py: {what}: CUDA error {r} ({s.value.decode() if s.value else '?'})")

    def alloc(self, nbytes):
        p = ctypes.c_uint64()
        self.ck(self.lib.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(max(nbytes, 8))), "cuMemAlloc")
        return p

    def h2d(self, p, arr):
        self.ck(self.lib.cuMemcpyHtoD_v2(p, arr, ctypes.c_size_t(ctypes.sizeof(arr))), "cuMemcpyHtoD")

    def d2h(self, arr, p):
        self.ck(self.lib.cuMemcpyDtoH_v2(arr, p, ctypes.c_size_t(ctypes.sizeof(arr))), "cuMemcpyDtoH")


def load(cuda, ptx):
    mod = ctypes.c_void_p()
    ptxas = shutil.which("ptxas")
    if ptxas:
        with tempfile.TemporaryDirectory() as d:
            cubin = pathlib.Path(d) / "k.cubin"
            subprocess.run([ptxas, "-arch=sm_90a", "-O3", str(ptx), "-o", str(cubin)], check=True)
            data = cubin.read_bytes()
    else:
        data = ptx.read_bytes() + b"\0"
    buf = ctypes.create_string_buffer(data, len(data))
    cuda.ck(cuda.lib.cuModuleLoadData(ctypes.byref(mod), buf), f"cuModuleLoadData {ptx.name}")
    return mod


def run(cuda, name, raw):
    ptx, launch = HERE / f"{name}.ptx", parse_launch(HERE / f"{name}.launch.yaml")
    mod = load(cuda, ptx)
    fn = ctypes.c_void_p()
    cuda.ck(cuda.lib.cuModuleGetFunction(ctypes.byref(fn), mod, launch["entry"].encode()), "cuModuleGetFunction")
    grid, block = ints(launch["grid"]), ints(launch["block"])
    smem = int(launch.get("dynamic_smem", "0"))
    bufs = {}
    for b in launch["buffers"]:
        ty, n = CTYPES[b["type"]], int(b["len"])
        init = (ty * n)(*values(b, HERE, n))
        bufs[b["name"]] = (init, cuda.alloc(ctypes.sizeof(init)), ty, n)
    params = [bufs[p.strip()][1] for p in launch["params"].strip("[]").split(",")]
    argv = (ctypes.c_void_p * len(params))(*[ctypes.cast(ctypes.byref(p), ctypes.c_void_p) for p in params])
    expect = [(e["buffer"], values(e, HERE, bufs[e["buffer"]][3])) for e in launch.get("expect", [])]
    # Module-scope variables without an initializer (o7's ticket counter) start each
    # launch at zero, as in the executor, which loads the module afresh every run.
    zeroed = []
    for var in re.findall(r"^(?:\.visible )?\.global \.align \d+ \.\w+ (\w+);", ptx.read_text(), re.M):
        dp, size = ctypes.c_uint64(), ctypes.c_size_t()
        cuda.ck(cuda.lib.cuModuleGetGlobal_v2(ctypes.byref(dp), ctypes.byref(size), mod, var.encode()), f"cuModuleGetGlobal {var}")
        zeroed.append((dp, size))
    threads = block[0] * block[1] * block[2]
    warps_per_cta = (threads + 31) // 32
    per_warp = {}
    for rep in range(WARM + REPS):
        for init, dp, _, _ in bufs.values():
            cuda.h2d(dp, init)
        for dp, size in zeroed:
            cuda.ck(cuda.lib.cuMemsetD8_v2(dp, ctypes.c_ubyte(0), size), "cuMemsetD8")
        args = [fn, *[ctypes.c_uint(x) for x in grid], *[ctypes.c_uint(x) for x in block], ctypes.c_uint(smem), ctypes.c_void_p(0), argv]
        if launch.get("cooperative") == "true":
            cuda.ck(cuda.lib.cuLaunchCooperativeKernel(*args), f"{name}: cuLaunchCooperativeKernel")
        else:
            cuda.ck(cuda.lib.cuLaunchKernel(*args, ctypes.c_void_p(0)), f"{name}: cuLaunchKernel")
        cuda.ck(cuda.lib.cuCtxSynchronize(), f"{name}: cuCtxSynchronize")
        for bname, want in expect:
            _, dp, ty, n = bufs[bname]
            got = (ty * n)()
            cuda.d2h(got, dp)
            if list(got) != want:
                bad = sum(1 for a, b in zip(got, want) if a != b)
                raise SystemExit(f"run_device.py: {name}: buffer {bname}: {bad} of {n} values differ from the launch file's")
        _, dp, ty, n = bufs["tim"]
        tim = (ty * n)()
        cuda.d2h(tim, dp)
        if rep < WARM:
            continue
        for cta in range(n // threads):
            for w in range(warps_per_cta):
                lanes = tim[cta * threads + w * 32: cta * threads + min(threads, (w + 1) * 32)]
                g = cta * warps_per_cta + w
                per_warp.setdefault(g, []).append(max(lanes))
                raw.write(f"{name},{rep - WARM},{g},{max(lanes)}\n")
    cuda.lib.cuModuleUnload(mod)
    return per_warp


def main():
    out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(".")
    out.mkdir(parents=True, exist_ok=True)
    cuda = Cuda()
    names = sorted(p.stem for p in HERE.glob("o*.ptx"))
    with open(out / "own_raw.csv", "w") as raw:
        raw.write("kernel,launch,warp,cycles\n")
        print("own_kernel,kernel,warp,median,min,max")
        for name in names:
            for g, v in sorted(run(cuda, name, raw).items()):
                print(f"own_kernel,{name},{g},{statistics.median(v):g},{min(v)},{max(v)}")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
