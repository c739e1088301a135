//! Emitting a unit's Verilog: rust-hdl calls the top `top` and every
//! sub-block instance `top$path$to$it`, one module per instance;
//! [`prefixed_modules`] renames `top` to a configuration prefix (so several
//! configurations can live in one design) and every `$` to `__`, then
//! [`share_identical_modules`] emits each distinct module body once: a
//! module identical to an earlier one (same text up to its own name, once its
//! children are shared too) is dropped and its instantiations name the
//! earlier one. Instance names, the top and the wrapper are unchanged, so
//! hierarchical paths (`dut.core.ctas__0.count__5.q`) are the same.
//! [`unshare_modules`] is the exact inverse (one module per instance again,
//! named by its instance path), used by tools that edit one instance's
//! module (the formal mutants). The contract's ANSI wrapper comes from
//! `unit_ports::verilog_wrapper`.

/// The folder, under a unit's `verilog_out/<unit>/`, of its reduced-range
/// configurations: checked in for exploration and formal, not released IP
/// (e.g. `verilog_out/mbarrier_unit/reduced_range/<name>/`).
pub const REDUCED_RANGE_DIR: &str = "reduced_range";

use rust_hdl::prelude::*;

/// rust-hdl's modules of `top`, renamed under `prefix`, identical module
/// bodies emitted once ([`share_identical_modules`]).
pub fn prefixed_modules(top: &dyn Block, prefix: &str) -> Result<String, String> {
    Ok(share_identical_modules(&prefixed_modules_flat(
        top, prefix,
    )?))
}

/// rust-hdl's modules of `top`, renamed under `prefix`: one module per instance.
pub fn prefixed_modules_flat(top: &dyn Block, prefix: &str) -> Result<String, String> {
    let mut defines = ModuleDefines::default();
    top.accept("top", &mut defines);
    rename(&defines.defines(), prefix)
}

/// One module of an emitted text: its name and the byte range of its
/// segment (from `module NAME(` to the next module's start, or to the end
/// of its `endmodule // NAME` line for the last one).
struct Segment {
    name: String,
    start: usize,
    /// End of the `endmodule // NAME` line (with its newline).
    end: usize,
    /// Start of the next module (or `end` for the last).
    next: usize,
}

fn segments(text: &str) -> Vec<Segment> {
    let mut v: Vec<Segment> = Vec::new();
    let mut pos = 0;
    while let Some(off) = find_line_start(text, pos, "module ") {
        let rest = &text[off + 7..];
        let Some(paren) = rest.find('(') else { break };
        let name = rest[..paren].trim().to_string();
        let close = format!("endmodule // {name}");
        let Some(e) = text[off..].find(&close) else {
            break;
        };
        let mut end = off + e + close.len();
        if text[end..].starts_with('\n') {
            end += 1;
        }
        if let Some(last) = v.last_mut() {
            last.next = off;
        }
        v.push(Segment {
            name,
            start: off,
            end,
            next: end,
        });
        pos = end;
    }
    v
}

/// Byte offset of the first line at or after `pos` that starts with `pat`.
fn find_line_start(text: &str, pos: usize, pat: &str) -> Option<usize> {
    let mut i = pos;
    loop {
        if text[i..].starts_with(pat) && (i == 0 || text.as_bytes()[i - 1] == b'\n') {
            return Some(i);
        }
        let nl = text[i..].find('\n')?;
        i += nl + 1;
        if i >= text.len() {
            return None;
        }
    }
}

/// An instantiation line `<indent><module> <instance>(`: (indent, module, instance).
fn instantiation(line: &str) -> Option<(&str, &str, &str)> {
    let body = line.trim_start();
    let indent = &line[..line.len() - body.len()];
    if indent.is_empty() || !body.ends_with('(') {
        return None;
    }
    let mut it = body[..body.len() - 1].split(' ');
    let (m, inst) = (it.next()?, it.next()?);
    if it.next().is_some() || m.is_empty() || inst.is_empty() {
        return None;
    }
    Some((indent, m, inst))
}

/// `block` (the text of module `name`) with its own name replaced by
/// `new_name` and every instantiation of a module in `rename` pointed at
/// the module it maps to.
fn rewrite(
    block: &str,
    name: &str,
    new_name: &str,
    rename: &dyn Fn(&str, &str) -> Option<String>,
) -> String {
    let mut out = String::with_capacity(block.len());
    for line in block.split_inclusive('\n') {
        let (l, nl) = match line.strip_suffix('\n') {
            Some(l) => (l, "\n"),
            None => (line, ""),
        };
        if let Some(rest) = l.strip_prefix("module ") {
            if let Some(args) = rest.strip_prefix(name) {
                if args.starts_with('(') {
                    out += &format!("module {new_name}{args}{nl}");
                    continue;
                }
            }
        }
        if l == format!("endmodule // {name}") {
            out += &format!("endmodule // {new_name}{nl}");
            continue;
        }
        if let Some((indent, m, inst)) = instantiation(l) {
            if let Some(to) = rename(m, inst) {
                out += &format!("{indent}{to} {inst}({nl}");
                continue;
            }
        }
        out += line;
    }
    out
}

