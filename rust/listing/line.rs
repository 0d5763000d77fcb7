//! What a line of a listing is: a directory heading (`ls -R`'s `./src/core:`), an entry (a
//! path or a file name, bare or under `tree`'s branches), a row a search tool summarised (a
//! path and its count of matches), a blank line, or something else. Only the first and last
//! bytes, a row's count and the absence of inner white space are looked at.

/// One line of a possible listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind<'a> {
    /// `DIR:` over the entries of `DIR` (`ls -R`).
    Heading(&'a str),
    /// A path or a name; the directory it is in, as far as the line itself says.
    Entry(&'a str),
    /// `PATH (N matches)`, a search tool's row for a file (SWE-agent's `search_dir` prints
    /// them): the directory, as for an entry, and the file's count of matches.
    Counted(&'a str, u64),
    Blank,
    Other,
}

use crate::text::has_space;

/// `tree`'s branch characters and the spaces between them, before a name.
const BRANCHES: &[char] = &['│', '├', '└', '─', ' ', '\u{a0}', '|', '`', '-'];

/// Bytes that start no path or name an `ls`, `find` or `tree` prints, but do start log lines,
/// diagnostics, tables and prose.
const NOT_A_NAME: &[u8] = b"[({<>=#*+!?%&;:,'\"$\\";

/// The titles of `git status`'s sections, each over its files.
const GIT_SECTIONS: &[&str] = &[
    "Changes to be committed:",
    "Changes not staged for commit:",
    "Unmerged paths:",
    "Untracked files:",
    "Ignored files:",
];

/// The states `git status` prints before a tracked file's path, and its colon.
const GIT_STATES: &[&str] = &[
    "modified:",
    "deleted:",
    "new file:",
    "renamed:",
    "copied:",
    "typechange:",
    "both modified:",
    "both added:",
    "both deleted:",
    "added by us:",
    "added by them:",
    "deleted by us:",
    "deleted by them:",
];

/// A line of `git status` in its long form (no white space at its end): a section's title heads its files, each a tab and
/// a path, after its state for a tracked one (`\tmodified:   src/a.rs`, `\trenamed:   a ->
/// b`); the hints under a title (`  (use "git add <file>..." to ...)`) say nothing of the files.
fn git_status(line: &str) -> Option<Kind<'_>> {
    if GIT_SECTIONS.contains(&line) {
        return Some(Kind::Heading(line.strip_suffix(':')?));
    }
    if line.starts_with("  (use \"git ") && line.ends_with(')') {
        return Some(Kind::Blank);
    }
    let file = line.strip_prefix('\t')?;
    let path = GIT_STATES
        .iter()
        .find_map(|state| file.strip_prefix(state))
        .map_or(file, str::trim_start);
    let path = path.rsplit_once(" -> ").map_or(path, |(_, new)| new);
    match named(path) {
        Kind::Entry(dir) => Some(Kind::Entry(dir)),
        _ => None,
    }
}

/// Reads `line` (without its `'\n'`).
#[must_use]
pub fn kind(line: &str) -> Kind<'_> {
    let line = line.trim_end();
    if line.is_empty() {
        return Kind::Blank;
    }
    if let Some(kind) = git_status(line) {
        return kind;
    }
    if let Some((path, matches)) = counted(line) {
        return match named(path.trim_end()) {
            Kind::Entry(dir) if !path.starts_with(BRANCHES) => Kind::Counted(dir, matches),
            _ => Kind::Other,
        };
    }
    named(line)
}

