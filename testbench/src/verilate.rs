//! Building the Verilated `membar_unit` into a shared library, with a cache.
//!
//! One build = `verilator --cc --exe --build` of the Verilog plus the C shim
//! (generated from the unit's port declaration by `unit_ports::verilator_shim`),
//! linked with `-shared` into `libmembar_<hash>.so`. The cache key is a SHA-256
//! of everything that can change the library: the Verilog text, any `.vlt`
//! waiver files beside it, the Verilator and make flags, the shim source,
//! `verilator --version` and `g++ --version`. Libraries live in
//! `<target>/verilator-cache/<hash>/`.
//!
//! Concurrency: a build holds an exclusive file lock on `<hash>.lock` (so two
//! tests, threads or processes asking for the same library build it once),
//! builds in a private temporary directory and publishes it with an atomic
//! `rename`; a directory named `<hash>` is therefore always complete.

use crate::error::CosimError;
use sha2::{Digest, Sha256};
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The ABI version the shim must report (`unit_abi_version`).
pub use unit_ports::shim::SHIM_ABI_VERSION;
/// Bump to invalidate every cached library (a change in how builds are made).
const CACHE_FORMAT: &str = "membar-testbench verilator cache v1";

/// Waveform formats a traced build can write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraceFormat {
    /// `--trace-fst`: compact, GTKWave/Surfer read it.
    Fst,
    /// `--trace`: plain VCD, larger.
    Vcd,
}

impl TraceFormat {
    /// By file extension: `.vcd` is VCD, anything else FST.
    pub fn for_path(p: &Path) -> TraceFormat {
        match p.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("vcd") => TraceFormat::Vcd,
            _ => TraceFormat::Fst,
        }
    }
    pub fn extension(self) -> &'static str {
        match self {
            TraceFormat::Fst => "fst",
            TraceFormat::Vcd => "vcd",
        }
    }
}

/// How to build (and, for [`crate::VerilatorDut`], open) the Verilated model.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The `verilator` executable: a name looked up on `PATH` or a path.
    /// Default: `$MEMBAR_VERILATOR`, else `verilator`.
    pub verilator: PathBuf,
    /// Write a waveform of the whole run to this file (`.vcd` = VCD, otherwise
    /// FST). Implies a traced build ([`BuildOptions::trace`]).
    pub waves: Option<PathBuf>,
    /// Build with tracing compiled in (needed to open a waveform later with
    /// [`crate::VerilatorDut::open_waves`]). Tracing costs speed even when no
    /// file is open, so it is off by default.
    pub trace: Option<TraceFormat>,
    /// Where cached libraries live. Default: `$MEMBAR_VERILATOR_CACHE`, else
    /// `<cargo target dir>/verilator-cache`.
    pub cache_dir: Option<PathBuf>,
    /// Parallel compile jobs (`-j`). Default 2.
    pub jobs: u32,
    /// C++ optimisation of the model (make's `OPT_FAST`). Default `-O2`.
    pub opt_fast: String,
    /// Extra Verilator arguments (part of the cache key).
    pub extra_args: Vec<String>,
    /// Rebuild even if the cache has the library.
    pub force_rebuild: bool,
    /// Print one line per build to stderr (cache hits are silent).
    pub verbose: bool,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            verilator: std::env::var_os("MEMBAR_VERILATOR")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from("verilator")),
            waves: None,
            trace: None,
            cache_dir: None,
            jobs: 2,
            opt_fast: "-O2".into(),
            extra_args: Vec::new(),
            force_rebuild: false,
            verbose: true,
        }
    }
}

impl BuildOptions {
    /// The trace format the build needs (from `trace`, else from `waves`).
    pub fn trace_format(&self) -> Option<TraceFormat> {
        self.trace
            .or_else(|| self.waves.as_deref().map(TraceFormat::for_path))
    }
}

/// A built (or cached) shared library.
#[derive(Clone, Debug)]
pub struct BuiltLibrary {
    /// `…/verilator-cache/<hash>/libmembar_<hash>.so`
    pub path: PathBuf,
    /// The cache key (hex SHA-256).
    pub hash: String,
    /// True when the library came from the cache.
    pub cache_hit: bool,
    /// Wall time of this call (the whole build when not a hit).
    pub elapsed: Duration,
    /// Verilator's warnings during the build (`%Warning…` lines; kept in
    /// `build.log` beside the library).
    pub warnings: Vec<String>,
    /// Tracing compiled in.
    pub trace: Option<TraceFormat>,
}

