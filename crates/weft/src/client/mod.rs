//! The weft client: talks to the server over its socket, starting it when needed, and for
//! attached sessions hands the user's terminal to the server (or, with `WEFT_TTY_PROXY=1`,
//! carries keys and frames itself), forwards size changes and restores the terminal at the end.

mod attach;
mod connect;
mod fork_start;
mod terminal;

pub use attach::current_size;
pub use attach::{hand_over_terminal, run_attached};
pub use connect::{
    connect, connect_or_start, request, request_streamed, ClientError, Conn, ServerStart,
};
pub use fork_start::start_server_by_fork;
