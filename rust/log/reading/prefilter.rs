//! The block-wide scan that finds the lines worth classifying, made on the look-ahead core.
//!
//! Most lines of a build log are neither errors nor warnings nor summaries, so the planner
//! never looks at them one by one: [`Prefilter`] runs one multi-pattern scan over a whole block,
//! and only the lines it hits reach the classifier ([`super::classify`]). That split is safe
//! because of one contract, checked by a test over many lines: **`classify` returns
//! [`Class::Other`] for every line that holds none of the prefilter's patterns** (keywords are
//! recognised only in lower, Capitalised or UPPER case, the casings the patterns list, and a
//! pattern that only removing escape sequences forms does not count). Each line it finds goes
//! to the planner with its class and what the look read of it ([`Plain`]), so that the planner,
//! whose core is the busier one, need not read it again.

use aho_corasick::AhoCorasick;

use super::class::Class;
use super::classify::{Cleaned, Plain, Shown};
use super::patterns::AUTOMATA;
use super::place::{self, Place};
use crate::sink::Lookahead;
use crate::text::count_newlines;

/// The block-wide scan that finds candidate lines.
#[derive(Debug, Clone)]
pub struct Prefilter {
    keywords: AhoCorasick,
    forms: AhoCorasick,
}

impl Default for Prefilter {
    fn default() -> Self {
        // A clone shares the automata.
        Prefilter {
            keywords: AUTOMATA.0.clone(),
            forms: AUTOMATA.1.clone(),
        }
    }
}

/// One automaton's next hit, remembered so that no byte is searched twice while the other
/// automaton's hits come first.
struct Cursor<'a> {
    automaton: &'a AhoCorasick,
    /// Where the last search started and where it stopped, and what it found.
    last: Option<(usize, usize, Option<usize>)>,
}

impl<'a> Cursor<'a> {
    fn new(automaton: &'a AhoCorasick) -> Self {
        Cursor {
            automaton,
            last: None,
        }
    }

    /// The first hit in `hay[from..]`; `from` never goes back between calls.
    fn hit(&mut self, hay: &str, from: usize) -> Option<usize> {
        self.hit_before(hay, from, hay.len())
    }

    /// [`Cursor::hit`] if it starts before `limit`, a line's end (or the end of `hay`); else
    /// `None`, or a later hit. No pattern holds a `'\n'` but as its first byte, so a hit that
    /// starts before a line's end ends by it: a search stopped there finds it all the same.
    ///
    /// A search goes on to a line's end at least [`SEARCH_REACH`] bytes past `from`, and what
    /// it found stands for the calls after it: where the limits come every few lines (a
    /// traceback's keyword lines), a search apiece cost more in the searcher's start-up than
    /// in the bytes it read.
    fn hit_before(&mut self, hay: &str, from: usize, limit: usize) -> Option<usize> {
        if let Some((start, stop, hit)) = self.last {
            if start <= from && hit.map_or(stop >= limit, |h| h >= from) {
                return hit;
            }
        }
        let reach = from.saturating_add(SEARCH_REACH);
        let limit = if reach <= limit {
            limit
        } else if reach >= hay.len() {
            hay.len()
        } else {
            memchr::memchr(b'\n', &hay.as_bytes()[reach..]).map_or(hay.len(), |i| reach + i)
        };
        let input = aho_corasick::Input::new(hay).span(from..limit);
        let hit = self.automaton.find(input).map(|m| m.start());
        self.last = Some((from, limit, hit));
        hit
    }
}

impl Prefilter {
    /// Byte offset of the first candidate hit in `hay[from..]`, if any: what the contract
    /// test and the fuzzers ask of each line.
    #[cfg(any(test, feature = "fuzzing"))]
    #[must_use]
    pub fn next_hit(&self, hay: &str, from: usize) -> Option<usize> {
        let keyword = Cursor::new(&self.keywords).hit(hay, from);
        let form = Cursor::new(&self.forms).hit(hay, from);
        keyword.into_iter().chain(form).min()
    }
}

