//! Packing deferred while output streams: bounded, exact, and done when asked.

use super::*;

/// A plain line of `cols` columns, different for each `n` (so blocks are not all alike).
fn line(n: usize, cols: usize) -> Row {
    let text = format!("{n:08} log line of some program with a few words in it ");
    let mut row = Row::new(cols);
    for (i, b) in text.bytes().cycle().take(cols).enumerate() {
        row.cells_mut()[i] = Cell::new(b as char, &crate::cell::Pen::default(), Default::default());
    }
    row
}

fn texts(sb: &Scrollback) -> Vec<String> {
    (0..sb.len())
        .map(|i| {
            let mut t = String::new();
            sb.line_text(i, &mut t, None);
            t
        })
        .collect()
}

#[test]
fn cold_blocks_wait_while_deferring_and_pack_when_asked() {
    let cols = 80;
    let lines = LINES_PER_BLOCK * (COLD_DISTANCE + 6);
    let mut eager = Scrollback::new(100_000);
    let mut lazy = Scrollback::new(100_000);
    lazy.defer_packing(true);
    for n in 0..lines {
        eager.push(&line(n, cols));
        lazy.push(&line(n, cols));
    }
    assert!(
        eager.packed_blocks() >= 5,
        "without deferral cold blocks pack at once"
    );
    assert_eq!(lazy.packed_blocks(), 0, "while deferring nothing packs");
    assert!(lazy.deferred_bytes > 0);
    assert_eq!(texts(&lazy), texts(&eager));

    lazy.defer_packing(false);
    assert!(
        lazy.deferred_bytes > 0,
        "turning deferral off packs nothing by itself"
    );
    lazy.pack_deferred();
    assert!(lazy.deferred_bytes == 0);
    assert_eq!(lazy.packed_blocks(), eager.packed_blocks());
    assert_eq!(texts(&lazy), texts(&eager));
    // Both have read every line back, so both caches hold the same block.
    assert_eq!(lazy.heap_bytes(), eager.heap_bytes());
}

#[test]
fn deferred_blocks_are_bounded() {
    let cols = 200;
    let mut sb = Scrollback::new(1_000_000);
    sb.defer_packing(true);
    let block_bytes = LINES_PER_BLOCK * cols;
    let blocks = COLD_DISTANCE + 2 * MAX_DEFERRED_BYTES / block_bytes + 4;
    for n in 0..blocks * LINES_PER_BLOCK {
        sb.push(&line(n, cols));
    }
    assert!(sb.deferred_bytes <= MAX_DEFERRED_BYTES);
    assert!(sb.deferred_bytes > MAX_DEFERRED_BYTES / 2);
    assert!(
        sb.packed_blocks() > 0,
        "past the bound, cold blocks pack at once"
    );
    let waiting: usize = sb.blocks.iter().map(|b| b.deferred).sum();
    assert_eq!(waiting, sb.deferred_bytes);
}

#[test]
fn a_flood_through_a_short_history_packs_nothing_and_counts_right() {
    let cols = 80;
    let limit = LINES_PER_BLOCK * (COLD_DISTANCE + 4);
    let mut sb = Scrollback::new(limit);
    sb.defer_packing(true);
    for n in 0..limit * 20 {
        sb.push(&line(n, cols));
    }
    assert_eq!(sb.packed_blocks(), 0);
    let waiting: usize = sb.blocks.iter().map(|b| b.deferred).sum();
    assert_eq!(waiting, sb.deferred_bytes, "dropped blocks leave the count");
    let before = texts(&sb);
    sb.pack_deferred();
    assert!(sb.packed_blocks() > 0);
    assert_eq!(texts(&sb), before);
}

#[test]
fn popping_into_a_waiting_block_takes_it_out_of_the_count() {
    let cols = 40;
    let mut sb = Scrollback::new(100_000);
    sb.defer_packing(true);
    let lines = LINES_PER_BLOCK * (COLD_DISTANCE + 3);
    for n in 0..lines {
        sb.push(&line(n, cols));
    }
    // Pop down into what were cold, waiting blocks.
    for _ in 0..LINES_PER_BLOCK * (COLD_DISTANCE + 1) + 7 {
        assert!(sb.pop(cols).is_some());
    }
    let waiting: usize = sb.blocks.iter().map(|b| b.deferred).sum();
    assert_eq!(waiting, sb.deferred_bytes);
    sb.push(&line(0, cols));
    sb.pack_deferred();
    assert_eq!(sb.len(), lines - LINES_PER_BLOCK * (COLD_DISTANCE + 1) - 6);
    let mut newest = String::new();
    sb.line_text(sb.len() - 1, &mut newest, None);
    assert!(newest.starts_with("00000000 log"), "{newest}");
    sb.clear();
    assert!(sb.deferred_bytes == 0);
}
