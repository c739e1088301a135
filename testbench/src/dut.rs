//! [`VerilatorDut`]: the Verilated `membar_unit` as a [`membar_sim::Dut`],
//! driven through the C shim in `csrc/membar_shim.cpp`.

use crate::error::CosimError;
use crate::portcheck::check_ports;
use crate::verilate::{build_library, BuildOptions, BuiltLibrary, TraceFormat, SHIM_ABI_VERSION};
use membar_sim::{Config, Dut, Inputs, Outputs};
use std::ffi::{c_void, CString};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `InputsC` in the shim.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct InputsC {
    pub reset: u8,
    pub req_valid: u8,
    pub req_warp: u8,
    pub req_op: u8,
    pub req_level: u8,
    pub req_ivall: u8,
    pub req_id: u16,
    pub dn_ready: u8,
    pub ack_valid: u8,
    pub ack_tag: u8,
    pub bar_ack_valid: u8,
    pub bar_ack_tag: u8,
    pub _pad: [u8; 3],
}

/// `OutputsC` in the shim.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct OutputsC {
    pub warp_blocked: u64,
    pub release_mask: u64,
    pub dn_id: u16,
    pub req_ready: u8,
    pub dn_valid: u8,
    pub dn_kind: u8,
    pub dn_tag: u8,
    pub dn_warp: u8,
    pub dn_op: u8,
    pub dn_level: u8,
    pub dn_ack_req: u8,
    pub release_valid: u8,
    pub err: u8,
}

impl InputsC {
    /// From [`Inputs`], already masked to the port widths (Verilator expects
    /// the unused upper bits of a port's C type to be zero).
    pub fn from_inputs(i: &Inputs) -> InputsC {
        InputsC {
            reset: i.reset as u8,
            req_valid: i.req_valid as u8,
            req_warp: i.req_warp,
            req_op: i.req_op,
            req_level: i.req_level,
            req_ivall: i.req_ivall,
            req_id: i.req_id,
            dn_ready: i.dn_ready as u8,
            ack_valid: i.ack_valid as u8,
            ack_tag: i.ack_tag,
            bar_ack_valid: i.bar_ack_valid as u8,
            bar_ack_tag: i.bar_ack_tag,
            _pad: [0; 3],
        }
    }
}

impl OutputsC {
    pub fn to_outputs(&self) -> Outputs {
        Outputs {
            req_ready: self.req_ready != 0,
            dn_valid: self.dn_valid != 0,
            dn_kind: self.dn_kind,
            dn_tag: self.dn_tag,
            dn_warp: self.dn_warp,
            dn_op: self.dn_op,
            dn_level: self.dn_level,
            dn_ack_req: self.dn_ack_req != 0,
            dn_id: self.dn_id,
            warp_blocked: self.warp_blocked,
            release_valid: self.release_valid != 0,
            release_mask: self.release_mask,
            err: self.err != 0,
        }
    }
}

type FnU32 = unsafe extern "C" fn() -> u32;
type FnCreate = unsafe extern "C" fn() -> *mut c_void;
type FnHandle = unsafe extern "C" fn(*mut c_void);
type FnTraceOpen = unsafe extern "C" fn(*mut c_void, *const std::os::raw::c_char) -> i32;
type FnStep = unsafe extern "C" fn(*mut c_void, *const InputsC, *mut OutputsC);
type FnStepMany = unsafe extern "C" fn(*mut c_void, *const InputsC, u64, u64, *mut u64);

/// The loaded shim: the library (kept alive) and its entry points.
struct Shim {
    _lib: libloading::Library,
    create: FnCreate,
    destroy: FnHandle,
    step: FnStep,
    step_many: FnStepMany,
    trace_open: FnTraceOpen,
    trace_flush: FnHandle,
    trace_close: FnHandle,
    traced: u32,
}

