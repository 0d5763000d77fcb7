//! The key paths of a JSON input, each with exact counts: how many values it holds, of which
//! types, how long its strings and arrays are, and, while it holds only a few distinct
//! scalars, each of them with its count.
//!
//! A path is written as `jq` writes one: `.items[].metadata.name`, `.[]` for a top-level
//! array's items, `."odd key"` for a key that is not a plain name; in JSON Lines each document
//! is its own root. An object path has a path for each of its first [`MAX_KEYS`] different
//! keys; the values of any other key (an object used as a map, keyed by names or hashes) are
//! counted together under `.…` (`.features.…`), and so are the paths below them.
//! Paths are kept in the order they are first met, at most [`PathTable::new`]'s cap; the values
//! at paths past it are counted together as unlisted. Lookups go through a path's children,
//! starting where the last lookup under the same parent matched, so records with the same
//! keys in the same order cost one comparison a key.

use std::fmt::Write as _;

use crate::lookalike::disarm;
use crate::markers::{plural, thousands};
use crate::text::char_count;

pub type PathId = u32;
/// The root: a document, or each document of JSON Lines.
pub const ROOT: PathId = 0;
/// Every path past the caps.
pub const UNLISTED: PathId = PathId::MAX;

/// Distinct scalar values a path lists with their counts, at most.
const MAX_VALUES: usize = 6;
/// Characters of a value, as written, that a path lists; longer ones are not listed.
pub const VALUE_CHARS: u64 = 32;
/// Keys under one object path with a path of their own, at most.
const MAX_KEYS: usize = 32;

/// A value's type, in the order a path's line names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

const KINDS: [Kind; 6] = [
    Kind::Null,
    Kind::Bool,
    Kind::Number,
    Kind::String,
    Kind::Array,
    Kind::Object,
];

impl Kind {
    /// The type of a number or literal, from its first character.
    #[must_use]
    pub fn of_atom(text: &str) -> Kind {
        match text.as_bytes().first() {
            Some(b'n') => Kind::Null,
            Some(b't' | b'f') => Kind::Bool,
            _ => Kind::Number,
        }
    }

    fn names(self) -> (&'static str, &'static str) {
        match self {
            Kind::Null => ("null", "nulls"),
            Kind::Bool => ("bool", "bools"),
            Kind::Number => ("number", "numbers"),
            Kind::String => ("string", "strings"),
            Kind::Array => ("array", "arrays"),
            Kind::Object => ("object", "objects"),
        }
    }
}

/// What the values at one path were.
#[derive(Debug, Default)]
pub struct Stat {
    pub count: u64,
    kinds: [u64; 6],
    /// Shortest and longest string, in characters as written.
    chars: Option<(u64, u64)>,
    /// Items of all arrays, and the fewest and most of one.
    items: Option<(u64, u64, u64)>,
    /// The distinct scalar values as written, with their counts, in the order first met;
    /// `None` once there were more than [`MAX_VALUES`] or one longer than [`VALUE_CHARS`].
    values: Option<Vec<(Box<str>, u64)>>,
}

impl Stat {
    /// How many times the `index`th listed value occurred, while values are listed.
    #[must_use]
    pub fn value_count(&self, index: u8) -> Option<u64> {
        self.values
            .as_ref()
            .and_then(|v| v.get(usize::from(index)))
            .map(|v| v.1)
    }

    /// The line's text after the path: every type with its count, or every value.
    fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(values) = &self.values {
            for (value, n) in values {
                parts.push(format!("{value} \u{d7}{}", thousands(*n)));
            }
        }
        for kind in KINDS {
            let n = self.kinds[kind as usize];
            let listed = matches!(kind, Kind::Null | Kind::Bool | Kind::Number | Kind::String)
                && self.values.is_some();
            if n == 0 || listed {
                continue;
            }
            let (one, many) = kind.names();
            let mut part = plural(n, one, many);
            match (kind, self.chars, self.items) {
                (Kind::String, Some((min, max)), _) => {
                    let _ = write!(part, " ({})", range(min, max, "char", "chars"));
                }
                (Kind::Array, _, Some((all, min, max))) => {
                    let _ = write!(
                        part,
                        " ({}{})",
                        range(min, max, "item", "items"),
                        // Arrays of one length: their total says nothing more.
                        if min == max {
                            String::new()
                        } else {
                            format!(", {} in all", thousands(all))
                        }
                    );
                }
                _ => {}
            }
            parts.push(part);
        }
        parts.join(", ")
    }
}

