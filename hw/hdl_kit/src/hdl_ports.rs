//! Driving and reading a rust-hdl top from a unit's port declaration.
//!
//! A unit's model crate declares its ports once (`membar_unit_ports!`, see
//! crate `unit-ports`); the RTL top has a `Signal` field per port with the
//! same name. [`hdl_port_io!`] expands that declaration into the assignments
//! of one cycle: `drive` copies every input field of an `Inputs` value onto
//! the top's input signals, `read` fills an `Outputs` value from the top's
//! output signals. The clock is left to the caller.
//!
//! ```text
//! membar_unit_env::membar_unit_ports!(hdl_kit::hdl_port_io, (drive uut inputs));
//! membar_unit_env::membar_unit_ports!(hdl_kit::hdl_port_io, (read uut outputs));
//! ```

use rust_hdl::prelude::*;

/// A signal value that can be set from a port value.
pub trait FromPort {
    fn from_port(v: u64) -> Self;
}

impl FromPort for bool {
    fn from_port(v: u64) -> Self {
        v & 1 != 0
    }
}

impl<const N: usize> FromPort for Bits<N> {
    fn from_port(v: u64) -> Self {
        v.into()
    }
}

/// A signal value that can be read as a port value.
pub trait ToPort {
    fn to_port(&self) -> u64;
}

impl ToPort for bool {
    fn to_port(&self) -> u64 {
        *self as u64
    }
}

impl<const N: usize> ToPort for Bits<N> {
    fn to_port(&self) -> u64 {
        u64::from(*self)
    }
}

/// See the module docs.
#[macro_export]
macro_rules! hdl_port_io {
    (
        (($mode:ident $u:ident $v:ident))
        unit $unit:ident, module $module:literal, config $cfg:ty, inputs $inputs:ident, outputs $outputs:ident;
        |$c:ident| [ $( $(#[$m:meta])* $name:ident : $dir:ident $ty:ty = $w:expr ),* $(,)? ]
    ) => {
        $( $crate::hdl_port_io!(@ $mode $dir $u $v $name); )*
    };
    (@ drive input $u:ident $v:ident $name:ident) => {
        $u.$name.next = $crate::hdl_ports::FromPort::from_port($crate::unit_ports::PortValue::to_u64($v.$name))
    };
    (@ read output $u:ident $v:ident $name:ident) => {
        $v.$name = $crate::unit_ports::PortValue::from_u64($crate::hdl_ports::ToPort::to_port(&$u.$name.val()))
    };
    (@ $mode:ident $dir:ident $u:ident $v:ident $name:ident) => {};
}
