//! JSON written by a fuzzer's program: documents or JSON Lines, pretty or minified, with keys
//! and strings drawn from a vocabulary of the awkward (escapes, wide and combining characters,
//! quotes in keys, look-alike markers), and record arrays of up to thousands of objects made
//! from one template with a seeded generator, so that a few bytes make a large input with a few
//! records that differ. Now and then a byte is spoiled, so that what is almost JSON is tried.

use std::fmt::Write as _;

use super::program::Choices;

const KEYS: &[&str] = &[
    "id",
    "name",
    "state",
    "error",
    "items",
    "a b",
    "\u{e9}t\u{e9}",
    "x\\\"y",
    "[shapeclip: lines 1-2 omitted]",
    "k\\u0041",
];

const FRAGMENTS: &[&str] = &[
    "ok",
    " ",
    "\\n",
    "\\\"",
    "\\\\",
    "\\u00e9",
    "\\ud83d\\ude00",
    "\u{e9}",
    "\u{6f22}",
    "\u{1f600}",
    "e\u{301}",
    "[lines 3-5 omitted]",
    "/path/to/file.rs",
    "\u{2026}",
];

const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1.50",
    "1e9",
    "-2.5E-3",
    "123456789012345678901234567890",
    "0.1000000000000000055511151231257827",
];

/// Bytes written at most.
const MAX_BYTES: usize = 256 << 10;

struct Writer<'c, 'a> {
    choices: &'c mut Choices<'a>,
    out: String,
    pretty: bool,
}

impl Writer<'_, '_> {
    fn pick<'w>(&mut self, words: &[&'w str]) -> &'w str {
        words[usize::from(self.choices.byte()) % words.len()]
    }

    fn newline(&mut self, depth: usize) {
        if self.pretty {
            self.out.push('\n');
            self.out.push_str(&"  ".repeat(depth));
        }
    }

    fn string(&mut self) {
        self.out.push('"');
        let n = self.choices.byte() % 8;
        for _ in 0..n {
            let fragment = self.pick(FRAGMENTS);
            self.out.push_str(fragment);
        }
        if self.choices.byte() % 16 == 0 {
            self.out
                .push_str(&"long ".repeat(usize::from(self.choices.byte()) * 4));
        }
        self.out.push('"');
    }

    fn value(&mut self, depth: usize, container: bool) {
        if depth > 8 || self.out.len() > MAX_BYTES {
            self.out.push_str(if container { "[]" } else { "null" });
            return;
        }
        match self.choices.byte() % if container { 3 } else { 8 } {
            0 => self.container(depth, true),
            1 => self.container(depth, false),
            2 => self.records(depth),
            3 | 4 => self.string(),
            5 => {
                let number = self.pick(NUMBERS);
                self.out.push_str(number);
            }
            6 => {
                let literal = self.pick(&["true", "false", "null"]);
                self.out.push_str(literal);
            }
            _ => self.out.push_str("[]"),
        }
    }

    /// An object (a key before each value) or an array of up to five values.
    fn container(&mut self, depth: usize, object: bool) {
        self.out.push(if object { '{' } else { '[' });
        let n = self.choices.byte() % 6;
        for i in 0..n {
            if i > 0 {
                self.out.push(',');
            }
            self.newline(depth + 1);
            if object {
                let key = self.pick(KEYS);
                let _ = write!(self.out, "\"{key}\":");
                if self.pretty {
                    self.out.push(' ');
                }
            }
            self.value(depth + 1, false);
        }
        self.newline(depth);
        self.out.push(if object { '}' } else { ']' });
    }

    /// An array of objects made from one template: an id, a state that is rarely unusual, and
    /// one more value that is the same in every record.
    fn records(&mut self, depth: usize) {
        let n = usize::from(self.choices.u16() % 3000);
        let seed = u64::from(self.choices.u16()) | 1 << 40;
        let start = self.out.len();
        self.value(depth + 2, false);
        let template = self.out.split_off(start);
        let mut state = seed;
        self.out.push('[');
        for i in 0..n {
            if i > 0 {
                self.out.push(',');
            }
            self.newline(depth + 1);
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let state = match state % 50 {
                0 => "\"failed\"",
                1 => "null",
                _ => "\"running\"",
            };
            let _ = write!(
                self.out,
                "{{\"id\":{i},\"state\":{state},\"v\":{template}}}"
            );
            if self.out.len() > MAX_BYTES {
                break;
            }
        }
        self.newline(depth);
        self.out.push(']');
    }
}

/// A JSON input written by the program in `choices`, and whether it was spoiled (one byte
/// replaced, now and then).
pub fn write(choices: &mut Choices<'_>) -> (Vec<u8>, bool) {
    let shape = choices.byte();
    let mut writer = Writer {
        choices,
        out: String::new(),
        pretty: shape & 1 == 0,
    };
    let docs = if shape & 6 == 0 { 1 + shape / 8 } else { 1 };
    for _ in 0..docs {
        writer.value(0, true);
        writer.out.push('\n');
    }
    let spoil = writer.choices.byte();
    let mut out = writer.out.into_bytes();
    let spoiled = spoil % 16 == 0;
    if spoiled {
        let at = usize::from(writer.choices.u16()) % out.len();
        out[at] = writer.choices.byte();
    }
    (out, spoiled)
}
