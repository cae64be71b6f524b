//! Files made from a terminal, shared by weft's server and command line and by the testkit:
//!
//! - [`asciicast`]: asciicast v2 recordings (what asciinema plays), written event by event with
//!   output split mid-UTF-8 kept whole, and read back line by line.
//! - [`svg`]: a picture of a [`weft_screen_model::Screen`] as SVG text, from its cells.
//!
//! Pure functions and small state machines: no I/O beyond a reader handed in, no tokio.

pub mod asciicast;
pub mod svg;
