//! What a digest model is shown of the omitted part: a bounded, evenly spread sample.
//!
//! The plan is only known at the end of the single pass, and the pass keeps no copy of the
//! input, so [`Sampler`] keeps two bounded pools of numbered lines as they stream by: lines
//! that carry an error or warning word, and every `stride`-th line. When a pool outgrows its
//! cap, every other entry is dropped (and the stride doubles), so each pool stays spread evenly
//! over the whole input, however long. At the end [`Sampler::sample`] keeps the pooled lines
//! that fall in the omitted ranges, signal lines first, then spread lines, up to
//! [`DIGEST_INPUT_CHARS`], and lists them in line order with their line numbers, so a 2 MB
//! omitted middle is represented across its whole length, not by its first 24,000 characters.

use std::fmt::Write;
use std::sync::LazyLock;

use aho_corasick::AhoCorasick;

use crate::plan::LineRange;
use crate::sink::{Block, Sink};
use crate::text::{byte_at_char, char_count};

/// Characters of the omitted part a digest model is fed at most.
pub const DIGEST_INPUT_CHARS: u64 = 24_000;
/// Characters each pool holds before it is thinned.
const POOL_CHARS: u64 = 2 * DIGEST_INPUT_CHARS;
/// Characters of one line a sample shows.
const LINE_CHARS: u64 = 300;

/// Words that make a line worth showing the digest model before any other.
const SIGNALS: &[&str] = &[
    "error",
    "Error",
    "ERROR",
    "warning",
    "Warning",
    "WARN",
    "fail",
    "Fail",
    "FAIL",
    "fatal",
    "Fatal",
    "FATAL",
    "panic",
    "Traceback",
    "xception",
    "denied",
    "not found",
];

/// Built once per process: building the automaton took 150 µs, thirty times what a whole
/// compression of a small output takes without a digest. A clone shares it.
static SIGNAL_WORDS: LazyLock<AhoCorasick> =
    LazyLock::new(|| AhoCorasick::new(SIGNALS).expect("the signal words are fixed and valid"));

#[derive(Debug, Default)]
struct Pool {
    lines: Vec<(u64, String)>,
    chars: u64,
}

impl Pool {
    /// Pools line `number`, whose text `line` has no `'\n'`, as a sample shows it.
    fn push(&mut self, number: u64, line: &str) {
        let line = line.trim_end_matches('\r');
        let shown = &line[..byte_at_char(line, LINE_CHARS)];
        self.chars += char_count(shown);
        self.lines.push((number, shown.to_owned()));
    }

    fn full(&self) -> bool {
        self.chars > POOL_CHARS
    }

    fn keep(&mut self, mut wanted: impl FnMut(usize, u64) -> bool) {
        let mut index = 0;
        self.lines.retain(|(n, _)| {
            index += 1;
            wanted(index - 1, *n)
        });
        self.chars = self.lines.iter().map(|(_, l)| char_count(l)).sum();
    }
}

#[derive(Debug)]
pub struct Sampler {
    signal_words: AhoCorasick,
    signals: Pool,
    spread: Pool,
    /// Every `stride`-th line (1, 1 + stride, ...) goes to the spread pool.
    stride: u64,
}

impl Default for Sampler {
    fn default() -> Self {
        Sampler {
            signal_words: SIGNAL_WORDS.clone(),
            signals: Pool::default(),
            spread: Pool::default(),
            stride: 1,
        }
    }
}

impl Sink for Sampler {
    type Lookahead = ();
    fn lookahead(&self) {}
    fn block(&mut self, block: &Block<'_>, (): ()) {
        // A piece that continues a line was sampled with the line's first piece.
        let (_, lines) = block.split();
        let from = lines.start();
        let mut hits = self
            .signal_words
            .find_iter(lines.text())
            .map(|m| m.start() + from)
            .peekable();
        for line in lines {
            let mut signal = false;
            while hits.next_if(|&hit| hit < line.end()).is_some() {
                signal = true;
            }
            if signal {
                self.signals.push(line.no, line.text);
                while self.signals.full() {
                    self.signals.keep(|index, _| index % 2 == 0);
                }
            }
            if (line.no - 1) % self.stride == 0 {
                self.spread.push(line.no, line.text);
                while self.spread.full() {
                    self.stride *= 2;
                    let stride = self.stride;
                    self.spread.keep(|_, n| (n - 1) % stride == 0);
                }
            }
        }
    }
}

