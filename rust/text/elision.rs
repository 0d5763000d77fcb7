//! An earlier cut's note: the line a harness printed where it already
//! left part of an output out, such as `52440 characters elided`, `…1200 tokens truncated…`,
//! or `[... omitted 80 of 900 lines ...]`.
//!
//! An output with such a note is two windows of what the tool printed: its beginning and its
//! end. Agent harnesses cut that way (an equal head and tail around the note), so a plan that
//! treats the part after the note as a short tail throws away half of what the harness chose
//! to keep.

/// A longer line is prose or data that mentions a cut, not a cut's note.
const MAX_NOTE_BYTES: usize = 160;

/// Units a note counts what it left out in.
const UNITS: [&str; 6] = ["characters", "chars", "lines", "tokens", "bytes", "words"];

/// Words that say the counted text was left out.
const VERBS: [&str; 7] = [
    "elided",
    "truncated",
    "omitted",
    "removed",
    "clipped",
    "skipped",
    "hidden",
];

/// Whether `line` is an earlier cut's note: a short line with no code's punctuation that
/// counts some unit (a number at most two words before it, as in `80 of 900 lines`) and says
/// it was left out.
#[must_use]
pub fn is_note(line: &str) -> bool {
    if line.len() > MAX_NOTE_BYTES
        || !line.bytes().any(|b| b.is_ascii_digit())
        || line
            .bytes()
            .any(|b| matches!(b, b'=' | b'(' | b'"' | b'\'' | b';' | b'{' | b'`' | b'/'))
    {
        return false;
    }
    // Words since the last number, while at most two: a unit then is counted.
    let mut since_number = None;
    let (mut counted, mut said) = (false, false);
    for word in line
        .split(|c: char| !c.is_ascii_alphanumeric() && c != ',')
        .map(|w| w.trim_matches(','))
        .filter(|w| !w.is_empty())
    {
        if word.bytes().all(|b| b.is_ascii_digit() || b == b',') {
            since_number = Some(0);
            continue;
        }
        counted |= since_number.is_some() && UNITS.iter().any(|u| word.eq_ignore_ascii_case(u));
        said |= VERBS.iter().any(|v| word.eq_ignore_ascii_case(v));
        since_number = since_number.map(|n: u8| n + 1).filter(|&n| n < 3);
    }
    counted && said
}

#[cfg(test)]
mod tests {
    use super::is_note;

    #[test]
    fn harnesses_notes_are_notes() {
        for note in [
            "52440 characters elided",
            "…1200 tokens truncated…",
            "[... omitted 80 of 900 lines ...]",
            "... [1,204 lines truncated] ...",
            "[WARNING: Tool output was truncated. 5012 characters were removed from the middle]",
        ] {
            assert!(is_note(note), "{note}");
        }
    }

    #[test]
    fn code_and_prose_that_mention_a_cut_are_not() {
        for line in [
            "    print(f\"{n} lines omitted\")",
            "lines = text.split('\\n')  # 3 lines truncated",
            "(546 more lines above)",
            "Removed 3 files",
            "error: 2 lines",
            "The 12 lines below were reviewed and nothing was truncated, which the team confirmed \
             after reading them all again twice more, so the test stays as it is for the release.",
        ] {
            assert!(!is_note(line), "{line}");
        }
    }
}
