//! Numbers as markers state them, read back: what the checks compare with their own counts.

use crate::markers::thousands;

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