/// A line of a block that is not [`Class::Other`], found by the prefilter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// Byte offset of the line's start in the block.
    pub start: usize,
    /// Byte offset of the line's end (its `'\n'`, or the end of the block).
    pub end: usize,
    /// Lines of the block before it.
    pub line: u64,
    pub class: Class,
    /// What the look read of the line, if it shows as it is.
    pub plain: Option<Plain>,
    /// What the look read of the line, if it does not.
    pub cleaned: Option<Cleaned>,
}

/// What the look-ahead found in a block.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Looked {
    /// The lines that are not [`Class::Other`] (but for the block's first), in order.
    pub candidates: Vec<Candidate>,
    /// The places pytest printed for frames in the project's code ([`place`]) that are no
    /// candidates, in order.
    pub places: Vec<Place>,
}

impl Lookahead for Prefilter {
    type Found = Looked;

    fn look(&self, text: &str) -> Looked {
        let candidates = self.candidates(text);
        let mut places = place::find(text);
        places.retain(|p| {
            candidates
                .binary_search_by_key(&p.start, |c| c.start)
                .is_err()
        });
        Looked { candidates, places }
    }
}

impl Prefilter {
    /// Every line of `text` but its first (which has no `'\n'` before it for the line-start
    /// patterns, so the planner classifies it itself) that is not [`Class::Other`], in order.
    fn candidates(&self, text: &str) -> Vec<Candidate> {
        let bytes = text.as_bytes();
        let mut found = Vec::new();
        // `from` is always at the '\n' before the line the search resumes in.
        let Some(mut from) = memchr::memchr(b'\n', bytes) else {
            return found;
        };
        let (mut counted, mut line) = (0, 0);
        let (mut keywords, mut forms) = (Cursor::new(&self.keywords), Cursor::new(&self.forms));
        // The last line classified: where it starts and ends, and its class. A line equal to
        // it is hit alike (see `repeat`) and has its class, for the cost of a compare.
        let mut last: Option<(usize, usize, Class)> = None;
        // Lines not `Other` in a row, each right after the one before: after a run of
        // [`RUN`] the next line is classified without a search. Where nearly every line is
        // hit (a log of compiler errors), the search's cost for each was a third of the
        // look's, and by the contract a line without a pattern is classified `Other` anyway;
        // a run costs one line classified for nothing at its end.
        let mut in_row = 0;
        loop {
            let run = in_row >= RUN;
            if let Some((start, end, class)) = last {
                if let Some(next_end) = repeat(bytes, start, end) {
                    line += 1;
                    counted = end + 1;
                    if class != Class::Other {
                        // Equal lines read alike, but for what comes after an error line.
                        let before = found.last().filter(|c| c.start == start);
                        let plain = before
                            .and_then(|c| c.plain)
                            .map(|p| p.repeated(&text[end + 1..next_end], class));
                        let cleaned = before.and_then(|c| c.cleaned.clone());
                        found.push(Candidate {
                            start: end + 1,
                            end: next_end,
                            line,
                            class,
                            plain,
                            cleaned,
                        });
                    }
                    last = Some((end + 1, next_end, class));
                    in_row = if class == Class::Other { 0 } else { in_row + 1 };
                    if next_end == bytes.len() {
                        break;
                    }
                    from = next_end;
                    continue;
                }
            }
            let start = if run {
                from + 1
            } else {
                let keyword = keywords.hit(text, from);
                // Only a form hit before the keyword hit matters: on a log of errors, most
                // blocks hold no form at all, and a search for one went to the block's end.
                let limit = keyword.map_or(bytes.len(), |k| {
                    memchr::memchr(b'\n', &bytes[k..]).map_or(bytes.len(), |i| k + i)
                });
                let form = forms.hit_before(text, from, limit);
                let Some(hit) = keyword.into_iter().chain(form).min() else {
                    break;
                };
                // The hit's line starts after the last '\n' at or before it (there is one at
                // `from`).
                memchr::memrchr(b'\n', &bytes[from..=hit]).map_or(from, |nl| from + nl) + 1
            };
            if start >= bytes.len() {
                break;
            }
            line += count_newlines(&bytes[counted..start]);
            counted = start;
            let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
            // No keyword of the line starts before `quiet`: each holds a keyword pattern at
            // its start or one byte in (`xception`, `raceback`), and the automaton's hit is
            // the leftmost of them at or after `from`. In a run nothing was searched.
            let quiet = if run {
                0
            } else {
                keywords
                    .hit(text, from)
                    .map_or(end, |k| k.min(end))
                    .saturating_sub(start + 1)
            };
            let shown = Shown::new(&text[start..end]);
            // A line the search found holds the pattern it hit: no pattern holds a '\n' but as
            // its first byte, so the hit lies within the line and the '\n' before it.
            let class = shown.class_after(quiet, !run);
            if class != Class::Other {
                let after_error =
                    last.is_some_and(|(_, end, class)| class == Class::Error && end + 1 == start);
                let plain = Plain::of(&shown, class, after_error);
                found.push(Candidate {
                    start,
                    end,
                    line,
                    class,
                    plain,
                    cleaned: plain.is_none().then(|| shown.into_cleaned()),
                });
            }
            in_row = match class {
                Class::Other => 0,
                _ if last.is_some_and(|(_, end, _)| end + 1 == start) => in_row + 1,
                _ => 1,
            };
            last = Some((start, end, class));
            if end == bytes.len() {
                break;
            }
            from = end;
        }
        found
    }
}

