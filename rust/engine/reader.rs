//! Turns chunks of input into blocks of whole lines, the way ripgrep's searcher does.
//!
//! Only the partial last line of a chunk is carried to the next one; the rest of the chunk is
//! handed to the sinks in place, without a copy, in blocks of whole lines small enough to stay
//! in cache while every planner reads them. Lines end at `'\n'` (a CRLF line keeps its
//! `'\r'` as text), and since `'\n'` never occurs inside a UTF-8 sequence, splitting there never
//! cuts a character. Bytes that are not valid UTF-8 become U+FFFD exactly as Python's
//! `bytes.decode("utf-8", "replace")` does, whichever way the input was split into chunks.
//! A line longer than [`LINE_PIECE_CAP`] is passed on in pieces so memory stays bounded.
//!
//! Each block is first prepared (decoded, counted, looked at by the sink's look-ahead), work
//! that needs no other block; for a chunk of two blocks or more, a second core helps with that
//! (see [`super::prepare`] and [`super::ahead`]) while the sink reads the blocks in order.

use super::ahead::read_prepared;
use super::prepare::{Prepared, prepare};
use crate::sink::{Block, Found, Sink, Totals};

/// Bytes of one unfinished line the reader holds before passing it on in pieces.
pub const LINE_PIECE_CAP: usize = 1 << 20;
/// Bytes of whole lines handed on as one block: well inside a core's L2 cache.
const BLOCK_BYTES: usize = 256 * 1024;
/// Bytes of whole lines in one chunk from which the blocks are prepared on two cores: two
/// blocks, so that there is something to share. A stream fed in chunks of 1 MiB gains from it
/// too, though it starts a thread per chunk.
const AHEAD_MIN_BYTES: usize = 2 * BLOCK_BYTES;

#[derive(Debug, Default)]
pub struct LineReader {
    /// The unfinished last line of the input so far (possibly ending in part of a UTF-8 sequence).
    carry: Vec<u8>,
    /// Part of the current line was already passed on.
    mid_line: bool,
    next_char: u64,
    newlines: u64,
}

impl LineReader {
    /// Reads a chunk known to be valid UTF-8.
    #[cfg(any(test, feature = "fuzzing"))]
    pub fn feed_str(&mut self, chunk: &str, sink: &mut impl Sink) {
        self.feed(chunk.as_bytes(), true, sink);
    }

    /// Reads a chunk of bytes that may hold invalid UTF-8, or a sequence split across chunks.
    #[cfg(test)]
    pub fn feed_bytes(&mut self, chunk: &[u8], sink: &mut impl Sink) {
        self.feed(chunk, false, sink);
    }

    /// Passes on what is still carried and returns the totals of the whole input.
    pub fn finish(mut self, sink: &mut impl Sink) -> Totals {
        if !self.carry.is_empty() {
            let carry = std::mem::take(&mut self.carry);
            self.emit(&carry, false, false, sink);
        }
        let ends_open = self.mid_line;
        Totals {
            chars: self.next_char,
            lines: self.newlines + u64::from(ends_open),
            newlines: self.newlines,
        }
    }

    /// Reads a chunk, known to be UTF-8 when `valid` (else decoded as Python's "replace" does).
    pub(super) fn feed(&mut self, chunk: &[u8], valid: bool, sink: &mut impl Sink) {
        let mut rest = chunk;
        // Finish the carried line first; a line that outgrows the cap is passed on in pieces.
        while !self.carry.is_empty() {
            if let Some(nl) = memchr::memchr(b'\n', rest) {
                self.carry.extend_from_slice(&rest[..=nl]);
                let carry = std::mem::take(&mut self.carry);
                self.emit(&carry, false, false, sink);
                self.carry = carry;
                self.carry.clear();
                rest = &rest[nl + 1..];
                break;
            }
            let room = LINE_PIECE_CAP.saturating_sub(self.carry.len());
            if rest.len() < room {
                self.carry.extend_from_slice(rest);
                return;
            }
            self.carry.extend_from_slice(&rest[..room]);
            rest = &rest[room..];
            let carry = std::mem::take(&mut self.carry);
            let cut = sequence_safe_cut(&carry);
            self.emit(&carry[..cut], false, true, sink);
            self.carry = carry[cut..].to_vec();
        }
        if let Some(last_nl) = memchr::memrchr(b'\n', rest) {
            self.emit_lines(&rest[..=last_nl], valid, sink);
            rest = &rest[last_nl + 1..];
        }
        // A line that goes on past the chunk is passed on in pieces of at most the cap, like a
        // carried one: each piece stays in cache while every planner reads it, where one piece
        // of 100 MB made each planner's pass a trip to memory (1.4 GB/s against 2.3 for 10 MB).
        while rest.len() >= LINE_PIECE_CAP {
            let cut = sequence_safe_cut(&rest[..LINE_PIECE_CAP]);
            self.emit(&rest[..cut], valid, true, sink);
            rest = &rest[cut..];
        }
        self.carry.extend_from_slice(rest);
    }