impl Shim {
    fn load(path: &Path) -> Result<Shim, CosimError> {
        let err = |detail: String| CosimError::Load {
            path: path.to_path_buf(),
            detail,
        };
        // SAFETY: the library is one this crate built from csrc/membar_shim.cpp;
        // its initialisers are the C++ runtime's and Verilator's.
        let lib = unsafe { libloading::Library::new(path) }.map_err(|e| err(e.to_string()))?;
        unsafe {
            macro_rules! sym {
                ($name:literal, $t:ty) => {
                    *lib.get::<$t>(concat!($name, "\0").as_bytes())
                        .map_err(|e| err(format!("symbol {}: {e}", $name)))?
                };
            }
            let abi: FnU32 = sym!("membar_abi_version", FnU32);
            let sz_in: FnU32 = sym!("membar_sizeof_inputs", FnU32);
            let sz_out: FnU32 = sym!("membar_sizeof_outputs", FnU32);
            if abi() != SHIM_ABI_VERSION
                || sz_in() as usize != std::mem::size_of::<InputsC>()
                || sz_out() as usize != std::mem::size_of::<OutputsC>()
            {
                return Err(err(format!(
                    "shim ABI mismatch: version {} (want {SHIM_ABI_VERSION}), InputsC {} bytes (want {}), OutputsC {} bytes (want {})",
                    abi(),
                    sz_in(),
                    std::mem::size_of::<InputsC>(),
                    sz_out(),
                    std::mem::size_of::<OutputsC>()
                )));
            }
            let traced_fn: FnU32 = sym!("membar_traced", FnU32);
            let traced = traced_fn();
            Ok(Shim {
                create: sym!("membar_create", FnCreate),
                destroy: sym!("membar_destroy", FnHandle),
                step: sym!("membar_step", FnStep),
                step_many: sym!("membar_step_many", FnStepMany),
                trace_open: sym!("membar_trace_open", FnTraceOpen),
                trace_flush: sym!("membar_trace_flush", FnHandle),
                trace_close: sym!("membar_trace_close", FnHandle),
                traced,
                _lib: lib,
            })
        }
    }
}

/// The Verilated `membar_unit` in lockstep: [`Dut::step`] = one clock cycle.
///
/// Each `VerilatorDut` owns its own Verilated model and context; several
/// (also of different configurations) can live in one process.
pub struct VerilatorDut {
    shim: Arc<Shim>,
    handle: *mut c_void,
    cfg: Config,
    wb: u32,
    tb: u32,
    wmask: u64,
    /// The library this DUT runs.
    pub library: BuiltLibrary,
    /// The Verilog it was built from.
    pub verilog: PathBuf,
    waves: Option<PathBuf>,
    cycles: u64,
    /// Time spent inside [`Dut::step`] (when `timing` is on).
    step_time: Duration,
    /// Measure the time of every step (two `Instant::now()` per cycle).
    pub timing: bool,
}

// SAFETY: the handle is only used through &mut self; the Verilated model
// has no thread affinity (each has its own VerilatedContext).
unsafe impl Send for VerilatorDut {}

