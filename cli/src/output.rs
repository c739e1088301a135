//! No-clobber output files for every `membar` command: an output may replace
//! only a file that the command itself wrote earlier (recognised by its
//! content signature), never a user's file and never an input of the same
//! run (compared by canonical path). Files are written into a temporary file
//! beside the target and renamed over it only when complete, so an
//! interrupted run leaves either the old file or the new one.

use crate::common::CmdError;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Signature test on the first bytes of an existing file: was it written by
/// this command?
pub type Signature = fn(&[u8]) -> bool;

/// How many leading bytes a signature sees.
const HEAD: usize = 512;

/// The canonical paths of a run's input files (config, Verilog, workload,
/// grid, ...); outputs are checked against them.
#[derive(Default, Debug, Clone)]
pub struct RunInputs {
    paths: Vec<(String, PathBuf)>,
}

impl RunInputs {
    pub fn new() -> Self {
        RunInputs::default()
    }

    /// Record `path` (given by `flag`) as an input, if it exists.
    pub fn add(&mut self, flag: &str, path: &Path) -> &mut Self {
        if let Ok(c) = std::fs::canonicalize(path) {
            self.paths.push((flag.to_string(), c));
        }
        self
    }

    /// Builder form of [`RunInputs::add`].
    pub fn with(mut self, flag: &str, path: &Path) -> Self {
        self.add(flag, path);
        self
    }

    /// The flag of the input that `path` is, if it is one.
    fn input_flag(&self, path: &Path) -> Option<&str> {
        let c = std::fs::canonicalize(path).ok()?;
        self.paths
            .iter()
            .find(|(_, p)| *p == c)
            .map(|(f, _)| f.as_str())
    }
}

/// Check that `path` may be written as the output of `flag`: not a
/// directory, not an input of this run, and either absent or carrying this
/// command's signature.
pub fn check_target(
    flag: &str,
    path: &Path,
    inputs: &RunInputs,
    ours: Signature,
    what: &str,
) -> Result<(), CmdError> {
    if path.is_dir() {
        return Err(CmdError::input(format!(
            "{flag} {}: is a directory; expected a file path",
            path.display()
        )));
    }
    if let Some(f) = inputs.input_flag(path) {
        return Err(CmdError::input(format!(
            "{flag} {}: this file is an input of the same run ({f}); refusing to overwrite it (pick another path)",
            path.display()
        )));
    }
    if path.exists() {
        let mut head = vec![0u8; HEAD];
        let n = std::fs::File::open(path)
            .and_then(|mut f| read_up_to(&mut f, &mut head))
            .map_err(|e| CmdError::input(format!("{flag} {}: {e}", path.display())))?;
        if n > 0 && !ours(&head[..n]) {
            return Err(CmdError::input(format!(
                "{flag} {}: the file exists and is not {what} written by membar; refusing to overwrite it (remove it or pick another path)",
                path.display()
            )));
        }
    }
    Ok(())
}

fn read_up_to(f: &mut std::fs::File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        let k = std::io::Read::read(f, &mut buf[n..])?;
        if k == 0 {
            break;
        }
        n += k;
    }
    Ok(n)
}

/// The directory a file is created in (`.` for a bare file name).
fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A temporary file beside `path` (same directory, so the final rename is
/// atomic), keeping `path`'s extension (tools pick the format from it).
pub fn temp_beside(flag: &str, path: &Path) -> Result<tempfile::NamedTempFile, CmdError> {
    let dir = parent_dir(path);
    let ext = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    tempfile::Builder::new()
        .prefix(".membar-tmp-")
        .suffix(&ext)
        .tempfile_in(&dir)
        .map_err(|e| {
            CmdError::input(format!(
                "{flag} {}: cannot create a file in {}: {e}",
                path.display(),
                dir.display()
            ))
        })
}

/// Move a finished temporary file onto `path`, checking the target again
/// (another process may have created it meanwhile).
pub fn persist(
    tmp: tempfile::NamedTempFile,
    flag: &str,
    path: &Path,
    inputs: &RunInputs,
    ours: Signature,
    what: &str,
) -> Result<(), CmdError> {
    check_target(flag, path, inputs, ours, what)?;
    tmp.persist(path)
        .map(|_| ())
        .map_err(|e| CmdError::input(format!("{flag} {}: {}", path.display(), e.error)))
}

/// Write `path` in one go: check, write a temporary file beside it with
/// `body`, rename it over `path`.
pub fn write_file(
    flag: &str,
    path: &Path,
    inputs: &RunInputs,
    ours: Signature,
    what: &str,
    body: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), CmdError> {
    check_target(flag, path, inputs, ours, what)?;
    let mut tmp = temp_beside(flag, path)?;
    {
        let mut w = std::io::BufWriter::new(tmp.as_file_mut());
        body(&mut w)
            .and_then(|_| w.flush())
            .map_err(|e| CmdError::input(format!("{flag} {}: {e}", path.display())))?;
    }
    persist(tmp, flag, path, inputs, ours, what)
}

/// First bytes of a VCD file written by `membar_sim::vcd` or Verilator.
pub fn is_vcd(head: &[u8]) -> bool {
    head.starts_with(b"$version") || head.starts_with(b"$date") || head.starts_with(b"$comment")
}

/// First bytes of an FST file written by Verilator's FST writer: a header
/// block (type 0) whose writer string names Verilator or the FST writer.
pub fn is_fst(head: &[u8]) -> bool {
    let has = |s: &[u8]| head.windows(s.len()).any(|w| w == s);
    head.first() == Some(&0) && (has(b"Verilator") || has(b"fst") || has(b"FST"))
}

/// A waveform membar (cosim) writes: VCD or FST.
pub fn is_waveform(head: &[u8]) -> bool {
    is_vcd(head) || is_fst(head)
}
