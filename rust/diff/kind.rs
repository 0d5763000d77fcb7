//! What each line outside a hunk body says, so that when not all of them fit the least
//! informative go first, and what a gap that hides lines of a diff counts.

use std::ops::{Add, Sub};

use crate::markers::{plural, thousands};

/// What a line outside hunk bodies is worth, from most to least (see [`Kind::kept_at`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Names a commit or a file: `commit ...`, `diff ...`, the `---`/`+++` pair of a `diff -u`
    /// file that has no `diff` line, `Binary files ... differ`.
    Name,
    /// A commit's subject: the first line of its message.
    Subject,
    /// A hunk header, `@@ -a,b +c,d @@ ...`: where the hunk's lines are.
    Hunk,
    /// Any other line about a file: mode lines, `---`/`+++` that name other paths than the
    /// `diff --git` line (`/dev/null` for a new or deleted file).
    Note,
    /// A commit's author, date and the message after its subject.
    Message,
    /// What the `diff --git a/X b/Y` line above already says: `index` lines, `--- a/X` and
    /// `+++ b/Y`, a rename's `similarity index` and `rename from`/`rename to` lines.
    Redundant,
}

impl Kind {
    /// Whether a line of this kind is shown at `level`: 1 shows every header; 2 drops what
    /// the `diff --git` line already says; 3 also commit messages but for their subject; 4
    /// keeps only the names, each file's other lines counted in the gap after it.
    #[must_use]
    pub fn kept_at(self, level: u8) -> bool {
        let last_level = match self {
            Kind::Name => 5,
            Kind::Subject => 4,
            Kind::Hunk | Kind::Note => 3,
            Kind::Message => 2,
            Kind::Redundant => 1,
        };
        level <= last_level
    }
}

/// What some lines of a diff hold: commits, files and hunks they start, and added and removed
/// lines of hunk bodies.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub commits: u64,
    pub files: u64,
    pub hunks: u64,
    pub body_lines: u64,
    pub plus: u64,
    pub minus: u64,
}

impl Add for Counts {
    type Output = Counts;
    fn add(self, o: Counts) -> Counts {
        Counts {
            commits: self.commits + o.commits,
            files: self.files + o.files,
            hunks: self.hunks + o.hunks,
            body_lines: self.body_lines + o.body_lines,
            plus: self.plus + o.plus,
            minus: self.minus + o.minus,
        }
    }
}

impl Sub for Counts {
    type Output = Counts;
    fn sub(self, o: Counts) -> Counts {
        Counts {
            commits: self.commits - o.commits,
            files: self.files - o.files,
            hunks: self.hunks - o.hunks,
            body_lines: self.body_lines - o.body_lines,
            plus: self.plus - o.plus,
            minus: self.minus - o.minus,
        }
    }
}

impl Counts {
    /// The label of a gap that hides these lines: `": 3 files, 5 hunks, +40 -12"`, the parts
    /// that are not zero (added and removed lines whenever it hides body lines, `unchanged`
    /// where those are context only), or nothing.
    #[must_use]
    pub fn label(&self) -> String {
        let mut parts = Vec::new();
        for (n, one, many) in [
            (self.commits, "commit", "commits"),
            (self.files, "file", "files"),
            (self.hunks, "hunk", "hunks"),
        ] {
            if n > 0 {
                parts.push(plural(n, one, many));
            }
        }
        if self.body_lines > 0 && self.plus + self.minus == 0 {
            parts.push("unchanged".to_owned());
        } else if self.body_lines > 0 {
            parts.push(format!(
                "+{} -{}",
                thousands(self.plus),
                thousands(self.minus)
            ));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!(": {}", parts.join(", "))
        }
    }
}

/// Where in a diff the last header line was.
#[derive(Debug, Default)]
enum At {
    /// Before any commit or file, or past a file's first hunk.
    #[default]
    Elsewhere,
    /// Between a `commit` line and its first file.
    Commit { subject_seen: bool },
    /// Between a file's first line and its first hunk.
    FileHeader {
        /// The file was named by its `---` line (`diff -u` without a `diff` line).
        named_by_dashes: bool,
        /// A `new file mode` or `deleted file mode` line says what its `/dev/null` path does.
        new_or_deleted: bool,
    },
}

