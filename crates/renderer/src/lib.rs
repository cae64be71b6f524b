//! What one client's terminal should show, and the bytes that get it there.
//!
//! The server composes a [`Frame`] per client (pane cells, later borders and a status line) and
//! marks the rows it changed. [`Renderer::render`] compares those rows with what the terminal
//! already shows and emits only the differing cells — a scroll for rows that moved up, minimal
//! cursor moves, SGR changes, erase to end of line for blank tails — at the colour depth the
//! terminal has ([`TerminalCaps`]), wrapped in synchronized output where the terminal takes it
//! (unless small and written only at the cursor), as one buffer to write once.
//! [`FramePacer`] decides when to render: at once for a change after a pause (a key's echo), at
//! most once per frame interval while output streams, held (up to a cap) while the program has
//! synchronized output on, at once for anything that is not pane output; and whether a frame
//! draws the focused pane alone ([`FrameScope`]).

mod depth;
mod frame;
mod pacer;
mod render;
mod scroll;

pub use depth::{nearest_16, nearest_256, ColorDepth, TerminalCaps};
pub use frame::{Frame, OuterModes};
pub use pacer::{FocusedChange, FramePacer, FrameScope, MAX_SYNC_HOLD};
pub use render::{Renderer, KEPT_SCRATCH_BYTES};
