//! Emitting a unit's Verilog: rust-hdl calls the top `top` and every
//! sub-block instance `top$path$to$it`; [`prefixed_modules`] renames `top` to
//! a configuration prefix (so several configurations can live in one design)
//! and every `$` to `__`. The contract's ANSI wrapper comes from
//! `unit_ports::verilog_wrapper`.

use rust_hdl::prelude::*;

/// rust-hdl's modules of `top`, renamed under `prefix`.
pub fn prefixed_modules(top: &dyn Block, prefix: &str) -> Result<String, String> {
    let mut defines = ModuleDefines::default();
    top.accept("top", &mut defines);
    rename(&defines.defines(), prefix)
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
