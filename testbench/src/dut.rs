//! [`VerilatorDut`]: the Verilated `membar_unit` as a [`membar_unit_env::Dut`],
//! driven through the C shim that `unit_ports::verilator_shim` generates from
//! the port declaration. Inputs and outputs cross the C ABI as 32-bit words
//! packed by `unit_ports::pack`/`unpack` (bitvec), in declaration order.

use crate::error::CosimError;
use crate::portcheck::check_unit_ports;
use crate::verilate::{
    build_unit_library, BuildOptions, BuiltLibrary, TraceFormat, SHIM_ABI_VERSION,
};
use membar_unit_env::ports::MembarUnitPorts;
use std::ffi::{c_void, CString};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use unit_ports::{Unit, UnitConfig};

type FnU32 = unsafe extern "C" fn() -> u32;
type FnCreate = unsafe extern "C" fn() -> *mut c_void;
type FnHandle = unsafe extern "C" fn(*mut c_void);
type FnTraceOpen = unsafe extern "C" fn(*mut c_void, *const std::os::raw::c_char) -> i32;
type FnStep = unsafe extern "C" fn(*mut c_void, *const u32, *mut u32);
type FnStepMany = unsafe extern "C" fn(*mut c_void, *const u32, u64, u64, *mut u64);

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
    fn load(path: &Path, in_words: usize, out_words: usize) -> Result<Shim, CosimError> {
        let err = |detail: String| CosimError::Load {
            path: path.to_path_buf(),
            detail,
        };
        // SAFETY: the library is one this crate built from the generated shim;
        // its initialisers are the C++ runtime's and Verilator's.
        let lib = unsafe { libloading::Library::new(path) }.map_err(|e| err(e.to_string()))?;
        unsafe {
            macro_rules! sym {
                ($name:literal, $t:ty) => {
                    *lib.get::<$t>(concat!($name, "\0").as_bytes())
                        .map_err(|e| err(format!("symbol {}: {e}", $name)))?
                };
            }
            let abi: FnU32 = sym!("unit_abi_version", FnU32);
            let n_in: FnU32 = sym!("unit_in_words", FnU32);
            let n_out: FnU32 = sym!("unit_out_words", FnU32);
            if abi() != SHIM_ABI_VERSION
                || n_in() as usize != in_words
                || n_out() as usize != out_words
            {
                return Err(err(format!(
                    "shim ABI mismatch: version {} (want {SHIM_ABI_VERSION}), {} input words (want {in_words}), {} output words (want {out_words})",
                    abi(),
                    n_in(),
                    n_out(),
                )));
            }
            let traced_fn: FnU32 = sym!("unit_traced", FnU32);
            let traced = traced_fn();
            Ok(Shim {
                create: sym!("unit_create", FnCreate),
                destroy: sym!("unit_destroy", FnHandle),
                step: sym!("unit_step", FnStep),
                step_many: sym!("unit_step_many", FnStepMany),
                trace_open: sym!("unit_trace_open", FnTraceOpen),
                trace_flush: sym!("unit_trace_flush", FnHandle),
                trace_close: sym!("unit_trace_close", FnHandle),
                traced,
                _lib: lib,
            })
        }
    }
}

/// A Verilated unit in lockstep: [`Dut::step`] = one clock cycle. Generic
/// over the unit `U` (its port declaration); `membar_unit` by default.
///
/// Each `VerilatorDut` owns its own Verilated model and context; several
/// (also of different configurations) can live in one process.
pub struct VerilatorDut<U: Unit = MembarUnitPorts> {
    shim: Arc<Shim>,
    handle: *mut c_void,
    cfg: U::Config,
    /// Port widths in `Inputs`/`Outputs` field order (the packing layout).
    in_widths: Vec<u32>,
    out_widths: Vec<u32>,
    out_buf: Vec<u32>,
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
unsafe impl<U: Unit> Send for VerilatorDut<U> {}

impl<U: Unit> VerilatorDut<U> {
    /// Check the ports, build (or take from the cache) and load the Verilated
    /// model of `verilog` for `cfg`. With `opts.waves`, the whole run is
    /// written to that file.
    pub fn build(
        verilog_path: &Path,
        cfg: &U::Config,
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
        let ports = U::ports(cfg);
        let problems = check_unit_ports(&text, U::MODULE, &ports, &cfg.short_name());
        if !problems.is_empty() {
            return Err(CosimError::Ports {
                path: verilog_path.to_path_buf(),
                module: U::MODULE.to_string(),
                config: cfg.short_name(),
                problems,
            });
        }
        let lib = build_unit_library(verilog_path, U::MODULE, &ports, opts)?;
        let mut dut = Self::load(&lib, cfg)?;
        dut.verilog = verilog_path.to_path_buf();
        if let Some(w) = &opts.waves {
            dut.open_waves(w)?;
        }
        Ok(dut)
    }

    /// Instantiate a model from an already built library.
    pub fn load(lib: &BuiltLibrary, cfg: &U::Config) -> Result<Self, CosimError> {
        let in_widths = U::input_widths(cfg);
        let out_widths = U::output_widths(cfg);
        let shim = Arc::new(Shim::load(
            &lib.path,
            unit_ports::words_for(&in_widths),
            unit_ports::words_for(&out_widths),
        )?);
        // SAFETY: unit_create has no preconditions.
        let handle = unsafe { (shim.create)() };
        if handle.is_null() {
            return Err(CosimError::Load {
                path: lib.path.clone(),
                detail: "unit_create returned NULL".into(),
            });
        }
        Ok(VerilatorDut {
            shim,
            handle,
            cfg: cfg.clone(),
            out_buf: vec![0; unit_ports::words_for(&out_widths)],
            in_widths,
            out_widths,
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
        let mut d = Self::load(&self.library, &self.cfg)?;
        d.verilog = self.verilog.clone();
        Ok(d)
    }

    pub fn config(&self) -> &U::Config {
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
            return Err(werr(match rc {
                -1 => "this Verilated model was built without tracing".to_string(),
                _ => "the file cannot be opened for writing (check that its directory exists and is writable)".to_string(),
            }));
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
    pub fn bench_raw(&mut self, inputs: &[U::Inputs], cycles: u64) -> Duration {
        assert!(!inputs.is_empty());
        let ins: Vec<u32> = inputs
            .iter()
            .flat_map(|i| unit_ports::pack(i, &self.in_widths))
            .collect();
        let mut sink = 0u64;
        let t0 = Instant::now();
        // SAFETY: valid handle; `ins` outlives the call.
        unsafe {
            (self.shim.step_many)(
                self.handle,
                ins.as_ptr(),
                inputs.len() as u64,
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
    fn step_inner(&mut self, i: &U::Inputs) -> U::Outputs {
        let words = unit_ports::pack(i, &self.in_widths);
        // SAFETY: valid handle; `words` and `out_buf` have the word counts
        // the shim reported when it was loaded.
        unsafe { (self.shim.step)(self.handle, words.as_ptr(), self.out_buf.as_mut_ptr()) };
        self.cycles += 1;
        unit_ports::unpack(&self.out_buf, &self.out_widths)
    }
}

impl<U: Unit> unit_ports::Dut<U> for VerilatorDut<U> {
    #[inline]
    fn step(&mut self, i: &U::Inputs) -> U::Outputs {
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

impl<U: Unit> Drop for VerilatorDut<U> {
    fn drop(&mut self) {
        // SAFETY: the handle came from unit_create of the same library,
        // which `shim` keeps loaded; destroy closes any open waveform.
        unsafe { (self.shim.destroy)(self.handle) };
    }
}