/// `3 chars`, `1 item`, `2-40 items`.
fn range(min: u64, max: u64, one: &str, many: &str) -> String {
    if min == max {
        plural(min, one, many)
    } else {
        format!("{}-{} {many}", thousands(min), thousands(max))
    }
}

/// What a path adds to its parent's.
#[derive(Debug, PartialEq, Eq)]
enum Segment {
    /// A key, as written between its quotes.
    Key(Box<str>),
    /// An array's items.
    Items,
    /// Every key of an object path past its first [`MAX_KEYS`].
    OtherKeys,
}

#[derive(Debug)]
struct Path {
    parent: PathId,
    segment: Segment,
    children: Vec<PathId>,
    stat: Stat,
}

/// Every path met, in order, within the caps.
#[derive(Debug)]
pub struct PathTable {
    paths: Vec<Path>,
    cap: usize,
    /// Values at paths past the caps.
    pub unlisted: u64,
}

impl PathTable {
    /// A table of at most `cap` paths (the root included).
    #[must_use]
    pub fn new(cap: usize) -> Self {
        PathTable {
            paths: vec![Path {
                parent: ROOT,
                segment: Segment::Items,
                children: Vec::new(),
                stat: Stat::default(),
            }],
            cap: cap.max(1),
            unlisted: 0,
        }
    }

    /// The path of `key` under `parent` (an array's items for `None`), made if new and within
    /// the caps, else [`UNLISTED`]. `hint` is where the last lookup under `parent` matched.
    pub fn child(&mut self, parent: PathId, key: Option<&str>, hint: &mut usize) -> PathId {
        if parent == UNLISTED {
            return UNLISTED;
        }
        let children = &self.paths[parent as usize].children;
        let n = children.len();
        let mut keys = 0;
        for k in 0..n {
            let at = (*hint + k) % n;
            let id = children[at];
            let found = match (&self.paths[id as usize].segment, key) {
                (Segment::Key(have), Some(key)) => {
                    keys += 1;
                    **have == *key
                }
                (Segment::Items, None) => true,
                _ => false,
            };
            if found {
                *hint = (at + 1) % n;
                return id;
            }
        }
        let segment = match key {
            None => Segment::Items,
            Some(key) if keys < MAX_KEYS => Segment::Key(Box::from(key)),
            Some(_) => {
                let other = children
                    .iter()
                    .find(|&&id| self.paths[id as usize].segment == Segment::OtherKeys);
                if let Some(&id) = other {
                    return id;
                }
                Segment::OtherKeys
            }
        };
        if self.paths.len() >= self.cap {
            return UNLISTED;
        }
        let id = PathId::try_from(self.paths.len()).unwrap_or(UNLISTED);
        self.paths.push(Path {
            parent,
            segment,
            children: Vec::new(),
            stat: Stat::default(),
        });
        self.paths[parent as usize].children.push(id);
        *hint = 0;
        id
    }

    /// Counts a number, literal or string at `path`: `text` as written when the value is
    /// short enough to list (a string's between its quotes), `chars` a string's length.
    /// Returns the value's index in the path's list when this is its first occurrence.
    pub fn scalar(
        &mut self,
        path: PathId,
        kind: Kind,
        text: Option<&str>,
        chars: u64,
    ) -> Option<u8> {
        let stat = self.stat_mut(path, kind)?;
        if kind == Kind::String {
            stat.chars = Some(
                stat.chars
                    .map_or((chars, chars), |(a, b)| (a.min(chars), b.max(chars))),
            );
        }
        let Some(values) = &mut stat.values else {
            return None;
        };
        let Some(text) = text else {
            stat.values = None;
            return None;
        };
        // Listed strings keep their quotes, so that `"1"` and `1` are two values.
        let string = kind == Kind::String;
        let same = |listed: &str| match listed.strip_prefix('"') {
            Some(inner) if string => inner.strip_suffix('"') == Some(text),
            _ => !string && listed == text,
        };
        if let Some(seen) = values.iter_mut().find(|(v, _)| same(v)) {
            seen.1 += 1;
            return None;
        }
        if values.len() == MAX_VALUES {
            stat.values = None;
            return None;
        }
        let listed = if string {
            format!("\"{text}\"").into_boxed_str()
        } else {
            Box::from(text)
        };
        values.push((listed, 1));
        u8::try_from(values.len() - 1).ok()
    }

