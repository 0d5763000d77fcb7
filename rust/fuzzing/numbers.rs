//! Numbers as markers state them, read back: what the checks compare with their own counts.

use crate::markers::thousands;
use crate::numbered::number as viewer_number;

/// How a marker states `tokens` estimated tokens: `1 token`, `1,250 tokens`.
pub fn token_count(tokens: u64) -> String {
    let word = if tokens == 1 { "token" } else { "tokens" };
    format!("{} {word}", thousands(tokens))
}

/// `1,234` as 1234; panics on anything else.
pub fn number(s: &str) -> u64 {
    s.replace(',', "")
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {s:?}"))
}

/// Whether a file-reading tool's `offset` reads line `a` of `text` again: `a` itself, or the
/// file's number of it as a viewer printed it, on the line, counted on from the numbered line
/// nearest above it, or, for a line above the numbered ones, on the first of them.
pub fn reads_again(text: &str, a: u64, offset: u64) -> bool {
    let lines: Vec<&str> = text.split('\n').collect();
    let at = usize::try_from(a - 1).expect("a line of the input");
    let above = lines[..=at]
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, line)| Some(viewer_number(line)?.saturating_add((at - i) as u64)));
    let below = lines[at..].iter().find_map(|line| viewer_number(line));
    offset == a || above == Some(offset) || below == Some(offset)
}

/// Whether a marker's `said` numbers name output lines `first..=last` of `text`: the output's
/// own numbers, or those a viewer printed on the two lines, climbing by one between them (a
/// numbered read's markers number its lines as its viewer did).
pub fn names(text: &str, first: u64, last: u64, said: (u64, u64)) -> bool {
    said == (first, last) || printed_on(text, first, last) == Some(said)
}

/// The numbers a viewer printed on lines `first` and `last` of `text`, where both carry one,
/// as far apart as the lines are.
pub fn printed_on(text: &str, first: u64, last: u64) -> Option<(u64, u64)> {
    let line = |no: u64| {
        text.split('\n')
            .nth(usize::try_from(no.checked_sub(1)?).ok()?)
    };
    let (a, b) = (viewer_number(line(first)?)?, viewer_number(line(last)?)?);
    (b.checked_sub(a) == Some(last - first)).then_some((a, b))
}
