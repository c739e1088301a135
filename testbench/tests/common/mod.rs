//! Test support shared by the testbench's integration tests (not part of
//! the library's API).

pub mod standin;
