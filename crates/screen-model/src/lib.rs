//! weft's terminal emulator: bytes in, a screen out.
//!
//! Pure and synchronous: no tokio, no I/O. [`Screen::feed`] runs bytes through `vte` and a
//! semantic [`Handler`] into a grid of [`Cell`]s with cursor, modes, margins, charsets, both
//! buffers and a compact [`Scrollback`]. Rows carry damage stamps ([`Screen::seqno`],
//! [`Screen::changed_rows_since`], [`Screen::row_seq`]) so renderers send only what changed. Replies to the program
//! and events for the host are queued and bounded. Hostile input costs bounded time and memory.
//!
//! ```
//! let mut screen = weft_screen_model::Screen::new(20, 3);
//! screen.feed(b"hello\r\n\x1b[1mworld");
//! assert_eq!(screen.row(1).unwrap().text(), "world");
//! ```

mod apply;
mod ascii_row;
mod bulk;
pub mod cell;
pub mod charset;
pub mod handler;
pub mod keyboard;
pub mod modes;
pub mod palette;
pub mod pane_colours;
pub mod parser;
mod reflow;
pub mod row;
pub mod screen;
pub mod scrollback;
pub mod style;
pub mod width;
pub mod x11_colours;

pub use cell::{Attrs, Cell, CellExtra, CellFlags, Color, Hyperlink, Pen, Rgb, UnderlineStyle};
pub use handler::Handler;
pub use modes::{Modes, MouseEncoding, MouseTracking};
pub use row::Row;
pub use screen::{CursorState, DropCounts, Event, Screen};
pub use scrollback::Scrollback;
