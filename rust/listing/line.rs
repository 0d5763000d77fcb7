//! What a line of a listing is: a directory heading (`ls -R`'s `./src/core:`), an entry (a
//! path or a file name, bare or under `tree`'s branches), a blank line, or something else.
//! Only the first and last bytes and the absence of inner white space are looked at.

/// One line of a possible listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind<'a> {
    /// `DIR:` over the entries of `DIR` (`ls -R`).
    Heading(&'a str),
    /// A path or a name; the directory it is in, as far as the line itself says.
    Entry(&'a str),
    Blank,
    Other,
}

/// `tree`'s branch characters and the spaces between them, before a name.
const BRANCHES: &[char] = &['│', '├', '└', '─', ' ', '\u{a0}', '|', '`', '-'];

/// Bytes that start no path or name an `ls`, `find` or `tree` prints, but do start log lines,
/// diagnostics, tables and prose.
const NOT_A_NAME: &[u8] = b"[({<>=#*+!?%&;:,'\"$\\";

/// Reads `line` (without its `'\n'`).
#[must_use]
pub fn kind(line: &str) -> Kind<'_> {
    let line = line.trim_end();
    if line.is_empty() {
        return Kind::Blank;
    }
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
        || name.contains(char::is_whitespace)
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
    if name.contains(':') {
        // `path:12:` rows are search output, `key: value` lines are not paths.
        return Kind::Other;
    }
    let path = name.strip_suffix('/').unwrap_or(name);
    Kind::Entry(path.rfind('/').map_or("", |slash| &path[..slash]))
}

/// Directories whose contents an agent rarely opens first: tests and fixtures, vendored and
/// installed code, build outputs, caches, version control, generated docs.
const NOISE: &[&str] = &[
    "test",
    "tests",
    "testing",
    "__tests__",
    "spec",
    "fixtures",
    "testdata",
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

/// Whether the directory `dir` is, or is inside, one of [`NOISE`].
#[must_use]
pub fn is_noise(dir: &str) -> bool {
    dir.split('/')
        .any(|part| NOISE.iter().any(|n| n.eq_ignore_ascii_case(part)))
}

#[cfg(test)]
mod tests {
    use super::{Kind, is_noise, kind};

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
        for other in [
            "error: linker failed",
            "src/a.py:12:    import os",
            "drwxr-xr-x 2 me me 4096 Jan 1 a",
            "[INFO] Building",
            "key: value",
            "=====",
            "1234",
        ] {
            assert_eq!(kind(other), Kind::Other, "{other}");
        }
    }

    #[test]
    fn noise_directories_anywhere_in_the_path() {
        assert!(is_noise("./src/test/java/com"));
        assert!(is_noise("node_modules/lodash"));
        assert!(!is_noise("src/main/java/com/fasterxml/jackson/core"));
    }
}
