//! A block's lines, numbered and flagged: the one way every planner walks a block.
//!
//! The reader hands on blocks of whole lines, but a line longer than its cap arrives in
//! pieces, so a block may start with the rest of a line begun in an earlier block and may stop
//! inside a line that goes on in the next one. [`Block::lines`] walks a block as [`Line`]s that
//! say so (`continued`, `open`), with the line's number and whether its `'\n'` is here, so no
//! planner finds a block's line ends or numbers on its own. A planner that scans a whole block
//! at once (one multi-pattern search, as ripgrep's searcher does) takes [`Block::split`]: the
//! continuation, if any, and the [`Lines`] that start in the block, whose [`Lines::text`] it
//! scans in one go and whose [`Lines::last_line`] it finds without walking the rest. A sink's
//! look-ahead sees exactly that text too (see [`crate::sink::Lookahead`]).

use crate::sink::Block;

/// One line of a block, or the part of a long line that the block holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    /// 1-based number of the line in the whole input.
    pub no: u64,
    /// The line's text in this block, without its `'\n'`.
    pub text: &'a str,
    /// Byte offset of `text` in the block's text.
    pub start: usize,
    /// The line's `'\n'` is in this block: the line ends here.
    pub terminated: bool,
    /// The line began in an earlier block: `text` is a later piece of it.
    pub continued: bool,
    /// The line goes on in the next block: `text` is not its last piece. An unterminated line
    /// that is not open is the last line of the input.
    pub open: bool,
}

impl Line<'_> {
    /// Byte offset just past `text` in the block's text (where its `'\n'` is, if any).
    #[must_use]
    pub fn end(&self) -> usize {
        self.start + self.text.len()
    }
}

/// The lines of a block from some line on, in order; a clone walks on from the same place.
#[derive(Debug, Clone)]
pub struct Lines<'a> {
    /// The block's whole text.
    block: &'a str,
    /// Byte offset of the next line in `block`: always a character boundary.
    at: usize,
    /// The next line's number.
    no: u64,
    /// The number of the block's last line.
    last_no: u64,
    /// The next line began in an earlier block.
    continues: bool,
    /// The block's last line goes on in the next block.
    open: bool,
}

