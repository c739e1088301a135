//! Reading and decoding the user's input files (configs, workloads, presets,
//! grids): one bounded reader, serde_yaml decoding into the
//! `#[serde(deny_unknown_fields)]` raw structs of each file type, the mapping
//! of serde_yaml's own errors (unknown key, wrong type, syntax, alias and
//! nesting limits) to [`InputError`], and the [`Rule`]s the validation passes
//! check values against.
//!
//! A [`Rule`] is the single statement of what a key allows: the validation
//! pass checks a decoded value with it, and the error of a value serde_yaml
//! refuses (a string where a number belongs, a number beyond 64 bits) quotes
//! the same rule, so both name the file, the key (dotted path, `mmu.txn_latency`),
//! the value and what is allowed; serde_yaml's errors add the line.

use crate::config::InputError;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_yaml::Value;
use std::io::Read;
use std::path::Path;

/// Largest input file read (4 MiB): a bigger or endless file (`/dev/zero`)
/// is refused without reading more than this.
pub const MAX_INPUT_BYTES: u64 = 4 << 20;

/// Read a whole input file of kind `what` ("config", "workload", ...) through
/// the size limit. Errors name the file, and the limit when it is the cause.
pub fn read_input(path: &Path, what: &str) -> Result<String, InputError> {
    let bytes = read_input_bytes(path, what, MAX_INPUT_BYTES)?;
    let src = path.display().to_string();
    String::from_utf8(bytes).map_err(|e| {
        InputError::new(
            &src,
            "file",
            "",
            format!("cannot read the {what} file: not UTF-8 text ({e})"),
        )
    })
}

/// The project's one bounded reader: the bytes of the regular file `path`
/// (a FIFO, a device or a directory is refused before it is opened, so a
/// FIFO cannot hang the run), at most `cap` bytes (a longer file is refused
/// without reading more than `cap + 1` bytes).
pub fn read_input_bytes(path: &Path, what: &str, cap: u64) -> Result<Vec<u8>, InputError> {
    let src = path.display().to_string();
    let cannot = |e: &dyn std::fmt::Display| {
        InputError::new(
            &src,
            "file",
            "",
            format!("cannot read the {what} file: {e}"),
        )
    };
    let not_regular = |m: &std::fs::Metadata| {
        let ft = m.file_type();
        let kind = if ft.is_dir() {
            "a directory"
        } else if is_fifo(&ft) {
            "a FIFO (named pipe)"
        } else {
            "a device or other special file"
        };
        InputError::new(
            &src,
            "file",
            "",
            format!(
                "cannot read the {what} file: it is {kind}; allowed: a regular file within the {} limit",
                size_text(cap)
            ),
        )
    };
    let meta = std::fs::metadata(path).map_err(|e| cannot(&e))?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    let too_big = || {
        InputError::new(
            &src,
            "file",
            "",
            format!(
                "cannot read the {what} file: larger than the {} limit for {what} files",
                size_text(cap)
            ),
        )
    };
    if meta.len() > cap {
        return Err(too_big());
    }
    let f = std::fs::File::open(path).map_err(|e| cannot(&e))?;
    // The file may have been replaced between the check and the open.
    let meta = f.metadata().map_err(|e| cannot(&e))?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    let mut bytes = Vec::new();
    f.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| cannot(&e))?;
    if bytes.len() as u64 > cap {
        return Err(too_big());
    }
    Ok(bytes)
}

fn size_text(cap: u64) -> String {
    if cap.is_multiple_of(1 << 20) {
        format!("{} MiB", cap >> 20)
    } else {
        format!("{cap} bytes")
    }
}

#[cfg(unix)]
fn is_fifo(ft: &std::fs::FileType) -> bool {
    std::os::unix::fs::FileTypeExt::is_fifo(ft)
}

#[cfg(not(unix))]
fn is_fifo(_ft: &std::fs::FileType) -> bool {
    false
}

