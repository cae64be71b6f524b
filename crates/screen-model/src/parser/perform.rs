//! vte's callbacks as [`Handler`] calls, sequence by sequence: C0 controls, CSI, ESC, OSC and
//! the DECRQSS strings of DCS.

use super::params::{count, erase_scope, join_osc_params, param, parse_decimal};
use super::sgr::sgr;
use super::PerformState;
use crate::cell::Hyperlink;
use crate::handler::{
    Charset, DeviceAttributes, DynamicColor, Handler, KeyboardOp, PromptMark, Terminator,
};
use vte::{Params, Perform};

/// Longest DECRQSS request buffered; real requests are a few bytes.
const MAX_DECRQSS_BYTES: usize = 16;

/// Longest window name taken from `ESC k`; the rest is dropped.
const MAX_RENAME_BYTES: usize = 256;

/// Printable ASCII collected before it goes to the handler as one run.
pub(super) const RUN_CAPACITY: usize = 256;

/// vte's callbacks translated into [`Handler`] calls. Printable ASCII is collected into runs
/// (vte reports characters one at a time); every other callback first hands the run over, so
/// the order of effects is unchanged.
pub(super) struct Performer<'a, H: Handler> {
    pub(super) handler: &'a mut H,
    pub(super) state: &'a mut PerformState,
    pub(super) run: [u8; RUN_CAPACITY],
    pub(super) run_len: usize,
    /// A CSI or ESC sequence, or an OSC ended by BEL, was dispatched: vte is back in ground,
    /// so it may stop there.
    pub(super) dispatched: bool,
}

impl<H: Handler> Performer<'_, H> {
    /// Hands the collected run to the handler.
    #[inline]
    pub(super) fn flush(&mut self) {
        if self.run_len > 0 {
            if let Some(name) = self.state.rename.as_mut() {
                take_name(name, &self.run[..self.run_len]);
            } else {
                self.handler.print_ascii(&self.run[..self.run_len]);
            }
            self.run_len = 0;
        }
    }

    /// Prints a run of printable ASCII found without vte, after what vte reported before it.
    #[inline]
    pub(super) fn print_ascii(&mut self, text: &[u8]) {
        self.flush();
        if let Some(name) = self.state.rename.as_mut() {
            take_name(name, text);
            return;
        }
        self.handler.print_ascii(text);
    }

    /// Ends a window-name string, if one is open: the handler hears the name.
    fn end_rename(&mut self) {
        self.flush();
        if let Some(name) = self.state.rename.take() {
            self.handler.rename_window(&name);
        }
    }
}

/// Adds printable ASCII to a window name being taken, up to [`MAX_RENAME_BYTES`].
fn take_name(name: &mut String, text: &[u8]) {
    let room = MAX_RENAME_BYTES.saturating_sub(name.len());
    name.extend(text.iter().take(room).map(|&b| char::from(b)));
}