/// Bytes past where it starts that a [`Cursor`]'s search covers at the least.
const SEARCH_REACH: usize = 4096;

/// Lines not `Other` in a row after which the look-ahead classifies the next line without a
/// search: long enough that the pairs of a sparse log (a traceback's last two lines) make
/// no run, whose last line would be classified for nothing.
const RUN: u32 = 3;

/// The end of the line after the one at `start..end` of `bytes` (which ends in a `'\n'`, or
/// at the end of `bytes`) when the two are equal, else `None`.
///
/// Equal lines are hit alike: no pattern holds a `'\n'` but as its first byte, so a match
/// that starts at the `'\n'` before a line or inside it ends inside it, and a line hit by the
/// scan from the `'\n'` before it (or from earlier) is hit by one from the `'\n'` before an
/// equal line. Their classes are equal too: classification reads nothing but the line.
fn repeat(bytes: &[u8], start: usize, end: usize) -> Option<usize> {
    let len = end - start;
    let next = end + 1;
    let next_end = next.checked_add(len)?;
    let same = bytes.get(next..next_end)? == &bytes[start..end]
        && bytes.get(next_end).is_none_or(|&b| b == b'\n');
    same.then_some(next_end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::reading::classify::classify;
    use crate::log::reading::patterns::{FORM_PATTERNS, PATTERNS};
    use crate::test_helpers::word_lines;

    fn c(line: &str) -> Class {
        classify(line)
    }

    /// Found by the clip fuzzer: escape sequences inside a pattern hid it from the prefilter,
    /// which scans the raw text, while `classify` read the line with them removed. Such a
    /// line was counted by the head and the tail but not by the pass, and gap counts fell
    /// short (or, in a debug build, the tail's walk back underflowed).
    #[test]
    fn escapes_that_form_a_pattern_do_not_classify_a_line() {
        let pre = Prefilter::default();
        for line in [
            "err\x1b[0mor: x undeclared",
            "\x1b[1mFA\x1b[0mIL\tgithub.com/x/y\t0.012s",
            "*\x1b\x1b* (Mix) boom",
        ] {
            assert!(pre.next_hit(&format!("\n{line}"), 0).is_none(), "{line:?}");
            assert_eq!(c(line), Class::Other, "{line:?}");
        }
        assert_eq!(c("\x1b[31merror\x1b[0m: x undeclared"), Class::Error);
    }

    /// A line equal to the one before is found without a scan (see `repeat`): what the
    /// look-ahead finds is still what a scan of each line on its own finds.
    #[test]
    fn repeated_lines_are_found_as_if_each_were_scanned() {
        for pattern in PATTERNS.iter().chain(FORM_PATTERNS) {
            assert!(!pattern.as_bytes()[1..].contains(&b'\n'), "{pattern:?}");
        }
        let words = [
            "error", "FAILED", "OK", "ok", "x", " ", "warning:", "E  ", "\r", "\x1b[1m",
        ];
        let lines: Vec<String> = word_lines(&words, 0x9e37_79b9_7f4a_7c15, 4, true)
            .take(3000)
            .collect();
        let mut text = String::new();
        for (i, line) in lines.iter().enumerate() {
            for _ in 0..=(i % 4) {
                text.push_str(line);
                text.push('\n');
            }
        }
        looks_line_by_line(&text);
    }

    /// Asserts that the look-ahead finds in `text`, and in `text` without its last `'\n'`,
    /// what a scan of each line alone finds.
    fn looks_line_by_line(text: &str) {
        let pre = Prefilter::default();
        for text in [text, text.trim_end_matches('\n')] {
            assert_eq!(pre.candidates(text), line_by_line(&pre, text));
        }
    }

    /// What the look-ahead should find in `text`: each line but the first that a scan of it
    /// alone hits and that is not `Other`.
    fn line_by_line(pre: &Prefilter, text: &str) -> Vec<Candidate> {
        let mut want: Vec<Candidate> = Vec::new();
        let mut start = 0;
        for (no, raw) in text.split('\n').enumerate() {
            let end = start + raw.len();
            let hit = pre.next_hit(&format!("\n{raw}"), 0).is_some();
            let class = c(raw);
            if no > 0 && hit && class != Class::Other {
                let after_error = want
                    .last()
                    .is_some_and(|w| w.class == Class::Error && w.line + 1 == no as u64);
                let plain = Plain::of(&Shown::new(raw), class, after_error);
                want.push(Candidate {
                    start,
                    end,
                    line: no as u64,
                    class,
                    plain,
                    cleaned: plain.is_none().then(|| Shown::new(raw).into_cleaned()),
                });
            }
            start = end + 1;
        }
        want
    }

    /// In a run of lines that are not `Other` the next line is classified without a search:
    /// what the look-ahead finds is still what a scan of each line on its own finds, however
    /// runs start and end (a line without a pattern, one whose pattern says nothing, one whose
    /// escapes form a pattern, one redrawn by a carriage return).
    #[test]
    fn runs_of_classified_lines_are_found_as_if_each_were_scanned() {
        let kinds = [
            "src/a.c:3:1: error: 'x' undeclared",
            "src/b.c:4:2: warning: unused variable 'y'",
            "==== 1 failed, 2 passed in 0.1s ====",
            "compiling src/c.c",
            "0 errors",
            "err\x1b[0mor: x undeclared",
            "\x1b[31merror\x1b[0m: x undeclared",
            "error: old state\rall good now",
            "E       assert 1 == 2",
            "error: cannot link",
            "",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut text = String::new();
        for _ in 0..4000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let kind = kinds[usize::try_from(seed % kinds.len() as u64).unwrap()];
            // Runs of one kind, and numbers that make most lines differ from the one before.
            for n in 0..=(seed >> 32) % 5 {
                text.push_str(kind);
                if n % 2 == 1 {
                    text.push(' ');
                    text.push_str(&n.to_string());
                }
                text.push('\n');
            }
        }
        looks_line_by_line(&text);
    }

    /// The prefilter's contract: a line it does not hit is `Other`.
    #[test]
    fn prefilter_never_misses_a_classified_line() {
        let pre = Prefilter::default();
        let words = [
            "error",
            "Error",
            "ERROR",
            "eRRor",
            "errors",
            "0",
            "no",
            "failed",
            "Failure",
            "FAIL",
            "warning",
            "Warn",
            "WARN",
            "ValueError:",
            "Warning:",
            "passed",
            "in",
            "1.2s",
            "OK",
            "ok",
            "Ran",
            "3",
            "tests",
            "E",
            " ",
            "   ",
            "=",
            "==",
            "test",
            "result:",
            "Tests:",
            "make:",
            "***",
            "exit",
            "status",
            "code",
            "Found",
            "panic",
            "Traceback",
            "(",
            "x",
            "Success:",
            "generated.",
            "\t",
            "Results",
            "summary",
            "BUILD",
            "SUCCESS",
            "fatal",
            "ninja:",
            "build",
            "stopped",
            "info",
            "PASS",
            "\r",
            "\x1b[1m",
        ];
        for line in word_lines(&words, 0x2545_f491_4f6c_dd1d, 7, true).take(200_000) {
            let hay = format!("\n{line}");
            if pre.next_hit(&hay, 0).is_none() {
                assert_eq!(c(&line), Class::Other, "{line:?}");
            }
        }
    }
}