/// Reads `line` (no white space at its end) as a heading, an entry or something else. It calls
/// nothing that reads a line whole, so that a line nested in another form is read in one step,
/// never by recursion: a line can be megabytes long.
fn named(line: &str) -> Kind<'_> {
    let tree = line.trim_start_matches(BRANCHES);
    // `tree` draws branches before names; a name may start with `-` only without them.
    let name = if tree.len() < line.len() && line.starts_with(['│', '├', '└', '|', '`', ' '])
    {
        tree
    } else {
        line
    };
    if name.is_empty()
        || name.len() > 400
        || has_space(name)
        || NOT_A_NAME.contains(&name.as_bytes()[0])
        || !name.bytes().any(|b| b.is_ascii_alphabetic())
    {
        return Kind::Other;
    }
    if let Some(dir) = name.strip_suffix(':') {
        return if dir.is_empty() || dir.contains(':') {
            Kind::Other
        } else {
            Kind::Heading(dir)
        };
    }
    // The memchr crate's searches: on a flood of long names, the standard library's
    // searches for one character cost as much as the rest of the line's reading.
    if memchr::memchr(b':', name.as_bytes()).is_some() {
        // `path:12:` rows are search output, `key: value` lines are not paths.
        return Kind::Other;
    }
    let path = name.strip_suffix('/').unwrap_or(name);
    Kind::Entry(memchr::memrchr(b'/', path.as_bytes()).map_or("", |slash| &path[..slash]))
}

/// `PATH (N matches)` (or `(1 match)`): the path and the count.
fn counted(line: &str) -> Option<(&str, u64)> {
    let rest = line
        .strip_suffix(" matches)")
        .or_else(|| line.strip_suffix(" match)"))?;
    let (path, digits) = rest.rsplit_once(" (")?;
    if digits.is_empty() || digits.len() > 12 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((path, digits.parse().ok()?))
}

/// Directories of tests and their data: an agent rarely opens them first from a listing, but a
/// search that finds a name in them shows how it is used.
const TESTS: &[&str] = &[
    "test",
    "tests",
    "testing",
    "__tests__",
    "spec",
    "fixtures",
    "testdata",
];

/// Directories that do not hold the project's own code: vendored and installed code, build
/// outputs, caches, version control, documentation (often generated, as javadoc is, one copy
/// per release).
const NOT_OWN_CODE: &[&str] = &[
    "vendor",
    "third_party",
    "node_modules",
    "site-packages",
    ".git",
    ".hg",
    ".svn",
    "build",
    "target",
    "dist",
    "out",
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    ".cache",
    "coverage",
    "javadoc",
    "docs",
    "doc",
];

/// The length of the longest directory path that all of `dirs` are, or are inside.
#[must_use]
pub fn shared_dir<'a>(mut dirs: impl Iterator<Item = &'a str>) -> usize {
    let Some(first) = dirs.next() else { return 0 };
    let mut shared = first.len();
    for dir in dirs {
        shared = shared.min(common_dir(&first.as_bytes()[..shared], dir.as_bytes()));
    }
    shared
}

/// The length of the longest directory path that `a` and `b` both are, or are inside: `src`
/// of `src/test` and `src/tests`, not `src/test`.
fn common_dir(a: &[u8], b: &[u8]) -> usize {
    let same = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let ends = |s: &[u8]| s.len() == same || s[same] == b'/';
    if ends(a) && ends(b) {
        same
    } else {
        a[..same].iter().rposition(|&c| c == b'/').unwrap_or(0)
    }
}

/// Whether the directory `dir` is, or is inside, one of `names`.
fn is_in(dir: &str, names: &[&str]) -> bool {
    dir.split('/')
        .any(|part| names.iter().any(|n| n.eq_ignore_ascii_case(part)))
}

/// Whether an agent rarely opens the contents of directory `dir` first: it is, or is inside,
/// a directory of tests or one that does not hold the project's own code.
#[must_use]
pub fn is_noise(dir: &str) -> bool {
    is_in(dir, TESTS) || is_in(dir, NOT_OWN_CODE)
}

/// Whether directory `dir` is, or is inside, one that does not hold the project's own code.
#[must_use]
pub fn is_not_own_code(dir: &str) -> bool {
    is_in(dir, NOT_OWN_CODE)
}

#[cfg(test)]
mod tests {
    use super::{Kind, is_noise, is_not_own_code, kind, shared_dir};

