//! A streaming JSON scanner: the input's text in blocks of any size, in order, turned into
//! events (a container opens or closes, a key, a string's text in parts, a number or literal),
//! each with its line number, and a verdict the moment the text stops being JSON.
//!
//! The scanner is the planner's evidence: an output is JSON only when all of it scans as one
//! document or as a stream of them, one per line or more (JSON Lines, `jq`'s output), each an
//! object or an array. It is strict where a loose reading would take prose for JSON: a string
//! holds no raw control character (so no line break), numbers follow the grammar, and nothing
//! but whitespace stands between tokens. Most outputs that are not JSON fail at their first
//! character, and from then on cost nothing. It reads `block.text` as one stream of bytes,
//! since tokens do not care where lines end: a string may span the pieces a long line arrives
//! in, and line numbers are counted here, at the only place a JSON `'\n'` can be (whitespace).
//!
//! State is the open containers (at most [`MAX_DEPTH`]), the key being read (at most
//! [`MAX_TOKEN`] bytes) and the number or literal being read (as long): bounded, whatever the
//! input.

/// Containers open at once, at most: deeper documents are declined.
pub const MAX_DEPTH: usize = 64;
/// Bytes of a key or a number, at most: longer ones are declined (no real output has them).
pub const MAX_TOKEN: usize = 1024;

/// What the scanner reports, in input order.
pub trait Events {
    /// A container opens on `line`: an array (`[`) or an object (`{`).
    fn open(&mut self, array: bool, line: u64);
    /// The innermost open container closes on `line`.
    fn close(&mut self, line: u64);
    /// An object's key: its text between the quotes, escapes as written.
    fn key(&mut self, key: &str, line: u64);
    /// A string value starts on `line`; its text between the quotes, escapes as written,
    /// follows in one or more [`Events::string_part`]s, then [`Events::string_end`].
    fn string_start(&mut self, line: u64);
    fn string_part(&mut self, part: &str);
    fn string_end(&mut self);
    /// A number, `true`, `false` or `null`, as written, on `line`.
    fn atom(&mut self, text: &str, line: u64);
    /// Whitespace between tokens, starting on `line`, between top-level values when `top`;
    /// a run the input splits is reported in parts.
    fn blank(&mut self, run: &str, line: u64, top: bool);
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Between top-level values: before the first, or after one (`newline`: a line ended since).
    Top { newline: bool },
    /// After `:` or an array's `,`: a value must come.
    Value,
    /// After `[`: a value or `]`.
    FirstItem,
    /// After `{`: a key or `}`.
    FirstKey,
    /// After an object's `,`: a key.
    Key,
    /// After a key: `:`.
    Colon,
    /// After a value inside a container: `,` or its closer.
    After,
    /// Inside a string; `escape` counts the characters of an escape sequence still to come.
    Str { key: bool, escape: u8 },
    /// Inside a number, held in `token`.
    Number,
    /// Inside `true`, `false` or `null`: `matched` bytes of `word` seen.
    Literal { word: &'static [u8], matched: u8 },
}

/// The scanner, fed block after block; `failed` once the input is not JSON.
#[derive(Debug)]
pub struct Scanner {
    state: State,
    /// Open containers, innermost last: `true` for an array.
    stack: Vec<bool>,
    /// The key or number being read.
    token: String,
    line: u64,
    docs: u64,
    failed: bool,
}

impl Default for Scanner {
    fn default() -> Self {
        Scanner {
            state: State::Top { newline: false },
            stack: Vec::new(),
            token: String::new(),
            line: 1,
            docs: 0,
            failed: false,
        }
    }
}

/// JSON's whitespace.
fn blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

impl Scanner {
    #[must_use]
    pub fn failed(&self) -> bool {
        self.failed
    }

    /// Whether the input read so far ends where a JSON input may end: after a whole value.
    #[must_use]
    pub fn complete(&self) -> bool {
        !self.failed && self.docs > 0 && matches!(self.state, State::Top { .. })
    }

