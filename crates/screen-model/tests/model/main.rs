//! Screen-model tests, one module per family of sequences. One test binary, fast to link.

#![allow(clippy::unwrap_used)] // Test helpers may panic on failure.

#[macro_use]
mod support;

mod charsets;
mod cursor;
mod damage;
mod editing;
mod hostile;
mod memory;
mod modes;
mod osc_dcs;
mod printing;
mod properties;
mod replies;
mod resize;
mod scrollback;
mod scrolling;
mod sgr;
mod split;
mod unicode;