    /// Hands whole lines to the sink in blocks of about [`BLOCK_BYTES`]: each planner reads a
    /// block after the reader has counted it, and a block that is still in cache costs no
    /// second trip to memory. A line longer than that is one block of its own.
    ///
    /// From [`AHEAD_MIN_BYTES`] on, the blocks are prepared on two cores (see [`super::prepare`] and [`super::ahead`]):
    /// the sink gets the same blocks in the same order, sooner.
    fn emit_lines<S: Sink>(&mut self, mut lines: &[u8], valid: bool, sink: &mut S) {
        if self.mid_line {
            // The rest of a line passed on in pieces goes by itself, so that each block below
            // starts a line: a look-ahead then sees all of each.
            let end = memchr::memchr(b'\n', lines).map_or(lines.len(), |nl| nl + 1);
            self.emit(&lines[..end], valid, false, sink);
            lines = &lines[end..];
        }
        let look = sink.lookahead();
        if lines.len() >= AHEAD_MIN_BYTES {
            let blocks: Vec<&[u8]> = blocks(lines).collect();
            let read = |prepared| self.deliver(prepared, false, sink);
            if read_prepared(&blocks, valid, &look, read) {
                return;
            }
        }
        for block in blocks(lines) {
            self.deliver(prepare(block, valid, false, &look), false, sink);
        }
    }

    /// Decodes `bytes` and hands them to the sink as one block.
    fn emit(&mut self, bytes: &[u8], valid: bool, line_open: bool, sink: &mut impl Sink) {
        if bytes.is_empty() {
            return;
        }
        let prepared = prepare(bytes, valid, self.mid_line, &sink.lookahead());
        self.deliver(prepared, line_open, sink);
    }

    /// Hands a prepared block to the sink and moves the reader past it.
    fn deliver<S: Sink>(
        &mut self,
        prepared: Prepared<'_, Found<S>>,
        line_open: bool,
        sink: &mut S,
    ) {
        let text = &*prepared.text;
        let block = Block {
            text,
            first_line: self.newlines + 1,
            chars: prepared.chars,
            newlines: prepared.newlines,
            continues_line: self.mid_line,
            line_open,
        };
        sink.block(&block, prepared.found);
        self.next_char += prepared.chars;
        self.newlines += prepared.newlines;
        self.mid_line = !text.ends_with('\n');
    }
}

/// `lines` (whole lines) cut into blocks of about [`BLOCK_BYTES`], each ending in `'\n'`.
fn blocks(mut lines: &[u8]) -> impl Iterator<Item = &[u8]> {
    std::iter::from_fn(move || {
        if lines.is_empty() {
            return None;
        }
        let cut = if lines.len() <= BLOCK_BYTES {
            lines.len()
        } else {
            match memchr::memrchr(b'\n', &lines[..BLOCK_BYTES]) {
                Some(nl) => nl + 1,
                None => memchr::memchr(b'\n', &lines[BLOCK_BYTES..])
                    .map_or(lines.len(), |nl| BLOCK_BYTES + nl + 1),
            }
        };
        let (block, rest) = lines.split_at(cut);
        lines = rest;
        Some(block)
    })
}