impl<'a> Lines<'a> {
    /// The text of the lines not yet walked: whole lines from a line's start, but for a
    /// continuation not yet walked past; the last may be unterminated.
    #[must_use]
    #[inline]
    pub fn text(&self) -> &'a str {
        // SAFETY: `at` is a character boundary of `block` (see `next_if`); a line-by-line
        // planner asks for this text at every line.
        unsafe { self.block.get_unchecked(self.at..) }
    }

    /// Byte offset of [`Lines::text`] in the block's text.
    #[must_use]
    pub fn start(&self) -> usize {
        self.at
    }

    /// The number of the next line.
    #[must_use]
    pub fn no(&self) -> u64 {
        self.no
    }

    /// The last line, found from the end: costs no walk over the lines before it (unlike
    /// [`Iterator::last`]).
    #[must_use]
    pub fn last_line(&self) -> Option<Line<'a>> {
        let rest = self.text();
        if rest.is_empty() {
            return None;
        }
        let terminated = rest.ends_with('\n');
        let body = rest.strip_suffix('\n').unwrap_or(rest);
        let from = memchr::memrchr(b'\n', body.as_bytes()).map_or(0, |nl| nl + 1);
        Some(Line {
            no: self.last_no,
            text: &body[from..],
            start: self.at + from,
            terminated,
            continued: self.continues && from == 0,
            open: self.open && !terminated,
        })
    }

    /// The next line, if `wanted` says so: else the walk stays where it is.
    #[inline]
    pub fn next_if(&mut self, wanted: impl FnOnce(&Line<'a>) -> bool) -> Option<Line<'a>> {
        let rest = self
            .block
            .as_bytes()
            .get(self.at..)
            .filter(|r| !r.is_empty())?;
        let nl = memchr::memchr(b'\n', rest);
        let terminated = nl.is_some();
        let len = nl.unwrap_or(rest.len());
        // SAFETY: `at` is a character boundary, and `at + len` is at a '\n' or at the end, so
        // one too: '\n' is never part of a longer UTF-8 sequence. This walk is the hot loop of
        // every planner that reads line by line: checked, the slice costs the search
        // planner's intake over 3% more instructions.
        let text = unsafe { self.block.get_unchecked(self.at..self.at + len) };
        let line = Line {
            no: self.no,
            text,
            start: self.at,
            terminated,
            continued: self.continues,
            open: self.open && !terminated,
        };
        if !wanted(&line) {
            return None;
        }
        self.at += len + usize::from(terminated);
        self.no += u64::from(terminated);
        self.continues = false;
        Some(line)
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    #[inline]
    fn next(&mut self) -> Option<Line<'a>> {
        self.next_if(|_| true)
    }
}

impl<'a> Block<'a> {
    /// Every line of the block, in order: the first is `continued` when the block continues a
    /// line, the last `open` when the line goes on in the next block.
    #[must_use]
    pub fn lines(&self) -> Lines<'a> {
        Lines {
            block: self.text,
            at: 0,
            no: self.first_line,
            last_no: self.first_line + self.newlines - u64::from(self.text.ends_with('\n')),
            continues: self.continues_line,
            open: self.line_open,
        }
    }

    /// The block's lines from byte `at`, the start of one of them (or the text's end): the
    /// lines before it are not walked, their number is found from the newlines after `at`.
    #[must_use]
    pub fn lines_from(&self, at: usize) -> Lines<'a> {
        let after = memchr::memchr_iter(b'\n', &self.text.as_bytes()[at..]).count() as u64;
        Lines {
            at,
            no: self.first_line + self.newlines - after,
            continues: self.continues_line && at == 0,
            ..self.lines()
        }
    }

    /// The rest of a line begun in an earlier block (when the block continues one), and the
    /// lines that start in the block: what a block-wide scan reads, with the number of its
    /// first line.
    #[must_use]
    pub fn split(&self) -> (Option<Line<'a>>, Lines<'a>) {
        let mut lines = self.lines();
        let continuation = if self.continues_line {
            lines.next()
        } else {
            None
        };
        (continuation, lines)
    }
}

