//! The words every planner's markers share, and the one way a marker is sized.
//!
//! Markers are read by people and models, so the clip, search and log planners say the same
//! things the same way: numbers with thousands separators, a noun that agrees with its count,
//! an estimate of tokens, and the note after a line cut short. Each planner must also know a
//! marker's length before it knows the numbers the marker will print (the budget pays for the
//! marker first), so each renders its marker once with the widest numbers the input could
//! need ([`widest_len`]): singular wordings are never longer than plural ones, so the real
//! marker, rendered last, is never longer than the one the budget paid for.

use crate::text::char_count;

/// `1234567` as `"1,234,567"`: markers are read by people and models, and both misread long runs
/// of digits.
#[must_use]
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// Characters of [`thousands`]`(n)`; no smaller number is wider.
#[must_use]
pub fn width(n: u64) -> u64 {
    let d = u64::from(n.checked_ilog10().unwrap_or(0)) + 1;
    d + (d - 1) / 3
}

/// The noun for `n` of something: `one` for 1, else `many`. Callers keep `one` no longer than
/// `many`, so a marker sized for its widest numbers holds any real ones.
#[must_use]
pub fn word<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// `n` and the noun for it: `"1 file"`, `"2,048 files"`. The singular is never the longer, so
/// a marker sized for its widest numbers holds any real ones.
#[must_use]
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), word(n, one, many))
}

/// The estimate of tokens that markers print: characters / 4, rounded up.
#[must_use]
pub fn tokens_for_chars(chars: u64) -> u64 {
    chars.div_ceil(4)
}

/// The token estimate for `chars` characters as markers print it: `"1 token"`, `"250 tokens"`.
#[must_use]
pub fn tokens(chars: u64) -> String {
    plural(tokens_for_chars(chars), "token", "tokens")
}

/// The note after the shown start of a line cut short: `" [shapeclip: N more chars of this
/// line]"`, where `more` characters of the line are not shown.
#[must_use]
pub fn more_chars_note(more: u64) -> String {
    format!(
        " [shapeclip: {} of this line]",
        plural(more, "more char", "more chars")
    )
}

/// Characters of [`more_chars_note`]`(more)`, without writing it.
#[must_use]
pub fn more_chars_note_len(more: u64) -> u64 {
    38 + width(more) - u64::from(more == 1)
}

/// The length of the longest of the markers `render` writes for `widest`: facts whose every
/// number is at least as wide, printed, as any real one (one candidate for each wording the
/// real marker may take). The budget pays for this before the real marker is known.
#[must_use]
pub fn widest_len<F>(widest: impl IntoIterator<Item = F>, render: impl Fn(&F) -> String) -> u64 {
    widest
        .into_iter()
        .map(|facts| char_count(&render(&facts)))
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(9_873_120), "9,873,120");
        assert_eq!(tokens_for_chars(9), 3);
        assert_eq!(tokens(9), "3 tokens");
        assert_eq!(tokens(4), "1 token");
        assert_eq!(plural(1, "file", "files"), "1 file");
        assert_eq!(plural(0, "file", "files"), "0 files");
        assert_eq!(plural(1200, "match", "matches"), "1,200 matches");
    }

    #[test]
    fn widths_are_the_printed_lengths() {
        for n in [0, 1, 9, 10, 999, 1000, 999_999, 1_000_000, u64::MAX] {
            assert_eq!(width(n), char_count(&thousands(n)), "{n}");
        }
        for more in [1, 2, 9, 10, 999, 1000, 1_234_567] {
            let note = more_chars_note(more);
            assert_eq!(more_chars_note_len(more), char_count(&note), "{note}");
        }
    }

    #[test]
    fn the_widest_candidate_sizes_the_marker() {
        let len = widest_len([1, 1_000_000], |&n| format!("[{}]", plural(n, "x", "xs")));
        assert_eq!(len, "[1,000,000 xs]".len() as u64);
    }
}
