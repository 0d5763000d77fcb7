//! A file read whose lines a viewer numbered with the file's own numbers: `cat -n`, Claude
//! Code's Read (`  12→`), SWE-agent's window (`[File: PATH]`, `(M more lines above)`, `547:`).
//!
//! A marker's line numbers count the output's lines, as `shapeclip show` and `sed -n` on a
//! stored copy read them. A file-reading tool's offset counts the file's: where a viewer
//! printed a header above the lines, or was pointed past the file's start, the two differ, and
//! an offset taken from the output's numbering reads the wrong lines. So the offset a marker
//! gives a file-reading tool is the file's number of the line, read from the viewer's own. And
//! where no stored copy is named, a marker between `327:` and `343:` names the lines it holds
//! as the lines around it are numbered (`[lines 328-342 omitted]`): an agent reads the numbers
//! it sees, and output line 32 of a window on line 299 is no line it can find.
//!
//! Only the window's first and last lines are read, once, when the plan is made: a viewer's
//! numbers climb by one a line, so a read whose first and last lines agree on how far the file's
//! numbers are from the output's is numbered the same way throughout. [`Climbing`] follows the
//! same numbers line by line, for a planner that must know while it reads whether an output
//! may still be such a view (a shell's, which it gives up on otherwise).

use crate::sink::Totals;
use crate::window::Window;

/// Lines a viewer prints above the first numbered line (a path, the lines above), at most.
const HEADER_LINES: usize = 3;
/// Lines a viewer prints below the last numbered line (the lines below, a note), at most.
const TRAILER_LINES: usize = 3;

/// How the output's lines map to the file's, where a viewer numbered them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Numbered {
    /// The output's first numbered line.
    first: u64,
    /// The output's last numbered line.
    last: u64,
    /// The file's number of a line less the output's.
    shift: i128,
}

impl Numbered {
    /// How the output in `window` is numbered, where every line of its head after at most
    /// [`HEADER_LINES`] and every line of its tail before at most [`TRAILER_LINES`] carry a
    /// viewer's numbers, one apart, at the same distance from the output's; `None` otherwise.
    #[must_use]
    pub fn read(window: &Window, totals: &Totals) -> Option<Self> {
        // The head's last piece and the tail's first may be parts of lines.
        let head: Vec<&str> = window.head.split('\n').collect();
        let head = &head[..head.len() - 1];
        let at = head
            .iter()
            .take(HEADER_LINES + 1)
            .position(|l| number(l).is_some())?;
        let first = at as u64 + 1;
        let shift = i128::from(number(head[at])?) - i128::from(first);
        let agrees = |no: u64, line: &str| {
            number(line).is_some_and(|n| i128::from(n) - i128::from(no) == shift)
        };
        let tail = window.last_chars();
        let mut lines: Vec<&str> = tail
            .strip_suffix('\n')
            .unwrap_or(tail)
            .split('\n')
            .collect();
        lines.remove(0);
        let numbered = lines.len()
            - lines
                .iter()
                .rev()
                .take(TRAILER_LINES + 1)
                .position(|l| number(l).is_some())?;
        // The output's last numbered line: in an output little longer than the budget, the
        // head reaches the lines below it.
        let last = totals.lines - (lines.len() - numbered) as u64;
        let start = last + 1 - numbered as u64;
        let head_agrees = (first..)
            .zip(&head[at..])
            .all(|(no, line)| no > last || agrees(no, line));
        let tail_agrees = (start..)
            .zip(&lines[..numbered])
            .all(|(no, line)| no < first || agrees(no, line));
        (first <= last && head_agrees && tail_agrees).then_some(Numbered { first, last, shift })
    }

    /// The file's number of output line `line`, or of the first numbered line for a line above
    /// it: the offset that reads it again.
    #[must_use]
    pub fn file_line(&self, line: u64) -> u64 {
        let no = i128::from(line.max(self.first)) + self.shift;
        u64::try_from(no.max(1)).unwrap_or(u64::MAX)
    }

    /// The viewer's numbers of output lines `first` and `last`, where both are numbered lines
    /// (a range that reaches the viewer's header or the lines below keeps the output's numbers).
    #[must_use]
    pub fn printed(&self, first: u64, last: u64) -> Option<(u64, u64)> {
        let number = |line: u64| u64::try_from(i128::from(line) + self.shift).ok();
        if self.first <= first && first <= last && last <= self.last {
            Some((number(first)?, number(last)?))
        } else {
            None
        }
    }

