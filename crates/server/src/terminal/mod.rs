//! The users' terminals: what weft asks them when a client attaches ([`QUERIES`]), their
//! answers taken out of the key input ([`ReportFilter`]), what was learned per client
//! ([`TerminalInfo`]), and the server-wide record of it ([`Terminals`]) that panes answer
//! programs' colour queries from.

mod info;
mod overrides;
mod reports;

pub use info::{TerminalInfo, TerminalSummary, ASKED_MODES};
pub use overrides::{forced, Forced};
pub use reports::{ColorSlot, Filtered, Report, ReportFilter};

use crate::ids::ClientId;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::watch;
use weft_screen_model::palette::HostColors;

/// What weft asks a terminal on attach, in this order: DA2, XTVERSION, DECRQM for
/// [`ASKED_MODES`], the kitty keyboard flags, its colour scheme (DSR 996), the default colours
/// (OSC 10/11/12), the 16 ANSI colours (OSC 4), and DA1 last: every terminal answers DA1, and answers come in order, so
/// its answer says that all the others that are coming have come.
pub const QUERIES: &[u8] = b"\x1b[>c\x1b[>q\
\x1b[?2026$p\x1b[?2027$p\x1b[?2031$p\x1b[?1016$p\x1b[?u\x1b[?996n\
\x1b]10;?\x1b\\\x1b]11;?\x1b\\\x1b]12;?\x1b\\\
\x1b]4;0;?\x1b\\\x1b]4;1;?\x1b\\\x1b]4;2;?\x1b\\\x1b]4;3;?\x1b\\\x1b]4;4;?\x1b\\\x1b]4;5;?\x1b\\\x1b]4;6;?\x1b\\\x1b]4;7;?\x1b\\\
\x1b]4;8;?\x1b\\\x1b]4;9;?\x1b\\\x1b]4;10;?\x1b\\\x1b]4;11;?\x1b\\\x1b]4;12;?\x1b\\\x1b]4;13;?\x1b\\\x1b]4;14;?\x1b\\\x1b]4;15;?\x1b\\\
\x1b[c";

/// Asked again when the terminal says its colour scheme changed: its colours.
pub const COLOR_QUERIES: &[u8] = b"\x1b]10;?\x1b\\\x1b]11;?\x1b\\\x1b]12;?\x1b\\\
\x1b]4;0;?\x1b\\\x1b]4;1;?\x1b\\\x1b]4;2;?\x1b\\\x1b]4;3;?\x1b\\\x1b]4;4;?\x1b\\\x1b]4;5;?\x1b\\\x1b]4;6;?\x1b\\\x1b]4;7;?\x1b\\\
\x1b]4;8;?\x1b\\\x1b]4;9;?\x1b\\\x1b]4;10;?\x1b\\\x1b]4;11;?\x1b\\\x1b]4;12;?\x1b\\\x1b]4;13;?\x1b\\\x1b]4;14;?\x1b\\\x1b]4;15;?\x1b\\";

/// Turns on colour scheme reports (mode 2031) in a terminal that has them.
pub const ENABLE_COLOR_SCHEME_REPORTS: &[u8] = b"\x1b[?2031h";

/// Pushes the kitty keyboard protocol's "disambiguate escape codes" flag in a terminal that
/// answered `CSI ? u`: `C-i` and Tab, `C-m` and Enter, `C-[` and Escape, and modified keys
/// then arrive distinct, and each pane gets them in the form it asked for. Pushed on the
/// alternate screen the client switched to (the stacks are per screen); the client pops it
/// when it leaves (`CSI < u`, harmless on an empty stack).
pub const ENABLE_KITTY_KEYS: &[u8] = b"\x1b[>1u";

/// How long an answer cut short by the end of a read waits for its end before its bytes are
/// taken as keys: a local terminal writes an answer whole, a slow link may split it.
pub const ANSWER_END_WAIT: std::time::Duration = std::time::Duration::from_millis(100);

/// Every attached client's terminal, most recently active last, and the colours programs'
/// queries are answered with: the most recently active client's that knows any.
#[derive(Debug)]
pub struct Terminals {
    clients: Mutex<Vec<(ClientId, Arc<Mutex<TerminalInfo>>)>>,
    /// The most recently active client, read without the lock on every keystroke.
    latest: AtomicU64,
    colors: watch::Sender<Arc<HostColors>>,
    /// Clients between the start of their attach and its end (see [`Terminals::attaching`]).
    attaching: AtomicUsize,
}

/// Counts a client as attaching while it lives ([`Terminals::attaching`]).
pub struct AttachingGuard(Arc<Terminals>);

