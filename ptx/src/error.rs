//! Located errors: every error names the file, line and column, what was
//! found and what was expected.

use std::fmt;

/// An error at a place in a PTX program file (1-based line and column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PtxError {
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub msg: String,
}

impl PtxError {
    pub fn new(file: &str, line: usize, col: usize, msg: impl Into<String>) -> Self {
        PtxError {
            file: file.to_string(),
            line,
            col,
            msg: msg.into(),
        }
    }
}

impl fmt::Display for PtxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file, self.line, self.col, self.msg)
    }
}

impl std::error::Error for PtxError {}

pub type Result<T> = std::result::Result<T, PtxError>;