/// Where the lines that start in a block's `text` begin: past the rest of a line begun in an
/// earlier block when the block `continues` one (`text.len()` if that is all it holds). The
/// reader uses it for the look-ahead before the block is made; it is where
/// [`Block::split`]'s lines start.
#[must_use]
pub fn starting_lines_at(text: &str, continues: bool) -> usize {
    if !continues {
        return 0;
    }
    memchr::memchr(b'\n', text.as_bytes()).map_or(text.len(), |nl| nl + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_helpers::Xorshift;
    use crate::text::count_chars_and_newlines;

    /// `text` cut at `cuts` (increasing byte offsets on character boundaries) into the blocks
    /// the reader would make: a block not ending in `'\n'` is open unless it is the last, and
    /// the block after it continues its line.
    fn blocks_of<'a>(text: &'a str, cuts: &[usize]) -> Vec<Block<'a>> {
        let mut blocks = Vec::new();
        let (mut from, mut first_line) = (0, 1);
        let ends: Vec<usize> = cuts.iter().copied().chain([text.len()]).collect();
        for &to in &ends {
            if to == from {
                continue;
            }
            let piece = &text[from..to];
            let (chars, newlines) = count_chars_and_newlines(piece.as_bytes());
            blocks.push(Block {
                text: piece,
                first_line,
                chars,
                newlines,
                continues_line: from > 0 && !text[..from].ends_with('\n'),
                line_open: to < text.len() && !piece.ends_with('\n'),
            });
            (from, first_line) = (to, first_line + newlines);
        }
        blocks
    }

    /// A text of short and long lines, CRLF and characters of every width, with or without a
    /// last `'\n'`.
    fn random_text(rng: &mut Xorshift) -> String {
        const BITS: [&str; 8] = [
            "a",
            "bc",
            " ",
            "\u{e9}",
            "\u{20ac}",
            "\u{1f600}",
            "\n",
            "\r\n",
        ];
        let mut text = String::new();
        for _ in 0..rng.below(60) {
            if rng.below(12) == 0 {
                // A line far longer than the others, which the cuts will land inside.
                text.push_str(&"x\u{20ac}".repeat(rng.below(40)));
            } else {
                text.push_str(BITS[rng.below(BITS.len())]);
            }
        }
        text
    }

    /// Up to a few cuts at random character boundaries of `text`, in order.
    fn random_cuts(rng: &mut Xorshift, text: &str) -> Vec<usize> {
        let mut cuts: Vec<usize> = (0..rng.below(6))
            .map(|_| rng.below(text.len() + 1))
            .filter(|&at| text.is_char_boundary(at))
            .collect();
        cuts.sort_unstable();
        cuts
    }

    /// Checks every line `blocks` give against `text`: together they are the text, and each
    /// has its number, its place and its flags.
    fn check_lines(text: &str, blocks: &[Block<'_>]) {
        let mut rebuilt = String::new();
        for (b, block) in blocks.iter().enumerate() {
            let lines: Vec<Line> = block.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                let at = rebuilt.len();
                assert_eq!(&block.text[line.start..line.end()], line.text);
                assert_eq!(
                    line.no,
                    1 + text[..at].matches('\n').count() as u64,
                    "{line:?}"
                );
                let continued = at > 0 && !text[..at].ends_with('\n');
                assert_eq!(line.continued, continued, "{line:?}");
                assert_eq!(line.continued, i == 0 && block.continues_line);
                assert_eq!(line.terminated, block.text[line.end()..].starts_with('\n'));
                let last_in_input = b + 1 == blocks.len() && i + 1 == lines.len();
                let open = !line.terminated && !last_in_input;
                assert_eq!(line.open, open, "{line:?}");
                rebuilt.push_str(line.text);
                if line.terminated {
                    rebuilt.push('\n');
                }
            }
            check_split(block, &lines);
        }
        assert_eq!(rebuilt, text);
    }

    /// [`Block::split`] and [`Lines::last_line`] agree with the walk: the continuation is its
    /// first line, and the rest starts where the reader's look starts.
    fn check_split(block: &Block<'_>, lines: &[Line<'_>]) {
        let (continuation, rest) = block.split();
        let skip = usize::from(continuation.is_some());
        assert_eq!(continuation.as_ref(), lines.first().filter(|l| l.continued));
        assert_eq!(
            rest.start(),
            starting_lines_at(block.text, block.continues_line)
        );
        assert_eq!(rest.text(), &block.text[rest.start()..]);
        if let Some(first) = lines.get(skip) {
            assert_eq!(rest.no(), first.no);
        }
        assert_eq!(rest.last_line().as_ref(), lines[skip..].last());
        assert_eq!(block.lines().last_line().as_ref(), lines.last());
        assert!(rest.eq(lines[skip..].iter().copied()));
    }

    #[test]
    fn lines_of_any_split_rebuild_the_text_with_their_numbers() {
        let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let text = random_text(&mut rng);
            let cuts = random_cuts(&mut rng, &text);
            check_lines(&text, &blocks_of(&text, &cuts));
        }
    }

    #[test]
    fn lines_from_a_line_start_are_the_walk_past_the_lines_before() {
        let mut rng = Xorshift(0x2545_f491_4f6c_dd1d);
        for _ in 0..5_000 {
            let text = random_text(&mut rng);
            let cuts = random_cuts(&mut rng, &text);
            for block in blocks_of(&text, &cuts) {
                let walked: Vec<Line<'_>> = block.lines().collect();
                for (i, line) in walked.iter().enumerate() {
                    let from: Vec<(u64, &str, bool, bool, bool)> = block
                        .lines_from(line.start)
                        .map(|l| (l.no, l.text, l.terminated, l.continued, l.open))
                        .collect();
                    let rest: Vec<(u64, &str, bool, bool, bool)> = walked[i..]
                        .iter()
                        .map(|l| (l.no, l.text, l.terminated, l.continued, l.open))
                        .collect();
                    assert_eq!(from, rest, "{text:?} {cuts:?}");
                }
                assert_eq!(block.lines_from(block.text.len()).count(), 0);
            }
        }
    }

    #[test]
    fn every_cut_inside_a_long_line_keeps_it_one_line() {
        let text = "ab\n\u{20ac}\u{20ac}\u{20ac}\u{20ac}\nlast";
        for cut in (0..=text.len()).filter(|&at| text.is_char_boundary(at)) {
            for second in (cut..=text.len()).filter(|&at| text.is_char_boundary(at)) {
                check_lines(text, &blocks_of(text, &[cut, second]));
            }
        }
    }

    #[test]
    fn an_empty_block_has_no_lines() {
        let block = blocks_of("x", &[])[0];
        let empty = Block { text: "", ..block };
        assert_eq!(empty.lines().next(), None);
        assert_eq!(empty.lines().last_line(), None);
        let (continuation, rest) = Block {
            continues_line: true,
            ..empty
        }
        .split();
        assert_eq!((continuation, rest.text()), (None, ""));
    }

    #[test]
    fn a_block_that_is_only_a_continuation_starts_no_line() {
        let text = "abcdefgh";
        let blocks = blocks_of(text, &[3, 6]);
        let (continuation, mut rest) = blocks[1].split();
        let piece = continuation.expect("the middle piece continues the line");
        assert_eq!((piece.no, piece.text, piece.start), (1, "def", 0));
        assert!(piece.continued && piece.open && !piece.terminated);
        assert_eq!((rest.text(), rest.start(), rest.last_line()), ("", 3, None));
        assert_eq!(rest.next(), None);
        // The last piece of the input's last line: continued, neither open nor terminated.
        let last = blocks[2].lines().last_line().expect("one piece");
        assert_eq!(
            (last.text, last.continued, last.open, last.terminated),
            ("gh", true, false, false)
        );
    }

    #[test]
    fn a_final_unterminated_line_is_neither_open_nor_terminated() {
        let block = blocks_of("one\ntwo\r\nthree", &[])[0];
        let lines: Vec<(u64, &str, bool)> = block
            .lines()
            .map(|l| (l.no, l.text, l.terminated))
            .collect();
        assert_eq!(
            lines,
            [(1, "one", true), (2, "two\r", true), (3, "three", false)]
        );
        let last = block.lines().last_line().expect("three lines");
        assert_eq!((last.no, last.start, last.open), (3, 9, false));
        let (continuation, rest) = block.split();
        assert_eq!((continuation, rest.no(), rest.start()), (None, 1, 0));
        // A line not wanted is not walked past.
        let mut walk = block.lines();
        assert_eq!(walk.next_if(|l| !l.terminated), None);
        assert_eq!((walk.no(), walk.start()), (1, 0));
        assert_eq!(walk.nth(2).map(|l| l.text), Some("three"));
    }

    #[test]
    fn a_continuation_that_ends_is_followed_by_the_lines_that_start_here() {
        let text = "long line\nnext\nopen";
        let blocks = blocks_of(text, &[4, 17]);
        let (continuation, rest) = blocks[1].split();
        let piece = continuation.expect("continues");
        assert_eq!(
            (piece.no, piece.text, piece.terminated, piece.open),
            (1, " line", true, false)
        );
        assert_eq!((rest.no(), rest.start(), rest.text()), (2, 6, "next\nop"));
        let last = rest.last_line().expect("two lines");
        assert_eq!(
            (last.no, last.text, last.open, last.continued),
            (3, "op", true, false)
        );
    }
}