/// The workspace's cargo target directory: `$CARGO_TARGET_DIR` (relative to
/// the workspace root if relative), else `<workspace>/target`.
pub fn target_dir() -> PathBuf {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(t) if !t.is_empty() => {
            let t = PathBuf::from(t);
            if t.is_absolute() {
                t
            } else {
                workspace.join(t)
            }
        }
        _ => workspace.join("target"),
    }
}

/// The default cache root.
pub fn default_cache_dir() -> PathBuf {
    match std::env::var_os("MEMBAR_VERILATOR_CACHE") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => target_dir().join("verilator-cache"),
    }
}

/// `verilator --version`, or a clear error when the binary is missing.
/// Remembered per binary for the life of the process (it is a Perl script
/// that takes ~50 ms to start), so a cache hit costs a few milliseconds.
pub fn verilator_version(verilator: &Path) -> Result<String, CosimError> {
    static SEEN: Mutex<Vec<(PathBuf, String)>> = Mutex::new(Vec::new());
    if let Some((_, v)) = SEEN.lock().unwrap().iter().find(|(p, _)| p == verilator) {
        return Ok(v.clone());
    }
    let v = verilator_version_uncached(verilator)?;
    SEEN.lock()
        .unwrap()
        .push((verilator.to_path_buf(), v.clone()));
    Ok(v)
}

fn verilator_version_uncached(verilator: &Path) -> Result<String, CosimError> {
    match Command::new(verilator).arg("--version").output() {
        Ok(o) if o.status.success() => Ok(String::from_utf8_lossy(&o.stdout).trim().to_string()),
        Ok(o) => Err(CosimError::Build {
            stage: "verilator --version".into(),
            command: format!("{} --version", verilator.display()),
            log: format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ),
        }),
        Err(e) if e.kind() == ErrorKind::NotFound || e.kind() == ErrorKind::PermissionDenied => {
            Err(CosimError::VerilatorMissing {
                binary: verilator.to_path_buf(),
                detail: e.to_string(),
            })
        }
        Err(e) => Err(CosimError::Io {
            what: format!("running {} --version", verilator.display()),
            detail: e.to_string(),
        }),
    }
}

fn cxx_version() -> String {
    static V: OnceLock<String> = OnceLock::new();
    V.get_or_init(cxx_version_uncached).clone()
}

fn cxx_version_uncached() -> String {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
    match Command::new(&cxx).arg("--version").output() {
        Ok(o) => format!(
            "{cxx}: {}",
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .next()
                .unwrap_or("")
                .trim()
        ),
        Err(e) => format!("{cxx}: unavailable ({e})"),
    }
}

/// `.vlt` waiver files in the Verilog's directory (sorted), which are passed to
/// Verilator and hashed with it.
fn waiver_files(verilog: &Path) -> Vec<PathBuf> {
    let dir = verilog
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("vlt") && p.is_file())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// The Verilator arguments of a build, except file names and `-Mdir`/`-o`.
fn verilator_flags(module: &str, opts: &BuildOptions, trace: Option<TraceFormat>) -> Vec<String> {
    let mut cflags = String::from("-fPIC -fvisibility=hidden");
    let mut f: Vec<String> = vec![
        "--cc".into(),
        "--exe".into(),
        "--build".into(),
        "-O3".into(),
        // Undefined values (regs without an `initial`) come from Verilator's
        // rand-reset, which the shim sets to 0: deterministic runs.
        "--x-assign".into(),
        "unique".into(),
        "--x-initial".into(),
        "unique".into(),
        "--top-module".into(),
        module.into(),
        // rust-hdl output has WIDTH and similar lint warnings; they are kept
        // in the build log and returned, but do not stop the build.
        "-Wno-fatal".into(),
    ];
    match trace {
        Some(TraceFormat::Fst) => {
            f.push("--trace-fst".into());
            cflags.push_str(" -DUNIT_TRACE_FST");
        }
        Some(TraceFormat::Vcd) => {
            f.push("--trace".into());
            cflags.push_str(" -DUNIT_TRACE_VCD");
        }
        None => {}
    }
    f.extend(["-CFLAGS".into(), cflags]);
    f.extend(["-LDFLAGS".into(), "-shared -Wl,-Bsymbolic".into()]);
    f.extend(["-MAKEFLAGS".into(), format!("OPT_FAST={}", opts.opt_fast)]);
    f.extend(opts.extra_args.iter().cloned());
    f
}

