#!/usr/bin/env python3
"""Runs the timed own kernels (this folder's oN.ptx + oN.launch.yaml, written by
instrument.py) on the GPU and prints each warp's cycles, for
data/kernels/own_kernels_measured.csv.

Needs only python3 and the CUDA driver (libcuda.so.1, through ctypes); `ptxas` on the
PATH when there is one (the PTX is then assembled as nvcc would, -arch=sm_90a),
otherwise the driver's JIT. Per kernel: WARM untimed launches, then REPS launches, each
with every buffer re-uploaded and the module's uninitialised variables zeroed, then every
line of every buffer read once by a one-CTA kernel (`touch`, below: the host's upload
leaves some lines only in DRAM, and which ones changes from run to run, where the
executor starts a launch with its buffers in L2), its expected outputs checked (a
mismatch is an error), and the `tim` buffer read back; a warp's total is the largest of
its lanes' words. `--no-touch` leaves the buffers where the upload put them (the
figures of 2026-11-29 and before). Before each kernel a one-warp spin (`freq`) reads the
SM clock against the global timer and prints it (`own_clock,kernel,MHz`): cycles of
memory latency depend on it.

  python3 run_device.py [--no-touch] [--only KERNEL] [--warm N] [--layouts K] [OUTDIR]
                                     prints `own_kernel,kernel,warp,median,min,max`
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
# Buffer layouts per kernel (`--layouts`), each moved SPACER bytes on from the last.
LAYOUTS, SPACER = 8, 12 * 1024
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


# The runner's own kernels, one module:
# - touch(p, n, sink): reads one 32-bit word of every 128-byte line of [p, p + n) with
#   ld.global.cg (into L2, not L1), 256 threads a line apart; the sum goes to `sink` only if
#   it is a value it cannot be, so the loads are kept and nothing is written.
# - freq(out): the SM clock while the kernels run: one warp spins on %clock64 for 2,000,000
#   cycles and reads %globaltimer (ns) at both ends; MHz = cycles / ns * 1000. Run before
#   each kernel (it also brings the GPU out of idle before the timed launches).
HELPERS_PTX = b"""
.version 8.0
.target sm_90a
.address_size 64
.visible .entry touch(.param .u64 p, .param .u64 n, .param .u64 sink)
{
  .reg .pred %q;
  .reg .b32 %t, %w;
  .reg .b64 %a, %end, %i, %v, %acc, %s, %x;
  ld.param.u64 %a, [p];
  ld.param.u64 %end, [n];
  ld.param.u64 %s, [sink];
  mov.u32 %t, %tid.x;
  cvt.u64.u32 %i, %t;
  shl.b64 %i, %i, 7;
  mov.u64 %acc, 0;
LOOP:
  setp.ge.u64 %q, %i, %end;
  @%q bra DONE;
  add.s64 %v, %a, %i;
  ld.global.cg.u32 %w, [%v];
  cvt.u64.u32 %x, %w;
  add.s64 %acc, %acc, %x;
  add.s64 %i, %i, 32768;
  bra LOOP;
DONE:
  setp.eq.u64 %q, %acc, 0xfedcba9876543210;
  @%q st.global.u64 [%s], %acc;
  ret;
}
.visible .entry freq(.param .u64 out)
{
  .reg .pred %q;
  .reg .b64 %o, %c0, %c1, %g0, %g1, %d;
  ld.param.u64 %o, [out];
  mov.u64 %g0, %globaltimer;
  mov.u64 %c0, %clock64;
SPIN:
  mov.u64 %c1, %clock64;
  sub.s64 %d, %c1, %c0;
  setp.lt.s64 %q, %d, 2000000;
  @%q bra SPIN;
  mov.u64 %g1, %globaltimer;
  st.global.u64 [%o], %d;
  sub.s64 %d, %g1, %g0;
  st.global.u64 [%o+8], %d;
  ret;
}
\0"""


class Helpers:
    """HELPERS_PTX's kernels: `touch` over device buffers, `mhz` the SM clock."""

    def __init__(self, cuda):
        self.cuda = cuda
        mod = ctypes.c_void_p()
        buf = ctypes.create_string_buffer(HELPERS_PTX, len(HELPERS_PTX))
        cuda.ck(cuda.lib.cuModuleLoadData(ctypes.byref(mod), buf), "cuModuleLoadData helpers")
        self.fns = {}
        for name in (b"touch", b"freq"):
            fn = ctypes.c_void_p()
            cuda.ck(cuda.lib.cuModuleGetFunction(ctypes.byref(fn), mod, name), f"cuModuleGetFunction {name.decode()}")
            self.fns[name] = fn
        self.sink = cuda.alloc(8)
        self.fout = cuda.alloc(16)

    def launch(self, name, threads, args):
        """One CTA of `threads` threads of kernel `name` (bytes), `args` its ctypes arguments."""
        argv = (ctypes.c_void_p * len(args))(*[ctypes.cast(ctypes.byref(x), ctypes.c_void_p) for x in args])
        self.cuda.ck(self.cuda.lib.cuLaunchKernel(self.fns[name], 1, 1, 1, threads, 1, 1, 0, ctypes.c_void_p(0),
                                                  argv, ctypes.c_void_p(0)), f"{name.decode()}: cuLaunchKernel")

    def mhz(self):
        """The SM clock now, in MHz (see HELPERS_PTX's `freq`)."""
        self.launch(b"freq", 32, [self.fout])
        self.cuda.ck(self.cuda.lib.cuCtxSynchronize(), "freq: cuCtxSynchronize")
        got = (ctypes.c_uint64 * 2)()
        self.cuda.d2h(got, self.fout)
        return got[0] * 1000.0 / max(got[1], 1)

    def touch(self, buffers):
        """Every line of each (pointer, bytes) buffer read into L2."""
        for dp, nbytes in buffers:
            self.launch(b"touch", 256, [dp, ctypes.c_uint64(nbytes), self.sink])
        self.cuda.ck(self.cuda.lib.cuCtxSynchronize(), "touch: cuCtxSynchronize")


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


