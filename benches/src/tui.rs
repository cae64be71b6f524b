//! Full-screen TUI redraws: htop-like and vim-like frames on the alternate screen.

use crate::pieces::push_cup;
use crate::rng::Rng;
use crate::row_writer::RowWriter;
use crate::vocab::{COMMANDS, WORDS};

/// Full-screen redraws of an 80x24 TUI on the alternate screen, alternating between an
/// htop-like frame (meters, a reverse-video header, a coloured process table, a function-key
/// bar) and a vim-like frame (line numbers, syntax colours, `ESC[K`, a status line). Every row
/// is addressed with CUP and never wider than 80 columns, so nothing scrolls.
pub fn tui_redraw(target_len: usize) -> Vec<u8> {
    let mut rng = Rng::new(0x0007_d4a5);
    let mut out = Vec::with_capacity(target_len + 8192);
    out.extend_from_slice(b"\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J");
    let mut frame = 0usize;
    while out.len() < target_len {
        out.extend_from_slice(b"\x1b[?25l");
        if frame & 1 == 0 {
            htop_frame(&mut out, &mut rng, frame);
        } else {
            vim_frame(&mut out, &mut rng, frame);
        }
        out.extend_from_slice(b"\x1b[?25h");
        frame += 1;
    }
    out
}

fn htop_frame(out: &mut Vec<u8>, rng: &mut Rng, frame: usize) {
    const BAR: usize = 30;
    // Four CPU meters and a memory meter.
    for cpu in 0..5u16 {
        let mut row = RowWriter::new(out, cpu + 1);
        if cpu < 4 {
            row.text("  ");
            row.num(u64::from(cpu) + 1);
            row.text(" ");
        } else {
            row.text("  Mem");
        }
        row.sgr("1");
        row.text("[");
        let user = rng.below(BAR / 2 + 1);
        let system = rng.below(BAR - user + 1) / 2;
        row.sgr("0;32");
        row.text(&"|".repeat(user));
        row.sgr("31");
        row.text(&"|".repeat(system));
        row.sgr("90");
        row.text(&" ".repeat(BAR - user - system));
        row.sgr("0;1");
        let pct = (user + system) * 1000 / BAR;
        row.num(pct as u64 / 10);
        row.text(".");
        row.num(pct as u64 % 10);
        row.text("%]");
        row.sgr("0");
        row.text("   ");
        if cpu == 0 {
            row.text("Tasks: ");
            row.sgr("1");
            row.num(100 + rng.below(200) as u64);
            row.sgr("0");
            row.text(", ");
            row.sgr("32");
            row.num(rng.below(8) as u64);
            row.sgr("0");
            row.text(" running");
        } else if cpu == 1 {
            row.text("Load average: ");
            row.sgr("1");
            row.num(rng.below(4) as u64);
            row.text(".");
            row.num(rng.below(100) as u64);
            row.sgr("0");
        } else if cpu == 2 {
            row.text("Uptime: ");
            row.sgr("1");
            row.num(frame as u64 / 3600);
            row.text(":");
            row.num((frame as u64 / 60) % 60);
            row.sgr("0");
        }
        row.pad();
    }
    {
        let mut row = RowWriter::new(out, 6);
        row.pad();
    }
    {
        let mut row = RowWriter::new(out, 7);
        row.sgr("30;42");
        row.text("    PID USER      PRI  NI  VIRT   RES   SHR S CPU% MEM%   TIME+  Command");
        row.pad();
        row.sgr("0");
    }
    let selected = 8 + rng.below(16) as u16;
    for line in 8..=23u16 {
        let mut row = RowWriter::new(out, line);
        let is_selected = line == selected;
        if is_selected {
            row.sgr("30;46");
        }
        let colour = |row: &mut RowWriter<'_>, sgr: &str| {
            if !is_selected {
                row.sgr(sgr);
            }
        };
        row.text(" ");
        row.num_padded(1 + rng.below(99_999) as u64, 6);
        row.text(" ");
        colour(&mut row, "0");
        row.text(rng.pick(&["root     ", "weft     ", "postgres ", "www-data "]));
        row.text("  20   0 ");
        colour(&mut row, "36");
        row.num_padded(rng.below(9999) as u64, 4);
        row.text("M ");
        row.num_padded(rng.below(999) as u64, 4);
        row.text("M ");
        colour(&mut row, "0");
        row.num_padded(rng.below(99) as u64, 4);
        row.text("M ");
        colour(&mut row, if rng.below(5) == 0 { "32" } else { "0" });
        row.text(rng.pick(&["S", "R", "S", "D"]));
        colour(&mut row, "0");
        row.text(" ");
        row.num_padded(rng.below(100) as u64, 3);
        row.text(".");
        row.num(rng.below(10) as u64);
        row.text("  ");
        row.num(rng.below(10) as u64);
        row.text(".");
        row.num(rng.below(10) as u64);
        row.text("  ");
        row.num_padded(rng.below(60) as u64, 2);
        row.text(":");
        row.num_padded(rng.below(60) as u64, 2);
        row.text(".");
        row.num_padded(rng.below(100) as u64, 2);
        row.text(" ");
        colour(&mut row, "1");
        row.text(rng.pick(COMMANDS));
        colour(&mut row, "0");
        row.text(" --");
        row.text(rng.pick(WORDS));
        row.pad();
        row.sgr("0");
    }
    let mut row = RowWriter::new(out, 24);
    for (key, label) in [
        ("F1", "Help  "),
        ("F2", "Setup "),
        ("F3", "Search"),
        ("F4", "Filter"),
        ("F5", "Tree  "),
        ("F6", "SortBy"),
        ("F7", "Nice -"),
        ("F8", "Nice +"),
        ("F9", "Kill  "),
    ] {
        row.sgr("0");
        row.text(key);
        row.sgr("30;46");
        row.text(label);
    }
    row.pad();
    row.sgr("0");
}