    #[test]
    fn headings_entries_and_the_rest() {
        assert_eq!(
            kind("./src/main/java/core:"),
            Kind::Heading("./src/main/java/core")
        );
        assert_eq!(kind("src/main/java/Foo.java"), Kind::Entry("src/main/java"));
        assert_eq!(kind("README.md"), Kind::Entry(""));
        assert_eq!(kind("astropy/units/"), Kind::Entry("astropy"));
        assert_eq!(kind("│   ├── mod.rs"), Kind::Entry(""));
        assert_eq!(kind("   "), Kind::Blank);
        assert_eq!(
            kind("/repo/src/main/java/Foo.java (14 matches)"),
            Kind::Counted("/repo/src/main/java", 14)
        );
        assert_eq!(kind("setup.py (1 match)"), Kind::Counted("", 1));
        for other in [
            "error: linker failed",
            "src/a.py:12:    import os",
            "drwxr-xr-x 2 me me 4096 Jan 1 a",
            "[INFO] Building",
            "key: value",
            "=====",
            "1234",
            "a sentence (3 matches)",
            "Found 78 matches for \"x\" in /repo:",
            "src/a.py (many matches)",
            "src/a.py ( matches)",
            "│   ├── a.py (2 matches)",
        ] {
            assert_eq!(kind(other), Kind::Other, "{other}");
        }
    }

    #[test]
    fn git_status_lines() {
        assert_eq!(
            kind("Changes not staged for commit:"),
            Kind::Heading("Changes not staged for commit")
        );
        assert_eq!(kind("\tmodified:   src/a.rs"), Kind::Entry("src"));
        assert_eq!(kind("\tnew file:   README.md"), Kind::Entry(""));
        assert_eq!(
            kind("\trenamed:    old/a.py -> new/b.py"),
            Kind::Entry("new")
        );
        assert_eq!(kind("\tbuild/"), Kind::Entry(""));
        assert_eq!(
            kind("  (use \"git add <file>...\" to update what will be committed)"),
            Kind::Blank
        );
        for other in [
            "\tgcc -o main main.c",
            "\tmodified:   a file with spaces.txt",
        ] {
            assert_eq!(kind(other), Kind::Other, "{other}");
        }
    }

    #[test]
    fn a_line_of_nested_forms_is_read_in_one_step() {
        // A line is read without recursion: a megabyte of tabs, or of count suffixes, once
        // overflowed a thread's stack.
        let tabs = format!("{}a.rs", "\t".repeat(1 << 20));
        assert_eq!(kind(&tabs), Kind::Other);
        let counts = format!("a.rs{}", " (1 match)".repeat(1 << 17));
        assert_eq!(kind(&counts), Kind::Other);
        assert_eq!(kind("\t\ta.rs"), Kind::Other);
        assert_eq!(kind("a.rs (1 match) (2 matches)"), Kind::Other);
    }

    #[test]
    fn noise_directories_anywhere_in_the_path() {
        assert!(is_noise("./src/test/java/com"));
        assert!(is_noise("node_modules/lodash"));
        assert!(!is_noise("src/main/java/com/fasterxml/jackson/core"));
    }

    #[test]
    fn the_shared_directory_is_whole_directories() {
        let shared = |dirs: &[&str]| shared_dir(dirs.iter().copied());
        assert_eq!(shared(&[".", "./ci", "./doc/_static"]), 1);
        assert_eq!(shared(&["src/test", "src/tests"]), 3);
        assert_eq!(shared(&["src/test/a", "src/test/b"]), 8);
        assert_eq!(shared(&["src/test", "src/test/unit"]), 8);
        assert_eq!(shared(&["a", "b"]), 0);
        assert_eq!(shared(&["é/x", "è/x"]), 0);
        assert_eq!(shared(&[]), 0);
    }

    #[test]
    fn tests_are_the_projects_own_code_docs_and_builds_are_not() {
        assert!(!is_not_own_code("/repo/src/test/java/com"));
        assert!(is_not_own_code("/repo/docs/javadoc/2.10/com"));
        assert!(is_not_own_code("web/node_modules/lodash"));
        assert!(!is_not_own_code("src/main/java"));
    }
}