    /// The largest number [`Numbered::printed`] gives: the viewer's on its last numbered line.
    #[must_use]
    pub fn widest(&self) -> u64 {
        self.printed(self.last, self.last).map_or(0, |(n, _)| n)
    }
}

/// Whether the lines read so far, one at a time, are a viewer's numbered view as
/// [`Numbered::read`] takes one: up to [`HEADER_LINES`] lines, then lines numbered one apart,
/// then up to [`TRAILER_LINES`] lines. It goes by every line, so a planner that reads a stream
/// line by line knows before its end whether it may still be one.
#[derive(Debug, Clone, Copy)]
pub struct Climbing(State);

#[derive(Debug, Clone, Copy)]
enum State {
    /// This many lines came before the first numbered one.
    Above(usize),
    /// The number the next line carries, while the numbered lines go on.
    Next(u64),
    /// This many lines came after the last numbered one.
    Below(usize),
    /// No numbered view.
    Broken,
}

impl Default for Climbing {
    fn default() -> Self {
        Climbing(State::Above(0))
    }
}

impl Climbing {
    /// Reads the next whole line's text.
    pub fn line(&mut self, text: &str) {
        if let State::Broken = self.0 {
            return;
        }
        self.0 = match (self.0, number(text)) {
            (State::Above(_), Some(n)) => State::Next(n.saturating_add(1)),
            (State::Next(next), Some(n)) if n == next => State::Next(n.saturating_add(1)),
            (State::Above(above), None) if above < HEADER_LINES => State::Above(above + 1),
            (State::Next(_), None) => State::Below(1),
            (State::Below(below), None) if below < TRAILER_LINES => State::Below(below + 1),
            _ => State::Broken,
        };
    }

    /// Whether the lines so far may be a numbered view (once one numbered line was read).
    #[must_use]
    pub fn so_far(&self) -> bool {
        matches!(self.0, State::Next(_) | State::Below(_))
    }
}

