//! The user's terminal: raw mode that is always undone, its size, and what weft sets on it.

use rustix::termios::{tcgetattr, tcgetwinsize, tcsetattr, OptionalActions, Termios};
use std::fs::File;
use std::io::Write;
use std::os::fd::AsFd;
use std::sync::Mutex;

/// Sent when attaching: the alternate screen, cleared.
pub const SETUP: &[u8] = b"\x1b[?1049h\x1b[H\x1b[2J";
/// Sent when leaving, whatever the panes left on: every mode weft may have mirrored off, the
/// cursor back, the primary screen.
pub const TEARDOWN: &[u8] =
    b"\x1b[?2026l\x1b[?2031l\x1b[0m\x1b]8;;\x1b\\\x1b[?1000l\x1b[?1002l\x1b[?1003l\
\x1b[?1005l\x1b[?1006l\x1b[?1015l\x1b[?1004l\x1b[?2004l\x1b[?1l\x1b>\x1b[0 q\x1b[?25h\x1b[<u\x1b[?1049l";

/// The settings to restore, for the panic hook and signal paths.
static SAVED: Mutex<Option<(Termios, File)>> = Mutex::new(None);

/// The terminal's size as (cols, rows); 80x24 when it cannot be asked.
pub fn terminal_size(tty: &impl AsFd) -> (u16, u16) {
    match tcgetwinsize(tty) {
        Ok(ws) if ws.ws_col > 0 && ws.ws_row > 0 => (ws.ws_col, ws.ws_row),
        _ => (80, 24),
    }
}

/// Raw mode on `tty` until dropped (or until [`restore`] runs from a panic or signal).
pub struct RawMode;

impl RawMode {
    /// Saves the settings, switches to raw mode and sends [`SETUP`].
    pub fn enter(tty: &File) -> std::io::Result<RawMode> {
        let saved = tcgetattr(tty)?;
        let mut raw = saved.clone();
        raw.make_raw();
        tcsetattr(tty, OptionalActions::Now, &raw)?;
        if let Ok(mut slot) = SAVED.lock() {
            *slot = Some((saved, tty.try_clone()?));
        }
        install_panic_hook();
        let mut out = tty;
        out.write_all(SETUP)?;
        Ok(RawMode)
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        restore();
    }
}

/// Undoes raw mode and the terminal setup; safe to call more than once.
pub fn restore() {
    let Ok(mut slot) = SAVED.lock() else { return };
    if let Some((saved, tty)) = slot.take() {
        // Reads and writes were non-blocking while attached: block again so the teardown is
        // written whole, and the shell gets its terminal back as it left it.
        if let Ok(flags) = rustix::fs::fcntl_getfl(&tty) {
            let _ = rustix::fs::fcntl_setfl(&tty, flags - rustix::fs::OFlags::NONBLOCK);
        }
        let mut out = &tty;
        let _ = out.write_all(TEARDOWN);
        let _ = out.flush();
        let _ = tcsetattr(&tty, OptionalActions::Now, &saved);
    }
}

fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}