    /// Reads the next part of the input; stops for good at the first byte that is not JSON.
    pub fn feed(&mut self, text: &str, events: &mut impl Events) {
        if self.failed || self.scan(text, events).is_none() {
            self.failed = true;
        }
    }

    /// `None` where the text stops being JSON.
    fn scan(&mut self, text: &str, events: &mut impl Events) -> Option<()> {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            match self.state {
                State::Str { key, escape } => {
                    i = self.string(text, i, key, escape, events)?;
                    continue;
                }
                State::Number => {
                    let run = bytes[i..]
                        .iter()
                        .take_while(|b| matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                        .count();
                    if run > 0 {
                        self.push_token(&text[i..i + run])?;
                        i += run;
                        continue;
                    }
                    if !number(self.token.as_bytes()) {
                        return None;
                    }
                    events.atom(&self.token, self.line);
                    self.token.clear();
                    self.ended_value();
                    // The byte after the number is read in the state that follows it.
                    continue;
                }
                State::Literal { word, matched } => {
                    if word.get(usize::from(matched)) != Some(&b) {
                        return None;
                    }
                    let matched = matched + 1;
                    if usize::from(matched) == word.len() {
                        let text = std::str::from_utf8(word).expect("ASCII words");
                        events.atom(text, self.line);
                        self.ended_value();
                    } else {
                        self.state = State::Literal { word, matched };
                    }
                    i += 1;
                    continue;
                }
                _ => {}
            }
            if blank(b) {
                let run = bytes[i..].iter().take_while(|&&b| blank(b)).count();
                let newlines = crate::text::count_newlines(&bytes[i..i + run]);
                let top = matches!(self.state, State::Top { .. });
                events.blank(&text[i..i + run], self.line, top);
                self.line += newlines;
                if top && newlines > 0 {
                    self.state = State::Top { newline: true };
                }
                i += run;
                continue;
            }
            self.token_at(b, events)?;
            i += 1;
        }
        Some(())
    }

    /// Reads the byte `b` that starts a token, outside strings, numbers and literals.
    fn token_at(&mut self, b: u8, events: &mut impl Events) -> Option<()> {
        match (self.state, b) {
            (State::Top { newline }, b'{' | b'[') if self.docs == 0 || newline => {
                self.open(b == b'[', events)
            }
            (State::FirstItem, b']') | (State::FirstKey | State::After, b'}' | b']') => {
                self.close(b == b']', events)
            }
            (State::FirstKey | State::Key, b'"') => {
                self.state = State::Str {
                    key: true,
                    escape: 0,
                };
                Some(())
            }
            (State::Colon, b':') => {
                self.state = State::Value;
                Some(())
            }
            (State::After, b',') => {
                self.state = if *self.stack.last()? {
                    State::Value
                } else {
                    State::Key
                };
                Some(())
            }
            (State::Value | State::FirstItem, _) => self.value_at(b, events),
            _ => None,
        }
    }

    /// Reads the byte `b` that starts a value inside a container.
    fn value_at(&mut self, b: u8, events: &mut impl Events) -> Option<()> {
        match b {
            b'{' | b'[' => self.open(b == b'[', events),
            b'"' => {
                events.string_start(self.line);
                self.state = State::Str {
                    key: false,
                    escape: 0,
                };
                Some(())
            }
            b'-' | b'0'..=b'9' => {
                self.state = State::Number;
                self.token.clear();
                self.token.push(char::from(b));
                Some(())
            }
            b't' | b'f' | b'n' => {
                let word: &'static [u8] = match b {
                    b't' => b"true",
                    b'f' => b"false",
                    _ => b"null",
                };
                self.state = State::Literal { word, matched: 1 };
                Some(())
            }
            _ => None,
        }
    }

    fn open(&mut self, array: bool, events: &mut impl Events) -> Option<()> {
        if self.stack.len() == MAX_DEPTH {
            return None;
        }
        self.stack.push(array);
        events.open(array, self.line);
        self.state = if array {
            State::FirstItem
        } else {
            State::FirstKey
        };
        Some(())
    }