/// What a key allows. The validation passes check values with it and
/// error messages quote [`Rule::allowed`].
#[derive(Clone, Copy, Debug)]
pub enum Rule {
    /// An unsigned integer in `lo..=hi`.
    Int(u64, u64),
    /// One of a fixed set of unsigned integers.
    OneOf(&'static [u32]),
    /// A finite number in `lo..=hi`.
    Num(f64, f64),
    /// A cycle count or `{min, max}`, each bound in `lo..=hi`.
    Cycles(u64, u64),
    /// Any other shape, described in words.
    Text(&'static str),
}

impl Rule {
    pub fn allowed(&self) -> String {
        match *self {
            Rule::Int(lo, hi) => format!("an integer in {lo}..={hi}"),
            Rule::OneOf(c) => format!(
                "one of {}",
                c.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Rule::Num(lo, hi) => format!("a number in {lo}..={hi}"),
            Rule::Cycles(lo, hi) => {
                format!("an integer in {lo}..={hi} or a mapping {{min: A, max: B}} with A <= B")
            }
            Rule::Text(t) => t.to_string(),
        }
    }

    /// `v` checked against an integer rule (`Int`, `OneOf`, `Cycles` bounds).
    pub fn int(&self, source: &str, key: &str, v: u64) -> Result<u64, InputError> {
        let ok = match *self {
            Rule::Int(lo, hi) | Rule::Cycles(lo, hi) => (lo..=hi).contains(&v),
            Rule::OneOf(c) => c.iter().any(|&x| x as u64 == v),
            Rule::Num(..) | Rule::Text(_) => false,
        };
        let allowed = match *self {
            Rule::Cycles(lo, hi) => Rule::Int(lo, hi).allowed(),
            _ => self.allowed(),
        };
        if ok {
            Ok(v)
        } else {
            Err(InputError::new(source, key, v, allowed))
        }
    }

    /// `v` checked against an integer rule, as u32 (every such rule fits).
    pub fn u32(&self, source: &str, key: &str, v: u64) -> Result<u32, InputError> {
        self.int(source, key, v).map(|x| x as u32)
    }

    /// `v` checked against a `Num` rule.
    pub fn num(&self, source: &str, key: &str, v: f64) -> Result<f64, InputError> {
        match *self {
            // `+ 0.0` reads -0 as 0, as the hand-written reader did.
            Rule::Num(lo, hi) if v.is_finite() && v >= lo && v <= hi => Ok(v + 0.0),
            _ => Err(InputError::new(source, key, v, self.allowed())),
        }
    }
}

/// `path.key`, or `key` when `path` is empty: the key named in errors.
pub fn join_key(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// A YAML value as the user wrote it, for error messages.
pub fn yaml_repr(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("{s:?}"),
        Value::Sequence(_) => "a list".into(),
        Value::Mapping(_) => "a mapping".into(),
        Value::Tagged(t) => format!("{} …", t.tag),
    }
}

/// `deserialize_with` for an optional key whose value may not be `null`:
/// absent is `None` (with `#[serde(default)]`), `null` is a type error.
pub fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// A YAML unsigned integer. Unlike `u64`, which serde_yaml fills only from
/// digits, `-0` is 0 too (as the YAML 1.2 core schema reads it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UInt(pub u64);

impl<'de> Deserialize<'de> for UInt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = UInt;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an unsigned integer")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<UInt, E> {
                Ok(UInt(v))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<UInt, E> {
                u64::try_from(v)
                    .map(UInt)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
            }
        }
        d.deserialize_any(V)
    }
}

/// `deserialize_with` for an optional unsigned integer that may not be `null`.
pub fn uint<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    UInt::deserialize(d).map(|u| Some(u.0))
}

/// `deserialize_with` for an optional unsigned integer that may be `null`
/// (`Some(None)`), e.g. `ops_per_warp: null` (unlimited).
pub fn uint_or_null<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<u64>>, D::Error> {
    Option::<UInt>::deserialize(d).map(|o| Some(o.map(|u| u.0)))
}