    /// Counts an array of `items` items at `path`.
    pub fn array(&mut self, path: PathId, items: u64) {
        if let Some(stat) = self.stat_mut(path, Kind::Array) {
            stat.items = Some(stat.items.map_or((items, items, items), |(all, a, b)| {
                (all + items, a.min(items), b.max(items))
            }));
        }
    }

    /// Counts an object at `path`.
    pub fn object(&mut self, path: PathId) {
        self.stat_mut(path, Kind::Object);
    }

    /// Counts one value of type `kind` at `path`; `None` when the path is unlisted.
    fn stat_mut(&mut self, path: PathId, kind: Kind) -> Option<&mut Stat> {
        if path == UNLISTED {
            self.unlisted += 1;
            return None;
        }
        let stat = &mut self.paths[path as usize].stat;
        if stat.count == 0 {
            stat.values = Some(Vec::new());
        }
        stat.count += 1;
        stat.kinds[kind as usize] += 1;
        Some(stat)
    }

    #[must_use]
    pub fn stat(&self, path: PathId) -> Option<&Stat> {
        self.paths.get(path as usize).map(|p| &p.stat)
    }

    /// One line for each path that holds a value, in the order first met: `.a[].b: ...`.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        self.paths
            .iter()
            .enumerate()
            .filter(|(_, p)| p.stat.count > 0)
            .map(|(id, p)| format!("{}: {}", self.name(id), p.stat.describe()))
            .collect()
    }

    /// The characters of the shortest key paths section [`Paths::section`] writes: its title,
    /// how many paths it does not show (all of them) and how many values are past the table's
    /// cap.
    #[must_use]
    pub fn least_section_len(&self) -> u64 {
        let (lines, unlisted) = self.section_parts();
        let more = if lines.is_empty() {
            0
        } else {
            char_count(&more_paths(lines.len()))
        };
        char_count(SECTION_TITLE) + more + char_count(&unlisted)
    }

    /// The key paths section of a summary within `room` characters: a title, a line for each
    /// path while they fit (look-alike markers in values disarmed), then how many did not and
    /// how many values are at paths past the table's cap; `None` when not even the title and
    /// those fit.
    #[must_use]
    pub fn section(&self, room: u64) -> Option<String> {
        let (lines, unlisted) = self.section_parts();
        let more_len = char_count(&more_paths(lines.len()));
        let mut left = room.checked_sub(char_count(SECTION_TITLE) + char_count(&unlisted))?;
        let mut section = String::from(SECTION_TITLE);
        let mut shown = 0;
        for (i, line) in lines.iter().enumerate() {
            let reserve = if i + 1 == lines.len() { 0 } else { more_len };
            let len = char_count(line);
            if len + reserve > left {
                break;
            }
            section.push_str(line);
            left -= len;
            shown += 1;
        }
        if shown < lines.len() {
            if more_len > left {
                return None;
            }
            section.push_str(&more_paths(lines.len() - shown));
        }
        section.push_str(&unlisted);
        Some(section)
    }

    /// The section's path lines, disarmed, and its line of values past the table's cap.
    fn section_parts(&self) -> (Vec<String>, String) {
        let lines = self
            .lines()
            .into_iter()
            .map(|line| format!("{}\n", disarm(&line)))
            .collect();
        let unlisted = if self.unlisted > 0 {
            format!(
                "\u{2026}{} at paths past the table's limit\n",
                plural(self.unlisted, "value", "values")
            )
        } else {
            String::new()
        };
        (lines, unlisted)
    }

    /// A path as `jq` writes it.
    fn name(&self, id: usize) -> String {
        let mut segments = Vec::new();
        let mut at = id;
        while at != ROOT as usize {
            let path = &self.paths[at];
            segments.push(match &path.segment {
                Segment::Items => "[]".to_owned(),
                Segment::Key(key) if plain(key) => format!(".{key}"),
                Segment::Key(key) => format!(".\"{key}\""),
                Segment::OtherKeys => ".\u{2026}".to_owned(),
            });
            at = path.parent as usize;
        }
        let name: String = segments.into_iter().rev().collect();
        if name.starts_with('.') {
            name
        } else {
            format!(".{name}")
        }
    }
}

/// Whether `jq` takes `key` after a dot as it is.
fn plain(key: &str) -> bool {
    let mut bytes = key.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The title of a summary's key paths section.
const SECTION_TITLE: &str = "key paths (exact counts):\n";

/// The section's last line where it leaves `n` paths out.
fn more_paths(n: usize) -> String {
    format!(
        "\u{2026}{} not shown\n",
        plural(n as u64, "more key path", "more key paths")
    )
}
