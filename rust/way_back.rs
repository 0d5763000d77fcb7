//! The way back into a stored copy of the output: the words a marker uses when the full
//! output was kept (by `shapeclip.Store`), instead of asking to run or fetch it again.
//!
//! Two ways are named, so any agent can take one: `shapeclip show ID --lines A:B`, for one
//! with a shell, and the stored file's path with an offset and a limit, for one with only a
//! file-reading tool. The stored file is the output byte for byte, so its line numbers are
//! the markers' line numbers. Both words depend only on the entry (the output's hash and the
//! store's place), so the same output on the same machine gives the same marker bytes.

/// A stored copy of the output: its entry ID and the path of the stored file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WayBack {
    /// The stored entry's ID, as `shapeclip show` takes it.
    pub id: String,
    /// The stored file's path.
    pub path: String,
}

impl WayBack {
    /// `shapeclip show ID --lines A:B`.
    #[must_use]
    pub fn show_lines(&self, first: u64, last: u64) -> String {
        format!("shapeclip show {} --lines {first}:{last}", self.id)
    }

    /// The full hint for lines `first..=last`, `count` of them: the command, then the file
    /// with offset and limit. (`count` is given so a marker sized for the widest numbers can
    /// make it as wide as any real one.)
    #[must_use]
    pub fn lines_hint(&self, first: u64, last: u64, count: u64) -> String {
        format!(
            "run {}, or read {} with offset {first} and limit {count}",
            self.show_lines(first, last),
            self.path,
        )
    }

    /// `shapeclip show ID --grep 'PATTERN'`, PATTERN a regular expression; it must hold no `'`.
    #[must_use]
    pub fn show_grep(&self, pattern: &str) -> String {
        debug_assert!(!pattern.contains('\''));
        format!("shapeclip show {} --grep '{pattern}'", self.id)
    }

    /// `shapeclip show ID -F --grep 'TEXT'`, TEXT matched as it is written (as `grep -F`
    /// matches it): what an agent copies from an output, a path with `(`, `[` or `+` in it
    /// (`app/(auth)/page.tsx`), finds its lines. TEXT must hold no `'`.
    #[must_use]
    pub fn show_fixed(&self, text: &str) -> String {
        debug_assert!(!text.contains('\''));
        format!("shapeclip show {} -F --grep '{text}'", self.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_both_ways_with_exact_numbers() {
        let way = WayBack {
            id: "3f9a2c1b7d04".into(),
            path: "/home/u/.cache/shapeclip/3f9a2c1b7d04.out".into(),
        };
        assert_eq!(
            way.lines_hint(412, 9873, 9462),
            "run shapeclip show 3f9a2c1b7d04 --lines 412:9873, or read \
             /home/u/.cache/shapeclip/3f9a2c1b7d04.out with offset 412 and limit 9462"
        );
        assert_eq!(
            way.show_grep("(?i)error"),
            "shapeclip show 3f9a2c1b7d04 --grep '(?i)error'"
        );
        assert_eq!(
            way.show_fixed("PATTERN"),
            "shapeclip show 3f9a2c1b7d04 -F --grep 'PATTERN'"
        );
    }
}