/// The number a viewer printed before `line`'s text (`  12\t`, `12:`, `  12→`), as
/// [`crate::text::past_line_number`] reads it.
pub(crate) fn number(line: &str) -> Option<u64> {
    let digits = line.trim_start_matches(' ');
    let end = digits.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &digits[end..];
    let marked = rest.starts_with(['\t', ':']) || rest.starts_with('→');
    if end == 0 || !marked {
        return None;
    }
    digits[..end].parse().ok()
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use crate::engine::Engine;
    use crate::planner::Budget;
    use crate::profile::Profile;

    /// The offset the closing marker of `text`, read by a file-reading tool within `budget`,
    /// gives, and the output's first omitted line.
    fn offset_and_first(text: &str, budget: u64) -> (u64, u64) {
        let profile = Profile::new("file_read", Some("read_file"), 8000, 1000).unwrap();
        let mut engine = Engine::new(Budget::new(budget, 0).unwrap(), profile);
        engine.feed_str(text);
        let plan = engine.finish().plan;
        let out = plan.render();
        let at = out.find("read offset ").expect(&out) + "read offset ".len();
        let digits: String = out[at..].chars().take_while(char::is_ascii_digit).collect();
        (digits.parse().expect(&out), plan.omitted[0].first)
    }

    fn code_lines(first: u64, count: u64, numbered: impl Fn(u64) -> String) -> String {
        let mut text = String::new();
        for n in first..first + count {
            let number = numbered(n);
            writeln!(
                text,
                "{number}    value_{n} = compute(value_{n}, {n})  # step {n}"
            )
            .unwrap();
        }
        text
    }

    #[test]
    fn a_windows_offset_is_the_files_number_of_its_first_omitted_line() {
        let mut text =
            String::from("[File: /repo/app.py (3000 lines total)]\n(546 more lines above)\n");
        text.push_str(&code_lines(547, 100, |n| format!("{n}:")));
        text.push_str("(2354 more lines below)\n");
        // Output line N is the file's line N + 544.
        let (offset, first) = offset_and_first(&text, 2000);
        assert_eq!(offset, first + 544);
    }

    /// A window of SWE-agent's on line `at` of a long file: a header, 100 numbered lines and
    /// the line below.
    fn window_at(at: u64) -> String {
        let mut text = format!(
            "[File: /repo/app.py ({} lines total)]\n({} more lines above)\n",
            at + 1000,
            at - 1
        );
        text.push_str(&code_lines(at, 100, |n| format!("{n}:")));
        text.push_str("(900 more lines below)\n");
        text
    }

    #[test]
    fn a_windows_markers_name_its_lines_as_the_viewer_numbered_them() {
        let text = window_at(547);
        let profile = Profile::new("file_read", Some("read_file"), 8000, 1000).unwrap();
        let mut engine = Engine::new(Budget::new(2000, 0).unwrap(), profile);
        engine.feed_str(&text);
        let plan = engine.finish().plan;
        let out = plan.render();
        // Output line N is the file's line N + 544; the marker of every gap but the last says
        // so, and the closing one names no line of the output's count.
        let gaps = &plan.omitted[..plan.omitted.len() - 1];
        assert!(!gaps.is_empty(), "{out}");
        for gap in gaps {
            let said = format!("[lines {}-{} omitted]", gap.first + 544, gap.last + 544);
            assert!(out.contains(&said), "{said} in {out}");
        }
        assert!(!out.contains(" of 103 omitted"), "{out}");
    }

    #[test]
    fn a_windows_markers_fit_the_budget_however_wide_its_numbers() {
        // Lines numbered in the hundreds of millions, in an output of 103 lines: the markers are
        // sized for the viewer's numbers, not the output's.
        let text = window_at(999_999_000);
        for budget in (40..1200).step_by(7) {
            let profile = Profile::new("file_read", Some("read_file"), 8000, 1000).unwrap();
            let mut engine = Engine::new(Budget::new(budget, 0).unwrap(), profile);
            engine.feed_str(&text);
            let out = engine.finish().plan.render();
            assert!(out.chars().count() as u64 <= budget, "{budget}: {out}");
        }
    }

    #[test]
    fn a_read_from_an_offset_gives_the_files_numbers() {
        let text = code_lines(500, 300, |n| format!("{n:>6}\u{2192}"));
        let (offset, first) = offset_and_first(&text, 2000);
        assert_eq!(offset, first + 499);
    }

    #[test]
    fn a_read_from_the_first_line_and_an_unnumbered_one_keep_the_outputs_numbers() {
        for text in [
            code_lines(1, 300, |n| format!("{n:>6}\t")),
            code_lines(1, 300, |_| String::new()),
        ] {
            let (offset, first) = offset_and_first(&text, 2000);
            assert_eq!(offset, first);
        }
    }

    #[test]
    fn a_read_whose_head_reaches_the_lines_below_its_numbers_is_numbered_too() {
        // One character over the budget: the head holds the viewer's line below the numbers.
        let mut text = code_lines(2, 40, |n| format!("{n:>6}\t"));
        text.push_str("(2354 more lines below)\n(2354 more lines below)\n");
        let budget = text.chars().count() as u64 - 1;
        let (offset, first) = offset_and_first(&text, budget);
        assert_eq!(offset, first + 1);
    }

    #[test]
    fn numbers_that_do_not_climb_by_one_throughout_are_no_viewers() {
        // Numbered from 500 at the head, from 900 at the tail: lines were left out between.
        let mut jump = code_lines(500, 100, |n| format!("{n}:"));
        jump.push_str(&code_lines(900, 100, |n| format!("{n}:")));
        // A log whose lines start with a time of day.
        let mut times = String::new();
        for i in 0..300 {
            writeln!(times, "12:{:02} job {i} done, its output written", i % 60).unwrap();
        }
        for text in [jump, times] {
            let (offset, first) = offset_and_first(&text, 2000);
            assert_eq!(offset, first);
        }
    }

    #[test]
    fn climbing_follows_a_view_line_by_line() {
        use super::Climbing;
        let read = |lines: &[&str]| {
            let mut climbing = Climbing::default();
            for line in lines {
                climbing.line(line);
            }
            climbing.so_far()
        };
        assert!(read(&[
            "[File: a.py (90 lines total)]",
            "(9 more lines above)",
            "10:x",
            "11:y"
        ]));
        assert!(read(&["     1\tx", "     2\ty", "(88 more lines below)"]));
        assert!(!read(&["a", "b", "c", "d", "5:x"]));
        assert!(!read(&["10:x", "12:y"]));
        assert!(!read(&["10:x", "note", "11:y"]));
        assert!(!read(&["no numbers"]));
    }
}
