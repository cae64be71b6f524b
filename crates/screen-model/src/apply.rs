//! How the screen carries out each [`Handler`] call, following xterm where terminals disagree.

use crate::cell::{Attrs, Cell, Hyperlink, Pen, UnderlineStyle};
use crate::charset::CharsetState;
use crate::handler::{
    Charset, DeviceAttributes, DynamicColor, EraseScope, Handler, PromptMark, Sgr, Terminator,
};
use crate::modes::{MouseEncoding, MouseTracking};
use crate::palette::{format_color_spec, parse_color_spec};
use crate::screen::{erase_pen, reset_pen, Cursor, Event, Screen, MAX_TITLE_BYTES};
use crate::style::sgr_params;
use crate::width::{char_width, ZWJ};
use std::sync::Arc;

/// Longest hyperlink URI kept; longer links are ignored.
const MAX_URI_BYTES: usize = 4096;

impl Handler for Screen {
    #[inline(always)]
    fn print(&mut self, c: char) {
        // Fast path: printable ASCII over a narrow cell, no wrap due, nothing special on.
        if (c as u32).wrapping_sub(0x20) < 0x5f && self.plain_print && !self.cursor.pending_wrap {
            let right = self.print_right();
            let (r, col) = (self.cursor.row, self.cursor.col);
            let row = &mut self.grid[r];
            if row.cells[col].flags() == crate::cell::CellFlags::empty() {
                row.seq = self.seq;
                row.cells[col] = self.pen_cell.with_char(c);
                row.written = row.written.max(col + 1);
                row.plain &= self.pen_default;
                row.unstyled &= self.pen_default;
                row.ascii &= self.pen_cell.extra().is_none();
                self.last_char = Some(c);
                if col >= right {
                    self.cursor.pending_wrap = self.modes.autowrap;
                } else {
                    self.cursor.col = col + 1;
                }
                return;
            }
        }
        self.print_slow(c);
    }

    fn repeat_last(&mut self, count: usize) {
        let Some(c) = self.last_char else { return };
        let width = char_width(c);
        // More than a screenful repeats to the same visible result; keep time bounded.
        let count = count.min(self.cols * self.rows);
        for _ in 0..count {
            self.put_char(c, width);
        }
    }

    fn bell(&mut self) {
        self.event(Event::Bell);
    }

    fn backspace(&mut self) {
        let left = self.print_left();
        self.cursor.pending_wrap = false;
        if self.cursor.col > left {
            self.cursor.col -= 1;
        } else if self.modes.reverse_wrap && self.modes.autowrap {
            // xterm: back to the end of the previous line, from the top to the bottom.
            self.cursor.row = if self.cursor.row > self.top {
                self.cursor.row - 1
            } else {
                self.bottom
            };
            self.cursor.col = self.print_right();
        }
    }

    fn tab_forward(&mut self, count: usize) {
        let right = self.print_right();
        let mut col = self.cursor.col;
        for _ in 0..count {
            match (col + 1..=right).find(|&c| self.tabs[c]) {
                Some(next) => col = next,
                None => {
                    col = right;
                    break;
                }
            }
        }
        self.cursor.col = col;
    }

    fn tab_backward(&mut self, count: usize) {
        // xterm moves but keeps a pending wrap.
        let left = self.print_left();
        let mut col = self.cursor.col;
        for _ in 0..count {
            match (left..col).rev().find(|&c| self.tabs[c]) {
                Some(prev) => col = prev,
                None => {
                    col = left;
                    break;
                }
            }
        }
        self.cursor.col = col;
    }

    fn linefeed(&mut self) {
        if self.bulk.is_some() {
            self.bulk_line_feed();
            return;
        }
        if self.modes.newline {
            self.carriage_return();
        }
        self.index_down();
    }

    fn carriage_return(&mut self) {
        self.cursor.col = self.print_left();
        self.cursor.pending_wrap = false;
    }

    fn invoke_charset(&mut self, slot: usize) {
        self.charsets.invoke(slot);
        self.update_plain_print();
    }

