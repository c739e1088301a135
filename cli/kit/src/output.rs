//! No-clobber output files for every `membar` command: an output may replace
//! only a file that the command itself wrote earlier, never a user's file and
//! never an input of the same run (compared by canonical path). Files are
//! written into a temporary file beside the target and renamed over it only
//! when complete, so an interrupted run leaves either the old file or the
//! new one; the renamed file gets the usual permissions (0666 less the
//! umask), not the temporary file's 0600.
//!
//! "Written by membar" is decided, for the outputs of [`Owner::Marked`]
//! (waveforms and traces, Markdown tables, unit sweep CSVs), by the file's
//! last line: a marker in the format's comment syntax holding the SHA-256 of
//! every byte above it. A file is ours only if that digest matches its own
//! content, which a user's file (an Icarus VCD, an edited copy of ours, an
//! empty file) does not have by accident. Outputs whose format must stay
//! byte-for-byte reproducible without a marker ([`Owner::Header`]: the
//! generated Verilog, sweep plots and membar sweep CSVs) are recognised by
//! their whole generated header. An empty or non-regular existing file is
//! never ours.

use crate::common::CmdError;
use sha2::{Digest, Sha256};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// Signature test on the first bytes of an existing file: was it written by
/// this command?
pub type Signature = fn(&[u8]) -> bool;

/// How many leading bytes a signature sees.
const HEAD: usize = 512;

/// The comment syntax of an output's ownership marker (its last line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// VCD (`$comment ... $end`, valid among VCD commands), also appended
    /// to Verilator's FST files (readers stop at the last block).
    Wave,
    /// Markdown (an HTML comment, invisible when rendered).
    Markdown,
    /// CSV / text (`# ...`).
    Hash,
    /// Chrome-trace JSON: the marker is the object's last member.
    Json,
}

impl Mark {
    fn open_close(self) -> (&'static str, &'static str) {
        match self {
            Mark::Wave => ("$comment ", " $end"),
            Mark::Markdown => ("<!-- ", " -->"),
            Mark::Hash => ("# ", ""),
            Mark::Json => ("\"membar\": \"", "\"}"),
        }
    }

    /// The marker line for `digest` (hex).
    fn line(self, hex: &str) -> String {
        let (o, c) = self.open_close();
        format!("{o}{MARKER_TEXT}{hex}{c}\n")
    }

    fn len(self) -> usize {
        self.line(&"0".repeat(64)).len()
    }
}

/// The words of the marker before the digest.
const MARKER_TEXT: &str = "written by membar; sha256 of everything above this line: ";

/// How a command recognises its own earlier output.
#[derive(Clone, Copy)]
pub enum Owner {
    /// By its marker line, verified against the file's content.
    Marked(Mark),
    /// By its whole generated header (formats kept free of a marker).
    Header(Signature),
}

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

/// Does the file `f` (of `len` bytes) end with a `mark` line whose digest is
/// that of everything above it?
fn marker_verifies(f: &mut std::fs::File, len: u64, mark: Mark) -> std::io::Result<bool> {
    let m = mark.len() as u64;
    if len < m {
        return Ok(false);
    }
    let mut tail = vec![0u8; m as usize];
    f.seek(std::io::SeekFrom::Start(len - m))?;
    f.read_exact(&mut tail)?;
    let Ok(tail) = std::str::from_utf8(&tail) else {
        return Ok(false);
    };
    let (o, c) = mark.open_close();
    let Some(hex) = tail
        .strip_prefix(o)
        .and_then(|t| t.strip_prefix(MARKER_TEXT))
        .and_then(|t| t.strip_suffix('\n'))
        .and_then(|t| t.strip_suffix(c))
    else {
        return Ok(false);
    };
    if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(false);
    }
    f.seek(std::io::SeekFrom::Start(0))?;
    let mut h = Sha256::new();
    std::io::copy(&mut f.take(len - m), &mut h)?;
    Ok(hex_of(h) == hex)
}

