//! The channels of `wait-for`, as tmux's: `wait-for CH` waits until `wait-for -S CH` (a signal
//! with nobody waiting is kept for the next waiter), `-L` takes the channel's lock (waiting
//! while another holds it) and `-U` gives it to the next in line.
//!
//! The table is one mutex, held only to change it, never while anyone waits: a waiter holds a
//! [`Waiting`], whose drop (the client went away) takes it out of the table, so nothing is
//! left behind by clients that stopped waiting.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::oneshot;

/// The most channels that may exist at once (each has a waiter, a lock, or a pending signal);
/// more are refused, so a script naming channels in a loop cannot grow the server.
pub const MAX_WAIT_CHANNELS: usize = 4096;

/// The most `wait-for`s waiting at once, over every channel (a key bound to `wait-for` pressed
/// again and again, hooks that wait): more are refused.
pub const MAX_WAITERS: usize = 4096;

/// The longest channel name.
pub const MAX_CHANNEL_NAME_BYTES: usize = 256;

#[derive(Debug, Default)]
struct Channel {
    /// Signalled with nobody waiting: the next waiter returns at once.
    woken: bool,
    /// Held by a `wait-for -L`.
    locked: bool,
    /// Waiting for a signal, by ticket.
    waiters: Vec<(u64, oneshot::Sender<()>)>,
    /// Waiting for the lock, in order, by ticket.
    lockers: VecDeque<(u64, oneshot::Sender<()>)>,
}

impl Channel {
    fn is_idle(&self) -> bool {
        !self.woken && !self.locked && self.waiters.is_empty() && self.lockers.is_empty()
    }
}

#[derive(Debug, Default)]
struct Table {
    channels: HashMap<String, Channel>,
    next_ticket: u64,
}

impl Table {
    /// Refuses one more waiter beyond [`MAX_WAITERS`].
    fn room_to_wait(&self) -> Result<(), String> {
        let waiting: usize = self
            .channels
            .values()
            .map(|c| c.waiters.len() + c.lockers.len())
            .sum();
        if waiting >= MAX_WAITERS {
            return Err(format!(
                "{MAX_WAITERS} wait-for calls are waiting already; signal some first"
            ));
        }
        Ok(())
    }
}

/// Every `wait-for` channel of the server.
#[derive(Debug, Default)]
pub struct WaitChannels {
    table: Mutex<Table>,
}

/// What a `wait-for` that cannot finish at once waits on. Dropping it (the client went away)
/// takes its place in the channel away; for a lock it was already given, the lock passes on.
#[derive(Debug)]
pub struct Waiting {
    channels: Arc<WaitChannels>,
    name: String,
    ticket: u64,
    locking: bool,
    answer: Option<oneshot::Receiver<()>>,
}

impl Waiting {
    /// Resolves when the channel is signalled (or, for a lock, when it is this waiter's).
    pub async fn done(mut self) {
        if let Some(answer) = self.answer.as_mut() {
            let _ = answer.await;
        }
        // Done: nothing to take back (a lock now held stays held).
        self.answer = None;
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        let Some(mut answer) = self.answer.take() else {
            return;
        };
        let granted = answer.try_recv().is_ok();
        let mut table = self.channels.lock();
        if granted && self.locking {
            // The lock was handed over as the waiter left: pass it on.
            drop(table);
            let _ = self.channels.unlock(&self.name);
            return;
        }
        if let Some(ch) = table.channels.get_mut(&self.name) {
            ch.waiters.retain(|(t, _)| *t != self.ticket);
            ch.lockers.retain(|(t, _)| *t != self.ticket);
            if ch.is_idle() {
                table.channels.remove(&self.name);
            }
        }
    }
}

