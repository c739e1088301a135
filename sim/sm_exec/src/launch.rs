//! A launch file: how to run one kernel of an unmodified PTX module
//! (`membar run KERNEL.ptx --launch L.yaml`, `docs/kernels.md`).
//!
//! ```yaml
//! entry: _Z12block_reducePKiP8BlockOutPyP5uint4   # the .entry to launch
//! grid: [4, 1, 1]            # CTAs (x, y, z)
//! block: [256, 1, 1]         # threads per CTA
//! cluster: [1, 1, 1]         # CTAs per cluster (optional; absent = no cluster launch)
//! dynamic_smem: 0            # bytes of `.extern .shared` memory
//! buffers:                   # global memory the host allocates
//!   - {name: in, type: s32, len: 4096, file: k1_in.txt}   # or values: [..] or fill: N
//!   - {name: out, type: s32, len: 16, fill: -1}
//! params: [in, out, 0, 7]    # one per .param: a buffer (its address) or an integer
//! expect:                    # checked after the run
//!   - {buffer: out, values: [1, 2, 3]}     # or file: ...
//! ```
//!
//! Every key is checked: an unknown key, a missing buffer, a parameter
//! count that differs from the entry's, a value that does not fit its type
//! is an error naming the file and the key.

use serde::Deserialize;
use std::path::Path;

/// Threads per CTA the executor runs (H100: 1024).
pub const MAX_THREADS: u32 = 1024;
/// CTAs a launch may have (each CTA runs on its own SM model).
pub const MAX_CTAS: u32 = 1024;
/// Elements a buffer may hold.
pub const MAX_BUFFER_LEN: u64 = 1 << 24;

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Launch {
    pub entry: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    #[serde(default)]
    pub cluster: Option<[u32; 3]>,
    #[serde(default)]
    pub dynamic_smem: u64,
    #[serde(default)]
    pub buffers: Vec<Buffer>,
    #[serde(default)]
    pub params: Vec<serde_yaml::Value>,
    #[serde(default)]
    pub expect: Vec<Expect>,
    /// A line on what the kernel does (shown by `membar run`).
    #[serde(default)]
    pub about: Option<String>,
    /// A cooperative launch (`cudaLaunchCooperativeKernel`): every CTA is
    /// resident at once (here: each on its own SM) and `%envreg1/2` hold a
    /// zeroed grid-synchronisation workspace, as `grid.sync()` expects.
    #[serde(default)]
    pub cooperative: bool,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Buffer {
    pub name: String,
    /// Element type: u8, s8, u16, s16, u32, s32, u64, s64, f32, f64.
    #[serde(rename = "type")]
    pub ty: String,
    pub len: u64,
    #[serde(default)]
    pub values: Option<Vec<serde_yaml::Value>>,
    #[serde(default)]
    pub fill: Option<serde_yaml::Value>,
    /// Whitespace-separated values, relative to the launch file.
    #[serde(default)]
    pub file: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    pub buffer: String,
    #[serde(default)]
    pub values: Option<Vec<serde_yaml::Value>>,
    #[serde(default)]
    pub file: Option<String>,
}

/// A launch, checked and with its buffers' contents.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub launch: Launch,
    /// Per buffer: base address, element bytes, element type, contents.
    pub buffers: Vec<ResolvedBuffer>,
    /// Per expectation: buffer index and the expected elements (as bits).
    pub expect: Vec<(usize, Vec<u64>)>,
    /// The file, for messages.
    pub file: String,
    /// A cooperative launch's grid workspace (16 zeroed bytes), else 0.
    pub grid_workspace: u64,
}

#[derive(Debug, Clone)]
pub struct ResolvedBuffer {
    pub name: String,
    pub base: u64,
    pub elem: u64,
    pub ty: String,
    pub data: Vec<u64>,
}

impl Resolved {
    /// Threads per CTA.
    pub fn threads(&self) -> u32 {
        self.launch.block.iter().product()
    }
    pub fn ctas(&self) -> u32 {
        self.launch.grid.iter().product()
    }
    pub fn cluster_size(&self) -> Option<u32> {
        self.launch.cluster.map(|c| c.iter().product())
    }
    /// A buffer by name.
    pub fn buffer(&self, name: &str) -> Option<&ResolvedBuffer> {
        self.buffers.iter().find(|b| b.name == name)
    }
}

/// First address of the launch's global buffers (after the module's
/// `.global` variables, `crate::symbols::GLOBAL_BASE`).
pub const BUFFER_BASE: u64 = 0x4000_0000;

fn elem_bytes(ty: &str) -> Option<u64> {
    Some(match ty {
        "u8" | "s8" => 1,
        "u16" | "s16" => 2,
        "u32" | "s32" | "f32" => 4,
        "u64" | "s64" | "f64" => 8,
        _ => return None,
    })
}

