//! A descriptor written straight from the task that has the bytes when nothing is queued for
//! it, else by a writer task in order. Used for a pane's input (a key reaches the program
//! without a hop through the pty writer task) and for a handed-over terminal (a frame reaches
//! the user without a hop through the connection's writer task). The bounded channel to the
//! writer task still carries whatever the descriptor does not take at once, so a slow reader
//! still holds senders back.

use bytes::Bytes;
use std::sync::Mutex;
use tokio::sync::mpsc;
use weft_pty_io::PtyWriter;

/// A non-blocking writer shared by senders and one writer task.
#[derive(Debug)]
pub struct DirectWriter {
    writer: PtyWriter,
    /// Messages handed to the writer task and not yet written by it.
    queued: Mutex<usize>,
}

impl DirectWriter {
    /// Wraps `writer` (non-blocking, as `pty_io` makes it).
    pub fn new(writer: PtyWriter) -> Self {
        DirectWriter {
            writer,
            queued: Mutex::new(0),
        }
    }

    /// Writes `bytes` at once if nothing is queued ahead of them and the descriptor takes them
    /// all; otherwise hands what is left to `queue`, for the writer task, which writes it with
    /// [`DirectWriter::write_queued`]. `queue` runs under the order lock, so no later write
    /// (from another task, on another thread) can overtake what it queues; it returns whether
    /// it took the bytes, and bytes it did not take are not counted as queued. Returns whether
    /// all of `bytes` went out at once.
    pub fn write_or_queue(&self, bytes: Bytes, queue: impl FnOnce(Bytes) -> bool) -> bool {
        self.write_now(&bytes, |written| queue(bytes.slice(written..)))
    }

    /// [`DirectWriter::write_or_queue`] into `queue`, the writer task's channel: a place in it
    /// is reserved first (waiting while it is full, so nothing is dropped), then the bytes are
    /// written or queued behind everything before them. False once the writer task is gone.
    pub async fn write_or_send(&self, bytes: Bytes, queue: &mpsc::Sender<Bytes>) -> bool {
        let Ok(permit) = queue.reserve().await else {
            return false;
        };
        self.write_or_queue_into(bytes, permit);
        true
    }

    /// [`DirectWriter::write_or_queue`] into a place already reserved in the writer task's
    /// channel, which always takes the rest. Returns whether all of `bytes` went out at once.
    pub fn write_or_queue_into(&self, bytes: Bytes, permit: mpsc::Permit<'_, Bytes>) -> bool {
        self.write_or_queue(bytes, |rest| {
            permit.send(rest);
            true
        })
    }

    /// [`DirectWriter::write_or_queue`] for borrowed bytes: copied only when some are left.
    pub fn write_slice_or_queue(&self, bytes: &[u8], queue: impl FnOnce(Bytes) -> bool) -> bool {
        self.write_now(bytes, |written| {
            queue(Bytes::copy_from_slice(&bytes[written..]))
        })
    }

    /// Writes what the descriptor takes at once when nothing is queued; else, still locked,
    /// queues the rest with `queue_rest` (given how much was written).
    fn write_now(&self, bytes: &[u8], queue_rest: impl FnOnce(usize) -> bool) -> bool {
        let mut queued = self.queued();
        let mut written = 0;
        if *queued == 0 {
            // An error (the other side is gone) is the writer task's to meet.
            if let Ok(n) = self.writer.try_write(bytes) {
                if n == bytes.len() {
                    return true;
                }
                written = n;
            }
        }
        if queue_rest(written) {
            *queued += 1;
        }
        false
    }

    /// Nothing is queued for the writer task: a write now goes straight out, in order.
    pub fn is_idle(&self) -> bool {
        *self.queued() == 0
    }

    /// The count of queued messages, locked (a poisoned lock still gives it: it is a number).
    fn queued(&self) -> std::sync::MutexGuard<'_, usize> {
        self.queued
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The writer task's write of one queued message, waiting while the descriptor is full.
    pub async fn write_queued(&self, data: &[u8]) -> std::io::Result<()> {
        self.writer.write_all(data).await?;
        self.dequeued();
        Ok(())
    }

    /// One queued message is written.
    fn dequeued(&self) {
        let mut queued = self.queued();
        *queued = queued.saturating_sub(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn pair() -> (DirectWriter, std::os::unix::net::UnixStream) {
        let (ours, theirs) = std::os::unix::net::UnixStream::pair().expect("pair");
        let file = std::fs::File::from(std::os::fd::OwnedFd::from(ours));
        let writer = PtyWriter::from_file(file).expect("writer");
        (DirectWriter::new(writer), theirs)
    }

    #[tokio::test]
    async fn writes_at_once_when_idle_and_queues_behind_a_queued_message() {
        let (direct, mut reader) = pair();
        let mut queue = Vec::new();
        assert!(direct.write_or_queue(Bytes::from_static(b"a"), |_| unreachable!()));
        // Something queued: later bytes queue behind it, untouched, even if they would fit.
        *direct.queued() = 1;
        let whole = direct.write_or_queue(Bytes::from_static(b"b"), |rest| {
            queue.push(rest);
            true
        });
        assert!(!whole);
        assert_eq!(queue, [Bytes::from_static(b"b")]);
        assert_eq!(*direct.queued(), 2);
        direct.write_queued(b"c").await.expect("write");
        direct.write_queued(b"b").await.expect("write");
        // Both queued messages written: direct writes again, borrowed bytes too.
        assert!(direct.write_or_queue(Bytes::from_static(b"d"), |_| unreachable!()));
        assert!(direct.write_slice_or_queue(b"e", |_| unreachable!()));
        let mut got = [0u8; 5];
        reader.read_exact(&mut got).expect("read");
        assert_eq!(&got, b"acbde");
    }

    #[test]
    fn the_rest_is_queued_under_the_order_lock() {
        let (direct, _reader) = pair();
        *direct.queued() = 1;
        let mut locked = false;
        direct.write_slice_or_queue(b"x", |_| {
            // Another thread's write would wait here: it cannot overtake this one.
            locked = matches!(
                direct.queued.try_lock(),
                Err(std::sync::TryLockError::WouldBlock)
            );
            true
        });
        assert!(
            locked,
            "the rest must be queued before another write may start"
        );
    }

    #[test]
    fn bytes_the_queue_refuses_are_not_counted_as_queued() {
        let (direct, _reader) = pair();
        *direct.queued() = 1;
        assert!(!direct.write_slice_or_queue(b"x", |_| false));
        assert_eq!(
            *direct.queued(),
            1,
            "a refused message must not hold later writes back"
        );
    }
}