static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Build (or find in the cache) the shared library for `verilog`.
pub fn build_library(
    verilog: &Path,
    cfg: &membar_unit_env::Config,
    opts: &BuildOptions,
) -> Result<BuiltLibrary, CosimError> {
    use membar_unit_env::ports::{MembarUnitPorts, Unit};
    build_unit_library(
        verilog,
        MembarUnitPorts::MODULE,
        &MembarUnitPorts::ports(cfg),
        opts,
    )
}

/// Build (or find in the cache) the shared library of the Verilated
/// `module` in `verilog`, with the C shim generated from its port table.
pub fn build_unit_library(
    verilog: &Path,
    module: &str,
    ports: &[unit_ports::Port],
    opts: &BuildOptions,
) -> Result<BuiltLibrary, CosimError> {
    let shim_source =
        unit_ports::verilator_shim(module, ports).map_err(|detail| CosimError::Io {
            what: format!("generating the Verilator shim for {module}"),
            detail,
        })?;
    let t0 = Instant::now();
    let text = fs::read(verilog).map_err(|e| {
        if e.kind() == ErrorKind::NotFound {
            CosimError::VerilogMissing {
                path: verilog.to_path_buf(),
            }
        } else {
            CosimError::Io {
                what: format!("reading {}", verilog.display()),
                detail: e.to_string(),
            }
        }
    })?;
    let version = verilator_version(&opts.verilator)?;
    let trace = opts.trace_format();
    let flags = verilator_flags(module, opts, trace);
    let waivers = waiver_files(verilog);

    // ---- cache key ----
    let mut h = Sha256::new();
    let mut field = |name: &str, data: &[u8]| {
        h.update(name.as_bytes());
        h.update((data.len() as u64).to_le_bytes());
        h.update(data);
    };
    field("format", CACHE_FORMAT.as_bytes());
    field("verilog", &text);
    for w in &waivers {
        let data = fs::read(w).map_err(|e| CosimError::Io {
            what: format!("reading {}", w.display()),
            detail: e.to_string(),
        })?;
        field("waiver", &data);
    }
    field("flags", flags.join("\u{1f}").as_bytes());
    field("shim", shim_source.as_bytes());
    field("verilator", version.as_bytes());
    field("cxx", cxx_version().as_bytes());
    let hash: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    let short = &hash[..16];

    let root = opts.cache_dir.clone().unwrap_or_else(default_cache_dir);
    fs::create_dir_all(&root).map_err(|e| CosimError::Io {
        what: format!("creating {}", root.display()),
        detail: e.to_string(),
    })?;
    let final_dir = root.join(short);
    let lib_name = format!("libmembar_{short}.so");
    let lib_path = final_dir.join(&lib_name);

    // ---- lock (threads and processes) ----
    let lock_path = root.join(format!("{short}.lock"));
    let lock = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| CosimError::Io {
            what: format!("opening {}", lock_path.display()),
            detail: e.to_string(),
        })?;
    lock.lock().map_err(|e| CosimError::Io {
        what: format!("locking {}", lock_path.display()),
        detail: e.to_string(),
    })?;

    if lib_path.is_file() && !opts.force_rebuild {
        let warnings = read_warnings(&final_dir.join("build.log"));
        return Ok(BuiltLibrary {
            path: lib_path,
            hash,
            cache_hit: true,
            elapsed: t0.elapsed(),
            warnings,
            trace,
        });
    }

    // ---- build in a private directory ----
    let tmp = root.join(format!(
        ".tmp-{short}-{}-{}",
        std::process::id(),
        TMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = fs::remove_dir_all(&tmp);
    let io = |what: String| {
        move |e: std::io::Error| CosimError::Io {
            what,
            detail: e.to_string(),
        }
    };
    fs::create_dir_all(&tmp).map_err(io(format!("creating {}", tmp.display())))?;
    let result = (|| {
        let v_path = tmp.join(format!("{module}.v"));
        fs::write(&v_path, &text).map_err(io(format!("writing {}", v_path.display())))?;
        let shim_path = tmp.join("unit_shim.cpp");
        fs::write(&shim_path, &shim_source)
            .map_err(io(format!("writing {}", shim_path.display())))?;
        let mut args = flags.clone();
        args.extend(["-j".into(), opts.jobs.max(1).to_string()]);
        args.extend(["-Mdir".into(), "obj".into(), "-o".into(), lib_name.clone()]);
        for (n, w) in waivers.iter().enumerate() {
            let dst = tmp.join(format!("waiver{n}.vlt"));
            fs::copy(w, &dst).map_err(io(format!("copying {}", w.display())))?;
            args.push(dst.file_name().unwrap().to_string_lossy().into_owned());
        }
        args.push(format!("{module}.v"));
        args.push("unit_shim.cpp".into());
        if opts.verbose {
            eprintln!(
                "[membar-testbench] verilating {} (cache key {short}{}) …",
                verilog.display(),
                if trace.is_some() { ", traced" } else { "" }
            );
        }
        let out = Command::new(&opts.verilator)
            .args(&args)
            .current_dir(&tmp)
            .output()
            .map_err(|e| {
                if e.kind() == ErrorKind::NotFound {
                    CosimError::VerilatorMissing {
                        binary: opts.verilator.clone(),
                        detail: e.to_string(),
                    }
                } else {
                    CosimError::Io {
                        what: format!("running {}", opts.verilator.display()),
                        detail: e.to_string(),
                    }
                }
            })?;
        let log = format!(
            "$ cd {} && {} {}\n{}\n{}",
            tmp.display(),
            opts.verilator.display(),
            shell_join(&args),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        fs::write(tmp.join("build.log"), &log).map_err(io("writing build.log".into()))?;
        let built = tmp.join("obj").join(&lib_name);
        if !out.status.success() || !built.is_file() {
            return Err(CosimError::Build {
                stage: "verilator --build".into(),
                command: format!(
                    "cd {} && {} {}",
                    tmp.display(),
                    opts.verilator.display(),
                    shell_join(&args)
                ),
                log: relevant_log(&log),
            });
        }
        fs::rename(&built, tmp.join(&lib_name)).map_err(io("moving the library".into()))?;
        // The object directory is large and not needed any more; keep the
        // generated C++ headers for debugging would cost ~MBs per entry.
        let _ = fs::remove_dir_all(tmp.join("obj"));
        Ok(log)
    })();
    let log = match result {
        Ok(log) => log,
        Err(e) => {
            let _ = fs::remove_dir_all(&tmp);
            return Err(e);
        }
    };
    if opts.force_rebuild && final_dir.exists() {
        let _ = fs::remove_dir_all(&final_dir);
    }
    if let Err(e) = fs::rename(&tmp, &final_dir) {
        // Someone else published the same key first (lock-less cache dir on
        // another file system, a stale entry without a library…).
        if lib_path.is_file() {
            let _ = fs::remove_dir_all(&tmp);
        } else {
            let _ = fs::remove_dir_all(&final_dir);
            fs::rename(&tmp, &final_dir).map_err(|e2| CosimError::Io {
                what: format!("publishing {} as {}", tmp.display(), final_dir.display()),
                detail: format!("{e}; then {e2}"),
            })?;
        }
    }
    drop(lock);
    Ok(BuiltLibrary {
        path: lib_path,
        hash,
        cache_hit: false,
        elapsed: t0.elapsed(),
        warnings: warnings_of(&log),
        trace,
    })
}

fn shell_join(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            if a.is_empty() || a.contains(|c: char| c.is_whitespace() || c == '\'' || c == '"') {
                format!("'{a}'")
            } else {
                a.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn warnings_of(log: &str) -> Vec<String> {
    log.lines()
        .filter(|l| l.starts_with("%Warning"))
        .map(str::to_string)
        .collect()
}

fn read_warnings(p: &Path) -> Vec<String> {
    fs::read_to_string(p)
        .map(|l| warnings_of(&l))
        .unwrap_or_default()
}

/// The part of a failed build's log a human needs: Verilator's `%Error`
/// lines and compiler `error:` lines with some context, else the tail.
fn relevant_log(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    let mut keep = vec![false; lines.len()];
    let mut any = false;
    for (n, l) in lines.iter().enumerate() {
        if l.starts_with("%Error")
            || l.contains("error:")
            || l.contains("Error ")
            || l.contains("undefined reference")
        {
            any = true;
            keep[n.saturating_sub(2)..(n + 4).min(lines.len())]
                .iter_mut()
                .for_each(|k| *k = true);
        }
    }
    let mut s = String::new();
    if let Some(first) = lines.first() {
        s.push_str(first);
        s.push('\n');
    }
    if any {
        let mut last = 0;
        for (n, l) in lines.iter().enumerate().skip(1) {
            if keep[n] {
                if last + 1 < n {
                    s.push_str("  …\n");
                }
                s.push_str(l);
                s.push('\n');
                last = n;
            }
        }
    } else {
        for l in lines.iter().skip(lines.len().saturating_sub(40).max(1)) {
            s.push_str(l);
            s.push('\n');
        }
    }
    if s.len() > 20_000 {
        let mut cut = 20_000;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
        s.push_str("\n  … (truncated)\n");
    }
    s
}
