//! PTX front end for membar-rtl: the synchronisation subset of PTX (memory
//! operations, `membar`/`fence`, named and cluster barriers, mbarrier, bulk
//! async copies and groups, plus labels, predicates, `setp`, `mov`, `add`,
//! `bra`), a YAML header placing warps, and the table lowering each form to
//! what an sm_90 SM does (as measured, `data/calibration/`).

pub mod error;
pub mod inline;
pub mod lexer;
pub mod lower;
pub mod parser;
pub mod program;

pub use error::PtxError;
pub use lower::{lower_inst, lower_program, Lowered, Row, TABLE};
pub use parser::{Decl, Inst, Module, Operand};
pub use program::{parse, Header, Litmus, Program};
