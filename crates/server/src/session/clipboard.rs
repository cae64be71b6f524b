//! Programs' OSC 52 clipboard writes and reads, as tmux treats them: a write becomes a paste
//! buffer (and, with `set-clipboard on`, goes on to the clients' terminals); a read is answered
//! only with `get-clipboard` on, and only with a buffer the same pane wrote.

use super::state::MAX_CLIPBOARD_BYTES;
use super::SessionState;
use crate::config::SetClipboard;
use crate::ids::PaneId;
use base64::Engine;
use bytes::Bytes;
use std::sync::atomic::Ordering;

impl super::ClipboardAccess {
    /// A program in `pane` wrote `base64` to the clipboard (OSC 52): a paste buffer, and the
    /// clients' terminals with `set-clipboard on`. False when it was dropped (too large, not
    /// base64).
    pub fn write(&self, pane: PaneId, base64: &[u8]) -> bool {
        // Base64 is 4 bytes for 3: anything longer cannot decode within the cap.
        if base64.len() > MAX_CLIPBOARD_BYTES.div_ceil(3) * 4 {
            tracing::debug!(%pane, bytes = base64.len(), "an OSC 52 write too large, dropped");
            return false;
        }
        let Ok(text) = base64::engine::general_purpose::STANDARD.decode(base64) else {
            tracing::debug!(%pane, "an OSC 52 write that is not base64, dropped");
            return false;
        };
        if text.len() > MAX_CLIPBOARD_BYTES {
            return false;
        }
        if self.config.borrow().set_clipboard == SetClipboard::On {
            self.buffers.to_clients(&text);
        }
        if let Err(e) = self.buffers.add(Bytes::from(text), Some(pane)) {
            tracing::debug!(%pane, "an OSC 52 write not kept: {e}");
        }
        true
    }
}

impl SessionState {
    /// A program in `pane` wrote `base64` to the clipboard (OSC 52).
    pub(super) fn clipboard_write(&mut self, pane: PaneId, base64: Vec<u8>) {
        if self.clipboard.write(pane, &base64) {
            self.pane_meta.entry(pane).or_default().clipboard = Some(base64);
        }
    }

    /// A program in `pane` asked for the clipboard (OSC 52 `?`): with `get-clipboard` on, it
    /// gets the newest buffer it wrote itself, never anyone else's.
    pub(super) fn clipboard_read(&mut self, pane: PaneId) {
        if !self.clipboard.config.borrow().get_clipboard {
            return;
        }
        let Some(buffer) = self.clipboard.buffers.newest_from(pane) else {
            return;
        };
        let Some(handle) = self.panes.get(&pane).cloned() else {
            return;
        };
        // One answer at a time: a program asking in a loop cannot pile them up.
        if self.clipboard_answering.swap(true, Ordering::AcqRel) {
            return;
        }
        let answer = Bytes::from(crate::buffers::osc52(&buffer.data, "\x1b\\"));
        let answering = self.clipboard_answering.clone();
        // The answer may be large: written by a task of its own, so the session never waits
        // for a program that does not read.
        tokio::spawn(async move {
            handle.send_input(answer).await;
            answering.store(false, Ordering::Release);
        });
    }
}