impl WaitChannels {
    fn lock(&self) -> MutexGuard<'_, Table> {
        self.table
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The channel `name`, made if needed (within the limits).
    fn channel<'a>(table: &'a mut Table, name: &str) -> Result<&'a mut Channel, String> {
        if name.len() > MAX_CHANNEL_NAME_BYTES {
            return Err(format!(
                "a channel name may be at most {MAX_CHANNEL_NAME_BYTES} bytes"
            ));
        }
        if !table.channels.contains_key(name) && table.channels.len() >= MAX_WAIT_CHANNELS {
            return Err(format!(
                "{MAX_WAIT_CHANNELS} wait-for channels are in use; signal or unlock some first"
            ));
        }
        Ok(table.channels.entry(name.to_string()).or_default())
    }

    /// `wait-for CH`: `None` when a signal was waiting already, else what to wait on.
    pub fn wait(self: &Arc<Self>, name: &str) -> Result<Option<Waiting>, String> {
        let mut table = self.lock();
        table.next_ticket += 1;
        let ticket = table.next_ticket;
        let ch = Self::channel(&mut table, name)?;
        if ch.woken {
            ch.woken = false;
            if ch.is_idle() {
                table.channels.remove(name);
            }
            return Ok(None);
        }
        if let Err(e) = table.room_to_wait() {
            Self::forget_if_idle(&mut table, name);
            return Err(e);
        }
        let (tx, rx) = oneshot::channel();
        let Some(ch) = table.channels.get_mut(name) else {
            return Err("the channel went away".into());
        };
        ch.waiters.push((ticket, tx));
        Ok(Some(self.waiting(name, ticket, false, rx)))
    }

    /// `wait-for -S CH`: wakes every waiter, or keeps the signal for the next one.
    pub fn signal(&self, name: &str) -> Result<(), String> {
        let mut table = self.lock();
        let ch = Self::channel(&mut table, name)?;
        let waiters = std::mem::take(&mut ch.waiters);
        let mut woke = false;
        for (_, tx) in waiters {
            woke |= tx.send(()).is_ok();
        }
        if !woke {
            ch.woken = true;
        }
        if ch.is_idle() {
            table.channels.remove(name);
        }
        Ok(())
    }

    /// `wait-for -L CH`: `None` when the lock was free (it is now held), else what to wait
    /// on until it is handed over.
    pub fn lock_channel(self: &Arc<Self>, name: &str) -> Result<Option<Waiting>, String> {
        let mut table = self.lock();
        table.next_ticket += 1;
        let ticket = table.next_ticket;
        let ch = Self::channel(&mut table, name)?;
        if !ch.locked {
            ch.locked = true;
            return Ok(None);
        }
        table.room_to_wait()?;
        let (tx, rx) = oneshot::channel();
        let Some(ch) = table.channels.get_mut(name) else {
            return Err("the channel went away".into());
        };
        ch.lockers.push_back((ticket, tx));
        Ok(Some(self.waiting(name, ticket, true, rx)))
    }

    /// `wait-for -U CH`: hands the lock to the next waiting for it, or frees it.
    pub fn unlock(&self, name: &str) -> Result<(), String> {
        let mut table = self.lock();
        let Some(ch) = table.channels.get_mut(name).filter(|c| c.locked) else {
            return Err(format!(
                "channel {name} not locked (wait-for -L {name} locks it)"
            ));
        };
        while let Some((_, tx)) = ch.lockers.pop_front() {
            if tx.send(()).is_ok() {
                return Ok(());
            }
        }
        ch.locked = false;
        if ch.is_idle() {
            table.channels.remove(name);
        }
        Ok(())
    }

    /// Removes channel `name` if nothing is left in it.
    fn forget_if_idle(table: &mut Table, name: &str) {
        if table.channels.get(name).is_some_and(Channel::is_idle) {
            table.channels.remove(name);
        }
    }

    /// How many channels exist (for tests and `weft diag`).
    pub fn len(&self) -> usize {
        self.lock().channels.len()
    }

    /// Whether no channel exists.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn waiting(
        self: &Arc<Self>,
        name: &str,
        ticket: u64,
        locking: bool,
        answer: oneshot::Receiver<()>,
    ) -> Waiting {
        Waiting {
            channels: self.clone(),
            name: name.to_string(),
            ticket,
            locking,
            answer: Some(answer),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::FutureExt;

    #[test]
    fn a_signal_wakes_waiters_or_waits_for_the_next() {
        let ch = Arc::new(WaitChannels::default());
        let w = ch.wait("a").unwrap().unwrap();
        ch.signal("a").unwrap();
        assert!(w.done().now_or_never().is_some());
        assert!(ch.is_empty());
        // Signalled with nobody waiting: the next wait returns at once, once.
        ch.signal("b").unwrap();
        assert!(ch.wait("b").unwrap().is_none());
        assert!(ch.wait("b").unwrap().is_some_and(|w| {
            drop(w);
            true
        }));
        assert!(ch.is_empty(), "a waiter that left is forgotten");
    }

    #[test]
    fn locks_pass_in_order_and_unlocking_a_free_one_is_an_error() {
        let ch = Arc::new(WaitChannels::default());
        assert!(ch.lock_channel("l").unwrap().is_none());
        let second = ch.lock_channel("l").unwrap().unwrap();
        let third = ch.lock_channel("l").unwrap().unwrap();
        ch.unlock("l").unwrap();
        assert!(second.done().now_or_never().is_some());
        // The third leaves before its turn: the next unlock frees the lock.
        drop(third);
        ch.unlock("l").unwrap();
        assert!(ch.is_empty());
        assert!(ch
            .unlock("l")
            .unwrap_err()
            .starts_with("channel l not locked"));
    }

    #[test]
    fn waiters_are_bounded_and_leave_nothing_behind() {
        let ch = Arc::new(WaitChannels::default());
        let waiting: Vec<Waiting> = (0..MAX_WAITERS)
            .map(|i| ch.wait(&format!("c{}", i % 7)).unwrap().unwrap())
            .collect();
        assert!(ch.wait("another").is_err());
        assert_eq!(ch.len(), 7, "a refused wait made no channel");
        drop(waiting);
        assert!(ch.is_empty());
        let long = "x".repeat(MAX_CHANNEL_NAME_BYTES + 1);
        assert!(ch.signal(&long).is_err());
    }

    #[test]
    fn a_lock_handed_to_a_waiter_that_left_passes_on() {
        let ch = Arc::new(WaitChannels::default());
        assert!(ch.lock_channel("l").unwrap().is_none());
        let gone = ch.lock_channel("l").unwrap().unwrap();
        ch.unlock("l").unwrap();
        drop(gone);
        assert!(ch.is_empty(), "nobody holds the lock any more");
    }
}
