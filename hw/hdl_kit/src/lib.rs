//! hdl-kit: what every unit's rust-hdl RTL crate shares.
//!
//! - [`hdl_ports`]: [`hdl_port_io!`] drives a rust-hdl top's input signals
//!   from a unit's `Inputs` and reads its `Outputs`, expanding the unit's
//!   one port declaration (crate `unit-ports`);
//! - [`emit`]: rust-hdl's Verilog renamed under a configuration prefix.
//! - [`onehot`]: the one-hot decoder primitive the units' RTL shares.
//! - [`ram_fwd`]: a field in block RAM with write-to-read forwarding (the
//!   bar unit's barriers, the mbarrier unit's entries).
//! - [`specialize`]: Verilog for widths not compiled in, from an emitter
//!   crate built on demand.

pub mod emit;
pub mod hdl_ports;
pub mod onehot;
pub mod ram_fwd;
pub mod release;
pub use unit_ports;
pub mod specialize;
pub mod waivers;