    fn single_shift(&mut self, slot: usize) {
        self.charsets.single_shift(slot);
        self.update_plain_print();
    }

    fn designate_charset(&mut self, slot: usize, charset: Charset) {
        self.charsets.designate(slot, charset);
        self.update_plain_print();
    }

    fn index(&mut self) {
        self.index_down();
    }

    fn next_line(&mut self) {
        self.carriage_return();
        self.index_down();
    }

    fn reverse_index(&mut self) {
        self.index_up();
    }

    fn set_tab_stop(&mut self) {
        let col = self.cursor.col;
        if let Some(t) = self.tabs.get_mut(col) {
            *t = true;
        }
    }

    fn clear_tab_stops(&mut self, all: bool) {
        if all {
            self.tabs.iter_mut().for_each(|t| *t = false);
        } else {
            let col = self.cursor.col;
            if let Some(t) = self.tabs.get_mut(col) {
                *t = false;
            }
        }
    }

    fn save_cursor(&mut self) {
        let slot = usize::from(self.alt_active);
        self.saved[slot] = Some(self.saved_now());
    }

    fn restore_cursor(&mut self) {
        self.restore_cursor_state();
        self.update_plain_print();
    }

    fn reset(&mut self) {
        self.full_reset();
        self.update_plain_print();
    }

    fn soft_reset(&mut self) {
        self.soft_reset_state();
        self.update_plain_print();
    }

    fn alignment_test(&mut self) {
        self.top = 0;
        self.bottom = self.rows - 1;
        self.left = 0;
        self.right = self.cols - 1;
        self.modes.origin = false;
        let e = Cell::new('E', &Pen::default(), crate::cell::CellFlags::empty());
        for r in 0..self.rows {
            let row = self.row_mut(r);
            row.cells.iter_mut().for_each(|c| *c = e.clone());
            row.wrapped = false;
        }
        self.set_cursor(0, 0);
    }

    fn set_keypad_application(&mut self, on: bool) {
        self.modes.application_keypad = on;
    }

    fn insert_blanks(&mut self, count: usize) {
        let (left, right) = (self.margin_left(), self.margin_right());
        let (r, col) = (self.cursor.row, self.cursor.col);
        self.cursor.pending_wrap = false;
        if col < left || col > right {
            return;
        }
        let pen = erase_pen(&self.cursor.pen);
        self.row_mut(r).insert_cells(col, right, count, &pen);
    }

    fn move_up(&mut self, count: usize, cr: bool) {
        let limit = if self.cursor.row >= self.top {
            self.top
        } else {
            0
        };
        self.cursor.row = self.cursor.row.saturating_sub(count).max(limit);
        self.cursor.pending_wrap = false;
        if cr {
            self.carriage_return();
        }
    }

    fn move_down(&mut self, count: usize, cr: bool) {
        let limit = if self.cursor.row <= self.bottom {
            self.bottom
        } else {
            self.rows - 1
        };
        self.cursor.row = self.cursor.row.saturating_add(count).min(limit);
        self.cursor.pending_wrap = false;
        if cr {
            self.carriage_return();
        }
    }

    fn move_forward(&mut self, count: usize) {
        let right = self.print_right();
        self.cursor.col = self.cursor.col.saturating_add(count).min(right);
        self.cursor.pending_wrap = false;
    }

    fn move_backward(&mut self, count: usize) {
        let left = self.print_left();
        self.cursor.col = self.cursor.col.saturating_sub(count).max(left);
        self.cursor.pending_wrap = false;
    }

    fn move_down_unbounded(&mut self, count: usize) {
        self.cursor.row = self.cursor.row.saturating_add(count).min(self.rows - 1);
        self.cursor.pending_wrap = false;
    }

    fn scroll_left(&mut self, count: usize) {
        let (top, bottom, left) = (self.top, self.bottom, self.margin_left());
        if self.in_margins() {
            self.shift_columns_left(top, bottom, left, count);
        }
    }