impl<H: Handler> Perform for Performer<'_, H> {
    #[inline(always)]
    fn print(&mut self, c: char) {
        if (c as u32).wrapping_sub(0x20) < 0x5f {
            self.run[self.run_len] = c as u8;
            self.run_len += 1;
            if self.run_len == RUN_CAPACITY {
                self.flush();
            }
        } else {
            self.flush();
            if let Some(name) = self.state.rename.as_mut() {
                if !c.is_control() && name.len() + c.len_utf8() <= MAX_RENAME_BYTES {
                    name.push(c);
                }
                return;
            }
            self.handler.print(c);
        }
    }

    fn execute(&mut self, byte: u8) {
        self.flush();
        if self.state.rename.is_some() {
            // BEL ends a window name as ST does; CAN and SUB cancel it; other controls
            // inside it are dropped.
            match byte {
                0x07 => self.end_rename(),
                0x18 | 0x1a => self.state.rename = None,
                _ => {}
            }
            return;
        }
        self.handler.forget_last_char();
        match byte {
            0x07 => self.handler.bell(),
            0x08 => self.handler.backspace(),
            0x09 => self.handler.tab_forward(1),
            0x0a..=0x0c => self.handler.linefeed(),
            0x0d => self.handler.carriage_return(),
            0x0e => self.handler.invoke_charset(1),
            0x0f => self.handler.invoke_charset(0),
            _ => self.handler.unhandled(),
        }
    }

    fn hook(&mut self, _params: &Params, intermediates: &[u8], ignore: bool, action: char) {
        self.end_rename();
        self.state.in_dcs = true;
        self.state.decrqss = (!ignore && intermediates == b"$" && action == 'q').then(Vec::new);
    }

    fn put(&mut self, byte: u8) {
        self.flush();
        if let Some(request) = &mut self.state.decrqss {
            if request.len() < MAX_DECRQSS_BYTES {
                request.push(byte);
            } else {
                // Too long to be a real request: answer nothing.
                self.state.decrqss = None;
            }
        }
    }

    fn unhook(&mut self) {
        self.flush();
        self.state.in_dcs = false;
        if let Some(request) = self.state.decrqss.take() {
            self.handler.request_status_string(&request);
        }
    }

    fn osc_dispatch(&mut self, params: &[&[u8]], bell_terminated: bool) {
        // After BEL vte is back in ground (after ESC it waits for the `\` of ST).
        self.dispatched |= bell_terminated;
        self.end_rename();
        if std::mem::take(&mut self.state.osc_overflowed) {
            return;
        }
        let terminator = if bell_terminated {
            Terminator::Bel
        } else {
            Terminator::St
        };
        let Some(&command) = params.first() else {
            return;
        };
        let rest = &params[1..];
        match command {
            b"0" | b"1" | b"2" => {
                let title = join_osc_params(rest);
                self.handler
                    .set_title(&title, command != b"2", command != b"1");
            }
            b"4" => {
                for pair in rest.chunks(2) {
                    let Some(index) = parse_decimal(pair[0]).and_then(|n| u8::try_from(n).ok())
                    else {
                        continue;
                    };
                    let spec = pair.get(1).copied().filter(|s| *s != b"?");
                    if pair.len() == 2 {
                        self.handler.palette_color(index, spec, terminator);
                    }
                }
            }
            b"104" => {
                let indices: Vec<u8> = rest
                    .iter()
                    .filter_map(|p| parse_decimal(p).and_then(|n| u8::try_from(n).ok()))
                    .collect();
                self.handler.reset_palette(&indices);
            }
            b"10" | b"11" | b"12" => {
                let first = match command {
                    b"10" => 0,
                    b"11" => 1,
                    _ => 2,
                };
                // OSC 10;a;b sets/queries 10 then 11, xterm style.
                for (offset, spec) in rest.iter().enumerate() {
                    let which = match first + offset {
                        0 => DynamicColor::Foreground,
                        1 => DynamicColor::Background,
                        2 => DynamicColor::Cursor,
                        _ => break,
                    };
                    let spec = (*spec != b"?").then_some(*spec);
                    self.handler.dynamic_color(which, spec, terminator);
                }
            }
            b"110" | b"111" | b"112" if rest.iter().all(|p| p.is_empty()) => {
                self.handler.reset_dynamic_color(match command {
                    b"110" => DynamicColor::Foreground,
                    b"111" => DynamicColor::Background,
                    _ => DynamicColor::Cursor,
                });
            }
            b"7" => self.handler.set_cwd(&join_osc_params(rest)),
            b"8" => {
                let link_params = rest.first().copied().unwrap_or_default();
                let uri = join_osc_params(rest.get(1..).unwrap_or_default());
                if uri.is_empty() {
                    self.handler.set_hyperlink(None);
                } else {
                    let id = link_params
                        .split(|&b| b == b':')
                        .find_map(|kv| kv.strip_prefix(b"id="))
                        .unwrap_or_default();
                    self.handler.set_hyperlink(Some(Hyperlink {
                        id: String::from_utf8_lossy(id).into(),
                        uri: String::from_utf8_lossy(&uri).into(),
                    }));
                }
            }
            b"52" => {
                if let [selection, data, ..] = rest {
                    self.handler.clipboard(selection, data, terminator);
                }
            }
            b"9" | b"777" | b"99" => {
                let mut osc = command.to_vec();
                for param in rest {
                    osc.push(b';');
                    osc.extend_from_slice(param);
                }
                self.handler.notification(&osc);
            }
            b"66" => {
                // Kitty's text sizing: `66;metadata;text`. The text is drawn at normal size,
                // as terminals without the protocol would, rather than lost.
                let text = join_osc_params(rest.get(1..).unwrap_or_default());
                for c in String::from_utf8_lossy(&text).chars() {
                    if !c.is_control() {
                        self.handler.print(c);
                    }
                }
            }
            b"133" => {
                let mark = match rest.first().and_then(|p| p.first()) {
                    Some(b'A') => Some(PromptMark::PromptStart),
                    Some(b'B') => Some(PromptMark::CommandStart),
                    Some(b'C') => Some(PromptMark::OutputStart),
                    Some(b'D') => Some(PromptMark::CommandEnd),
                    _ => None,
                };
                // `D;status`: the command's exit status, when the shell says it.
                let status = rest
                    .get(1)
                    .filter(|_| mark == Some(PromptMark::CommandEnd))
                    .and_then(|s| std::str::from_utf8(s).ok())
                    .and_then(|s| s.parse::<i32>().ok());
                if let Some(mark) = mark {
                    self.handler.prompt_mark(mark, status);
                }
            }
            _ => self.handler.unhandled(),
        }
    }

    fn terminated(&self) -> bool {
        self.dispatched
    }

    fn csi_dispatch(&mut self, params: &Params, intermediates: &[u8], ignore: bool, action: char) {
        self.dispatched = true;
        self.end_rename();
        if ignore {
            return;
        }
        let h = &mut *self.handler;
        if action != 'b' {
            h.forget_last_char();
        }
        match (intermediates, action) {
            ([], '@') => h.insert_blanks(count(params, 0)),
            ([], 'A') => h.move_up(count(params, 0), false),
            ([], 'B') => h.move_down(count(params, 0), false),
            ([], 'e') => h.move_down_unbounded(count(params, 0)),
            ([b' '], '@') => h.scroll_left(count(params, 0)),
            ([b' '], 'A') => h.scroll_right(count(params, 0)),
            ([b'\''], '}') => h.insert_columns(count(params, 0)),
            ([b'\''], '~') => h.delete_columns(count(params, 0)),
            ([], 'C') | ([], 'a') => h.move_forward(count(params, 0)),
            ([], 'D') => h.move_backward(count(params, 0)),
            ([], 'E') => h.move_down(count(params, 0), true),
            ([], 'F') => h.move_up(count(params, 0), true),
            ([], 'G') | ([], '`') => h.goto_col(count(params, 0) - 1),
            ([], 'H') | ([], 'f') => h.goto(count(params, 0) - 1, count(params, 1) - 1),
            ([], 'I') => h.tab_forward(count(params, 0)),
            ([], 'J') => {
                if let Some(scope) = erase_scope(param(params, 0), true) {
                    h.erase_in_display(scope, false);
                }
            }
            ([b'?'], 'J') => {
                if let Some(scope) = erase_scope(param(params, 0), false) {
                    h.erase_in_display(scope, true);
                }
            }
            ([], 'K') => {
                if let Some(scope) = erase_scope(param(params, 0), false) {
                    h.erase_in_line(scope, false);
                }
            }
            ([b'?'], 'K') => {
                if let Some(scope) = erase_scope(param(params, 0), false) {
                    h.erase_in_line(scope, true);
                }
            }
            ([], 'L') => h.insert_lines(count(params, 0)),
            ([], 'M') => h.delete_lines(count(params, 0)),
            ([], 'P') => h.delete_chars(count(params, 0)),
            ([], 'S') => h.scroll_up(count(params, 0)),
            ([], 'T') => h.scroll_down(count(params, 0)),
            ([], 'X') => h.erase_chars(count(params, 0)),
            ([], 'Z') => h.tab_backward(count(params, 0)),
            ([], 'b') => h.repeat_last(count(params, 0)),
            ([], 'c') if param(params, 0) == 0 => h.device_attributes(DeviceAttributes::Primary),
            ([b'>'], 'c') if param(params, 0) == 0 => {
                h.device_attributes(DeviceAttributes::Secondary)
            }
            ([], 'd') => h.goto_row(count(params, 0) - 1),
            ([], 'g') => match param(params, 0) {
                0 => h.clear_tab_stops(false),
                3 => h.clear_tab_stops(true),
                _ => {}
            },
            ([], 'h') | ([], 'l') | ([b'?'], 'h') | ([b'?'], 'l') => {
                let private = intermediates == b"?";
                for p in params.iter() {
                    h.set_mode(p[0], private, action == 'h');
                }
            }
            ([], 'm') => sgr(h, params),
            ([], 'n') => h.device_status(param(params, 0), false),
            ([b'?'], 'n') => h.device_status(param(params, 0), true),
            ([], 'r') => {
                h.set_scroll_region(usize::from(param(params, 0)), usize::from(param(params, 1)))
            }
            ([], 's') => h.save_cursor_or_margins(
                usize::from(param(params, 0)),
                usize::from(param(params, 1)),
            ),
            ([], 'u') => h.restore_cursor(),
            ([], 't') => h.window_op(param(params, 0)),
            ([b' '], 'q') => h.set_cursor_style(param(params, 0)),
            ([b'>'], 'q') if param(params, 0) == 0 => h.report_version(),
            ([b'!'], 'p') => h.soft_reset(),
            ([b'"'], 'q') => h.set_protection(param(params, 0) == 1),
            ([b'>'], 'u') => h.keyboard(KeyboardOp::PushFlags(param(params, 0))),
            ([b'<'], 'u') => h.keyboard(KeyboardOp::PopFlags(count(params, 0))),
            ([b'='], 'u') => h.keyboard(KeyboardOp::SetFlags(
                param(params, 0),
                param(params, 1).max(1),
            )),
            ([b'?'], 'u') => h.keyboard(KeyboardOp::QueryFlags),
            ([b'>'], 'm') => {
                let value = params.iter().nth(1).and_then(|p| p.first().copied());
                h.keyboard(KeyboardOp::ModifyKeys(param(params, 0), value))
            }
            ([b'>'], 'n') => h.keyboard(KeyboardOp::ModifyKeys(param(params, 0), None)),
            ([b'?'], 'm') => h.keyboard(KeyboardOp::QueryModifyKeys(param(params, 0))),
            ([b'$'], 'p') => h.request_mode(param(params, 0), false),
            ([b'?', b'$'], 'p') => h.request_mode(param(params, 0), true),
            _ => h.unhandled(),
        }
    }

    fn esc_dispatch(&mut self, intermediates: &[u8], ignore: bool, byte: u8) {
        self.dispatched = true;
        if self.state.rename.is_some() {
            // ST (`ESC \`) ends the name; any other escape ends it and then acts.
            self.end_rename();
            if intermediates.is_empty() && byte == b'\\' {
                return;
            }
        }
        self.flush();
        if ignore {
            return;
        }
        if intermediates.is_empty() && byte == b'k' {
            // screen's window-name string, as tmux reads it: the text up to ST names the
            // window (the host decides whether to, with `allow-rename`); none of it prints.
            self.state.rename = Some(String::new());
            return;
        }
        let h = &mut *self.handler;
        h.forget_last_char();
        match (intermediates, byte) {
            ([], b'D') => h.index(),
            ([], b'E') => h.next_line(),
            ([], b'H') => h.set_tab_stop(),
            ([], b'M') => h.reverse_index(),
            ([], b'N') => h.single_shift(2),
            ([], b'O') => h.single_shift(3),
            ([], b'n') => h.invoke_charset(2),
            ([], b'o') => h.invoke_charset(3),
            ([], b'7') => h.save_cursor(),
            ([], b'8') => h.restore_cursor(),
            ([], b'c') => h.reset(),
            ([], b'=') => h.set_keypad_application(true),
            ([], b'>') => h.set_keypad_application(false),
            ([b'#'], b'8') => h.alignment_test(),
            ([slot @ (b'(' | b')' | b'*' | b'+')], set) => {
                let slot = usize::from(slot - b'(');
                let charset = match set {
                    b'0' => Charset::DecSpecialGraphics,
                    b'A' => Charset::Uk,
                    _ => Charset::Ascii,
                };
                h.designate_charset(slot, charset);
            }
            _ => h.unhandled(),
        }
    }
}