    fn close(&mut self, array: bool, events: &mut impl Events) -> Option<()> {
        if self.stack.pop()? != array {
            return None;
        }
        events.close(self.line);
        self.ended_value();
        Some(())
    }

    /// The state after a whole value: inside its container, or between top-level values.
    fn ended_value(&mut self) {
        self.state = if self.stack.is_empty() {
            self.docs += 1;
            State::Top { newline: false }
        } else {
            State::After
        };
    }

    fn push_token(&mut self, part: &str) -> Option<()> {
        if self.token.len() + part.len() > MAX_TOKEN {
            return None;
        }
        self.token.push_str(part);
        Some(())
    }

    /// Reads a string's text from byte `i` to its closing quote or the end of `text`,
    /// returning where to go on; `escape` characters of an escape sequence were still due.
    fn string(
        &mut self,
        text: &str,
        start: usize,
        key: bool,
        mut escape: u8,
        events: &mut impl Events,
    ) -> Option<usize> {
        let bytes = text.as_bytes();
        let mut i = start;
        let end = loop {
            if escape > 0 {
                let Some(&b) = bytes.get(i) else { break None };
                let ok = if escape == 5 {
                    // The character after the backslash.
                    match b {
                        b'u' => {
                            escape = 5;
                            true
                        }
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                            escape = 1;
                            true
                        }
                        _ => false,
                    }
                } else {
                    b.is_ascii_hexdigit()
                };
                if !ok {
                    return None;
                }
                escape -= 1;
                i += 1;
                continue;
            }
            // Plain text up to the next quote or backslash; no control character inside.
            let rest = &bytes[i..];
            let Some(at) = memchr::memchr2(b'"', b'\\', rest) else {
                if rest.iter().any(|&b| b < 0x20) {
                    return None;
                }
                break None;
            };
            if rest[..at].iter().any(|&b| b < 0x20) {
                return None;
            }
            i += at;
            if bytes[i] == b'"' {
                break Some(i);
            }
            // A backslash: the next character says which escape.
            escape = 5;
            i += 1;
        };
        let stop = end.unwrap_or(bytes.len());
        let part = &text[start..stop];
        if key {
            self.push_token(part)?;
        } else if !part.is_empty() {
            events.string_part(part);
        }
        let Some(quote) = end else {
            self.state = State::Str { key, escape };
            return Some(bytes.len());
        };
        if key {
            events.key(&self.token, self.line);
            self.token.clear();
            self.state = State::Colon;
        } else {
            events.string_end();
            self.ended_value();
        }
        Some(quote + 1)
    }
}