impl VerilatorDut {
    /// Check the ports, build (or take from the cache) and load the Verilated
    /// model of `verilog` for `cfg`. With `opts.waves`, the whole run is
    /// written to that file.
    pub fn build(
        verilog_path: &Path,
        cfg: &Config,
        opts: &BuildOptions,
    ) -> Result<Self, CosimError> {
        let text = std::fs::read_to_string(verilog_path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                CosimError::VerilogMissing {
                    path: verilog_path.to_path_buf(),
                }
            } else {
                CosimError::Io {
                    what: format!("reading {}", verilog_path.display()),
                    detail: e.to_string(),
                }
            }
        })?;
        let problems = check_ports(&text, cfg);
        if !problems.is_empty() {
            return Err(CosimError::Ports {
                path: verilog_path.to_path_buf(),
                config: cfg.short_name(),
                problems,
            });
        }
        let lib = build_library(verilog_path, opts)?;
        let mut dut = VerilatorDut::load(&lib, cfg)?;
        dut.verilog = verilog_path.to_path_buf();
        if let Some(w) = &opts.waves {
            dut.open_waves(w)?;
        }
        Ok(dut)
    }

    /// Instantiate a model from an already built library.
    pub fn load(lib: &BuiltLibrary, cfg: &Config) -> Result<Self, CosimError> {
        let shim = Arc::new(Shim::load(&lib.path)?);
        // SAFETY: membar_create has no preconditions.
        let handle = unsafe { (shim.create)() };
        if handle.is_null() {
            return Err(CosimError::Load {
                path: lib.path.clone(),
                detail: "membar_create returned NULL".into(),
            });
        }
        Ok(VerilatorDut {
            shim,
            handle,
            cfg: cfg.clone(),
            wb: cfg.wb(),
            tb: cfg.tb(),
            wmask: cfg.warp_mask(),
            library: lib.clone(),
            verilog: PathBuf::new(),
            waves: None,
            cycles: 0,
            step_time: Duration::ZERO,
            timing: true,
        })
    }

    /// A second, independent instance of the same model (fresh state).
    pub fn fresh(&self) -> Result<Self, CosimError> {
        let mut d = VerilatorDut::load(&self.library, &self.cfg)?;
        d.verilog = self.verilog.clone();
        Ok(d)
    }

    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// Tracing compiled into this build.
    pub fn trace_format(&self) -> Option<TraceFormat> {
        match self.shim.traced {
            1 => Some(TraceFormat::Fst),
            2 => Some(TraceFormat::Vcd),
            _ => None,
        }
    }

    /// Start writing a waveform now (needs a traced build). The first sample
    /// is a full dump, so this may be called in the middle of a run. Time
    /// unit: 10 per cycle; cycle `c` has the clock low at `10c` (inputs
    /// applied) and the rising edge at `10c+5`.
    pub fn open_waves(&mut self, path: &Path) -> Result<(), CosimError> {
        let werr = |detail: String| CosimError::Waves {
            path: path.to_path_buf(),
            detail,
        };
        if self.trace_format().is_none() {
            return Err(werr("this Verilated model was built without tracing (set BuildOptions::trace or ::waves)".into()));
        }
        if self.waves.is_some() {
            return Err(werr("a waveform is already open".into()));
        }
        if let Some(d) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(d).map_err(|e| werr(e.to_string()))?;
        }
        let c =
            CString::new(path.as_os_str().as_encoded_bytes()).map_err(|e| werr(e.to_string()))?;
        // SAFETY: valid handle and NUL-terminated path.
        let rc = unsafe { (self.shim.trace_open)(self.handle, c.as_ptr()) };
        if rc != 0 {
            return Err(werr(format!("membar_trace_open returned {rc}")));
        }
        self.waves = Some(path.to_path_buf());
        Ok(())
    }

    /// Flush and close the waveform (also done on drop); returns its path.
    pub fn close_waves(&mut self) -> Option<PathBuf> {
        if self.waves.is_some() {
            // SAFETY: valid handle.
            unsafe { (self.shim.trace_close)(self.handle) };
        }
        self.waves.take()
    }

    /// Flush the waveform written so far.
    pub fn flush_waves(&mut self) {
        if self.waves.is_some() {
            // SAFETY: valid handle.
            unsafe { (self.shim.trace_flush)(self.handle) };
        }
    }

    /// Cycles stepped so far.
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// Time spent inside `step` so far (FFI call and Verilated eval).
    pub fn step_time(&self) -> Duration {
        self.step_time
    }

    /// Run `cycles` cycles entirely in C++ (inputs taken round-robin from
    /// `inputs`), returning the wall time: the speed of the Verilated model
    /// alone, without the per-cycle FFI call. Changes the model's state.
    pub fn bench_raw(&mut self, inputs: &[Inputs], cycles: u64) -> Duration {
        assert!(!inputs.is_empty());
        let ins: Vec<InputsC> = inputs
            .iter()
            .map(|i| InputsC::from_inputs(&i.masked(self.wb, self.tb)))
            .collect();
        let mut sink = 0u64;
        let t0 = Instant::now();
        // SAFETY: valid handle; `ins` outlives the call.
        unsafe {
            (self.shim.step_many)(
                self.handle,
                ins.as_ptr(),
                ins.len() as u64,
                cycles,
                &mut sink,
            )
        };
        let dt = t0.elapsed();
        std::hint::black_box(sink);
        self.cycles += cycles;
        dt
    }

    #[inline]
    fn step_inner(&mut self, i: &Inputs) -> Outputs {
        let ic = InputsC::from_inputs(&i.masked(self.wb, self.tb));
        let mut oc = OutputsC::default();
        // SAFETY: valid handle, valid pointers to repr(C) structs the shim
        // checked the sizes of.
        unsafe { (self.shim.step)(self.handle, &ic, &mut oc) };
        self.cycles += 1;
        let mut o = oc.to_outputs();
        // Verilator keeps unused upper bits clean, but be explicit.
        o.warp_blocked &= self.wmask;
        o.release_mask &= self.wmask;
        o
    }
}

impl Dut for VerilatorDut {
    #[inline]
    fn step(&mut self, i: &Inputs) -> Outputs {
        if self.timing {
            let t0 = Instant::now();
            let o = self.step_inner(i);
            self.step_time += t0.elapsed();
            o
        } else {
            self.step_inner(i)
        }
    }
    fn name(&self) -> &str {
        "verilator"
    }
}

impl Drop for VerilatorDut {
    fn drop(&mut self) {
        // SAFETY: the handle came from membar_create of the same library,
        // which `shim` keeps loaded; destroy closes any open waveform.
        unsafe { (self.shim.destroy)(self.handle) };
    }
}
