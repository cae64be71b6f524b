//! A block of stored lines, hot (its bytes as they are, appended to) or packed once it is cold
//! (compressed with LZ4, read back whole into the scrollback's one-block cache).
//!
//! A log line of 80 columns takes about 85 bytes encoded; lines of one program share most of
//! their text, so a packed block of them takes a third of that or less. Packing costs about
//! 40 µs a block (256 lines) and unpacking a tenth of that: cheap next to producing the lines,
//! and paid only for history far from the bottom (see `COLD_DISTANCE` in the parent module).

use super::format::{read_varint, write_varint};
use crate::cell::CellExtra;
use std::sync::Arc;

/// A block's lines as bytes: each line's encoding back to back, and where each starts.
#[derive(Default, Debug)]
pub(super) struct Lines {
    pub(super) data: Vec<u8>,
    /// Start of each line in `data`.
    pub(super) offsets: Vec<u32>,
}

impl Lines {
    /// Line `i`'s bytes.
    pub(super) fn line(&self, i: usize) -> &[u8] {
        let start = self.offsets[i] as usize;
        let end = self
            .offsets
            .get(i + 1)
            .map_or(self.data.len(), |&o| o as usize);
        &self.data[start..end]
    }
}

/// Lines packed into a block, hot or cold.
#[derive(Default, Debug)]
pub(super) struct Block {
    /// The lines while the block is hot; empty while it is packed.
    pub(super) hot: Lines,
    /// The packed lines: LZ4 of each line's length (varints) followed by their bytes.
    packed: Option<Box<[u8]>>,
    /// Lines held (while packed, `hot.offsets` is empty).
    count: usize,
    /// Extras (underline colour, hyperlink, joined characters) referenced by index.
    pub(super) extras: Vec<Arc<CellExtra>>,
    /// Where each of `extras` is, while the block takes lines.
    pub(super) extras_index: super::extras_index::ExtrasIndex,
    /// Bytes counted towards the scrollback's deferred packing while this cold block waits,
    /// unpacked, for output to stop streaming; 0 when it does not wait.
    pub(super) deferred: usize,
}

impl Block {
    /// An empty hot block with room for `bytes` of lines.
    pub(super) fn with_capacity(bytes: usize, lines: usize) -> Self {
        Block {
            hot: Lines {
                data: Vec::with_capacity(bytes),
                offsets: Vec::with_capacity(lines),
            },
            ..Block::default()
        }
    }

    /// Lines held.
    pub(super) fn count(&self) -> usize {
        if self.packed.is_some() {
            self.count
        } else {
            self.hot.offsets.len()
        }
    }

    /// Whether the block is packed.
    pub(super) fn is_packed(&self) -> bool {
        self.packed.is_some()
    }

    /// Heap bytes held.
    pub(super) fn heap_bytes(&self) -> usize {
        self.hot.data.capacity()
            + self.hot.offsets.capacity() * 4
            + self.extras.capacity() * 8
            + self.extras_index.heap_bytes()
            + self.packed.as_ref().map_or(0, |p| p.len())
    }

    /// Compresses the lines; the hot bytes are freed.
    pub(super) fn pack(&mut self) {
        if self.packed.is_some() {
            return;
        }
        self.deferred = 0;
        let lines = std::mem::take(&mut self.hot);
        let mut raw = Vec::with_capacity(lines.data.len() + lines.offsets.len() * 2);
        for i in 0..lines.offsets.len() {
            write_varint(&mut raw, lines.line(i).len() as u32);
        }
        raw.extend_from_slice(&lines.data);
        self.count = lines.offsets.len();
        self.packed = Some(lz4_flex::block::compress_prepend_size(&raw).into_boxed_slice());
        self.extras.shrink_to_fit();
        self.extras_index.clear();
    }

    /// The lines of a packed block, decompressed; `None` for a hot block or damaged bytes
    /// (which packing never produces).
    pub(super) fn unpacked(&self) -> Option<Lines> {
        let packed = self.packed.as_ref()?;
        let raw = lz4_flex::block::decompress_size_prepended(packed).ok()?;
        let mut offsets = Vec::with_capacity(self.count);
        let mut pos = 0;
        let mut start = 0u32;
        for _ in 0..self.count {
            let (len, next) = read_varint(&raw, pos)?;
            offsets.push(start);
            start = start.checked_add(len)?;
            pos = next;
        }
        let data = raw.get(pos..)?.to_vec();
        (data.len() == start as usize).then_some(Lines { data, offsets })
    }

    /// Makes a packed block hot again (to take or give back lines at its end).
    pub(super) fn unpack(&mut self) {
        if let Some(lines) = self.unpacked() {
            self.hot = lines;
            self.packed = None;
        }
    }
}
