//! The way back to the whole output: the words a marker uses when the output is kept where it
//! can be read again, instead of asking to run or fetch it again.
//!
//! The output is kept in one of two places. A copy in shapeclip's store (`shapeclip.Store`) is
//! named two ways, so any agent can take one: `shapeclip show ID --lines A:B`, for one with a
//! shell, and the stored file's path with an offset and a limit, for one with only a
//! file-reading tool. A file the output was read from (`shapeclip FILE`) is named by `sed`,
//! `grep` and its path. Either holds the output byte for byte, so its line numbers are the
//! markers' line numbers, and the words depend only on where it is kept, so the same output
//! kept in the same place gives the same marker bytes.

/// Where the whole output is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WayBack {
    /// A copy in shapeclip's store.
    Stored {
        /// The entry's ID, as `shapeclip show` takes it.
        id: String,
        /// The stored file's path.
        path: String,
    },
    /// The file the output was read from, whole.
    File {
        /// Its path, as the user gave it.
        path: String,
    },
}

impl WayBack {
    /// The file that holds the output.
    #[must_use]
    pub fn path(&self) -> &str {
        match self {
            WayBack::Stored { path, .. } | WayBack::File { path } => path,
        }
    }

    /// The command that prints lines `first..=last`: `shapeclip show ID --lines A:B`, or
    /// `sed -n 'A,Bp' FILE`.
    #[must_use]
    pub fn show_lines(&self, first: u64, last: u64) -> String {
        self.show_range(&first.to_string(), &last.to_string())
    }

    /// [`WayBack::show_lines`] with the numbers written as words (`A`, `B`) a sentence
    /// explains.
    #[must_use]
    pub fn show_range(&self, first: &str, last: &str) -> String {
        match self {
            WayBack::Stored { id, .. } => format!("shapeclip show {id} --lines {first}:{last}"),
            WayBack::File { path } => format!("sed -n '{first},{last}p' {}", quoted(path)),
        }
    }

    /// The full hint for lines `first..=last`, `count` of them: the command, then the file
    /// with offset and limit. (`count` is given so a marker sized for the widest numbers can
    /// make it as wide as any real one.)
    #[must_use]
    pub fn lines_hint(&self, first: u64, last: u64, count: u64) -> String {
        format!(
            "run {}, or read {} with offset {first} and limit {count}",
            self.show_lines(first, last),
            self.path(),
        )
    }

    /// The command that prints the lines that hold any of `words` (`a|b|c`, letters only), in
    /// any case: `shapeclip show ID --grep '(?i)a|b|c'`, or `grep -n -i -E 'a|b|c' FILE`.
    #[must_use]
    pub fn show_words(&self, words: &str) -> String {
        debug_assert!(words.chars().all(|c| c.is_ascii_alphabetic() || c == '|'));
        match self {
            WayBack::Stored { id, .. } => format!("shapeclip show {id} --grep '(?i){words}'"),
            WayBack::File { path } => format!("grep -n -i -E '{words}' {}", quoted(path)),
        }
    }

    /// The command that prints the lines holding TEXT as it is written (as `grep -F` matches
    /// it): what an agent copies from an output, a path with `(`, `[` or `+` in it
    /// (`app/(auth)/page.tsx`), finds its lines. TEXT must hold no `'`.
    #[must_use]
    pub fn show_fixed(&self, text: &str) -> String {
        debug_assert!(!text.contains('\''));
        match self {
            WayBack::Stored { id, .. } => format!("shapeclip show {id} -F --grep '{text}'"),
            WayBack::File { path } => format!("grep -n -F '{text}' {}", quoted(path)),
        }
    }
}

/// `path` as a shell reads it back: as it is when it has nothing a shell would take apart,
/// else in single quotes (a `'` in it closed, escaped and reopened).
fn quoted(path: &str) -> String {
    let plain = !path.is_empty()
        && path
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+,:@%=".contains(&b));
    if plain {
        path.to_owned()
    } else {
        format!("'{}'", path.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_both_ways_into_the_store_with_exact_numbers() {
        let way = WayBack::Stored {
            id: "3f9a2c1b7d04".into(),
            path: "/home/u/.cache/shapeclip/3f9a2c1b7d04.out".into(),
        };
        assert_eq!(
            way.lines_hint(412, 9873, 9462),
            "run shapeclip show 3f9a2c1b7d04 --lines 412:9873, or read \
             /home/u/.cache/shapeclip/3f9a2c1b7d04.out with offset 412 and limit 9462"
        );
        assert_eq!(
            way.show_words("error|fail|warn"),
            "shapeclip show 3f9a2c1b7d04 --grep '(?i)error|fail|warn'"
        );
        assert_eq!(
            way.show_fixed("PATTERN"),
            "shapeclip show 3f9a2c1b7d04 -F --grep 'PATTERN'"
        );
        assert_eq!(
            way.show_range("A", "B"),
            "shapeclip show 3f9a2c1b7d04 --lines A:B"
        );
    }

    #[test]
    fn names_a_file_by_sed_grep_and_its_path_quoted_for_a_shell() {
        let way = WayBack::File {
            path: "logs/build 7.log".into(),
        };
        assert_eq!(
            way.lines_hint(412, 9873, 9462),
            "run sed -n '412,9873p' 'logs/build 7.log', or read logs/build 7.log with \
             offset 412 and limit 9462"
        );
        assert_eq!(
            way.show_words("error|fail|warn"),
            "grep -n -i -E 'error|fail|warn' 'logs/build 7.log'"
        );
        assert_eq!(
            way.show_fixed("PATTERN"),
            "grep -n -F 'PATTERN' 'logs/build 7.log'"
        );
        let plain = WayBack::File {
            path: "/tmp/ci-1.log".into(),
        };
        assert_eq!(plain.show_range("A", "B"), "sed -n 'A,Bp' /tmp/ci-1.log");
        assert_eq!(quoted("it's"), r"'it'\''s'");
        assert_eq!(quoted(""), "''");
    }
}
