//! Lists of line starts checked with one look-up for most lines.
//!
//! The rules that read a line (is it a trace's next frame, a passing test, a failure form) ask
//! whether it starts with one of a dozen or two strings. Most lines start with none of them,
//! and most of those with a byte that starts none of them: [`Starts`] keeps the set of the
//! strings' first bytes, so such a line is ruled out by one table look-up instead of a compare
//! with each string. On a log whose every line reaches these rules (an error per line) the
//! compares were a good part of the work.

/// Strings a line may start with, and the set of their first bytes.
pub(super) struct Starts {
    list: &'static [&'static str],
    first: [bool; 256],
}

impl Starts {
    /// `list`'s strings must not be empty.
    pub(super) const fn new(list: &'static [&'static str]) -> Self {
        let mut first = [false; 256];
        let mut i = 0;
        while i < list.len() {
            first[list[i].as_bytes()[0] as usize] = true;
            i += 1;
        }
        Starts { list, first }
    }

    /// Whether `line` starts with one of the strings.
    pub(super) fn starts(&self, line: &str) -> bool {
        line.as_bytes()
            .first()
            .is_some_and(|&b| self.first[usize::from(b)])
            && self.list.iter().any(|p| line.starts_with(p))
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