fn hex_of(h: Sha256) -> String {
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Check that `path` may be written as the output of `flag`: not a
/// directory or other non-regular file, not an input of this run, and
/// either absent or recognised as this command's own output by `owner`.
pub fn check_target(
    flag: &str,
    path: &Path,
    inputs: &RunInputs,
    owner: Owner,
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
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    if !meta.is_file() {
        return Err(CmdError::input(format!(
            "{flag} {}: exists and is not a regular file (a FIFO or device?); refusing to write to it (pick another path)",
            path.display()
        )));
    }
    let io = |e: std::io::Error| CmdError::input(format!("{flag} {}: {e}", path.display()));
    let mut f = std::fs::File::open(path).map_err(io)?;
    let len = f.metadata().map_err(io)?.len();
    let ours = len > 0
        && match owner {
            Owner::Marked(mark) => marker_verifies(&mut f, len, mark).map_err(io)?,
            Owner::Header(sig) => {
                let mut head = vec![0u8; HEAD];
                let n = read_up_to(&mut f, &mut head).map_err(io)?;
                sig(&head[..n])
            }
        };
    if !ours {
        let how = match owner {
            Owner::Marked(_) => "it does not end with a membar marker matching its content",
            Owner::Header(_) => "it does not start with membar's generated header",
        };
        return Err(CmdError::input(format!(
            "{flag} {}: the file exists and is not {what} written by membar ({how}); refusing to overwrite it (remove it or pick another path)",
            path.display()
        )));
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

/// The process's umask (from /proc; 022 where it cannot be read).
fn umask() -> u32 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Umask:"))
                .and_then(|v| u32::from_str_radix(v.trim(), 8).ok())
        })
        .unwrap_or(0o022)
}

/// The mode a new file gets from `open(..., 0666)`: 0666 less the umask.
pub fn output_mode() -> u32 {
    0o666 & !umask()
}

/// Give a finished temporary file the usual permissions of a new file.
fn set_output_mode(file: &std::fs::File) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(output_mode()))?;
    }
    #[cfg(not(unix))]
    let _ = file;
    Ok(())
}

/// Append `mark`'s line to a finished file that another writer (Verilator,
/// a VCD writer) produced: a newline first if it lacks one, then the
/// marker with the digest of everything above it.
pub fn seal(flag: &str, target: &Path, file: &Path, mark: Mark) -> Result<(), CmdError> {
    let io = |e: std::io::Error| CmdError::input(format!("{flag} {}: {e}", target.display()));
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .open(file)
        .map_err(io)?;
    let mut h = Sha256::new();
    let mut last = None;
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf).map_err(io)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
        last = Some(buf[n - 1]);
    }
    let mut tail = Vec::new();
    if last.is_some_and(|b| b != b'\n') {
        tail.push(b'\n');
        h.update(b"\n");
    }
    tail.extend_from_slice(mark.line(&hex_of(h)).as_bytes());
    f.write_all(&tail).map_err(io)
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
/// (another process may have created it meanwhile); the file gets the usual
/// permissions of a new file. A [`Owner::Marked`] file must already carry
/// its marker ([`seal`] or [`write_file`]).
pub fn persist(
    tmp: tempfile::NamedTempFile,
    flag: &str,
    path: &Path,
    inputs: &RunInputs,
    owner: Owner,
    what: &str,
) -> Result<(), CmdError> {
    check_target(flag, path, inputs, owner, what)?;
    set_output_mode(tmp.as_file())
        .map_err(|e| CmdError::input(format!("{flag} {}: {e}", path.display())))?;
    tmp.persist(path)
        .map(|_| ())
        .map_err(|e| CmdError::input(format!("{flag} {}: {}", path.display(), e.error)))
}

/// A writer that hashes what goes through it and remembers the last bytes.
struct Hashing<W: Write> {
    inner: W,
    hash: Sha256,
    /// For JSON: the bytes from the last non-blank byte on, held back.
    held: Option<Vec<u8>>,
    last: Option<u8>,
}

