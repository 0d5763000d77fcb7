//! What a JSON plan promises, checked against a naive parse of the input: the input is JSON
//! (one document, or JSON Lines); a minified plan shows exactly the minified input; a table's
//! header and rows give back every record; and a summary shows only text of the input: each
//! of its kept pieces occurs in the minified input, so no value is invented or rounded.

use super::program::Settings;
use crate::engine::Outcome;
use crate::plan::Piece;

/// A naive JSON reader: each value read becomes its minified text.
struct Naive<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Naive<'_> {
    fn blank(&mut self) {
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| b" \t\r\n".contains(b))
        {
            self.at += 1;
        }
    }

    fn eat(&mut self, b: u8) -> Option<()> {
        self.blank();
        (self.bytes.get(self.at) == Some(&b)).then(|| self.at += 1)
    }

    /// One value's minified text, items of a top-level array in `items` when `depth` is 0.
    fn value(&mut self, depth: usize, items: &mut Vec<String>) -> Option<String> {
        self.blank();
        let start = self.at;
        match *self.bytes.get(self.at)? {
            open @ (b'[' | b'{') => {
                let close = if open == b'[' { b']' } else { b'}' };
                self.at += 1;
                let mut out = String::from(char::from(open));
                if self.eat(close).is_some() {
                    out.push(char::from(close));
                    return Some(out);
                }
                loop {
                    if open == b'{' {
                        self.blank();
                        out.push_str(&self.string()?);
                        self.eat(b':')?;
                        out.push(':');
                    }
                    let item = self.value(depth + 1, &mut Vec::new())?;
                    if depth == 0 {
                        items.push(item.clone());
                    }
                    out.push_str(&item);
                    if self.eat(b',').is_some() {
                        out.push(',');
                    } else {
                        self.eat(close)?;
                        out.push(char::from(close));
                        return Some(out);
                    }
                }
            }
            b'"' => self.string(),
            _ => {
                while self
                    .bytes
                    .get(self.at)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || b"+-.".contains(b))
                {
                    self.at += 1;
                }
                let token = std::str::from_utf8(&self.bytes[start..self.at]).ok()?;
                let literal = ["true", "false", "null"].contains(&token);
                let number = token.parse::<f64>().is_ok()
                    && !token.starts_with('+')
                    && !token.contains("inf")
                    && !token.contains("nan");
                (literal || number).then(|| token.to_owned())
            }
        }
    }

    fn string(&mut self) -> Option<String> {
        let start = self.at;
        (self.bytes.get(self.at) == Some(&b'"')).then_some(())?;
        self.at += 1;
        loop {
            match *self.bytes.get(self.at)? {
                b'"' => break,
                b'\\' => self.at += 2,
                _ => self.at += 1,
            }
        }
        self.at += 1;
        Some(String::from_utf8_lossy(&self.bytes[start..self.at]).into_owned())
    }
}

/// The documents of `text`, minified, and the minified items of each top-level array.
fn documents(text: &str) -> Option<Vec<(String, Vec<String>)>> {
    let mut naive = Naive {
        bytes: text.as_bytes(),
        at: 0,
    };
    let mut docs = Vec::new();
    loop {
        naive.blank();
        if naive.at == text.len() {
            return Some(docs);
        }
        let mut items = Vec::new();
        let doc = naive.value(0, &mut items)?;
        docs.push((doc, items));
    }
}

pub fn check(settings: &Settings, text: &str, out: &Outcome) {
    let docs =
        documents(text).unwrap_or_else(|| panic!("a JSON plan of what is not JSON, {settings:?}"));
    assert!(!docs.is_empty());
    let minified: Vec<&str> = docs.iter().map(|d| d.0.as_str()).collect();
    let joined = minified.join("\n");
    let pieces = &out.plan.pieces;
    let Some(Piece::Marker(note)) = pieces.first() else {
        panic!("a JSON plan opens with its note");
    };
    let kept: Vec<&str> = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Kept(t) => Some(t.as_str()),
            Piece::Marker(_) => None,
        })
        .collect();
    if note.contains("minified") {
        let shown: String = kept.concat();
        assert_eq!(
            shown.trim_end_matches('\n'),
            joined,
            "the minified input, {settings:?}"
        );
    } else if note.contains("table") {
        let header = note.lines().last().expect("a header after the note");
        let records: Vec<&str> = if docs.len() == 1 {
            docs[0].1.iter().map(String::as_str).collect()
        } else {
            minified.clone()
        };
        let keys = header_keys(header, records.len());
        let rows = kept.concat();
        let rows: Vec<&str> = rows.lines().collect();
        assert_eq!(rows.len(), records.len(), "one row a record, {settings:?}");
        for (row, record) in rows.iter().zip(&records) {
            let wrapped = format!("[{row}]");
            let mut naive = Naive {
                bytes: wrapped.as_bytes(),
                at: 0,
            };
            let mut values = Vec::new();
            assert!(
                naive.value(0, &mut values).is_some(),
                "not a row of values: {row}"
            );
            naive.blank();
            assert_eq!(naive.at, wrapped.len(), "not a row of values: {row}");
            assert_eq!(values.len(), keys.len(), "a value for each key: {row}");
            let members: Vec<String> = keys
                .iter()
                .zip(&values)
                .map(|(k, v)| format!("{k}:{v}"))
                .collect();
            assert_eq!(
                format!("{{{}}}", members.join(",")),
                *record,
                "a row gives back its record"
            );
        }
    } else {
        for piece in kept {
            assert!(
                joined.contains(piece),
                "summary text not in the input: {piece:?}, {settings:?}"
            );
        }
    }
}

/// The keys a table's header `[N]{id,"odd key"}` names, each as a JSON string; `n` records.
fn header_keys(header: &str, n: usize) -> Vec<String> {
    let inner = header
        .strip_prefix(&format!("[{n}]{{"))
        .and_then(|h| h.strip_suffix('}'))
        .unwrap_or_else(|| panic!("a table header for {n} records: {header}"));
    let bytes = inner.as_bytes();
    let mut keys = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let start = at;
        if bytes[at] == b'"' {
            at += 1;
            while bytes[at] != b'"' {
                at += if bytes[at] == b'\\' { 2 } else { 1 };
            }
            at += 1;
            keys.push(inner[start..at].to_owned());
        } else {
            while at < bytes.len() && bytes[at] != b',' {
                at += 1;
            }
            keys.push(format!("\"{}\"", &inner[start..at]));
        }
        at += 1;
    }
    keys
}