/// Reads the lines outside hunk bodies in order, each in the light of those before it.
#[derive(Debug, Default)]
pub struct Reader {
    /// The rest of the open file's `diff --git ` line, `a/X b/Y`.
    git_paths: Option<String>,
    at: At,
}

impl Reader {
    /// A hunk header was read: the file's header lines are over.
    pub fn hunk(&mut self) {
        self.at = At::Elsewhere;
    }

    /// What header line `text` is, and what it starts.
    pub fn header(&mut self, text: &str) -> (Kind, Counts) {
        let starts_file = Counts {
            files: 1,
            ..Counts::default()
        };
        let file_header = At::FileHeader {
            named_by_dashes: false,
            new_or_deleted: false,
        };
        if text.starts_with("commit ") {
            self.git_paths = None;
            self.at = At::Commit {
                subject_seen: false,
            };
            let commit = Counts {
                commits: 1,
                ..Counts::default()
            };
            return (Kind::Name, commit);
        }
        if text.starts_with("diff ") {
            self.git_paths = text.strip_prefix("diff --git ").map(str::to_owned);
            self.at = file_header;
            return (Kind::Name, starts_file);
        }
        if let Some(old) = text.strip_prefix("--- ") {
            if !matches!(self.at, At::FileHeader { .. }) {
                self.git_paths = None;
                self.at = At::FileHeader {
                    named_by_dashes: true,
                    new_or_deleted: false,
                };
                return (Kind::Name, starts_file);
            }
            let said = self.says_path(old, |paths| {
                paths
                    .strip_prefix(old)
                    .is_some_and(|rest| rest.starts_with(' '))
            });
            return (redundant_if(said), Counts::default());
        }
        if let Some(new) = text.strip_prefix("+++ ") {
            if matches!(
                self.at,
                At::FileHeader {
                    named_by_dashes: true,
                    ..
                }
            ) {
                return (Kind::Name, Counts::default());
            }
            let said = self.says_path(new, |paths| {
                paths
                    .strip_suffix(new)
                    .is_some_and(|rest| rest.ends_with(' '))
            });
            return (redundant_if(said), Counts::default());
        }
        if let At::Commit { subject_seen } = &mut self.at {
            if !*subject_seen && text.starts_with("    ") && !text.trim().is_empty() {
                *subject_seen = true;
                return (Kind::Subject, Counts::default());
            }
            return (Kind::Message, Counts::default());
        }
        if text.starts_with("new file mode ") || text.starts_with("deleted file mode ") {
            if let At::FileHeader { new_or_deleted, .. } = &mut self.at {
                *new_or_deleted = true;
            }
            return (Kind::Note, Counts::default());
        }
        if text.starts_with("Binary files ") {
            return (Kind::Name, Counts::default());
        }
        let said_by_git_line = [
            "index ",
            "similarity index ",
            "dissimilarity index ",
            "rename from ",
            "rename to ",
            "copy from ",
            "copy to ",
        ];
        let said = matches!(self.at, At::FileHeader { .. })
            && self.git_paths.is_some()
            && said_by_git_line.iter().any(|p| text.starts_with(p));
        (redundant_if(said), Counts::default())
    }

    /// Whether a `---`/`+++` line's `path` is what the file's `diff --git` line (as `in_paths`
    /// finds it there) or its mode line already says.
    fn says_path(&self, path: &str, in_paths: impl Fn(&str) -> bool) -> bool {
        let Some(paths) = self.git_paths.as_deref() else {
            return false;
        };
        let new_or_deleted = matches!(
            self.at,
            At::FileHeader {
                new_or_deleted: true,
                ..
            }
        );
        (path == "/dev/null" && new_or_deleted) || in_paths(paths)
    }
}

fn redundant_if(said: bool) -> Kind {
    if said { Kind::Redundant } else { Kind::Note }
}
