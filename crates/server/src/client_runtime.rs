//! The runtime attached clients' loops run on: their terminals' keys are read, decoded and
//! sent to panes by a thread of its own, not by the server's workers.
//!
//! A terminal watched by the server's runtime is noticed only when one of its workers polls
//! the reactor: at once when a worker is idle, but while panes flood every worker is busy
//! parsing, and a busy worker polls the reactor only every 61 tasks. With eight panes
//! flooding, a keystroke waited there 0.65 ms at the median and 2.9 ms at p90 before the
//! server read it (`perf` syscall tracepoints, from the bench's write to the server's read).
//! This runtime's one worker sleeps in its own reactor until a key comes, and wakes with the
//! server's short scheduler slice ([`crate::sched`]), so a key is read as promptly under a
//! flood as when all is quiet, and the keystroke path crosses no more threads than before.
//!
//! Only the loop itself runs here: reading keys, decoding them, writing them to panes, the
//! menus and prompts. Commands it runs (bindings, the prompt, copy mode) go to the server's
//! runtime, and so do the renderer and the frame writer (beside the pty readers in a build
//! without `tokio_unstable`): nothing slow or long may hold the one worker every client's
//! keys need. At shutdown the loops here end with the process, just after the server's
//! runtime.

use std::sync::OnceLock;
use tokio::net::UnixStream;
use tokio::runtime::Runtime;
use tokio_util::codec::{Encoder, Framed, FramedParts};

/// Workers of the clients' runtime: one. Its work is short (a key's decoding, a binding, a
/// write to a pane); a second worker would be woken to look for work whenever the first is,
/// a wake-up on every keystroke for nothing.
const CLIENT_WORKERS: usize = 1;

/// Made on first use and kept for the process's life; `None` if it could not be made.
static CLIENT_RUNTIME: OnceLock<Option<Runtime>> = OnceLock::new();

/// The clients' runtime, made when the server starts (`listener::run`) or on first use.
/// `None` if it could not be made: clients then run on the server's runtime, as everything
/// else does.
pub fn client_runtime() -> Option<&'static Runtime> {
    CLIENT_RUNTIME.get_or_init(start_client_runtime).as_ref()
}

fn start_client_runtime() -> Option<Runtime> {
    crate::sched::side_runtime("weft-client", CLIENT_WORKERS, "attached clients")
}

/// Runs `run` with `framed` on the clients' runtime, its socket moved to that runtime's
/// reactor, and waits for it to end; on the current runtime (the same way, as a task of its
/// own) if the clients' could not be made. `I` is what the codec encodes.
pub async fn run_on_clients<C, I, F, Fut>(framed: Framed<UnixStream, C>, run: F)
where
    C: Encoder<I> + Send + 'static,
    I: 'static,
    F: FnOnce(Framed<UnixStream, C>) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let runtime = match client_runtime() {
        Some(clients) => clients.handle().clone(),
        None => tokio::runtime::Handle::current(),
    };
    let detached = match DetachedSocket::detach(framed) {
        Ok(detached) => detached,
        Err(e) => return tracing::warn!("a client's socket could not be moved: {e}"),
    };
    let on_clients = runtime.spawn(async move {
        match detached.reattach::<I>() {
            Ok(framed) => run(framed).await,
            Err(e) => tracing::warn!("a client's socket could not be watched: {e}"),
        }
    });
    // A panic there is counted by the panic hook; the connection ends either way.
    let _ = on_clients.await;
}

/// A framed socket taken out of the reactor that watched it, with what was read or queued
/// but not yet handled, to be watched by another runtime's.
struct DetachedSocket<C> {
    socket: std::os::unix::net::UnixStream,
    codec: C,
    read_buf: bytes::BytesMut,
    write_buf: bytes::BytesMut,
}

impl<C> DetachedSocket<C> {
    /// Takes `framed`'s socket out of its runtime's reactor.
    fn detach(framed: Framed<UnixStream, C>) -> std::io::Result<Self> {
        let parts = framed.into_parts();
        Ok(DetachedSocket {
            socket: parts.io.into_std()?,
            codec: parts.codec,
            read_buf: parts.read_buf,
            write_buf: parts.write_buf,
        })
    }

    /// The framed socket again, watched by the current runtime's reactor; `I` is what the
    /// codec encodes.
    fn reattach<I>(self) -> std::io::Result<Framed<UnixStream, C>>
    where
        C: Encoder<I>,
    {
        let io = UnixStream::from_std(self.socket)?;
        let mut parts = FramedParts::new::<I>(io, self.codec);
        parts.read_buf = self.read_buf;
        parts.write_buf = self.write_buf;
        Ok(Framed::from_parts(parts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tasks_spawned_there_run_on_its_own_thread() {
        let runtime = client_runtime().expect("the clients' runtime starts");
        let name = runtime.block_on(async {
            tokio::spawn(async { std::thread::current().name().map(str::to_owned) })
                .await
                .expect("the task ran")
        });
        assert_eq!(name.as_deref(), Some("weft-client"));
    }

    /// Bytes read before the move are not lost, and the socket works on the other runtime.
    #[test]
    fn a_moved_socket_keeps_what_was_read_and_works_on_the_other_runtime() {
        use futures::{SinkExt, StreamExt};
        use tokio_util::codec::LinesCodec;
        let first = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let (here, mut there) = first.block_on(async {
            let (a, b) = UnixStream::pair().expect("a socket pair");
            let mut here = Framed::new(a, LinesCodec::new());
            let mut there = Framed::new(b, LinesCodec::new());
            // One write, so one read takes both lines and the second waits in the buffer.
            there.feed("one").await.expect("queued");
            there.feed("two").await.expect("queued");
            SinkExt::<&str>::flush(&mut there).await.expect("sent");
            assert_eq!(here.next().await.expect("a line").expect("read"), "one");
            (DetachedSocket::detach(here).expect("detached"), there)
        });
        let clients = client_runtime().expect("the clients' runtime starts");
        let lines = clients.block_on(async move {
            let mut here = here.reattach::<String>().expect("reattached");
            // A line lost in the move would never come.
            let second = tokio::time::timeout(std::time::Duration::from_secs(5), here.next())
                .await
                .expect("the second line, read before the move, is still there")
                .expect("a line")
                .expect("read");
            here.send("three").await.expect("sent");
            second
        });
        assert_eq!(lines, "two");
        let answer = first.block_on(async { there.next().await.expect("a line").expect("read") });
        assert_eq!(answer, "three");
    }
}
