//! Helpers shared by the unit tests of several modules: kept here, not in one module's tests,
//! so that no test file imports from another.

/// Lines of fewer than `max_words` words drawn from `words` by a xorshift generator started at
/// `seed`; with `spaced`, about one word in three has a space put before it. The same seed
/// always gives the same lines.
pub fn word_lines<'a>(
    words: &'a [&'a str],
    seed: u64,
    max_words: u64,
    spaced: bool,
) -> impl Iterator<Item = String> + 'a {
    let step = |state: &mut u64| {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
    };
    let mut state = seed;
    std::iter::from_fn(move || {
        let mut line = String::new();
        for _ in 0..(state % max_words) {
            step(&mut state);
            if spaced && state % 3 == 0 {
                line.push(' ');
            }
            line.push_str(words[usize::try_from(state % words.len() as u64).unwrap()]);
        }
        step(&mut state);
        Some(line)
    })
}