/// Whether `text` is a JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
fn number(text: &[u8]) -> bool {
    let digits = |s: &[u8]| s.iter().take_while(|b| b.is_ascii_digit()).count();
    let mut s = text.strip_prefix(b"-").unwrap_or(text);
    let int = digits(s);
    if int == 0 || (int > 1 && s[0] == b'0') {
        return false;
    }
    s = &s[int..];
    if let Some(rest) = s.strip_prefix(b".") {
        let frac = digits(rest);
        if frac == 0 {
            return false;
        }
        s = &rest[frac..];
    }
    if let Some(rest) = s.strip_prefix(b"e").or_else(|| s.strip_prefix(b"E")) {
        let rest = rest
            .strip_prefix(b"+")
            .or_else(|| rest.strip_prefix(b"-"))
            .unwrap_or(rest);
        let exp = digits(rest);
        if exp == 0 {
            return false;
        }
        s = &rest[exp..];
    }
    s.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every event as a short line of text.
    #[derive(Default)]
    struct Log(Vec<String>);

    impl Events for Log {
        fn open(&mut self, array: bool, line: u64) {
            self.0
                .push(format!("{}@{line}", if array { '[' } else { '{' }));
        }
        fn close(&mut self, line: u64) {
            self.0.push(format!("close@{line}"));
        }
        fn key(&mut self, key: &str, line: u64) {
            self.0.push(format!("key {key}@{line}"));
        }
        fn string_start(&mut self, line: u64) {
            self.0.push(format!("str@{line}"));
        }
        fn string_part(&mut self, part: &str) {
            self.0.push(format!("part {part}"));
        }
        fn string_end(&mut self) {
            self.0.push("end".into());
        }
        fn atom(&mut self, text: &str, line: u64) {
            self.0.push(format!("atom {text}@{line}"));
        }
        fn blank(&mut self, _run: &str, _line: u64, _top: bool) {}
    }

    /// The events of `text` fed in pieces of `size` bytes (at character boundaries), and
    /// whether it is complete JSON.
    fn scan(text: &str, size: usize) -> (Vec<String>, bool) {
        let mut scanner = Scanner::default();
        let mut log = Log::default();
        let mut at = 0;
        while at < text.len() {
            let mut end = (at + size).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            scanner.feed(&text[at..end], &mut log);
            at = end;
        }
        // String parts depend on the split; join runs of them.
        let mut joined: Vec<String> = Vec::new();
        for event in log.0 {
            match (joined.last_mut(), event.strip_prefix("part ")) {
                (Some(last), Some(part)) if last.starts_with("part ") => last.push_str(part),
                _ => joined.push(event),
            }
        }
        (joined, scanner.complete())
    }

    #[test]
    fn events_are_the_same_however_the_text_is_split() {
        let text = "{\"a\\\"b\": [1, -2.5e+3, true, null, \"x\\u00e9\\n\u{e9}\"],\n \"c\": {}}\n";
        let (whole, complete) = scan(text, text.len());
        assert!(complete);
        assert_eq!(
            whole,
            [
                "{@1",
                "key a\\\"b@1",
                "[@1",
                "atom 1@1",
                "atom -2.5e+3@1",
                "atom true@1",
                "atom null@1",
                "str@1",
                "part x\\u00e9\\n\u{e9}",
                "end",
                "close@1",
                "key c@2",
                "{@2",
                "close@2",
                "close@2"
            ]
        );
        for size in 1..8 {
            assert_eq!(scan(text, size), (whole.clone(), true), "pieces of {size}");
        }
    }

    #[test]
    fn json_lines_and_streams_of_values_scan_as_documents() {
        let (events, complete) = scan("{\"a\":1}\n[2]\n\n{\n}\n", 3);
        assert!(complete);
        assert_eq!(events.iter().filter(|e| e.starts_with("close")).count(), 3);
        // Two documents on one line are not JSON Lines.
        assert!(!scan("{\"a\":1} {\"b\":2}", 64).1);
    }

    #[test]
    fn what_is_not_json_fails() {
        for text in [
            "",
            "  \n",
            "\"a string\"",
            "42",
            "[1,]",
            "{\"a\" 1}",
            "{\"a\":01}",
            "[1.]",
            "[.5]",
            "[1e]",
            "[tru]",
            "[truex]",
            "[\"a\nb\"]",
            "[\"tab\there\"]",
            "[\"\\x\"]",
            "[\"\\u12g4\"]",
            "{\"a\":1}}",
            "[1}",
            "{\"a\":1,}",
            "[1] trailing",
            "INFO [1] starting",
            "[unclosed",
        ] {
            assert!(!scan(text, 2).1, "{text:?} scanned as JSON");
        }
        for text in [
            "[]",
            "{}",
            "[-0, 0.5, 1E9, -1e-2, \"\\u00e9\\/\"]",
            " [ ] \n",
        ] {
            assert!(scan(text, 2).1, "{text:?} did not scan");
        }
    }

    #[test]
    fn depth_and_token_lengths_are_bounded() {
        let deep = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(scan(&deep, 7).1);
        let deeper = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert!(!scan(&deeper, 7).1);
        let long_number = format!("[{}]", "1".repeat(MAX_TOKEN + 1));
        assert!(!scan(&long_number, 100).1);
        let long_string = format!("[\"{}\"]", "s".repeat(10 * MAX_TOKEN));
        assert!(scan(&long_string, 100).1);
    }
}
