//! The weft client: talks to the server over its socket, starting it when needed, and for
//! attached sessions turns the user's terminal into a raw byte pipe (keys in, frames out).

mod attach;
mod connect;
mod terminal;

pub use attach::current_size;
pub use attach::{run_attached, AttachEnd};
pub use connect::{connect, connect_or_start, request, ClientError, Conn, ServerStart};
pub use terminal::terminal_size;