fn vim_frame(out: &mut Vec<u8>, rng: &mut Rng, frame: usize) {
    let first_line = 1 + (frame / 2) % 5000;
    for line in 1..=22u16 {
        let mut row = RowWriter::new(out, line);
        row.sgr("38;5;130");
        row.num_padded(first_line as u64 + u64::from(line) - 1, 4);
        row.text(" ");
        row.sgr("0");
        row.text(&" ".repeat(4 * rng.below(4)));
        let tokens = rng.below(10);
        for _ in 0..tokens {
            let (sgr, word) = match rng.below(6) {
                0 => (
                    "38;5;214",
                    rng.pick(&["fn", "let", "mut", "pub", "impl", "match"]),
                ),
                1 => (
                    "38;2;152;195;121",
                    rng.pick(&["\"text\"", "\"bytes\"", "'c'"]),
                ),
                2 => (
                    "38;5;75",
                    rng.pick(&["Screen", "Vec<u8>", "usize", "Option"]),
                ),
                3 => ("90;3", "// note"),
                _ => ("0", rng.pick(WORDS)),
            };
            if row.cols + word.len() + 1 > 80 {
                break;
            }
            row.sgr(sgr);
            row.text(word);
            row.sgr("0");
            row.text(" ");
        }
        // vim clears the rest of the line rather than padding it.
        row.erase_rest();
    }
    {
        let mut row = RowWriter::new(out, 23);
        row.sgr("1;7");
        row.text(" NORMAL ");
        row.sgr("0;7");
        row.text(" src/screen.rs [+] ");
        row.text(&" ".repeat(30));
        row.num(first_line as u64 + rng.below(22) as u64);
        row.text(",");
        row.num(1 + rng.below(79) as u64);
        row.pad();
        row.sgr("0");
    }
    let mut row = RowWriter::new(out, 24);
    row.erase_rest();
    push_cup(out, 1 + rng.below(22) as u16, 6 + rng.below(70) as u16);
}
