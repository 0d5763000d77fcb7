//! Lists of line starts checked with one look-up for most lines.
//!
//! The rules that read a line (is it a trace's next frame, a passing test, a failure form) ask
//! whether it starts with one of a dozen or two strings. Most lines start with none of them,
//! and most of those with a byte that starts none of them: [`Starts`] keeps, for each byte,
//! which strings start with it, so such a line is ruled out by one table look-up instead of a
//! compare with each string, and any other line is compared with the strings sharing its first
//! byte only. On a log whose every line reaches these rules (an error per line) the compares
//! were a good part of the work.

/// Strings a line may start with, and for each byte which of them start with it.
pub(super) struct Starts {
    list: &'static [&'static str],
    /// Bit `i` of `first[b]`: `list[i]` starts with byte `b`. A line whose first byte starts
    /// some strings is compared with those only (`src/a.c:3: error` with `stack backtrace:`,
    /// not with the five other chain starts).
    first: [u64; 256],
}

impl Starts {
    /// `list`'s strings must not be empty.
    pub(super) const fn new(list: &'static [&'static str]) -> Self {
        assert!(list.len() <= 64, "one bit a string");
        let mut first = [0u64; 256];
        let mut i = 0;
        while i < list.len() {
            first[list[i].as_bytes()[0] as usize] |= 1 << i;
            i += 1;
        }
        Starts { list, first }
    }

    /// Whether `line` starts with one of the strings.
    pub(super) fn starts(&self, line: &str) -> bool {
        let Some(&b) = line.as_bytes().first() else {
            return false;
        };
        let mut bits = self.first[usize::from(b)];
        while bits != 0 {
            if line.starts_with(self.list[bits.trailing_zeros() as usize]) {
                return true;
            }
            bits &= bits - 1;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_as_a_compare_with_each() {
        const LIST: &[&str] = &["E ", "note:", "\u{2713}", "--- PASS", "-->", " "];
        let starts = Starts::new(LIST);
        for line in [
            "",
            "E",
            "E ",
            "Ex",
            "note",
            "note: x",
            "\u{2713} ok",
            "\u{2714}",
            "--- PASS: T",
            "--- FAIL",
            "-->",
            "->",
            " x",
            "x ",
            "\u{e9}",
        ] {
            let want = LIST.iter().any(|p| line.starts_with(p));
            assert_eq!(starts.starts(line), want, "{line:?}");
        }
    }
}
