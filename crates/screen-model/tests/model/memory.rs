//! Memory follows what is drawn: rows hold cells only once written, and read as blanks before.

use crate::support::*;
use weft_screen_model::Screen;

const CELL_BYTES: usize = 24;

#[test]
fn a_huge_screen_holds_only_the_rows_written() {
    let mut s = Screen::new(1000, 500);
    assert_eq!(s.grid_heap_bytes(), 0);
    s.feed(b"$ prompt\r\nsecond line");
    assert!(
        s.grid_heap_bytes() <= 2 * 1000 * CELL_BYTES,
        "{} bytes for two written rows",
        s.grid_heap_bytes()
    );
    assert_screen!(s, ["$ prompt", "second line"]);
    // Clearing and erasing blank rows with the default background allocates nothing more.
    let before = s.grid_heap_bytes();
    s.feed(b"\x1b[10;1H\x1b[2K\x1b[J\x1b[1J");
    assert!(s.grid_heap_bytes() <= before);
}

#[test]
fn unwritten_rows_read_as_blanks_and_take_a_coloured_erase() {
    let mut s = screen(6, 3, "ab");
    assert_eq!(s.row(2).unwrap().cells().len(), 6);
    assert!(s.row(2).unwrap().cells().iter().all(|c| c.is_blank()));
    // A coloured erase of an unwritten row paints it.
    s.feed(b"\x1b[3;1H\x1b[41m\x1b[2K\x1b[m");
    let painted = s.row(2).unwrap().cells();
    assert_eq!(painted.len(), 6);
    assert!(painted.iter().all(|c| !c.is_blank()));
}

#[test]
fn unwritten_rows_survive_resize_insert_and_scroll() {
    let mut s = screen(8, 4, "top");
    s.resize(12, 6);
    s.feed(b"\x1b[3;1H\x1b[2@x\x1b[4;1H\x1b[3Pq\x1b[2;5r\x1b[2;1H\x1b[M\x1b[r");
    // ICH leaves the cursor where it is; DL pulls the rows below up.
    assert_screen!(s, ["top", "x", "q"]);
    s.resize(4, 3);
    for row in s.visible_rows() {
        assert_eq!(row.cells().len(), 4);
    }
}