impl<W: Write> Hashing<W> {
    fn emit(&mut self, b: &[u8]) -> std::io::Result<()> {
        if let Some(&l) = b.last() {
            self.last = Some(l);
        }
        self.hash.update(b);
        self.inner.write_all(b)
    }
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        match self.held.take() {
            None => self.emit(b)?,
            Some(mut held) => {
                match b.iter().rposition(|c| !c.is_ascii_whitespace()) {
                    Some(i) => {
                        self.emit(&held)?;
                        self.emit(&b[..i])?;
                        held = b[i..].to_vec();
                    }
                    None => held.extend_from_slice(b),
                }
                self.held = Some(held);
            }
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Write `path` in one go: check, write a temporary file beside it with
/// `body` and, for [`Owner::Marked`], the marker line; rename it over `path`.
pub fn write_file(
    flag: &str,
    path: &Path,
    inputs: &RunInputs,
    owner: Owner,
    what: &str,
    body: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), CmdError> {
    check_target(flag, path, inputs, owner, what)?;
    let mut tmp = temp_beside(flag, path)?;
    let io = |e: std::io::Error| CmdError::input(format!("{flag} {}: {e}", path.display()));
    {
        let w = std::io::BufWriter::new(tmp.as_file_mut());
        let mark = match owner {
            Owner::Marked(m) => Some(m),
            Owner::Header(_) => None,
        };
        let mut hw = Hashing {
            inner: w,
            hash: Sha256::new(),
            held: (mark == Some(Mark::Json)).then(Vec::new),
            last: None,
        };
        body(&mut hw).map_err(io)?;
        if let Some(m) = mark {
            if m == Mark::Json {
                // `{ ... }`: the marker becomes the object's last member.
                let held = hw.held.take().unwrap_or_default();
                if held.first() != Some(&b'}') {
                    return Err(io(std::io::Error::other(
                        "the JSON body does not end with `}`",
                    )));
                }
                hw.emit(b",\n").map_err(io)?;
            } else if hw.last.is_some_and(|b| b != b'\n') {
                hw.emit(b"\n").map_err(io)?;
            }
            let hex = hex_of(std::mem::take(&mut hw.hash));
            hw.inner.write_all(m.line(&hex).as_bytes()).map_err(io)?;
        }
        hw.inner.flush().map_err(io)?;
    }
    persist(tmp, flag, path, inputs, owner, what)
}

/// An output another writer (Verilator, a VCD writer) fills: checked at the
/// start, written into a temporary file beside the target, sealed with its
/// marker and renamed over the target by [`Pending::finish`].
pub struct Pending {
    tmp: tempfile::NamedTempFile,
    flag: &'static str,
    target: PathBuf,
    mark: Mark,
    what: &'static str,
    inputs: RunInputs,
}

impl Pending {
    /// Check `target` and create the temporary file beside it.
    pub fn begin(
        flag: &'static str,
        target: &Path,
        inputs: &RunInputs,
        mark: Mark,
        what: &'static str,
    ) -> Result<Pending, CmdError> {
        check_target(flag, target, inputs, Owner::Marked(mark), what)?;
        Ok(Pending {
            tmp: temp_beside(flag, target)?,
            flag,
            target: target.to_path_buf(),
            mark,
            what,
            inputs: inputs.clone(),
        })
    }

    /// The temporary file the writer writes.
    pub fn path(&self) -> &Path {
        self.tmp.path()
    }

    /// The temporary file, opened again for writing.
    pub fn reopen(&self) -> Result<std::fs::File, CmdError> {
        self.tmp
            .reopen()
            .map_err(|e| CmdError::input(format!("{} {}: {e}", self.flag, self.target.display())))
    }

    /// Seal the finished file with its marker and rename it over the target
    /// (checked again).
    pub fn finish(self) -> Result<(), CmdError> {
        seal(self.flag, &self.target, self.tmp.path(), self.mark)?;
        persist(
            self.tmp,
            self.flag,
            &self.target,
            &self.inputs,
            Owner::Marked(self.mark),
            self.what,
        )
    }
}