/// A YAML value as the bits of an element of type `ty`: an integer in
/// range (negative only for signed types), or a float for f32/f64.
fn value_bits(v: &serde_yaml::Value, ty: &str) -> Result<u64, String> {
    let bytes = elem_bytes(ty).unwrap_or(8);
    let bits = 8 * bytes as u32;
    if ty.starts_with('f') {
        let x = v
            .as_f64()
            .ok_or_else(|| format!("`{}` is not a number", yaml_text(v)))?;
        return Ok(if bits == 32 {
            (x as f32).to_bits() as u64
        } else {
            x.to_bits()
        });
    }
    let (lo, hi): (i128, i128) = if ty.starts_with('s') {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    let n: i128 = if let Some(u) = v.as_u64() {
        u as i128
    } else if let Some(i) = v.as_i64() {
        i as i128
    } else {
        return Err(format!("`{}` is not an integer", yaml_text(v)));
    };
    if n < lo || n > hi {
        return Err(format!("{n} does not fit type {ty} ({lo}..={hi})"));
    }
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    Ok((n as u64) & mask)
}

fn yaml_text(v: &serde_yaml::Value) -> String {
    serde_yaml::to_string(v)
        .unwrap_or_default()
        .trim()
        .to_string()
}

fn read_values(dir: &Path, file: &str, key: &str) -> Result<Vec<serde_yaml::Value>, String> {
    let p = dir.join(file);
    let text = std::fs::read_to_string(&p)
        .map_err(|e| format!("{key}: cannot read `{}`: {e}", p.display()))?;
    text.split_whitespace()
        .enumerate()
        .map(|(i, w)| {
            w.parse::<i64>()
                .map(|n| serde_yaml::Value::Number(n.into()))
                .or_else(|_| {
                    w.parse::<f64>()
                        .map(|x| serde_yaml::Value::Number(x.into()))
                })
                .map_err(|_| {
                    format!(
                        "{key}: `{}` value {}: `{w}` is not a number",
                        p.display(),
                        i + 1
                    )
                })
        })
        .collect()
}

/// Read and check a launch file. `params` are the entry's parameter byte
/// sizes, in order (checked against `params:`).
pub fn load(path: &Path) -> Result<Resolved, String> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{file}: cannot read the launch file: {e}"))?;
    parse(&text, &file, path.parent().unwrap_or(Path::new(".")))
}

/// A launch file's text (named `file` in messages), checked as [`load`]
/// does; data files are read relative to `dir`.
pub fn parse(text: &str, file: &str, dir: &Path) -> Result<Resolved, String> {
    let launch: Launch = serde_yaml::from_str(text).map_err(|e| {
        let at = e
            .location()
            .map(|l| format!("{}:{}: ", l.line(), l.column()))
            .unwrap_or_default();
        format!("{file}:{at}{e} (keys: entry, grid, block, cluster, dynamic_smem, cooperative, buffers, params, expect, about)")
    })?;
    resolve(launch, file, dir)
}

