//! Helpers shared by the unit tests of several modules: kept here, not in one module's tests,
//! so that no test file imports from another.

/// A xorshift generator: the same seed always gives the same numbers, so a test that draws
/// its cases from it is deterministic.
#[derive(Debug, Clone)]
pub struct Xorshift(pub u64);

impl Xorshift {
    /// The next number (the generator's new state). The seed must not be 0.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (which must not be 0).
    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next_u64() % n as u64).expect("below a usize")
    }
}

/// Lines of fewer than `max_words` words drawn from `words` by a xorshift generator started at
/// `seed`; with `spaced`, about one word in three has a space put before it. The same seed
/// always gives the same lines.
pub fn word_lines<'a>(
    words: &'a [&'a str],
    seed: u64,
    max_words: u64,
    spaced: bool,
) -> impl Iterator<Item = String> + 'a {
    let mut rng = Xorshift(seed);
    std::iter::from_fn(move || {
        let mut line = String::new();
        for _ in 0..(rng.0 % max_words) {
            let drawn = rng.next_u64();
            if spaced && drawn % 3 == 0 {
                line.push(' ');
            }
            line.push_str(words[usize::try_from(drawn % words.len() as u64).unwrap()]);
        }
        rng.next_u64();
        Some(line)
    })
}