/// Emit each distinct module once: a module whose text equals an earlier
/// module's (up to its own name, after the instantiations in both are
/// pointed at their shared modules) is dropped, and every instantiation of
/// it names the earlier (the first in emission order). Repeats until no
/// module merges, so identical subtrees collapse bottom-up. Everything
/// outside the modules is kept.
pub fn share_identical_modules(text: &str) -> String {
    let segs = segments(text);
    let names: std::collections::HashSet<&str> = segs.iter().map(|s| s.name.as_str()).collect();
    let mut alias: std::collections::HashMap<String, String> = Default::default();
    loop {
        let mut seen: std::collections::HashMap<String, &str> = Default::default();
        let mut merged = false;
        for s in &segs {
            if alias.contains_key(&s.name) {
                continue;
            }
            let key = rewrite(&text[s.start..s.end], &s.name, "@", &|m, _| {
                names
                    .contains(m)
                    .then(|| alias.get(m).cloned().unwrap_or_else(|| m.to_string()))
            });
            match seen.get(&key) {
                Some(first) => {
                    alias.insert(s.name.clone(), first.to_string());
                    merged = true;
                }
                None => {
                    seen.insert(key, &s.name);
                }
            }
        }
        if !merged {
            break;
        }
    }
    if alias.is_empty() {
        return text.to_string();
    }
    // Each kept module is preceded by the text just before it in the
    // original (the blank lines between modules, or a comment before the
    // wrapper); the first keeps everything before it.
    let mut out = String::with_capacity(text.len());
    for (k, s) in segs.iter().enumerate() {
        if alias.contains_key(&s.name) {
            continue;
        }
        let gap_start = if out.is_empty() { 0 } else { segs[k - 1].end };
        out += &text[gap_start..s.start];
        out += &rewrite(&text[s.start..s.end], &s.name, &s.name, &|m, _| {
            alias.get(m).cloned()
        });
    }
    if let Some(last) = segs.last() {
        out += &text[last.end..];
    }
    out
}

/// [`unshare_modules`] under the first module of `text` (the rust-hdl top
/// of an emitted file; the header before it and the wrapper after it are
/// kept).
pub fn unshare_file(text: &str) -> Result<String, String> {
    let first = segments(text)
        .into_iter()
        .next()
        .ok_or("no module in the text")?;
    unshare_modules(text, &first.name)
}

/// The inverse of [`share_identical_modules`]: one module per instance
/// again, each named by its instance path from the top module `prefix`
/// (`<parent>__<instance>`, rust-hdl's own naming), in rust-hdl's order
/// (sorted by that path). Text outside the modules under `prefix` is kept.
pub fn unshare_modules(text: &str, prefix: &str) -> Result<String, String> {
    let segs = segments(text);
    let by_name: std::collections::HashMap<&str, &Segment> =
        segs.iter().map(|s| (s.name.as_str(), s)).collect();
    let ours: Vec<&Segment> = segs
        .iter()
        .filter(|s| s.name == prefix || s.name.starts_with(&format!("{prefix}__")))
        .collect();
    let (Some(first), Some(last)) = (ours.first(), ours.last()) else {
        return Err(format!("no module `{prefix}` in the text"));
    };
    if !by_name.contains_key(prefix) {
        return Err(format!("no module `{prefix}` in the text"));
    }
    // The separator between two modules, as rust-hdl writes it.
    let sep = if ours.len() > 1 {
        text[first.end..first.next].to_string()
    } else {
        "\n\n".to_string()
    };
    let mut made: Vec<(String, String)> = Vec::new();
    let mut stack = vec![(prefix.to_string(), prefix.to_string())];
    while let Some((natural, canonical)) = stack.pop() {
        if made.len() > 1_000_000 {
            return Err("more than 10^6 instances".into());
        }
        let s = by_name[canonical.as_str()];
        let children = std::cell::RefCell::new(Vec::new());
        let block = rewrite(&text[s.start..s.end], &canonical, &natural, &|m, inst| {
            by_name.contains_key(m).then(|| {
                let child = format!("{natural}__{inst}");
                children.borrow_mut().push((child.clone(), m.to_string()));
                child
            })
        });
        stack.extend(children.into_inner());
        made.push((natural, block));
    }
    made.sort_by_key(|(n, _)| n.replace("__", "$"));
    let blocks: Vec<String> = made.into_iter().map(|(_, b)| b).collect();
    let mut out = String::with_capacity(text.len() * 2);
    out += &text[..first.start];
    out += &blocks.join(&sep);
    out += &text[last.end..];
    Ok(out)
}

/// Rename rust-hdl's identifiers: a leading `top` becomes `prefix`, every `$`
/// becomes `__`. Fails if an identifier already holds `__` (the renaming
/// would no longer be one-to-one).
pub fn rename(verilog: &str, prefix: &str) -> Result<String, String> {
    let mut out = String::with_capacity(verilog.len() + verilog.len() / 8);
    let mut chars = verilog.char_indices().peekable();
    let mut prev = ' ';
    while let Some((start, c)) = chars.next() {
        // An identifier starts with a letter or `_`, but not right after the
        // `'` of a sized literal (`4'hf`).
        if (c.is_ascii_alphabetic() || c == '_') && prev != '\'' && !prev.is_ascii_alphanumeric() {
            let mut end = start + c.len_utf8();
            while let Some(&(i, d)) = chars.peek() {
                if d.is_ascii_alphanumeric() || d == '_' || d == '$' {
                    end = i + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            let ident = &verilog[start..end];
            if ident.contains("__") {
                return Err(format!(
                    "rust-hdl emitted identifier `{ident}` already holds `__`; renaming `$` to `__` would be ambiguous"
                ));
            }
            let ident = match ident.strip_prefix("top") {
                Some(rest) if rest.is_empty() || rest.starts_with('$') => format!("{prefix}{rest}"),
                _ => ident.to_string(),
            };
            out += &ident.replace('$', "__");
            prev = 'x';
        } else {
            out.push(c);
            prev = c;
        }
    }
    Ok(out)
}
