//! How the screen carries out each [`Handler`] call, following xterm where terminals disagree.
//!
//! Calls whose work is a line or two, and the fast path of `print`, are carried out right here.
//! Each of the others is `apply_<call>` in the module for its job: `print` (printing), `cursor`
//! (motion, tab stops, margins), `edit` (erasing, inserting, deleting, shifting), `modes`
//! (SM/RM, DECSET/DECRST, DECRQM, DECSCUSR), `pen` (SGR), `reset` (RIS, DECSTR), `reports`
//! (replies to queries), `keyboard` (kitty flags, `modifyOtherKeys`) and `osc` (titles, colours, cwd, hyperlinks, clipboard).

mod cursor;
mod edit;
mod keyboard;
mod modes;
mod osc;
mod pen;
mod print;
mod reports;
mod reset;

use crate::cell::{Attrs, Hyperlink};
use crate::handler::{
    Charset, DeviceAttributes, DynamicColor, EraseScope, Handler, KeyboardOp, PromptMark, Sgr,
    Terminator,
};
use crate::screen::{Event, Screen};

impl Handler for Screen {
    #[inline(always)]
    fn print(&mut self, c: char) {
        // Fast path: printable ASCII over a narrow cell, no wrap due, nothing special on.
        if (c as u32).wrapping_sub(0x20) < 0x5f && self.plain_print && !self.cursor.pending_wrap {
            let right = self.print_right();
            let (r, col) = (self.cursor.row, self.cursor.col);
            let row = &mut self.grid[r];
            let cell = &mut row.cells_mut()[col];
            if cell.flags() == crate::cell::CellFlags::empty() {
                *cell = self.pen_cell.with_char(c);
                row.seq = self.seq;
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
        self.apply_repeat_last(count);
    }

    fn bell(&mut self) {
        self.event(Event::Bell);
    }

    fn backspace(&mut self) {
        self.apply_backspace();
    }

    fn tab_forward(&mut self, count: usize) {
        self.apply_tab_forward(count);
    }

    fn tab_backward(&mut self, count: usize) {
        self.apply_tab_backward(count);
    }

    fn linefeed(&mut self) {
        self.apply_linefeed();
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
        self.apply_set_tab_stop();
    }

    fn clear_tab_stops(&mut self, all: bool) {
        self.apply_clear_tab_stops(all);
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
        self.apply_alignment_test();
    }

    fn set_keypad_application(&mut self, on: bool) {
        self.modes.application_keypad = on;
    }

    fn insert_blanks(&mut self, count: usize) {
        self.apply_insert_blanks(count);
    }

    fn move_up(&mut self, count: usize, cr: bool) {
        self.apply_move_up(count, cr);
    }

    fn move_down(&mut self, count: usize, cr: bool) {
        self.apply_move_down(count, cr);
    }

    fn move_forward(&mut self, count: usize) {
        self.apply_move_forward(count);
    }

    fn move_backward(&mut self, count: usize) {
        self.apply_move_backward(count);
    }

    fn move_down_unbounded(&mut self, count: usize) {
        self.cursor.row = self.cursor.row.saturating_add(count).min(self.rows - 1);
        self.cursor.pending_wrap = false;
    }

    fn scroll_left(&mut self, count: usize) {
        self.apply_scroll_left(count);
    }

    fn scroll_right(&mut self, count: usize) {
        self.apply_scroll_right(count);
    }

    fn insert_columns(&mut self, count: usize) {
        self.apply_insert_columns(count);
    }

    fn delete_columns(&mut self, count: usize) {
        self.apply_delete_columns(count);
    }

    fn forget_last_char(&mut self) {
        self.last_char = None;
        // Kept while the cursor has not left the cell (an SGR changes nothing for a mark).
        let here = (self.cursor.row, self.cursor.col);
        if self.mark_on_cursor.is_some_and(|at| at != here) {
            self.mark_on_cursor = None;
            self.update_plain_print();
        }
    }

    fn goto_col(&mut self, col: usize) {
        self.apply_goto_col(col);
    }

    fn goto_row(&mut self, row: usize) {
        self.apply_goto_row(row);
    }

    fn goto(&mut self, row: usize, col: usize) {
        self.apply_goto(row, col);
    }

    fn erase_in_display(&mut self, scope: EraseScope, selective: bool) {
        self.apply_erase_in_display(scope, selective);
    }

    fn erase_in_line(&mut self, scope: EraseScope, selective: bool) {
        self.apply_erase_in_line(scope, selective);
    }

    fn insert_lines(&mut self, count: usize) {
        self.apply_insert_lines(count);
    }

    fn delete_lines(&mut self, count: usize) {
        self.apply_delete_lines(count);
    }

    fn delete_chars(&mut self, count: usize) {
        self.apply_delete_chars(count);
    }

    fn erase_chars(&mut self, count: usize) {
        self.apply_erase_chars(count);
    }

    fn scroll_up(&mut self, count: usize) {
        let (top, bottom) = (self.top, self.bottom);
        self.scroll_region_up(top, bottom, count);
    }

    fn scroll_down(&mut self, count: usize) {
        let (top, bottom) = (self.top, self.bottom);
        self.scroll_region_down(top, bottom, count);
    }

    fn keyboard(&mut self, op: KeyboardOp) {
        self.apply_keyboard(op);
    }

    fn device_attributes(&mut self, which: DeviceAttributes) {
        self.apply_device_attributes(which);
    }

    fn device_status(&mut self, kind: u16, private: bool) {
        self.apply_device_status(kind, private);
    }

    fn set_mode(&mut self, mode: u16, private: bool, on: bool) {
        self.apply_set_mode(mode, private, on);
    }

    fn request_mode(&mut self, mode: u16, private: bool) {
        self.apply_request_mode(mode, private);
    }

    fn set_scroll_region(&mut self, top: usize, bottom: usize) {
        self.apply_set_scroll_region(top, bottom);
    }

    fn set_left_right_margins(&mut self, left: usize, right: usize) {
        self.apply_set_left_right_margins(left, right);
    }

    fn save_cursor_or_margins(&mut self, left: usize, right: usize) {
        self.apply_save_cursor_or_margins(left, right);
    }

    fn sgr(&mut self, sgr: Sgr) {
        self.apply_sgr(sgr);
        self.refresh_pen_cache();
    }

    fn print_ascii(&mut self, run: &[u8]) {
        self.apply_print_ascii(run);
    }

    fn set_cursor_style(&mut self, style: u16) {
        self.apply_set_cursor_style(style);
    }

    fn set_protection(&mut self, on: bool) {
        self.cursor.pen.attrs.set(Attrs::PROTECTED, on);
        self.update_plain_print();
    }

    fn window_op(&mut self, op: u16) {
        self.apply_window_op(op);
    }

    fn set_title(&mut self, title: &[u8], icon: bool, window: bool) {
        self.apply_set_title(title, icon, window);
    }

    fn palette_color(&mut self, index: u8, spec: Option<&[u8]>, terminator: Terminator) {
        self.apply_palette_color(index, spec, terminator);
    }

    fn reset_palette(&mut self, indices: &[u8]) {
        self.apply_reset_palette(indices);
    }

    fn dynamic_color(&mut self, which: DynamicColor, spec: Option<&[u8]>, terminator: Terminator) {
        self.apply_dynamic_color(which, spec, terminator);
    }

    fn reset_dynamic_color(&mut self, which: DynamicColor) {
        self.apply_reset_dynamic_color(which);
    }

    fn set_cwd(&mut self, url: &[u8]) {
        self.apply_set_cwd(url);
    }

    fn set_hyperlink(&mut self, link: Option<Hyperlink>) {
        self.apply_set_hyperlink(link);
    }

    fn clipboard(&mut self, selection: &[u8], data: &[u8], _terminator: Terminator) {
        self.apply_clipboard(selection, data);
    }

    fn notification(&mut self, osc: &[u8]) {
        let text = String::from_utf8_lossy(osc);
        let mut clean = String::new();
        for c in text.chars().filter(|c| !c.is_control()) {
            if clean.len() + c.len_utf8() > crate::screen::MAX_NOTIFICATION_BYTES {
                break;
            }
            clean.push(c);
        }
        self.event(Event::Notification(clean));
    }

    fn rename_window(&mut self, name: &str) {
        self.event(Event::WindowNamed(name.to_string()));
    }

    fn prompt_mark(&mut self, mark: PromptMark, status: Option<i32>) {
        let row = self.cursor.row;
        self.event(Event::Prompt { mark, row, status });
    }

    fn request_status_string(&mut self, request: &[u8]) {
        self.apply_request_status_string(request);
    }

    fn report_version(&mut self) {
        self.apply_report_version();
    }
}