impl Sampler {
    /// The sample of the lines in `omitted`, at most [`DIGEST_INPUT_CHARS`] characters, one
    /// `line N: text` per line, in line order.
    #[must_use]
    pub fn sample(&self, omitted: &[LineRange]) -> String {
        let inside =
            |(n, _): &&(u64, String)| omitted.iter().any(|r| r.first <= *n && *n <= r.last);
        let signals: Vec<&(u64, String)> = self.signals.lines.iter().filter(inside).collect();
        let mut chosen = evenly(&signals, DIGEST_INPUT_CHARS);
        let used: u64 = chosen.iter().map(|entry| cost(entry)).sum();
        let spread: Vec<&(u64, String)> = self
            .spread
            .lines
            .iter()
            .filter(inside)
            .filter(|(n, _)| chosen.binary_search_by_key(n, |(m, _)| *m).is_err())
            .collect();
        chosen.extend(evenly(&spread, DIGEST_INPUT_CHARS - used));
        chosen.sort_by_key(|(n, _)| *n);
        chosen.iter().fold(String::new(), |mut out, (n, l)| {
            let _ = writeln!(out, "line {n}: {l}");
            out
        })
    }
}

/// Characters a line takes in the sample, with its `line N: ` prefix and newline.
fn cost((n, line): &(u64, String)) -> u64 {
    char_count(line) + n.to_string().len() as u64 + 8
}

/// Entries spread evenly over `entries` (which are in line order) within `room` characters.
fn evenly<'a>(entries: &[&'a (u64, String)], room: u64) -> Vec<&'a (u64, String)> {
    let total: u64 = entries.iter().map(|entry| cost(entry)).sum();
    let len = entries.len() as u64;
    // Take a share of the entries as large as the room's share of their characters.
    let take = if total <= room {
        len
    } else {
        len * room / total
    };
    let mut picked = Vec::new();
    let mut used = 0;
    for j in 0..take {
        let entry = entries[usize::try_from(j * len / take).unwrap_or(usize::MAX)];
        used += cost(entry);
        if used > room {
            break;
        }
        picked.push(entry);
    }
    picked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::reader::LineReader;

    fn steps(n: u64) -> String {
        let mut text = String::new();
        for i in 1..=n {
            let _ = writeln!(text, "step {i} ok");
        }
        text
    }

    fn sampled(input: &str, omitted: &[LineRange]) -> String {
        let mut reader = LineReader::default();
        let mut sampler = Sampler::default();
        for chunk in input.as_bytes().chunks(4096) {
            reader.feed_bytes(chunk, &mut sampler);
        }
        reader.finish(&mut sampler);
        sampler.sample(omitted)
    }

    #[test]
    fn a_long_middle_is_sampled_across_its_whole_length() {
        let input = steps(200_000);
        let sample = sampled(
            &input,
            &[LineRange {
                first: 100,
                last: 199_900,
            }],
        );
        assert!(char_count(&sample) <= DIGEST_INPUT_CHARS);
        let numbers: Vec<u64> = sample
            .lines()
            .map(|l| l.split(':').next().unwrap()[5..].parse().unwrap())
            .collect();
        assert!(numbers.windows(2).all(|w| w[0] < w[1]));
        assert!(
            numbers[0] < 10_000 && *numbers.last().unwrap() > 190_000,
            "{numbers:?}"
        );
        assert!(numbers.iter().all(|&n| (100..=199_900).contains(&n)));
    }

    #[test]
    fn signal_lines_come_first_and_only_from_the_omitted_part() {
        let mut input = steps(50_000);
        input.push_str("src/a.c:3:1: error: expected ';'\n");
        input.push_str("error in the tail\n");
        let sample = sampled(
            &input,
            &[LineRange {
                first: 10,
                last: 50_001,
            }],
        );
        assert!(sample.contains("line 50001: src/a.c:3:1: error: expected ';'\n"));
        assert!(!sample.contains("error in the tail"));
        // The rest is spread over the omitted range, and only over it.
        let numbers: Vec<u64> = sample
            .lines()
            .map(|l| l.split(':').next().unwrap()[5..].parse().unwrap())
            .collect();
        assert!(
            numbers.iter().all(|&n| (10..=50_001).contains(&n)),
            "{numbers:?}"
        );
        assert!(
            sample.lines().filter(|l| l.ends_with(" ok")).count() > 100,
            "{sample}"
        );
    }
}
