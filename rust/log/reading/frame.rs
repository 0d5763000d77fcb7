//! What CI systems put in front of a program's lines, so that a line is judged by what the
//! program printed.
//!
//! GitHub Actions stamps every line with an ISO time (`2026-11-23T10:15:30.1234567Z `) and
//! marks annotations with `##[error]` or `##[group]`; Travis and many runners print a clock
//! (`[00:55:26] `); Docker `BuildKit` puts a step number and seconds (`#12 3.456 `); Jenkins
//! prefixes its steps with `[Pipeline] `. With such a prefix in front, `E   assert` no longer
//! starts its line and a Java frame is no longer indented, so the classifier and the trace
//! rules look through the prefix. The shown line keeps it: it says when and where.

/// Bytes of `line` that CI framing takes before the program's own text: a chain of at most a
/// few prefixes, each of a known form. 0 when the line has none.
#[must_use]
#[inline]
pub fn prefix_len(line: &str) -> usize {
    // Most lines are ruled out by their first byte, here, where the call is inlined: every
    // line of a trace is read through this.
    if line.as_bytes().first().is_some_and(|&b| opens(b)) {
        chain_len(line)
    } else {
        0
    }
}

/// Whether a prefix may start with `byte`: every one starts with a digit (a date), `[` (a
/// clock, Jenkins) or `#` (`BuildKit`, an annotation).
fn opens(byte: u8) -> bool {
    byte.is_ascii_digit() || matches!(byte, b'[' | b'#')
}

/// [`prefix_len`] of a line whose first byte may open a prefix.
fn chain_len(line: &str) -> usize {
    let bytes = line.as_bytes();
    let mut at = 0;
    for _ in 0..3 {
        let rest = &bytes[at..];
        if !rest.first().is_some_and(|&b| opens(b)) {
            break;
        }
        let Some(len) = iso_time(rest)
            .or_else(|| clock(rest))
            .or_else(|| buildkit(rest))
            .or_else(|| annotation(rest))
            .or_else(|| rest.starts_with(b"[Pipeline] ").then_some(11))
        else {
            break;
        };
        at += len;
    }
    at
}

/// Whether the prefix of `len` bytes lets rules about how a line starts apply after it. The
/// prefilter finds such lines by literals that include the prefix's last bytes (`Z ok`,
/// `] ok`), so only prefixes that end so qualify.
#[must_use]
pub fn starts_after(line: &str, len: usize) -> bool {
    len >= 2 && matches!(&line.as_bytes()[len - 2..len], b"Z " | b"] ")
}

/// `2026-11-23T10:15:30Z `, with any fraction of a second, `T` or a space between date and
/// time, and `Z` or nothing after it.
fn iso_time(b: &[u8]) -> Option<usize> {
    let digits = |from: usize, n: usize| {
        b.get(from..from + n)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    let shape = digits(0, 4)
        && b.get(4) == Some(&b'-')
        && digits(5, 2)
        && b.get(7) == Some(&b'-')
        && digits(8, 2)
        && matches!(b.get(10), Some(b'T' | b' '))
        && digits(11, 2)
        && b.get(13) == Some(&b':')
        && digits(14, 2)
        && b.get(16) == Some(&b':')
        && digits(17, 2);
    if !shape {
        return None;
    }
    let mut at = 19;
    if matches!(b.get(at), Some(b'.' | b',')) {
        at += 1;
        at += b[at..].iter().take_while(|c| c.is_ascii_digit()).count();
    }
    if b.get(at) == Some(&b'Z') {
        at += 1;
    }
    (b.get(at) == Some(&b' ')).then_some(at + 1)
}

/// `[00:55:26] ` or `[00:55:26.123] `.
fn clock(b: &[u8]) -> Option<usize> {
    let two = |from: usize| {
        b.get(from..from + 2)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    if !(b.first() == Some(&b'[')
        && two(1)
        && b.get(3) == Some(&b':')
        && two(4)
        && b.get(6) == Some(&b':')
        && two(7))
    {
        return None;
    }
    let mut at = 9;
    if b.get(at) == Some(&b'.') {
        at += 1;
        at += b[at..].iter().take_while(|c| c.is_ascii_digit()).count();
    }
    (b.get(at..at + 2) == Some(b"] ")).then_some(at + 2)
}

/// `BuildKit`'s `#12 ` step number, with the `3.456 ` seconds that its output lines carry.
fn buildkit(b: &[u8]) -> Option<usize> {
    if b.first() != Some(&b'#') {
        return None;
    }
    let n = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    if n == 0 || b.get(1 + n) != Some(&b' ') {
        return None;
    }
    let at = 2 + n;
    let whole = b[at..].iter().take_while(|c| c.is_ascii_digit()).count();
    if whole > 0 && b.get(at + whole) == Some(&b'.') {
        let frac = b[at + whole + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if frac > 0 && b.get(at + whole + 1 + frac) == Some(&b' ') {
            return Some(at + whole + frac + 2);
        }
    }
    Some(at)
}

/// GitHub Actions' `##[group]`, `##[error]`, `##[warning]` and the like.
fn annotation(b: &[u8]) -> Option<usize> {
    let rest = b.strip_prefix(b"##[")?;
    let word = rest.iter().take_while(|c| c.is_ascii_lowercase()).count();
    (word > 0 && rest.get(word) == Some(&b']')).then_some(3 + word + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_of_the_usual_ci_systems() {
        for (line, body) in [
            (
                "2026-11-23T10:15:30.1234567Z ok  \tpkg\t0.1s",
                "ok  \tpkg\t0.1s",
            ),
            (
                "2026-11-23T10:15:30Z ##[error]Process completed",
                "Process completed",
            ),
            ("2026-11-23 10:15:30,123 ERROR boom", "ERROR boom"),
            ("[00:55:26] E   assert 1 == 2", "E   assert 1 == 2"),
            (
                "[00:55:26.120] \tat a.B.c(B.java:3)",
                "\tat a.B.c(B.java:3)",
            ),
            ("#12 3.456 npm ERR! code 1", "npm ERR! code 1"),
            (
                "#12 ERROR: process did not complete",
                "ERROR: process did not complete",
            ),
            ("##[group]Run make test", "Run make test"),
            ("[Pipeline] sh", "sh"),
            ("plain line", "plain line"),
            ("#include <stdio.h>", "#include <stdio.h>"),
            ("[12:00] not a clock", "[12:00] not a clock"),
            ("2026-11-23T10:15:30.123Z", "2026-11-23T10:15:30.123Z"),
        ] {
            assert_eq!(&line[prefix_len(line)..], body, "{line:?}");
        }
    }

    #[test]
    fn start_rules_only_after_prefixes_the_prefilter_sees() {
        let gha = "2026-11-23T10:15:30Z ok";
        assert!(starts_after(gha, prefix_len(gha)));
        let clock = "[00:55:26] ok";
        assert!(starts_after(clock, prefix_len(clock)));
        let kit = "#3 0.5 ok";
        assert!(!starts_after(kit, prefix_len(kit)));
        assert!(!starts_after("ok", 0));
    }
}
