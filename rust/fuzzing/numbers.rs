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