impl Drop for AttachingGuard {
    fn drop(&mut self) {
        self.0.attaching.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Default for Terminals {
    fn default() -> Self {
        Terminals {
            attaching: AtomicUsize::new(0),
            clients: Mutex::new(Vec::new()),
            latest: AtomicU64::new(0),
            colors: watch::Sender::new(Arc::default()),
        }
    }
}

impl Terminals {
    /// Follows the colours programs' queries are answered with.
    pub fn colors(&self) -> watch::Receiver<Arc<HostColors>> {
        self.colors.subscribe()
    }

    /// A client attached with this terminal; it is the most recently active one.
    pub fn add(&self, client: ClientId, info: Arc<Mutex<TerminalInfo>>) {
        if let Ok(mut clients) = self.clients.lock() {
            clients.retain(|(c, _)| *c != client);
            clients.push((client, info));
            self.latest.store(client.get(), Ordering::Relaxed);
            self.publish(&clients);
        }
    }

    /// The client typed: it becomes the most recently active one. Cheap when it already is.
    pub fn touch(&self, client: ClientId) {
        if self.latest.load(Ordering::Relaxed) == client.get() {
            return;
        }
        if let Ok(mut clients) = self.clients.lock() {
            if let Some(at) = clients.iter().position(|(c, _)| *c == client) {
                let entry = clients.remove(at);
                clients.push(entry);
                self.latest.store(client.get(), Ordering::Relaxed);
                self.publish(&clients);
            }
        }
    }

    /// What is known of a client's terminal changed.
    pub fn changed(&self) {
        if let Ok(clients) = self.clients.lock() {
            self.publish(&clients);
        }
    }

    /// Whether no client is attached or on its way to attaching (see [`Terminals::attaching`]).
    pub fn is_empty(&self) -> bool {
        self.attaching.load(Ordering::Acquire) == 0
            && self
                .clients
                .lock()
                .map_or(true, |clients| clients.is_empty())
    }

    /// A client on its way to being attached, counted until the guard goes (its terminal is
    /// added only once asked about): so a client leaving meanwhile (`attach -d` detaching it)
    /// does not find the server empty.
    pub fn attaching(self: &Arc<Self>) -> AttachingGuard {
        self.attaching.fetch_add(1, Ordering::AcqRel);
        AttachingGuard(self.clone())
    }

    /// The client left.
    pub fn remove(&self, client: ClientId) {
        if let Ok(mut clients) = self.clients.lock() {
            clients.retain(|(c, _)| *c != client);
            let latest = clients.last().map_or(0, |(c, _)| c.get());
            self.latest.store(latest, Ordering::Relaxed);
            self.publish(&clients);
        }
    }

    /// A client's terminal, for `list-clients`.
    pub fn summary(&self, client: ClientId) -> Option<TerminalSummary> {
        let clients = self.clients.lock().ok()?;
        let (_, info) = clients.iter().find(|(c, _)| *c == client)?;
        let info = info.lock().ok()?;
        Some(info.summary())
    }

    /// Publishes the colours of the most recently active client that knows any; panes are
    /// told only when they changed.
    fn publish(&self, clients: &[(ClientId, Arc<Mutex<TerminalInfo>>)]) {
        let colors = clients
            .iter()
            .rev()
            .filter_map(|(_, info)| info.lock().ok().map(|i| i.colors.clone()))
            .find(|colors| !colors.is_empty())
            .unwrap_or_default();
        self.colors.send_if_modified(|now| {
            if **now == colors {
                return false;
            }
            *now = Arc::new(colors);
            true
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_screen_model::Rgb;

    fn info_with_background(rgb: Option<Rgb>) -> Arc<Mutex<TerminalInfo>> {
        let mut info = TerminalInfo::default();
        info.colors.background = rgb;
        Arc::new(Mutex::new(info))
    }

    #[test]
    fn programs_get_the_most_recently_active_client_that_knows_colours() {
        let terminals = Terminals::default();
        let colors = terminals.colors();
        let (a, b, c) = (
            ClientId::parse("1").unwrap(),
            ClientId::parse("2").unwrap(),
            ClientId::parse("3").unwrap(),
        );
        let light = Some(Rgb::new(250, 250, 250));
        let dark = Some(Rgb::new(0, 0, 0));
        terminals.add(a, info_with_background(light));
        assert_eq!(colors.borrow().background, light);
        terminals.add(b, info_with_background(dark));
        assert_eq!(colors.borrow().background, dark);
        // A client that knows nothing does not hide the others.
        terminals.add(c, info_with_background(None));
        assert_eq!(colors.borrow().background, dark);
        terminals.touch(a);
        assert_eq!(colors.borrow().background, light);
        terminals.remove(a);
        assert_eq!(colors.borrow().background, dark);
        terminals.remove(b);
        assert!(colors.borrow().is_empty(), "nobody knows: no answers");
    }
}