    fn scroll_right(&mut self, count: usize) {
        let (top, bottom, left) = (self.top, self.bottom, self.margin_left());
        if self.in_margins() {
            self.shift_columns_right(top, bottom, left, count);
        }
    }

    fn insert_columns(&mut self, count: usize) {
        let (top, bottom, col) = (self.top, self.bottom, self.cursor.col);
        if self.in_margins() {
            self.shift_columns_right(top, bottom, col, count);
        }
    }

    fn delete_columns(&mut self, count: usize) {
        let (top, bottom, col) = (self.top, self.bottom, self.cursor.col);
        if self.in_margins() {
            self.shift_columns_left(top, bottom, col, count);
        }
    }

    fn forget_last_char(&mut self) {
        self.last_char = None;
    }

    fn goto_col(&mut self, col: usize) {
        let col = if self.modes.origin {
            (self.margin_left() + col).min(self.margin_right())
        } else {
            col
        };
        let row = self.cursor.row;
        self.set_cursor(row, col);
    }

    fn goto_row(&mut self, row: usize) {
        let row = if self.modes.origin {
            (self.top + row).min(self.bottom)
        } else {
            row
        };
        let col = self.cursor.col;
        self.set_cursor(row, col);
    }

    fn goto(&mut self, row: usize, col: usize) {
        if self.modes.origin {
            let row = (self.top + row).min(self.bottom);
            let col = (self.margin_left() + col).min(self.margin_right());
            self.set_cursor(row, col);
        } else {
            self.set_cursor(row, col);
        }
    }

    fn erase_in_display(&mut self, scope: EraseScope, selective: bool) {
        let pen = erase_pen(&self.cursor.pen);
        let (r, col) = (self.cursor.row, self.cursor.col);
        match scope {
            EraseScope::ToEnd => {
                self.erase_in_line(EraseScope::ToEnd, selective);
                for row in r + 1..self.rows {
                    self.row_mut(row).erase(0, usize::MAX, &pen, selective);
                    self.grid[row].wrapped = false;
                }
            }
            EraseScope::ToStart => {
                for row in 0..r {
                    self.row_mut(row).erase(0, usize::MAX, &pen, selective);
                    self.grid[row].wrapped = false;
                }
                self.row_mut(r).erase(0, col + 1, &pen, selective);
            }
            EraseScope::All => {
                for row in 0..self.rows {
                    self.row_mut(row).erase(0, usize::MAX, &pen, selective);
                    self.grid[row].wrapped = false;
                }
            }
            EraseScope::Scrollback => self.scrollback.clear(),
        }
    }

    fn erase_in_line(&mut self, scope: EraseScope, selective: bool) {
        let pen = erase_pen(&self.cursor.pen);
        let (r, col) = (self.cursor.row, self.cursor.col);
        self.cursor.pending_wrap = false;
        let row = self.row_mut(r);
        match scope {
            EraseScope::ToEnd => {
                row.erase(col, usize::MAX, &pen, selective);
                row.wrapped = false;
            }
            EraseScope::ToStart => row.erase(0, col + 1, &pen, selective),
            EraseScope::All | EraseScope::Scrollback => {
                row.erase(0, usize::MAX, &pen, selective);
                row.wrapped = false;
            }
        }
    }

    fn insert_lines(&mut self, count: usize) {
        let (r, col) = (self.cursor.row, self.cursor.col);
        if r < self.top || r > self.bottom || col < self.margin_left() || col > self.margin_right()
        {
            return;
        }
        let bottom = self.bottom;
        self.scroll_region_down(r, bottom, count);
        self.cursor.col = self.margin_left();
        self.cursor.pending_wrap = false;
    }

    fn delete_lines(&mut self, count: usize) {
        let (r, col) = (self.cursor.row, self.cursor.col);
        if r < self.top || r > self.bottom || col < self.margin_left() || col > self.margin_right()
        {
            return;
        }
        let bottom = self.bottom;
        // Lines deleted never go to the scrollback, even from the top row.
        let alt = self.alt_active;
        self.alt_active = true;
        self.scroll_region_up(r, bottom, count);
        self.alt_active = alt;
        self.cursor.col = self.margin_left();
        self.cursor.pending_wrap = false;
    }

