//! Lending a value to other threads while its owner sleeps.

use std::sync::{Mutex, PoisonError, TryLockError};

/// A value its owner lends out while it sleeps, for borrowers on other threads to use without
/// ever waiting, and takes back whenever it wakes.
///
/// Modelled on the lease in alacritty's event loop (`alacritty_terminal/src/event_loop.rs`),
/// where the pty thread reserves the terminal's `FairMutex` and then only *tries* its lock, so
/// parsing never waits behind the renderer. Here the roles are the other way round: the render
/// task owns its state and lends it, and the threads that apply pane output try to use it.
///
/// The protocol:
/// - Only the owner calls [`Lease::lend`] and [`Lease::take_back`], and it alternates them:
///   lend, take back, lend, take back. While the value is lent the owner has no access to it.
/// - Borrowers call [`Lease::try_use`] at any time. It never blocks: when nothing is lent, or
///   when someone else holds the value (another borrower, or the owner taking it back), it
///   returns `None` at once, and the borrower falls back to its slow path (waking the owner).
/// - [`Lease::take_back`] waits at most for a borrower already inside `try_use` (which does a
///   bounded piece of work and never waits on anything itself), then returns the value. After
///   it, `try_use` returns `None` until the next `lend`: the owner uses the value alone.
/// - A borrower that panics inside `try_use` loses the value: `take_back` returns `None`
///   rather than state left half-changed, and the lease is ready to be lent again.
///
/// Costs: `lend` and `take_back` move the value (lend a `Box` to keep that a pointer) and take
/// an uncontended lock; `try_use` is one `try_lock`. Nothing allocates.
#[derive(Debug)]
pub(crate) struct Lease<T> {
    slot: Mutex<Option<T>>,
}

impl<T> Default for Lease<T> {
    fn default() -> Self {
        Lease {
            slot: Mutex::new(None),
        }
    }
}

impl<T> Lease<T> {
    /// Lends `value` until [`Lease::take_back`]. Owner only, and only when nothing is lent.
    pub(crate) fn lend(&self, value: T) {
        let mut slot = self.slot.lock().unwrap_or_else(PoisonError::into_inner);
        debug_assert!(slot.is_none(), "lent twice without taking back");
        *slot = Some(value);
    }

    /// Takes the lent value back, after any borrower using it now has finished. `None`: nothing
    /// was lent, or a borrower panicked while using it (the value is dropped). Owner only.
    pub(crate) fn take_back(&self) -> Option<T> {
        match self.slot.lock() {
            Ok(mut slot) => slot.take(),
            Err(poisoned) => {
                drop(poisoned.into_inner().take());
                self.slot.clear_poison();
                None
            }
        }
    }

    /// Runs `f` on the lent value and returns what it returns, or `None` at once when nothing
    /// is lent or someone else holds the value. Never blocks.
    #[inline]
    pub(crate) fn try_use<R>(&self, f: impl FnOnce(&mut T) -> R) -> Option<R> {
        let mut slot = match self.slot.try_lock() {
            Ok(slot) => slot,
            Err(TryLockError::WouldBlock | TryLockError::Poisoned(_)) => return None,
        };
        slot.as_mut().map(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{mpsc, Arc};

    #[test]
    fn borrowers_use_only_what_is_lent_until_it_is_taken_back() {
        let lease = Lease::default();
        assert_eq!(lease.try_use(|v: &mut u32| *v), None, "nothing lent");
        assert_eq!(lease.take_back(), None, "nothing lent");
        lease.lend(1);
        assert_eq!(
            lease.try_use(|v| {
                *v += 1;
                *v
            }),
            Some(2)
        );
        assert_eq!(lease.try_use(|v| *v), Some(2), "a borrower's change stays");
        assert_eq!(lease.take_back(), Some(2));
        assert_eq!(lease.try_use(|v| *v), None, "taken back");
        lease.lend(7);
        assert_eq!(lease.take_back(), Some(7), "lent again");
    }

    #[test]
    fn a_borrower_never_waits_for_another_and_the_owner_waits_for_it_to_finish() {
        let lease = Arc::new(Lease::default());
        lease.lend(0u32);
        let (inside_tx, inside) = mpsc::channel();
        let (finish_tx, finish) = mpsc::channel::<()>();
        let borrower = {
            let lease = Arc::clone(&lease);
            std::thread::spawn(move || {
                lease.try_use(|v| {
                    inside_tx.send(()).unwrap();
                    finish.recv().unwrap();
                    *v = 1;
                })
            })
        };
        inside.recv().unwrap();
        // The value is in use: a second borrower is turned away at once.
        assert_eq!(lease.try_use(|v| *v), None);
        // The owner taking it back waits for the first borrower to be done with it.
        let owner = {
            let lease = Arc::clone(&lease);
            std::thread::spawn(move || lease.take_back())
        };
        finish_tx.send(()).unwrap();
        assert_eq!(borrower.join().unwrap(), Some(()));
        assert_eq!(owner.join().unwrap(), Some(1), "with the borrower's change");
    }

    #[test]
    fn a_borrower_that_panics_loses_the_value_and_the_lease_is_usable_again() {
        let lease = Arc::new(Lease::default());
        lease.lend(String::from("state"));
        let panicked = {
            let lease = Arc::clone(&lease);
            std::thread::spawn(move || {
                lease.try_use(|v| {
                    v.push_str(" half-changed");
                    panic!("a borrower fails mid-way");
                })
            })
            .join()
        };
        assert!(panicked.is_err());
        assert_eq!(
            lease.try_use(|v| v.clone()),
            None,
            "no one uses a lost value"
        );
        assert_eq!(lease.take_back(), None, "the half-changed value is dropped");
        lease.lend(String::from("fresh"));
        assert_eq!(lease.try_use(|v| v.clone()).as_deref(), Some("fresh"));
        assert_eq!(lease.take_back().as_deref(), Some("fresh"));
    }
}
