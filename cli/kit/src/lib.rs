//! The unit-independent half of the `membar` command line.
//!
//! A unit is one [`entry::UnitEntry`], declared in the unit's own folder
//! (`hw/<unit>/entry`) and listed once in `cli/src/registry.rs`. This crate
//! holds what every entry is built from and what every command shares:
//!
//! - [`common`]: [`common::CmdError`] (exit 2 for bad input, 1 for a failed
//!   run), bounded readers of configuration and Verilog files, the
//!   generated-Verilog cache (`target/membar-generated/`);
//! - [`output`]: files a command writes, never over a user's file;
//! - [`entry`]: [`entry::UnitEntry`] and its parts, the `--unit` name;
//! - [`kit`]: the [`kit::Kit`] trait a unit implements for `soak` / `bench`
//!   (config loader, Verilog, covered model, stimulus, scoreboard);
//! - [`soak`], [`bench`], [`sweep`]: those commands, written once over a kit
//!   or a [`sweep::SweepEntry`];
//! - [`synth`]: the yosys / nextpnr flow and its figures;
//! - `formal_tests` (feature `formal-tests`, test support for the entry
//!   crates' `tests/formal*.rs`): a shipped configuration's harness through
//!   its entry, and the mutant tests over a unit's table.

pub mod bench;
pub mod common;
pub mod entry;
#[cfg(feature = "formal-tests")]
pub mod formal_tests;
pub mod kit;
pub mod output;
pub mod soak;
pub mod sweep;
pub mod synth;
