//! The two forms that keep every value of a JSON input and drop only what can be put back:
//! the input minified (whitespace between tokens dropped), and an array of objects with the
//! same keys written as a table (the keys once, in a header, then one row of values for each
//! object). Each is kept while it could still fit the room, and abandoned, for good, once it
//! cannot: at most `room` characters each.

use crate::plan::LineRange;
use crate::text::char_count;

/// Ranges of lines with dropped whitespace a minified plan may name; past this it is not made.
const MAX_DROPPED_RANGES: usize = 256;

/// The input minified: its tokens, with a `'\n'` after each document of JSON Lines.
#[derive(Debug)]
pub struct Mini {
    room: u64,
    /// `None` once longer than the room.
    pub text: Option<String>,
    /// Characters of the text, while there is one.
    pub chars: u64,
    /// The lines whitespace was dropped from, in order; `None` when too scattered to name.
    pub dropped: Option<Vec<LineRange>>,
}

impl Mini {
    #[must_use]
    pub fn new(room: u64) -> Self {
        Mini {
            room,
            text: Some(String::new()),
            chars: 0,
            dropped: Some(Vec::new()),
        }
    }

    /// Appends a token; once the text is past the room nothing is counted any more.
    pub fn push(&mut self, token: &str) {
        let Some(text) = &mut self.text else {
            return;
        };
        self.chars += char_count(token);
        if self.chars > self.room {
            self.text = None;
        } else {
            text.push_str(token);
        }
    }

    /// Whitespace on lines `first..=last` was dropped.
    pub fn dropped(&mut self, first: u64, last: u64) {
        let (Some(ranges), Some(_)) = (&mut self.dropped, &self.text) else {
            return;
        };
        if let Some(range) = ranges.last_mut().filter(|r| r.last + 1 >= first) {
            range.last = range.last.max(last);
        } else if ranges.len() == MAX_DROPPED_RANGES {
            self.dropped = None;
        } else {
            ranges.push(LineRange { first, last });
        }
    }
}

/// Whether a key is written bare in a table's header: it cannot then hold the header's
/// commas, braces or quotes. Any other key is written as in the input, with its quotes.
fn bare(key: &str) -> bool {
    !key.is_empty()
        && key.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'/' | b'$' | b'@')
        })
}

/// Objects with the same keys in the same order, as a header and rows: a row is the object's
/// values as written (minified), separated by commas, so `[` + row + `]` is a JSON array of
/// them in the header's order.
#[derive(Debug)]
pub struct Table {
    room: u64,
    /// The first object's keys, as written.
    pub keys: Vec<Box<str>>,
    /// `None` once the records are not objects with the same keys, or the rows outgrew the room.
    pub rows: Option<String>,
    rows_chars: u64,
    pub records: u64,
    /// Keys of the current object so far.
    at: usize,
}

impl Table {
    #[must_use]
    pub fn new(room: u64) -> Self {
        Table {
            room,
            keys: Vec::new(),
            rows: Some(String::new()),
            rows_chars: 0,
            records: 0,
            at: 0,
        }
    }

    /// No table can be made.
    pub fn fail(&mut self) {
        self.rows = None;
    }

    /// A record starts: an object, or not (and then there is no table).
    pub fn start(&mut self, object: bool) {
        if !object {
            self.fail();
        }
        self.at = 0;
        if self.records > 0 {
            self.push("\n");
        }
    }

    /// The record's next key.
    pub fn key(&mut self, key: &str) {
        if self.records == 0 {
            self.keys.push(Box::from(key));
        } else if self.keys.get(self.at).map(|k| &**k) != Some(key) {
            self.fail();
        }
        if self.at > 0 {
            self.push(",");
        }
        self.at += 1;
    }

    /// Text of the record's current value.
    pub fn push(&mut self, token: &str) {
        let Some(rows) = &mut self.rows else {
            return;
        };
        self.rows_chars += char_count(token);
        if self.rows_chars > self.room {
            self.rows = None;
        } else {
            rows.push_str(token);
        }
    }

    /// The record ended.
    pub fn end(&mut self) {
        if self.at != self.keys.len() || self.keys.is_empty() {
            self.fail();
        }
        self.records += 1;
    }

    /// The header line, without its `'\n'`: `[N]{id,name,"odd key"}`.
    #[must_use]
    pub fn header(&self) -> String {
        let keys: Vec<String> = self
            .keys
            .iter()
            .map(|k| {
                if bare(k) {
                    k.to_string()
                } else {
                    format!("\"{k}\"")
                }
            })
            .collect();
        format!("[{}]{{{}}}", self.records, keys.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_needs_the_same_keys_in_the_same_order() {
        let mut table = Table::new(1000);
        for (keys, values) in [
            (["id", "a b"], ["1", "\"x\""]),
            (["id", "a b"], ["2", "null"]),
        ] {
            table.start(true);
            for (k, v) in keys.iter().zip(values) {
                table.key(k);
                table.push(v);
            }
            table.end();
        }
        assert_eq!(table.header(), "[2]{id,\"a b\"}");
        assert_eq!(table.rows.as_deref(), Some("1,\"x\"\n2,null"));
        table.start(true);
        table.key("a b");
        assert!(table.rows.is_none());
    }

    #[test]
    fn the_minified_text_is_dropped_past_its_room_and_names_its_lines() {
        let mut mini = Mini::new(5);
        mini.push("[1,2");
        mini.dropped(1, 2);
        mini.dropped(3, 3);
        mini.dropped(5, 6);
        assert_eq!(mini.text.as_deref(), Some("[1,2"));
        assert_eq!(
            mini.dropped,
            Some(vec![
                LineRange { first: 1, last: 3 },
                LineRange { first: 5, last: 6 }
            ])
        );
        mini.push(",3]");
        assert_eq!((mini.text, mini.chars), (None, 7));
    }
}
