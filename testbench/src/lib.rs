//! Verilator harness (see README).
