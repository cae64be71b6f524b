//! A pty master watched through a private, one-shot epoll instance that tokio watches in turn.
//!
//! Registered with tokio directly, a streaming master raises a readiness event for every
//! 4 KiB the kernel's tty worker moves into it. The reader is busy reading then and not
//! waiting, so each event only wakes the tokio worker parked in `epoll_wait`, often on the
//! other core: an inter-processor interrupt and two context switches per 4 KiB that preempt
//! whatever runs there (the pane's parser). Armed one-shot, the private instance reports the
//! master once and then stays silent until the reader has drained it and arms it again: one
//! event per chunk read, not per 4 KiB.

use filedescriptor::FileDescriptor;
use rustix::event::epoll;
use std::io::Read;
use std::mem::MaybeUninit;
use std::os::fd::OwnedFd;
use tokio::io::unix::AsyncFd;
use tokio::io::Interest;

/// The master and the private epoll instance that watches it.
#[derive(Debug)]
pub(crate) struct OneShotFd {
    /// The master, non-blocking.
    pty: FileDescriptor,
    /// Watches `pty` for input, one event per arming; registered with tokio.
    watch: AsyncFd<OwnedFd>,
    /// Whether `watch` will report `pty` (armed and not yet harvested).
    armed: bool,
    /// Whether the last read found the master empty (or short): the next read waits first.
    drained: bool,
}

/// The event flags of an arming: input, reported once.
fn arming() -> epoll::EventFlags {
    epoll::EventFlags::IN | epoll::EventFlags::ONESHOT
}

/// Registers the private instance with tokio's reactor.
#[allow(unsafe_code)]
fn register(watch: OwnedFd) -> std::io::Result<AsyncFd<OwnedFd>> {
    // SAFETY: `OwnedFd` owns the descriptor and closes it only when dropped, which `AsyncFd`
    // does after deregistering; nothing else closes or reuses it meanwhile.
    unsafe { AsyncFd::register_with_interest(watch, Interest::READABLE) }.map_err(Into::into)
}

impl OneShotFd {
    /// Watches `pty` (made non-blocking by the caller).
    pub(crate) fn new(pty: FileDescriptor) -> std::io::Result<Self> {
        let watch = epoll::create(epoll::CreateFlags::CLOEXEC)?;
        epoll::add(&watch, &pty, epoll::EventData::new_u64(0), arming())?;
        Ok(OneShotFd {
            pty,
            watch: register(watch)?,
            armed: true,
            drained: true,
        })
    }

    /// Reads once into `buf`, waiting first if the last read drained the master. Errors as
    /// `read(2)` gives them, except that it never returns `WouldBlock`.
    pub(crate) async fn read_first(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            if self.drained {
                self.wait().await?;
                self.drained = false;
            }
            match self.pty.read(buf) {
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => self.drained = true,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                other => return other,
            }
        }
    }

    /// Reads once without waiting: `WouldBlock` when the master is empty.
    pub(crate) fn read_now(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = self.pty.read(buf);
        if matches!(&read, Err(e) if e.kind() == std::io::ErrorKind::WouldBlock) {
            self.drained = true;
        }
        read
    }

    /// The master.
    pub(crate) fn pty(&self) -> &FileDescriptor {
        &self.pty
    }

    /// Notes that a read came back short: the master is most likely empty, and the next read
    /// waits for an event instead of asking (an empty tty read waits for the kernel's tty
    /// worker). A raw pty master raises an event for anything that arrives after the arming.
    pub(crate) fn assume_drained(&mut self) {
        self.drained = true;
    }

    /// Waits until the master has input: arms the watch if needed, waits for tokio to see it,
    /// and harvests the event (which disarms the one-shot watch).
    async fn wait(&mut self) -> std::io::Result<()> {
        loop {
            if !self.armed {
                // Reports input already there at once, so nothing that came meanwhile is missed.
                epoll::modify(
                    &self.watch,
                    &self.pty,
                    epoll::EventData::new_u64(0),
                    arming(),
                )?;
                self.armed = true;
            }
            let mut guard = self.watch.readable().await?;
            let mut events = [MaybeUninit::<epoll::Event>::uninit(); 1];
            let now = rustix::event::Timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            let (harvested, _) = epoll::wait(&self.watch, &mut events[..], Some(&now))?;
            let harvested = !harvested.is_empty();
            // Nothing can raise another event before the next arming; a stale one (nothing
            // harvested) is forgotten and the wait goes on.
            guard.clear_ready();
            if harvested {
                self.armed = false;
                return Ok(());
            }
        }
    }
}
