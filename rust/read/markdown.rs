//! A Markdown document's headings, which stand for its definitions.
//!
//! A read of a README or a guide that does not fit shows, between its head and its tail, the
//! lines that say what the part it cannot show holds. In source code those are definitions;
//! in Markdown, the headings (`## Defining a new class`). The definitions found in a guide are
//! those of its code examples, and a heading is a comment to a reader of code, so a read that
//! is Markdown shows its headings instead. It is Markdown when it has headings at the margin
//! outside code blocks, fenced code blocks or links (what a shell script or a Python module's
//! comments seldom have), and definitions outside code blocks fewer than a quarter of its
//! headings (a module that puts a comment above each function has as many).

use super::{Line, MAX_DEF_CHARS};
use crate::lines;
use crate::text::{char_count, past_line_number};

/// What a read says of being Markdown, and its headings.
#[derive(Debug, Default)]
pub(super) struct Markdown {
    /// Inside a fenced code block: between a line that opens one and the line that closes it.
    fenced: bool,
    fences: u64,
    links: u64,
    /// Definitions outside fenced code blocks.
    code: u64,
    headings: u64,
    kept: Vec<Line>,
    kept_chars: u64,
    /// The number and text of the line before, when blank: a kept heading's lead. One buffer,
    /// kept from line to line.
    before: Option<u64>,
    before_text: String,
    /// The line just before each kept heading, where blank, in order.
    leads: Vec<Line>,
    /// Set once the read shows it is no Markdown ([`Markdown::no_markdown`]).
    given_up: bool,
}

/// A Markdown document has a heading among this many first lines.
const FIRST_LINES: u64 = 200;
/// Definitions outside code blocks, at least this many and a quarter of the headings, say
/// the read is code.
const CODE_SEEN: u64 = 16;

/// A blank line, with a viewer's number before it, is shorter than this.
const BLANK_BYTES: usize = 16;

/// Headings of fewer levels than this count (`#` to `######`).
const LEVELS: usize = 6;

impl Markdown {
    /// Reads the next whole line, keeping its headings' characters under twice the `room`.
    /// Whether the line is in a fenced code block, or opens or closes one.
    pub(super) fn line(&mut self, line: &lines::Line<'_>, room: u64) -> bool {
        if self.no_markdown(line.no) {
            return false;
        }
        // Past the line number of a viewer's numbered view (`cat -n README.md`), which starts
        // with a digit or a space: most lines of most reads start with neither. Every line
        // of a read comes here, so each test looks at a byte or two first.
        let raw = line.text;
        let numbered = raw
            .as_bytes()
            .first()
            .is_some_and(|&b| b == b' ' || b.is_ascii_digit());
        let own = if numbered {
            &raw[raw.len() - past_line_number(raw.as_bytes()).len()..]
        } else {
            raw
        };
        let indent = own.bytes().take_while(|&b| b == b' ' || b == b'\t').count();
        let text = &own[indent..];
        if matches!(text.as_bytes().first(), Some(b'`' | b'~'))
            && (text.starts_with("```") || text.starts_with("~~~"))
        {
            self.fenced = !self.fenced;
            self.fences += 1;
            return true;
        }
        let before = self.before.take();
        if self.fenced {
            return true;
        }
        // Links matter only with headings, and only until the first link or fence.
        if self.headings > 0 && self.fences + self.links == 0 && holds_link(text) {
            self.links += 1;
        }
        if own.starts_with('#') && is_heading(own) {
            self.headings += 1;
            let kept = Line::new(line);
            if kept.chars <= MAX_DEF_CHARS && self.kept_chars < room.saturating_mul(2) {
                self.kept_chars += kept.chars;
                if before.is_some_and(|no| no + 1 == kept.no) {
                    self.leads.push(Line {
                        no: kept.no - 1,
                        lines: 1,
                        text: self.before_text.clone(),
                        chars: char_count(&self.before_text),
                    });
                }
                self.kept.push(kept);
            }
        }
        // A heading's lead is a blank line (with a viewer's number); others are not kept.
        if text.is_empty() && raw.len() < BLANK_BYTES {
            self.before = Some(line.no);
            self.before_text.clear();
            self.before_text.push_str(raw);
        }
        false
    }

    /// Whether the read is no Markdown, and so never will be: no heading in its first lines,
    /// or code's definitions, many, outside code blocks. Nothing more is read then.
    fn no_markdown(&mut self, no: u64) -> bool {
        self.given_up |= self.headings == 0 && no > FIRST_LINES
            || self.code >= CODE_SEEN && self.code * 4 >= self.headings;
        self.given_up
    }

    /// Counts a definition the read planner found outside a code block.
    pub(super) fn definition(&mut self) {
        self.code += 1;
    }

    /// Whether the read may still turn out to be Markdown with headings not yet kept: the
    /// planner reads on for them.
    pub(super) fn reads_on(&self, room: u64) -> bool {
        self.looks_so() && self.kept_chars < room * 2
    }

    /// The blank lines just before the kept headings, in order.
    pub(super) fn leads(&self) -> &[Line] {
        &self.leads
    }

    /// The headings, when the read is Markdown.
    pub(super) fn headings(&self) -> Option<&[Line]> {
        (self.headings >= 2 && self.looks_so()).then_some(&self.kept)
    }

    /// Whether what was read so far is Markdown, but perhaps for its number of headings.
    fn looks_so(&self) -> bool {
        !self.given_up
            && self.headings > 0
            && self.fences + self.links > 0
            && self.code * 4 < self.headings
    }
}

/// Whether `text` holds a link's `](`.
fn holds_link(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b']', bytes).any(|at| bytes.get(at + 1) == Some(&b'('))
}

/// Whether `line` is an ATX heading at the margin: one to six `#`, a space, and words.
fn is_heading(line: &str) -> bool {
    let level = line.bytes().take_while(|&b| b == b'#').count();
    (1..=LEVELS).contains(&level)
        && line[level..]
            .strip_prefix(' ')
            .is_some_and(|title| title.starts_with(|c: char| !c.is_whitespace()))
}

#[cfg(test)]
mod tests {
    use super::is_heading;

    #[test]
    fn headings_are_atx_at_the_margin() {
        for line in ["# Python classes", "## Defining a new class", "###### Six"] {
            assert!(is_heading(line), "{line}");
        }
        for line in [
            "#!/bin/sh",
            "#include <stdio.h>",
            "####### seven",
            "  ## indented",
            "#  ",
            "#",
        ] {
            assert!(!is_heading(line), "{line}");
        }
    }
}
