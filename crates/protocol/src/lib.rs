//! How a weft client and server talk, and where they meet.
//!
//! Every message is a frame: a 4-byte little-endian length, a 1-byte tag, a payload. Terminal
//! bytes ([`Message::Input`], [`Message::Output`]) travel raw; control messages as JSON. The
//! first message each way is a [`Hello`] carrying [`PROTOCOL_VERSION`], so a client and server of
//! different versions fail with a message that says what to do instead of hanging.

mod codec;
pub mod keynames;
mod message;
pub mod paths;
pub mod tty_pass;

pub use codec::{FrameCodec, ProtocolError, MAX_FRAME_BYTES, MAX_HELLO_FRAME_BYTES};
pub use message::{
    clamp_size, Attach, ExitNotice, Hello, Message, NewSession, PaneInfo, Reply, Request,
    SessionInfo, EXIT_SERVER_ENDING, MAX_COLS, MAX_ROWS, PROTOCOL_VERSION,
};