    fn delete_chars(&mut self, count: usize) {
        let (left, right) = (self.margin_left(), self.margin_right());
        let (r, col) = (self.cursor.row, self.cursor.col);
        self.cursor.pending_wrap = false;
        if col < left || col > right {
            return;
        }
        let pen = erase_pen(&self.cursor.pen);
        let row = self.row_mut(r);
        row.delete_cells(col, right, count, &pen);
        row.wrapped = false;
    }

    fn erase_chars(&mut self, count: usize) {
        let pen = erase_pen(&self.cursor.pen);
        let (r, col) = (self.cursor.row, self.cursor.col);
        self.cursor.pending_wrap = false;
        let end = col.saturating_add(count);
        self.row_mut(r).erase(col, end, &pen, false);
    }

    fn scroll_up(&mut self, count: usize) {
        let (top, bottom) = (self.top, self.bottom);
        self.scroll_region_up(top, bottom, count);
    }

    fn scroll_down(&mut self, count: usize) {
        let (top, bottom) = (self.top, self.bottom);
        self.scroll_region_down(top, bottom, count);
    }

    fn device_attributes(&mut self, which: DeviceAttributes) {
        match which {
            // VT220 with ANSI colour.
            DeviceAttributes::Primary => self.reply(b"\x1b[?62;22c"),
            // VT220, firmware version 10.
            DeviceAttributes::Secondary => self.reply(b"\x1b[>1;10;0c"),
        }
    }