/// Where to split a run of bytes without a `'\n'` so that decoding the two parts separately gives
/// the same text as decoding them together: before a trailing UTF-8 sequence that is not yet
/// complete, else at the end.
fn sequence_safe_cut(bytes: &[u8]) -> usize {
    let len = bytes.len();
    for back in 1..=len.min(4) {
        let b = bytes[len - back];
        if b & 0xC0 == 0x80 {
            continue; // a continuation byte: the sequence started further back
        }
        let width = match b {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => 1,
        };
        return if width > back { len - back } else { len };
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records every block, so tests can compare the exact calls two ways of reading produce.
    #[derive(Default)]
    struct Transcript(Vec<String>);

    impl Sink for Transcript {
        type Lookahead = ();
        fn lookahead(&self) {}
        fn block(&mut self, b: &Block<'_>, (): ()) {
            self.0.push(format!(
                "{}:{}:{}:{}:{}:{:?}",
                b.first_line, b.chars, b.newlines, b.continues_line, b.line_open, b.text
            ));
        }
    }

    fn read_in_chunks(input: &[u8], size: usize) -> (String, Totals) {
        let mut reader = LineReader::default();
        let mut sink = Transcript::default();
        for chunk in input.chunks(size.max(1)) {
            reader.feed_bytes(chunk, &mut sink);
        }
        let totals = reader.finish(&mut sink);
        let text: String = sink
            .0
            .iter()
            .map(|l| l.rsplit_once(":\"").map_or("", |x| x.1))
            .collect();
        (text, totals)
    }

    #[test]
    fn any_split_decodes_like_one_chunk() {
        struct Collect<'v>(&'v mut Vec<String>);
        impl Sink for Collect<'_> {
            type Lookahead = ();
            fn lookahead(&self) {}
            fn block(&mut self, b: &Block<'_>, (): ()) {
                self.0.push(b.text.to_owned());
            }
        }
        let input = b"ab\xe2\x82\xac\ncd\xff\xfe\n\xf0\x9f\x98\nlast \xe2\x82";
        let expected = String::from_utf8_lossy(input).into_owned();
        for size in 1..=input.len() {
            let mut reader = LineReader::default();
            let mut texts = Vec::new();
            for chunk in input.chunks(size) {
                reader.feed_bytes(chunk, &mut Collect(&mut texts));
            }
            let totals = reader.finish(&mut Collect(&mut texts));
            assert_eq!(texts.concat(), expected, "chunk size {size}");
            assert_eq!(totals.chars, expected.chars().count() as u64);
            assert_eq!(totals.lines, 4);
            assert_eq!(totals.newlines, 3);
        }
    }

    #[test]
    fn blocks_carry_line_numbers_and_offsets() {
        let (_, totals) = read_in_chunks(b"one\ntwo\nthree", 5);
        assert_eq!(
            totals,
            Totals {
                chars: 13,
                lines: 3,
                newlines: 2
            }
        );
        let mut reader = LineReader::default();
        let mut sink = Transcript::default();
        reader.feed_str("one\ntwo\nthr", &mut sink);
        reader.feed_str("ee\nfour", &mut sink);
        reader.finish(&mut sink);
        assert_eq!(
            sink.0,
            [
                "1:8:2:false:false:\"one\\ntwo\\n\"",
                "3:6:1:false:false:\"three\\n\"",
                "4:4:0:false:false:\"four\"",
            ]
        );
    }

    #[test]
    fn a_line_longer_than_the_cap_arrives_in_pieces() {
        let mut line = "\u{20ac}".repeat(LINE_PIECE_CAP / 3 + 10).into_bytes();
        line.extend_from_slice(b"\nnext\n");
        let mut reader = LineReader::default();
        let mut sink = Transcript::default();
        for chunk in line.chunks(4096) {
            reader.feed_bytes(chunk, &mut sink);
        }
        let totals = reader.finish(&mut sink);
        assert_eq!(totals.lines, 2);
        let opens: Vec<bool> = sink.0.iter().map(|l| l.contains(":true:")).collect();
        assert!(opens.iter().any(|&o| o), "some piece is open or continued");
        assert!(sink.0.len() >= 2);
        assert!(
            sink.0.last().unwrap().starts_with("1:") || sink.0.last().unwrap().starts_with("2:")
        );
    }

    /// Checks each block's lines against what came before, and that the look-ahead saw
    /// exactly the lines that start in the block.
    #[derive(Default)]
    struct LineCheck {
        rebuilt: String,
        newlines: u64,
        continued: usize,
    }

    /// A look that hands back what it was shown.
    struct Echo;

    impl crate::sink::Lookahead for Echo {
        type Found = String;
        fn look(&self, text: &str) -> String {
            text.to_owned()
        }
    }

    impl Sink for LineCheck {
        type Lookahead = Echo;
        fn lookahead(&self) -> Echo {
            Echo
        }
        fn block(&mut self, b: &Block<'_>, looked: String) {
            assert_eq!(
                looked,
                b.split().1.text(),
                "the look sees the lines that start here"
            );
            for line in b.lines() {
                assert_eq!(line.no, self.newlines + 1);
                let mid = !self.rebuilt.is_empty() && !self.rebuilt.ends_with('\n');
                assert_eq!(line.continued, mid);
                self.continued += usize::from(line.continued);
                self.rebuilt.push_str(line.text);
                if line.terminated {
                    self.rebuilt.push('\n');
                    self.newlines += 1;
                }
            }
        }
    }

    #[test]
    fn lines_in_pieces_read_whole_however_the_chunks_fall() {
        // A line of exactly the cap, then longer ones: a chunk of the cap's size ends just
        // after a piece, and the next chunk starts with the rest of that line.
        let mut input = "a".repeat(LINE_PIECE_CAP - 1);
        input.push_str("b\nshort\n");
        input.push_str(&"\u{20ac}".repeat(LINE_PIECE_CAP / 2));
        input.push_str("\nend\n");
        input.push_str(&"z".repeat(LINE_PIECE_CAP + 3));
        for size in [
            LINE_PIECE_CAP,
            LINE_PIECE_CAP + 1,
            4096 * 3 + 1,
            1 << 19,
            input.len(),
        ] {
            let mut reader = LineReader::default();
            let mut sink = LineCheck::default();
            for chunk in input.as_bytes().chunks(size) {
                reader.feed_bytes(chunk, &mut sink);
            }
            let totals = reader.finish(&mut sink);
            assert_eq!(sink.rebuilt, input, "chunks of {size}");
            assert_eq!(totals.newlines, sink.newlines);
            assert!(
                sink.continued > 0,
                "chunks of {size}: {} continued",
                sink.continued
            );
        }
    }

    #[test]
    fn cut_keeps_incomplete_sequences_whole() {
        assert_eq!(sequence_safe_cut(b"ab\xe2\x82"), 2);
        assert_eq!(sequence_safe_cut(b"ab\xe2\x82\xac"), 5);
        assert_eq!(sequence_safe_cut(b"ab\xf0"), 2);
        assert_eq!(sequence_safe_cut(b"\x80\x80\x80\x80\x80"), 5);
        assert_eq!(sequence_safe_cut(b"abc"), 3);
    }
}