/// Check a parsed launch (see [`load`]); files are read relative to `dir`.
pub fn resolve(launch: Launch, file: &str, dir: &Path) -> Result<Resolved, String> {
    let err = |key: &str, msg: String| format!("{file}: {key}: {msg}");
    let threads: u64 = launch.block.iter().map(|&x| x as u64).product();
    if launch.block.contains(&0) || threads > MAX_THREADS as u64 {
        return Err(err(
            "block",
            format!(
                "{:?} = {threads} threads, expected 1..={MAX_THREADS} threads per CTA, each dimension ≥ 1",
                launch.block
            ),
        ));
    }
    let ctas: u64 = launch.grid.iter().map(|&x| x as u64).product();
    if launch.grid.contains(&0) || ctas > MAX_CTAS as u64 {
        return Err(err(
            "grid",
            format!(
                "{:?} = {ctas} CTAs, expected 1..={MAX_CTAS}, each dimension ≥ 1",
                launch.grid
            ),
        ));
    }
    if let Some(c) = launch.cluster {
        if c[1] != 1 || c[2] != 1 {
            return Err(err(
                "cluster",
                format!("{c:?}: clusters along y or z are not modelled, expected [n, 1, 1]"),
            ));
        }
        let n: u32 = c.iter().product();
        if c.contains(&0)
            || n > ptx_front::program::MAX_CLUSTER
            || (0..3).any(|k| !launch.grid[k].is_multiple_of(c[k]))
        {
            return Err(err(
                "cluster",
                format!(
                    "{c:?}: expected at most {} CTAs per cluster, each dimension dividing the grid's {:?}",
                    ptx_front::program::MAX_CLUSTER,
                    launch.grid
                ),
            ));
        }
    }
    if launch.dynamic_smem > crate::symbols::MAX_SHARED_BYTES {
        return Err(err(
            "dynamic_smem",
            format!(
                "{} bytes, expected at most {}",
                launch.dynamic_smem,
                crate::symbols::MAX_SHARED_BYTES
            ),
        ));
    }
    let mut buffers: Vec<ResolvedBuffer> = Vec::new();
    let mut next = BUFFER_BASE;
    for (i, b) in launch.buffers.iter().enumerate() {
        let key = format!("buffers[{i}] ({})", b.name);
        let Some(elem) = elem_bytes(&b.ty) else {
            return Err(err(
                &key,
                format!(
                    "type `{}`, expected one of u8, s8, u16, s16, u32, s32, u64, s64, f32, f64",
                    b.ty
                ),
            ));
        };
        if buffers.iter().any(|x| x.name == b.name) {
            return Err(err(&key, format!("buffer `{}` is declared twice", b.name)));
        }
        if b.len == 0 || b.len > MAX_BUFFER_LEN {
            return Err(err(
                &key,
                format!("len {}, expected 1..={MAX_BUFFER_LEN}", b.len),
            ));
        }
        let given = [b.values.is_some(), b.fill.is_some(), b.file.is_some()]
            .iter()
            .filter(|x| **x)
            .count();
        if given > 1 {
            return Err(err(&key, "give one of values, fill, file".into()));
        }
        let vals: Vec<serde_yaml::Value> = if let Some(v) = &b.values {
            v.clone()
        } else if let Some(f) = &b.file {
            read_values(dir, f, &key)?
        } else {
            let f = b
                .fill
                .clone()
                .unwrap_or(serde_yaml::Value::Number(0.into()));
            vec![f; b.len as usize]
        };
        if vals.len() as u64 != b.len {
            return Err(err(
                &key,
                format!("{} values given, expected len = {}", vals.len(), b.len),
            ));
        }
        let data = vals
            .iter()
            .enumerate()
            .map(|(k, v)| value_bits(v, &b.ty).map_err(|m| err(&key, format!("element {k}: {m}"))))
            .collect::<Result<Vec<u64>, String>>()?;
        let align = 256;
        let base = next.div_ceil(align) * align;
        next = base + b.len * elem;
        buffers.push(ResolvedBuffer {
            name: b.name.clone(),
            base,
            elem,
            ty: b.ty.clone(),
            data,
        });
    }
    let mut expect = Vec::new();
    for (i, e) in launch.expect.iter().enumerate() {
        let key = format!("expect[{i}]");
        let Some(k) = buffers.iter().position(|b| b.name == e.buffer) else {
            return Err(err(
                &key,
                format!(
                    "buffer `{}` is not declared (buffers: {})",
                    e.buffer,
                    buffers
                        .iter()
                        .map(|b| b.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        };
        let vals = match (&e.values, &e.file) {
            (Some(v), None) => v.clone(),
            (None, Some(f)) => read_values(dir, f, &key)?,
            _ => return Err(err(&key, "give one of values, file".into())),
        };
        if vals.len() as u64 > buffers[k].data.len() as u64 {
            return Err(err(
                &key,
                format!(
                    "{} values, expected at most the buffer's {}",
                    vals.len(),
                    buffers[k].data.len()
                ),
            ));
        }
        let ty = buffers[k].ty.clone();
        let bits = vals
            .iter()
            .enumerate()
            .map(|(j, v)| value_bits(v, &ty).map_err(|m| err(&key, format!("element {j}: {m}"))))
            .collect::<Result<Vec<u64>, String>>()?;
        expect.push((k, bits));
    }
    let grid_workspace = if launch.cooperative {
        let base = next.div_ceil(256) * 256;
        buffers.push(ResolvedBuffer {
            name: "(grid workspace)".into(),
            base,
            elem: 4,
            ty: "u32".into(),
            data: vec![0; 4],
        });
        base
    } else {
        0
    };
    Ok(Resolved {
        launch,
        buffers,
        expect,
        file: file.to_string(),
        grid_workspace,
    })
}

/// The bytes of the kernel's parameters: each `params:` value (a buffer's
/// address or an integer) at its parameter's offset (aligned to its size).
/// `decl`: the entry's parameters (name, bytes).
pub fn param_values(r: &Resolved, decl: &[(String, u64)]) -> Result<Vec<(String, u64)>, String> {
    let p = &r.launch.params;
    if p.len() != decl.len() {
        return Err(format!(
            "{}: params: {} values given, expected {} (entry `{}` takes {})",
            r.file,
            p.len(),
            decl.len(),
            r.launch.entry,
            decl.iter()
                .map(|(n, b)| format!("{n}: {b} bytes"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    p.iter()
        .zip(decl)
        .enumerate()
        .map(|(i, (v, (name, bytes)))| {
            let val =
                if let Some(s) = v.as_str() {
                    r.buffer(s).map(|b| b.base).ok_or_else(|| {
                        format!(
                        "{}: params[{i}] ({name}): `{s}` is not a declared buffer (buffers: {})",
                        r.file,
                        r.buffers.iter().map(|b| b.name.as_str()).collect::<Vec<_>>().join(", ")
                    )
                    })?
                } else {
                    let ty = match bytes {
                        1 => "u8",
                        2 => "u16",
                        4 => "u32",
                        _ => "u64",
                    };
                    let signed = format!("s{}", &ty[1..]);
                    value_bits(v, ty)
                        .or_else(|_| value_bits(v, &signed))
                        .map_err(|m| format!("{}: params[{i}] ({name}): {m}", r.file))?
                };
            Ok((name.clone(), val))
        })
        .collect()
}