/// A YAML string: unlike `String`, which serde_yaml fills from any scalar
/// (`4`, `true`), only a string is accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text(pub String);

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Text;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Text, E> {
                Ok(Text(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// Where a document comes from, for decoding errors.
pub struct Doc<'a> {
    /// File name (or `<string>`) named in errors.
    pub source: &'a str,
    /// Report serde_yaml's line numbers (false when the text was generated).
    pub lines: bool,
    /// What the whole document must be (e.g. "a mapping of config keys").
    pub what: &'a str,
}

/// Decode a YAML document into `T`. An empty document (only blanks and
/// comments, or `null`) is `None`. `allowed(key)` gives what a key allows;
/// it is called with the dotted path (`mmu.txn_latency.min`, list indices
/// removed) of the key a serde_yaml error is attached to.
pub fn decode<T: DeserializeOwned>(
    doc: &Doc,
    text: &str,
    allowed: &dyn Fn(&str) -> String,
) -> Result<Option<T>, InputError> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    let decoded = serde_yaml::from_str::<Option<T>>(text).map_err(|e| {
        // A syntax error (or alias/nesting limit) anywhere in the document is
        // reported as such, even where the typed decoding stopped earlier.
        match serde_yaml::from_str::<serde::de::IgnoredAny>(text) {
            Err(syntax) => map_error(doc, text, &syntax, allowed),
            Ok(_) => map_error(doc, text, &e, allowed),
        }
    })?;
    // serde_yaml reads `!tag 3` as 3 into a number; a tag means nothing in
    // these files, so it is refused as the hand-written reader did.
    if let Ok(v) = serde_yaml::from_str::<Value>(text) {
        if let Some((key, tagged)) = find_tag(&v, "") {
            let key = if key.is_empty() {
                "<top level>".to_string()
            } else {
                key
            };
            return Err(InputError::new(
                doc.source,
                &key,
                tagged,
                format!(
                    "a value without a YAML tag: {}",
                    allowed(&strip_indices(&key))
                ),
            ));
        }
    }
    Ok(decoded)
}

/// The key path and text of the first tagged value (`!tag …`) in `v`.
fn find_tag(v: &Value, path: &str) -> Option<(String, String)> {
    match v {
        Value::Tagged(_) => Some((path.to_string(), yaml_repr(v))),
        Value::Sequence(s) => s
            .iter()
            .enumerate()
            .find_map(|(i, x)| find_tag(x, &format!("{path}[{i}]"))),
        Value::Mapping(m) => m.iter().find_map(|(k, x)| {
            let name = match k {
                Value::String(s) => s.clone(),
                other => value_key(other),
            };
            find_tag(k, path).or_else(|| find_tag(x, &join_key(path, &name)))
        }),
        _ => None,
    }
}

/// Decode an already-parsed YAML value (the sweep's generated mappings). Its
/// errors carry no line.
pub fn decode_value<T: DeserializeOwned>(
    source: &str,
    v: &Value,
    what: &str,
    allowed: &dyn Fn(&str) -> String,
) -> Result<Option<T>, InputError> {
    // Through text so serde_yaml tracks the key path for errors.
    let text = serde_yaml::to_string(v).map_err(|e| {
        InputError::new(
            source,
            "<top level>",
            "",
            format!("not representable as YAML: {e}"),
        )
    })?;
    let doc = Doc {
        source,
        lines: false,
        what,
    };
    decode(&doc, &text, allowed)
}

/// Messages serde produces (a message without a key path starts with one).
const SERDE_MESSAGES: &[&str] = &[
    "invalid type",
    "invalid value",
    "invalid length",
    "unknown variant",
    "unknown field",
    "missing field",
    "duplicate field",
    "recursion limit exceeded",
    "repetition limit exceeded",
];

/// The list indices removed from a key path: `programs[0][1]` -> `programs`.
fn strip_indices(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut depth = 0;
    for c in path.chars() {
        match c {
            '[' => depth += 1,
            ']' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// The value serde's `Unexpected` text describes, as [`yaml_repr`] writes it.
fn unexpected_repr(u: &str) -> String {
    let tick = |s: &str| {
        s.split('`')
            .nth(1)
            .map(str::to_string)
            .unwrap_or_else(|| s.to_string())
    };
    if let Some(s) = u.strip_prefix("string ") {
        s.to_string()
    } else if u.starts_with("floating point `") {
        // serde writes 1e99 out in full and -0.0 as 0: Debug keeps it short
        // and visibly a float.
        match tick(u).parse::<f64>() {
            Ok(x) => format!("{x:?}"),
            _ => tick(u),
        }
    } else if u.starts_with("integer `") || u.starts_with("boolean `") {
        tick(u)
    } else if u == "map" {
        "a mapping".into()
    } else if u == "sequence" {
        "a list".into()
    } else if u == "unit value" || u == "unit" {
        "null".into()
    } else if u == "enum" {
        "a tagged value".into()
    } else {
        u.to_string()
    }
}

/// The value at a dotted/indexed key path of the document, for messages.
fn lookup(text: &str, path: &str) -> String {
    let Ok(mut v) = serde_yaml::from_str::<Value>(text) else {
        return String::new();
    };
    for part in path.split('.') {
        let (name, idx) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !name.is_empty() {
            let next = match &v {
                Value::Mapping(m) => m
                    .iter()
                    .find(|(k, _)| match k {
                        Value::String(s) => s == name,
                        other => yaml_repr(other) == name || value_key(other) == name,
                    })
                    .map(|(_, x)| x.clone()),
                _ => None,
            };
            match next {
                Some(x) => v = x,
                None => return String::new(),
            }
        }
        for i in idx
            .split(']')
            .filter_map(|s| s.strip_prefix('[').and_then(|n| n.parse::<usize>().ok()))
        {
            match &v {
                Value::Sequence(s) if i < s.len() => v = s[i].clone(),
                _ => return String::new(),
            }
        }
    }
    yaml_repr(&v)
}

/// A non-string key as serde_yaml names it in a path.
fn value_key(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".into(),
        _ => String::new(),
    }
}

/// The names quoted in backticks in `s` (serde's lists of expected names).
fn ticked(s: &str) -> Vec<&str> {
    s.split('`').skip(1).step_by(2).collect()
}

/// A serde_yaml error as an [`InputError`] naming source (and line), key,
/// value and what is allowed.
fn map_error(
    doc: &Doc,
    text: &str,
    e: &serde_yaml::Error,
    allowed: &dyn Fn(&str) -> String,
) -> InputError {
    let mut msg = e.to_string();
    let source = match e.location() {
        Some(l) => {
            let suffix = format!(" at line {} column {}", l.line(), l.column());
            if let Some(m) = msg.strip_suffix(&suffix) {
                msg = m.to_string();
            }
            if doc.lines {
                format!("{}:{}", doc.source, l.line())
            } else {
                doc.source.to_string()
            }
        }
        None => doc.source.to_string(),
    };
    let (path, rest) = match msg.split_once(": ") {
        Some((p, r)) if !SERDE_MESSAGES.iter().any(|m| msg.starts_with(m)) => {
            (p.to_string(), r.to_string())
        }
        _ => (String::new(), msg.clone()),
    };
    let key_of = |p: &str| {
        if p.is_empty() {
            "<top level>".to_string()
        } else {
            p.to_string()
        }
    };
    let allowed_at = |p: &str| {
        if p.is_empty() {
            doc.what.to_string()
        } else {
            allowed(&strip_indices(p))
        }
    };
    if let Some(r) = rest.strip_prefix("unknown field `") {
        let (field, expected) = r.split_once('`').unwrap_or((r, ""));
        let key = join_key(&path, field);
        let known = ticked(expected);
        let allowed = if known.is_empty() {
            "unknown key; this mapping takes no keys".to_string()
        } else {
            format!("unknown key; known keys: {}", known.join(", "))
        };
        let value = lookup(text, &key);
        let value = if value.is_empty() {
            "?".to_string()
        } else {
            value
        };
        return InputError::new(&source, &key, value, allowed);
    }
    if let Some(r) = rest.strip_prefix("duplicate field `") {
        let field = r.split('`').next().unwrap_or(r);
        return InputError::new(
            &source,
            &join_key(&path, field),
            "",
            "the key is written twice; each key at most once",
        );
    }
    if let Some(r) = rest.strip_prefix("unknown variant `") {
        let name = r.split('`').next().unwrap_or(r);
        return InputError::new(
            &source,
            &key_of(&path),
            format!("{name:?}"),
            allowed_at(&path),
        );
    }
    for kind in ["invalid type: ", "invalid value: ", "invalid length: "] {
        if let Some(r) = rest.strip_prefix(kind) {
            let unexpected = r.rsplit_once(", expected ").map_or(r, |(u, _)| u);
            return InputError::new(
                &source,
                &key_of(&path),
                unexpected_repr(unexpected),
                allowed_at(&path),
            );
        }
    }
    if rest.starts_with("recursion limit exceeded") {
        return InputError::new(
            &source,
            "yaml",
            "",
            "nested too deeply (serde_yaml's limit is 128 levels); expected a flat mapping",
        );
    }
    if rest.starts_with("repetition limit exceeded") {
        return InputError::new(
            &source,
            "yaml",
            "",
            "aliases expand to too much data (alias bomb?); write the values out",
        );
    }
    if !path.is_empty() {
        // A message of our own decoders (e.g. a cycle range): name the key.
        return InputError::new(
            &source,
            &path,
            "",
            format!("{rest}; allowed: {}", allowed_at(&path)),
        );
    }
    InputError::new(
        &source,
        "yaml",
        "",
        format!("not valid YAML ({rest}); expected {}", doc.what),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_reader_refuses_big_and_endless_files() {
        let e = read_input(Path::new("/dev/zero"), "config")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("/dev/zero") && e.contains("device") && e.contains("4 MiB"),
            "{e}"
        );
        let dir = std::env::temp_dir().join(format!("membar-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.yaml");
        std::fs::write(&big, "# x\n".repeat((MAX_INPUT_BYTES / 4 + 1) as usize)).unwrap();
        let e = read_input(&big, "workload").unwrap_err().to_string();
        assert!(e.contains("big.yaml") && e.contains("limit"), "{e}");
        let ok = dir.join("ok.yaml");
        std::fs::write(&ok, "# x\n".repeat((MAX_INPUT_BYTES / 4) as usize)).unwrap();
        assert_eq!(
            read_input(&ok, "workload").unwrap().len() as u64,
            MAX_INPUT_BYTES
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn helpers() {
        assert_eq!(
            strip_indices("workload.programs[0][12]"),
            "workload.programs"
        );
        assert_eq!(unexpected_repr("integer `-1`"), "-1");
        assert_eq!(
            unexpected_repr("integer `99999999999999999999` as u128"),
            "99999999999999999999"
        );
        assert_eq!(unexpected_repr("string \"8\""), "\"8\"");
        assert_eq!(lookup("a: {b: [1, {c: x}]}\n", "a.b[1].c"), "\"x\"");
        assert_eq!(ticked("expected one of `a`, `b`"), vec!["a", "b"]);
        assert_eq!(unexpected_repr("floating point `1.5`"), "1.5");
        assert_eq!(unexpected_repr("floating point `-0`"), "-0.0");
        let doc = Doc {
            source: "t.yaml",
            lines: true,
            what: "a mapping",
        };
        #[derive(Debug, Deserialize)]
        struct N {
            #[allow(dead_code)]
            n: u64,
        }
        let e = decode::<N>(&doc, "n: !tag 3\n", &|k| format!("<{k}>"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("t.yaml") && e.contains("`n` = !tag") && e.contains("<n>"),
            "{e}"
        );
    }
}