    fn device_status(&mut self, kind: u16, private: bool) {
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
            _ => {}
        }
    }

    fn set_mode(&mut self, mode: u16, private: bool, on: bool) {
        if !private {
            match mode {
                4 => {
                    self.modes.insert = on;
                    self.update_plain_print();
                }
                20 => self.modes.newline = on,
                _ => {}
            }
            return;
        }
        match mode {
            1 => self.modes.application_cursor = on,
            5 if self.modes.reverse_video != on => {
                self.modes.reverse_video = on;
                self.touch_all();
            }
            6 => {
                self.modes.origin = on;
                self.goto(0, 0);
            }
            7 => self.modes.autowrap = on,
            12 => self.modes.cursor_blink = on,
            25 => self.modes.cursor_visible = on,
            45 => self.modes.reverse_wrap = on,
            47 => self.switch_buffer(on),
            66 => self.modes.application_keypad = on,
            69 => {
                self.modes.left_right_margins = on;
                if !on {
                    self.left = 0;
                    self.right = self.cols - 1;
                }
            }
            1000 => self.modes.mouse_tracking = tracking(on, MouseTracking::Press),
            1002 => self.modes.mouse_tracking = tracking(on, MouseTracking::Drag),
            1003 => self.modes.mouse_tracking = tracking(on, MouseTracking::Motion),
            1004 => self.modes.focus_events = on,
            1005 => self.modes.mouse_encoding = encoding(on, MouseEncoding::Utf8),
            1006 => self.modes.mouse_encoding = encoding(on, MouseEncoding::Sgr),
            1015 => self.modes.mouse_encoding = encoding(on, MouseEncoding::Urxvt),
            1047 => {
                if !on && self.alt_active {
                    self.clear_buffer();
                }
                self.switch_buffer(on);
            }
            1048 => {
                if on {
                    self.save_cursor();
                } else {
                    self.restore_cursor();
                }
            }
            1049 => {
                if on {
                    if !self.alt_active {
                        self.saved[0] = Some(self.saved_now());
                        self.switch_buffer(true);
                    }
                    self.clear_buffer();
                } else if self.alt_active {
                    self.switch_buffer(false);
                    self.restore_cursor();
                }
            }
            2004 => self.modes.bracketed_paste = on,
            2026 => self.modes.synchronized_output = on,
            _ => {}
        }
    }

    fn request_mode(&mut self, mode: u16, private: bool) {
        let m = &self.modes;
        let state = if private {
            match mode {
                1 => Some(m.application_cursor),
                5 => Some(m.reverse_video),
                6 => Some(m.origin),
                7 => Some(m.autowrap),
                12 => Some(m.cursor_blink),
                25 => Some(m.cursor_visible),
                45 => Some(m.reverse_wrap),
                47 | 1047 | 1049 => Some(self.alt_active),
                66 => Some(m.application_keypad),
                69 => Some(m.left_right_margins),
                1000 => Some(m.mouse_tracking == MouseTracking::Press),
                1002 => Some(m.mouse_tracking == MouseTracking::Drag),
                1003 => Some(m.mouse_tracking == MouseTracking::Motion),
                1004 => Some(m.focus_events),
                1005 => Some(m.mouse_encoding == MouseEncoding::Utf8),
                1006 => Some(m.mouse_encoding == MouseEncoding::Sgr),
                1015 => Some(m.mouse_encoding == MouseEncoding::Urxvt),
                2004 => Some(m.bracketed_paste),
                2026 => Some(m.synchronized_output),
                _ => None,
            }
        } else {
            match mode {
                4 => Some(m.insert),
                20 => Some(m.newline),
                _ => None,
            }
        };
        let value = match state {
            Some(true) => 1,
            Some(false) => 2,
            None => 0,
        };
        let prefix = if private { "?" } else { "" };
        self.reply(format!("\x1b[{prefix}{mode};{value}$y").as_bytes());
    }

    fn set_scroll_region(&mut self, top: usize, bottom: usize) {
        let top = top.max(1) - 1;
        let bottom = if bottom == 0 {
            self.rows - 1
        } else {
            (bottom - 1).min(self.rows - 1)
        };
        if top >= bottom {
            return;
        }
        self.top = top;
        self.bottom = bottom;
        self.goto(0, 0);
    }

    fn set_left_right_margins(&mut self, left: usize, right: usize) {
        let left = left.max(1) - 1;
        let right = if right == 0 {
            self.cols - 1
        } else {
            (right - 1).min(self.cols - 1)
        };
        if left >= right {
            return;
        }
        self.left = left;
        self.right = right;
        self.goto(0, 0);
    }

    fn save_cursor_or_margins(&mut self, left: usize, right: usize) {
        if self.modes.left_right_margins {
            self.set_left_right_margins(left, right);
        } else {
            self.save_cursor();
        }
    }

    fn sgr(&mut self, sgr: Sgr) {
        self.apply_sgr(sgr);
        self.refresh_pen_cache();
    }

    fn print_ascii(&mut self, mut run: &[u8]) {
        if self.bulk.is_some() {
            self.bulk_print(run);
            return;
        }
        while let Some(&first) = run.first() {
            if !self.plain_print || self.cursor.pending_wrap {
                self.print(char::from(first));
                run = &run[1..];
                continue;
            }
            let right = self.print_right();
            let (r, col) = (self.cursor.row, self.cursor.col);
            let n = run.len().min(right + 1 - col);
            let row = &mut self.grid[r];
            let target = &mut row.cells[col..col + n];
            // A row known to be narrow ASCII without extras needs no look at its cells.
            let (wide, extras) = if row.ascii {
                (false, false)
            } else {
                target.iter().fold((false, false), |(wide, extras), cell| {
                    (
                        wide || cell.flags() != crate::cell::CellFlags::empty(),
                        extras || cell.extra().is_some(),
                    )
                })
            };
            if wide {
                // Wide characters to split: the careful path.
                self.print(char::from(first));
                run = &run[1..];
                continue;
            }
            if !extras && self.pen_cell.extra().is_none() {
                // Nothing to drop or share: overwrite the fields in place.
                let style = self.pen_cell.style_only();
                for (cell, &b) in target.iter_mut().zip(&run[..n]) {
                    cell.overwrite_narrow(char::from(b), style);
                }
            } else {
                for (cell, &b) in target.iter_mut().zip(&run[..n]) {
                    *cell = self.pen_cell.with_char(char::from(b));
                }
            }
            row.seq = self.seq;
            row.written = row.written.max(col + n);
            row.plain &= self.pen_default;
            row.unstyled &= self.pen_default;
            row.ascii &= self.pen_cell.extra().is_none();
            self.last_char = Some(char::from(run[n - 1]));
            if col + n > right {
                self.cursor.col = right;
                self.cursor.pending_wrap = self.modes.autowrap;
            } else {
                self.cursor.col = col + n;
            }
            run = &run[n..];
        }
    }

    fn set_cursor_style(&mut self, style: u16) {
        if style <= 6 {
            self.cursor_style = style;
        }
    }

    fn set_protection(&mut self, on: bool) {
        self.cursor.pen.attrs.set(Attrs::PROTECTED, on);
        self.update_plain_print();
    }

    fn window_op(&mut self, op: u16) {
        let reply = match op {
            18 => format!("\x1b[8;{};{}t", self.rows, self.cols),
            19 => format!("\x1b[9;{};{}t", self.rows, self.cols),
            _ => return,
        };
        self.reply(reply.as_bytes());
    }

    fn set_title(&mut self, title: &[u8], icon: bool, window: bool) {
        let clean = clean_title(title);
        if icon {
            self.icon_title = clean.clone();
        }
        if window && self.title != clean {
            self.title = clean.clone();
            self.event(Event::TitleChanged(clean));
        }
    }

    fn palette_color(&mut self, index: u8, spec: Option<&[u8]>, terminator: Terminator) {
        match spec {
            None => {
                let rgb = self.palette.get(index);
                let reply = format!("\x1b]4;{index};{}", format_color_spec(rgb));
                self.reply_with(reply, terminator);
            }
            Some(spec) => {
                if let Some(rgb) = parse_color_spec(spec) {
                    self.palette.set(index, rgb);
                }
            }
        }
    }

    fn reset_palette(&mut self, indices: &[u8]) {
        if indices.is_empty() {
            (0..=255).for_each(|i| self.palette.reset(i));
        } else {
            indices.iter().for_each(|&i| self.palette.reset(i));
        }
    }

    fn dynamic_color(&mut self, which: DynamicColor, spec: Option<&[u8]>, terminator: Terminator) {
        let (code, slot) = match which {
            DynamicColor::Foreground => (10, &mut self.palette.foreground),
            DynamicColor::Background => (11, &mut self.palette.background),
            DynamicColor::Cursor => (12, &mut self.palette.cursor),
        };
        match spec {
            None => {
                let reply = format!("\x1b]{code};{}", format_color_spec(*slot));
                self.reply_with(reply, terminator);
            }
            Some(spec) => {
                if let Some(rgb) = parse_color_spec(spec) {
                    *slot = rgb;
                }
            }
        }
    }

    fn set_cwd(&mut self, url: &[u8]) {
        if url.len() > MAX_URI_BYTES {
            return;
        }
        let url = String::from_utf8_lossy(url).into_owned();
        if self.cwd.as_deref() != Some(url.as_str()) {
            self.cwd = Some(url.clone());
            self.event(Event::CwdChanged(url));
        }
    }

    fn set_hyperlink(&mut self, link: Option<Hyperlink>) {
        let link = link.filter(|l| l.uri.len() <= MAX_URI_BYTES && l.id.len() <= MAX_URI_BYTES);
        self.cursor
            .pen
            .update_extra(|e| e.hyperlink = link.map(Arc::new));
        self.update_plain_print();
    }

    fn clipboard(&mut self, selection: &[u8], data: &[u8], _terminator: Terminator) {
        let selection: String = selection
            .iter()
            .filter(|b| b"cpqs01234567".contains(b))
            .map(|&b| char::from(b))
            .collect();
        let selection = if selection.is_empty() {
            "s0".to_string()
        } else {
            selection
        };
        if data == b"?" {
            self.event(Event::ClipboardRead { selection });
        } else if data
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(b))
        {
            self.event(Event::ClipboardWrite {
                selection,
                base64: data.to_vec(),
            });
        }
    }

    fn prompt_mark(&mut self, mark: PromptMark) {
        let row = self.cursor.row;
        self.event(Event::Prompt { mark, row });
    }

    fn request_status_string(&mut self, request: &[u8]) {
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

impl Screen {
    fn apply_sgr(&mut self, sgr: Sgr) {
        let pen = &mut self.cursor.pen;
        match sgr {
            Sgr::Reset => *pen = reset_pen(pen),
            Sgr::Bold => pen.attrs.set(Attrs::BOLD, true),
            Sgr::Dim => pen.attrs.set(Attrs::DIM, true),
            Sgr::Italic => pen.attrs.set(Attrs::ITALIC, true),
            Sgr::Underline(style) => pen.attrs.set_underline(style),
            Sgr::Blink => pen.attrs.set(Attrs::BLINK, true),
            Sgr::Inverse => pen.attrs.set(Attrs::INVERSE, true),
            Sgr::Hidden => pen.attrs.set(Attrs::HIDDEN, true),
            Sgr::Strike => pen.attrs.set(Attrs::STRIKE, true),
            Sgr::Overline => pen.attrs.set(Attrs::OVERLINE, true),
            Sgr::NormalIntensity => {
                pen.attrs.set(Attrs::BOLD, false);
                pen.attrs.set(Attrs::DIM, false);
            }
            Sgr::NoItalic => pen.attrs.set(Attrs::ITALIC, false),
            Sgr::NoUnderline => pen.attrs.set_underline(UnderlineStyle::None),
            Sgr::NoBlink => pen.attrs.set(Attrs::BLINK, false),
            Sgr::NoInverse => pen.attrs.set(Attrs::INVERSE, false),
            Sgr::NoHidden => pen.attrs.set(Attrs::HIDDEN, false),
            Sgr::NoStrike => pen.attrs.set(Attrs::STRIKE, false),
            Sgr::NoOverline => pen.attrs.set(Attrs::OVERLINE, false),
            Sgr::Foreground(c) => pen.fg = c,
            Sgr::Background(c) => pen.bg = c,
            Sgr::UnderlineColor(c) => {
                if pen.underline_color() != c {
                    pen.update_extra(|e| e.underline_color = c);
                }
            }
        }
    }

    /// Everything the fast path of `print` does not cover: charsets, wide and zero-width
    /// characters, pending wraps, insert mode.
    #[inline(never)]
    fn print_slow(&mut self, c: char) {
        if c == '\u{7f}' {
            return;
        }
        let c = if self.charsets.is_identity() {
            c
        } else {
            self.charsets.map(c)
        };
        let width = char_width(c);
        // Zero-width characters join the previous grapheme; after a ZWJ, so does a wide one
        // (an emoji ZWJ sequence shows as one glyph).
        if width == 0 || (self.join_next && width == 2) {
            self.join_next = c == ZWJ;
            self.update_plain_print();
            self.join_to_previous(c);
            return;
        }
        if self.join_next {
            self.join_next = false;
            self.update_plain_print();
        }
        self.last_char = Some(c);
        if width == 2 && self.plain_print && !self.cursor.pending_wrap {
            // Fast path for a wide character that fits over two narrow cells.
            let right = self.print_right();
            let (r, col) = (self.cursor.row, self.cursor.col);
            if col < right {
                let row = &mut self.grid[r];
                let empty = crate::cell::CellFlags::empty();
                if row.cells[col].flags() == empty && row.cells[col + 1].flags() == empty {
                    row.seq = self.seq;
                    row.cells[col] = Cell::new(c, &self.cursor.pen, crate::cell::CellFlags::WIDE);
                    row.cells[col + 1] = Cell::spacer(&self.cursor.pen);
                    row.written = row.written.max(col + 2);
                    row.plain = false;
                    row.ascii = false;
                    row.unstyled &= self.pen_default;
                    if col + 1 >= right {
                        self.cursor.col = right;
                        self.cursor.pending_wrap = self.modes.autowrap;
                    } else {
                        self.cursor.col = col + 2;
                    }
                    return;
                }
            }
        }
        self.put_char(c, width);
    }

    fn restore_cursor_state(&mut self) {
        let slot = usize::from(self.alt_active);
        match self.saved[slot].clone() {
            Some(saved) => {
                self.cursor = saved.cursor;
                self.cursor.row = self.cursor.row.min(self.rows - 1);
                self.cursor.col = self.cursor.col.min(self.cols - 1);
                self.modes.origin = saved.origin;
                self.modes.autowrap = saved.autowrap;
                self.charsets = saved.charsets;
            }
            None => {
                // xterm: restoring with nothing saved homes the cursor and resets the pen.
                self.cursor = Cursor::default();
                self.modes.origin = false;
                self.charsets = CharsetState::default();
            }
        }
    }

    fn full_reset(&mut self) {
        let limit = self.scrollback.limit();
        let scrollback = std::mem::replace(
            &mut self.scrollback,
            crate::scrollback::Scrollback::new(limit),
        );
        let fresh = Screen::with_scrollback(self.cols, self.rows, limit);
        let replies = std::mem::take(&mut self.replies);
        let events = std::mem::take(&mut self.events);
        let dropped = self.dropped;
        let seq = self.seq;
        let parser_state_kept = std::mem::replace(self, fresh);
        drop(parser_state_kept);
        self.scrollback = scrollback;
        self.replies = replies;
        self.events = events;
        self.dropped = dropped;
        self.seq = seq;
        self.touch_all();
        self.event(Event::TitleChanged(String::new()));
    }

    fn soft_reset_state(&mut self) {
        self.modes.insert = false;
        self.modes.origin = false;
        self.modes.cursor_visible = true;
        self.modes.application_cursor = false;
        self.modes.application_keypad = false;
        self.modes.left_right_margins = false;
        self.top = 0;
        self.bottom = self.rows - 1;
        self.left = 0;
        self.right = self.cols - 1;
        self.cursor.pen = Pen::default();
        self.charsets = CharsetState::default();
        let slot = usize::from(self.alt_active);
        self.saved[slot] = None;
    }

    /// Whether the cursor is inside the scroll region and the column margins.
    fn in_margins(&self) -> bool {
        let (r, c) = (self.cursor.row, self.cursor.col);
        r >= self.top && r <= self.bottom && c >= self.margin_left() && c <= self.margin_right()
    }

    /// Deletes `count` columns at `col` in rows `top..=bottom`, pulling blanks in at the right
    /// margin.
    fn shift_columns_left(&mut self, top: usize, bottom: usize, col: usize, count: usize) {
        let right = self.margin_right();
        let pen = erase_pen(&self.cursor.pen);
        for r in top..=bottom {
            self.row_mut(r).delete_cells(col, right, count, &pen);
        }
    }

    /// Inserts `count` blank columns at `col` in rows `top..=bottom`.
    fn shift_columns_right(&mut self, top: usize, bottom: usize, col: usize, count: usize) {
        let right = self.margin_right();
        let pen = erase_pen(&self.cursor.pen);
        for r in top..=bottom {
            self.row_mut(r).insert_cells(col, right, count, &pen);
        }
    }

    fn reply_with(&mut self, mut reply: String, terminator: Terminator) {
        reply.push_str(match terminator {
            Terminator::Bel => "\x07",
            Terminator::St => "\x1b\\",
        });
        self.reply(reply.as_bytes());
    }
}

fn tracking(on: bool, mode: MouseTracking) -> MouseTracking {
    if on {
        mode
    } else {
        MouseTracking::Off
    }
}

fn encoding(on: bool, mode: MouseEncoding) -> MouseEncoding {
    if on {
        mode
    } else {
        MouseEncoding::Default
    }
}

/// A title as shown: lossy UTF-8, control characters removed, capped at [`MAX_TITLE_BYTES`].
fn clean_title(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    let mut out = String::new();
    for c in text.chars().filter(|c| !c.is_control()) {
        if out.len() + c.len_utf8() > MAX_TITLE_BYTES {
            break;
        }
        out.push(c);
    }
    out
}
