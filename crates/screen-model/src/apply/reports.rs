//! Replies to queries: device attributes and status, the window size, DECRQSS.

use crate::cell::Attrs;
use crate::handler::DeviceAttributes;
use crate::screen::Screen;
use crate::style::sgr_params;

impl Screen {
    pub(super) fn apply_device_attributes(&mut self, which: DeviceAttributes) {
        match which {
            // VT220 with ANSI colour.
            DeviceAttributes::Primary => self.reply(b"\x1b[?62;22c"),
            // VT220, firmware version 10.
            DeviceAttributes::Secondary => self.reply(b"\x1b[>1;10;0c"),
        }
    }

    pub(super) fn apply_device_status(&mut self, kind: u16, private: bool) {
        match kind {
            5 => self.reply(b"\x1b[0n"),
            6 => {
                let (mut row, mut col) = (self.cursor.row, self.cursor.col);
                if self.modes.origin {
                    row = row.saturating_sub(self.top);
                    col = col.saturating_sub(self.margin_left());
                }
                let reply = if private {
                    format!("\x1b[?{};{}R", row + 1, col + 1)
                } else {
                    format!("\x1b[{};{}R", row + 1, col + 1)
                };
                self.reply(reply.as_bytes());
            }
            // The colour scheme (mode 2031's report), when the host knows it.
            996 if private => self.report_color_scheme(),
            _ => {}
        }
    }

    /// `CSI ? 997 ; 1 n` (dark) or `; 2 n` (light) from what the host knows; nothing when it
    /// does not know.
    pub(crate) fn report_color_scheme(&mut self) {
        match self.host.is_dark() {
            Some(true) => self.reply(b"\x1b[?997;1n"),
            Some(false) => self.reply(b"\x1b[?997;2n"),
            None => {}
        }
    }

    /// XTVERSION (`CSI > q`): weft's own name and version, never the user's terminal's.
    pub(super) fn apply_report_version(&mut self) {
        let reply = format!("\x1bP>|weft {}\x1b\\", env!("CARGO_PKG_VERSION"));
        self.reply(reply.as_bytes());
    }

    pub(super) fn apply_window_op(&mut self, op: u16) {
        let reply = match op {
            18 => format!("\x1b[8;{};{}t", self.rows, self.cols),
            19 => format!("\x1b[9;{};{}t", self.rows, self.cols),
            _ => return,
        };
        self.reply(reply.as_bytes());
    }

    pub(super) fn apply_request_status_string(&mut self, request: &[u8]) {
        // Replies are built from weft's own state; the request itself is never echoed.
        let value = match request {
            b"m" => Some(format!("{}m", sgr_params(&self.cursor.pen))),
            b"r" => Some(format!("{};{}r", self.top + 1, self.bottom + 1)),
            b"s" => Some(format!("{};{}s", self.left + 1, self.right + 1)),
            b" q" => Some(format!("{} q", self.cursor_style.max(1))),
            b"\"q" => Some(format!(
                "{}\"q",
                u8::from(self.cursor.pen.attrs.contains(Attrs::PROTECTED))
            )),
            b"\"p" => Some("62;1\"p".to_string()),
            _ => None,
        };
        match value {
            Some(v) => self.reply(format!("\x1bP1$r{v}\x1b\\").as_bytes()),
            None => self.reply(b"\x1bP0$r\x1b\\"),
        }
    }
}