def run(cuda, name, raw, touch=None, warm=WARM, layout=0):
    ptx, launch = HERE / f"{name}.ptx", parse_launch(HERE / f"{name}.launch.yaml")
    mod = load(cuda, ptx)
    if layout:
        # A spacer allocated first moves the buffers to other addresses (other L2 slices).
        cuda.alloc(layout * SPACER)
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
    for rep in range(warm + REPS):
        for init, dp, _, _ in bufs.values():
            cuda.h2d(dp, init)
        for dp, size in zeroed:
            cuda.ck(cuda.lib.cuMemsetD8_v2(dp, ctypes.c_ubyte(0), size), "cuMemsetD8")
        if touch is not None:
            touch([(dp, ctypes.sizeof(init)) for init, dp, _, _ in bufs.values()] + [(dp, size.value) for dp, size in zeroed])
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
        if rep < warm:
            continue
        for cta in range(n // threads):
            for w in range(warps_per_cta):
                lanes = tim[cta * threads + w * 32: cta * threads + min(threads, (w + 1) * 32)]
                g = cta * warps_per_cta + w
                per_warp.setdefault(g, []).append(max(lanes))
                raw.write(f"{name},{layout},{rep - warm},{g},{max(lanes)}\n")
    cuda.lib.cuModuleUnload(mod)
    return per_warp


def usage_error(msg):
    """A bad flag or value: the message on stderr and exit 2 (nothing has run)."""
    print(f"run_device.py: {msg}", file=sys.stderr)
    sys.exit(2)


def count_flag(args, flag, default, least, what):
    """`flag N` taken out of `args`: N, a whole number >= least (exit 2 otherwise), or `default`."""
    if flag not in args:
        return default
    i = args.index(flag)
    if i + 1 >= len(args) or not args[i + 1].isdigit() or int(args[i + 1]) < least:
        usage_error(f"{flag} needs a number of {what} ({least} or more)")
    n = int(args[i + 1])
    del args[i : i + 2]
    return n


def main():
    args = sys.argv[1:]
    no_touch = "--no-touch" in args
    args = [a for a in args if a != "--no-touch"]
    warm = count_flag(args, "--warm", WARM, 0, "untimed launches")
    layouts = count_flag(args, "--layouts", LAYOUTS, 1, "buffer layouts")
    only = None
    if "--only" in args:
        i = args.index("--only")
        if i + 1 >= len(args):
            usage_error("--only needs a kernel name (o1_bar_red_block, ...)")
        only = args[i + 1]
        del args[i : i + 2]
    if any(a.startswith("-") for a in args) or len(args) > 1:
        usage_error(f"usage: run_device.py [--no-touch] [--only KERNEL] [--warm N] [--layouts K] [OUTDIR] (got {' '.join(sys.argv[1:])})")
    names = sorted(p.stem for p in HERE.glob("o*.ptx"))
    if only is not None:
        if only not in names:
            usage_error(f"--only {only}: no such kernel here (one of {', '.join(names)})")
        names = [only]
    out = pathlib.Path(args[0]) if args else pathlib.Path(".")
    out.mkdir(parents=True, exist_ok=True)
    cuda = Cuda()
    tools = Helpers(cuda)
    touch = None if no_touch else tools.touch
    with open(out / "own_raw.csv", "w") as raw:
        raw.write("kernel,layout,launch,warp,cycles\n")
        print("own_kernel,kernel,warp,median,min,max")
        print("own_clock,kernel,sm_mhz")
        print("own_layout,kernel,layout,warp,median")
        for name in names:
            # Twice: the first brings the clock up, the second is the figure.
            tools.mhz()
            print(f"own_clock,{name},{tools.mhz():.0f}")
            per_warp = {}
            for layout in range(layouts):
                for g, v in run(cuda, name, raw, touch, warm, layout).items():
                    per_warp.setdefault(g, []).extend(v)
                    print(f"own_layout,{name},{layout},{g},{statistics.median(v):g}")
            for g, v in sorted(per_warp.items()):
                print(f"own_kernel,{name},{g},{statistics.median(v):g},{min(v)},{max(v)}")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
