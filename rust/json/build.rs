//! Reads the scanner's events into everything a JSON plan is made from: the path table, the
//! two lossless forms, and the sketch of kept values (see [`super::sketch`] for what is kept).
//!
//! Each value is placed when it starts: its path (its parent array's item path, or its key's
//! path), whether it is kept (its parent is kept and under its caps, and the text kept of the
//! frame or of the current record is under the room), and, for the first value of a record,
//! a fresh signature and list of first values. It is handed to its parent when it ends. A
//! second top-level document turns the input into JSON Lines: the first becomes the first
//! record of the stream, which is read from then on as one more record array.

use super::lossless::{Mini, Table};
use super::paths::{Kind, PathId, PathTable, ROOT, UNLISTED, VALUE_CHARS};
use super::scan::Events;
use super::sketch::{
    INNER_ITEMS, Item, Items, MEMBERS, NOVEL, Node, RecordFacts, Records, STR_HEAD, Store,
};
use crate::text::{byte_at_char, char_count};

/// Where a table's records are, once the first document says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TableAt {
    /// The items of a top-level array.
    Items,
    /// The documents themselves (JSON Lines of objects).
    Documents,
}

/// An open array or object.
#[derive(Debug)]
struct Open {
    array: bool,
    path: PathId,
    /// An array's items' path.
    item_path: PathId,
    /// Where the last key lookup under this object's path matched.
    hint: usize,
    /// The key of the member whose value comes next (as written, when the object is kept),
    /// and its path.
    key: Option<(Option<Box<str>>, PathId)>,
    /// Children read so far.
    count: u64,
    /// `None` when this container is not kept.
    node: Option<Items>,
    /// For a record array: how its records are chosen.
    records: Option<Records>,
    /// The line the container opened on, and the line its last child ended on.
    line: u64,
    prev_end: u64,
    /// The JSON Lines stream, whose documents take no commas.
    stream: bool,
}

/// The string value being read (its head's buffer is reused from string to string).
#[derive(Debug, Default)]
struct OpenStr {
    path: PathId,
    keep: bool,
    head: String,
    head_chars: u64,
    chars: u64,
    line: u64,
}

/// Whitespace between top-level values, read in parts.
#[derive(Debug, Clone, Copy)]
struct Run {
    first: u64,
    last: u64,
    chars: u64,
    newline: bool,
}

const SIG_SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// A record's signature with one more value of type `kind` at `path`.
fn mix(sig: u64, path: PathId, kind: Kind) -> u64 {
    (sig ^ (u64::from(path) << 3 | kind as u64)).wrapping_mul(0x0100_0000_01b3)
}

/// The lines the characters of a whitespace run starting on `line` are on.
fn run_lines(run: &str, line: u64) -> (u64, u64) {
    let newlines = crate::text::count_newlines(run.as_bytes());
    (line, line + newlines - u64::from(run.ends_with('\n')))
}

#[derive(Debug)]
pub struct Builder {
    room: u64,
    pub paths: PathTable,
    pub mini: Mini,
    pub table: Table,
    table_at: Option<TableAt>,
    pub store: Store,
    stack: Vec<Open>,
    string: OpenStr,
    /// The single document, once read whole.
    pub root: Option<Item>,
    /// JSON Lines: the documents, as a record array, once the input ended.
    pub stream: Option<Items>,
    docs: u64,
    top_run: Option<Run>,
    /// Characters kept of the frame, and of the record being read.
    frame_weight: u64,
    record_weight: u64,
    /// The stack's length with the open record array on top.
    records_at: Option<usize>,
    /// The stack's length inside the record (or document) being read, its first values and
    /// its signature.
    sig_depth: usize,
    novel: Vec<(PathId, u8)>,
    sig: u64,
    /// Record arrays made so far.
    pub arrays: usize,
}

impl Builder {
    #[must_use]
    pub fn new(room: u64) -> Self {
        let cap = usize::try_from((room / 16).clamp(64, 1024)).unwrap_or(1024);
        Builder {
            room,
            paths: PathTable::new(cap),
            mini: Mini::new(room),
            table: Table::new(room),
            table_at: None,
            store: Store::new(room),
            stack: Vec::new(),
            string: OpenStr::default(),
            root: None,
            stream: None,
            docs: 0,
            top_run: None,
            frame_weight: 0,
            record_weight: 0,
            records_at: None,
            sig_depth: 1,
            novel: Vec::new(),
            sig: SIG_SEED,
            arrays: 0,
        }
    }

    /// Whether the input is JSON Lines.
    #[must_use]
    pub fn streaming(&self) -> bool {
        self.docs > 1
    }

    /// The stack's length inside a table's record, once the first document said where they are.
    fn table_level(&self) -> Option<usize> {
        match self.table_at? {
            TableAt::Items => Some(2),
            TableAt::Documents => Some(if self.streaming() { 2 } else { 1 }),
        }
    }

    /// Writes a token of the minified form, and of the table's current row when it is inside
    /// a record.
    fn emit(&mut self, token: &str) {
        self.mini.push(token);
        if self.table_level().is_some_and(|l| self.stack.len() >= l) {
            self.table.push(token);
        }
    }

    fn in_record(&self) -> bool {
        self.records_at.is_some_and(|r| self.stack.len() >= r)
    }

    /// Counts `weight` characters kept into the frame or the current record.
    fn charge(&mut self, weight: u64) {
        if self.in_record() {
            self.record_weight += weight;
        } else {
            self.frame_weight += weight;
        }
    }

    /// The whitespace before a top-level value (or the input's end) is settled: between
    /// documents of JSON Lines the minified form keeps one `'\n'`, and any other whitespace
    /// there is dropped.
    fn settle_top_run(&mut self) {
        let Some(run) = self.top_run.take() else {
            return;
        };
        if self.docs > 0 && run.newline {
            self.mini.push("\n");
        }
        if self.docs == 0 || run.chars != 1 || !run.newline {
            self.mini.dropped(run.first, run.last);
        }
    }

    /// A value of type `kind` starts on `line`: its path, and whether it is kept.
    fn begin(&mut self, line: u64, kind: Kind) -> (PathId, bool) {
        if self.stack.len() <= usize::from(self.streaming()) {
            self.settle_top_run();
            if self.stack.is_empty() {
                self.docs += 1;
                match self.docs {
                    1 => {
                        self.table_at = match kind {
                            Kind::Array => Some(TableAt::Items),
                            _ => Some(TableAt::Documents),
                        };
                    }
                    _ => self.start_stream(),
                }
            }
        }
        let depth = self.stack.len();
        if self.table_level() == Some(depth + 1) {
            self.table.start(kind == Kind::Object);
        }
        let record = depth == 0 || self.records_at == Some(depth);
        let (path, keep) = match self.stack.last_mut() {
            None => (ROOT, true),
            Some(parent) => {
                let path = if parent.array {
                    parent.item_path
                } else {
                    parent.key.as_ref().map_or(UNLISTED, |k| k.1)
                };
                let keep = parent.node.as_ref().is_some_and(|items| {
                    let cap = if parent.array { INNER_ITEMS } else { MEMBERS };
                    parent.records.is_some() || items.kept.len() < cap
                });
                if parent.count == 0 {
                    if let Some(items) = &mut parent.node {
                        items.span.0 = line;
                    }
                }
                if let Some(records) = &mut parent.records {
                    records.next_starts(line, &mut self.store, &self.paths);
                }
                (path, keep)
            }
        };
        let separate = self
            .stack
            .last()
            .is_some_and(|p| p.array && p.count > 0 && !p.stream);
        if separate {
            self.emit(",");
        }
        if record {
            self.novel.clear();
            self.sig = mix(SIG_SEED, path, kind);
            self.sig_depth = depth + 1;
            self.record_weight = 0;
        } else if self.sig_depth == depth {
            self.sig = mix(self.sig, path, kind);
        }
        let weight = if self.in_record() {
            self.record_weight
        } else {
            self.frame_weight
        };
        let keep = keep && (record || weight < self.room);
        (path, keep)
    }

    /// A second document starts: the first becomes the first record of the stream.
    fn start_stream(&mut self) {
        if self.table_at == Some(TableAt::Items) {
            self.table.fail();
        }
        let first = self.root.take();
        let mut records = Records::new(self.room);
        let (line, prev_end) = first.as_ref().map_or((1, 1), |f| (f.lines.0, f.lines.1));
        if let Some(mut first) = first {
            first.first_sig = records.count_sig(first.sig);
            records.read(first);
        }
        let items = Items {
            array: true,
            kept: Vec::new(),
            total: 0,
            records: Some(RecordFacts {
                id: self.arrays,
                sigs: Vec::new(),
            }),
            stream: true,
            span: (line, line),
        };
        self.arrays += 1;
        self.stack.push(Open {
            array: true,
            path: UNLISTED,
            item_path: ROOT,
            hint: 0,
            key: None,
            count: 1,
            node: Some(items),
            records: Some(records),
            line,
            prev_end,
            stream: true,
        });
        self.records_at = Some(1);
    }

    /// A value that started on `first` ended on `last`: its parent takes it (or it is the
    /// document).
    fn deliver(&mut self, node: Option<Node>, first: u64, last: u64, weight: u64) {
        let is_record = self.records_at == Some(self.stack.len());
        let record_weight = self.record_weight;
        let novel = std::mem::take(&mut self.novel);
        let sig = self.sig;
        let Some(parent) = self.stack.last_mut() else {
            self.root = node.map(|node| Item {
                index: 0,
                key: None,
                node,
                lines: (first, last),
                prev_end: first,
                next_start: last,
                weight: self.frame_weight,
                novel,
                sig,
                first_sig: true,
            });
            return;
        };
        let key = parent.key.take().and_then(|k| k.0);
        let index = parent.count;
        parent.count += 1;
        let prev_end = std::mem::replace(&mut parent.prev_end, last);
        let (Some(node), Some(items)) = (node, &mut parent.node) else {
            if !is_record {
                self.novel = novel;
            }
            return;
        };
        let mut item = Item {
            index,
            key,
            node,
            lines: (first, last),
            prev_end,
            next_start: last,
            weight: if is_record { record_weight } else { weight },
            novel: Vec::new(),
            sig,
            first_sig: false,
        };
        match &mut parent.records {
            Some(records) if is_record => {
                item.novel = novel;
                item.first_sig = records.count_sig(sig);
                records.read(item);
            }
            _ => {
                items.kept.push(item);
                self.novel = novel;
            }
        }
    }

    /// Counts a scalar and notes it as one of the record's first values when it is the first
    /// of its kind at its path.
    fn scalar(&mut self, path: PathId, kind: Kind, text: Option<&str>, chars: u64) {
        if let Some(index) = self.paths.scalar(path, kind, text, chars) {
            if self.novel.len() < NOVEL {
                self.novel.push((path, index));
            }
        }
    }

    /// The input ended, as JSON: what is still open is settled.
    pub fn finish(&mut self) {
        self.settle_top_run();
        if self.streaming() {
            if let Some(open) = self.stack.pop() {
                let line = open.prev_end;
                self.stream = self.close_items(open, line);
            }
        }
    }

    /// The kept children of a container that closed on `line`.
    fn close_items(&mut self, open: Open, line: u64) -> Option<Items> {
        let mut items = open.node?;
        items.total = open.count;
        items.span.1 = open.prev_end;
        if let Some(records) = open.records {
            let sigs = records.sigs.clone();
            items.kept = records.finish(line, &mut self.store, &self.paths);
            if let Some(facts) = &mut items.records {
                facts.sigs = sigs;
            }
        }
        Some(items)
    }
}

impl Events for Builder {
    fn open(&mut self, array: bool, line: u64) {
        let kind = if array { Kind::Array } else { Kind::Object };
        let (path, keep) = self.begin(line, kind);
        self.emit(if array { "[" } else { "{" });
        let record_array = array && keep && self.stack.iter().all(|o| !o.array);
        let item_path = if array {
            self.paths.child(path, None, &mut 0)
        } else {
            UNLISTED
        };
        let node = keep.then(|| Items {
            array,
            kept: Vec::new(),
            total: 0,
            records: record_array.then_some(RecordFacts {
                id: self.arrays,
                sigs: Vec::new(),
            }),
            stream: false,
            span: (line, line),
        });
        if record_array {
            self.arrays += 1;
        }
        if keep {
            self.charge(2);
        }
        self.stack.push(Open {
            array,
            path,
            item_path,
            hint: 0,
            key: None,
            count: 0,
            node,
            records: record_array.then(|| Records::new(self.room)),
            line,
            prev_end: line,
            stream: false,
        });
        if record_array {
            self.records_at = Some(self.stack.len());
        }
    }

    fn close(&mut self, line: u64) {
        let Some(open) = self.stack.pop() else {
            return;
        };
        if self.records_at == Some(self.stack.len() + 1) {
            self.records_at = None;
        }
        self.emit(if open.array { "]" } else { "}" });
        if self.table_level() == Some(self.stack.len() + 1) {
            self.table.end();
        }
        if open.array {
            self.paths.array(open.path, open.count);
        } else {
            self.paths.object(open.path);
        }
        let first = open.line;
        let node = self.close_items(open, line).map(Node::Items);
        self.deliver(node, first, line, 2);
    }

    fn key(&mut self, key: &str, _line: u64) {
        let depth = self.stack.len();
        let Some(parent) = self.stack.last_mut() else {
            return;
        };
        let separate = parent.count > 0;
        let path = self.paths.child(parent.path, Some(key), &mut parent.hint);
        let kept = parent.node.is_some().then(|| Box::from(key));
        parent.key = Some((kept, path));
        if separate {
            self.mini.push(",");
        }
        self.mini.push("\"");
        self.mini.push(key);
        self.mini.push("\":");
        match self.table_level() {
            Some(level) if level == depth => self.table.key(key),
            Some(level) if depth > level => {
                if separate {
                    self.table.push(",");
                }
                self.table.push("\"");
                self.table.push(key);
                self.table.push("\":");
            }
            _ => {}
        }
        if parent_kept(&self.stack) {
            self.charge(char_count(key) + 3);
        }
    }

    fn string_start(&mut self, line: u64) {
        let (path, keep) = self.begin(line, Kind::String);
        self.emit("\"");
        let s = &mut self.string;
        (s.path, s.keep, s.head_chars, s.chars, s.line) = (path, keep, 0, 0, line);
        s.head.clear();
    }

    fn string_part(&mut self, part: &str) {
        self.emit(part);
        let s = &mut self.string;
        let chars = char_count(part);
        s.chars += chars;
        let cap = if s.keep { STR_HEAD } else { VALUE_CHARS };
        if s.head_chars < cap {
            let take = (cap - s.head_chars).min(chars);
            s.head.push_str(&part[..byte_at_char(part, take)]);
            s.head_chars += take;
        }
    }

    fn string_end(&mut self) {
        self.emit("\"");
        let head = std::mem::take(&mut self.string.head);
        let OpenStr {
            path,
            keep,
            head_chars,
            chars,
            line,
            ..
        } = self.string;
        let listed = (chars + 2 <= VALUE_CHARS).then_some(head.as_str());
        self.scalar(path, Kind::String, listed, chars);
        let weight = head_chars + 3;
        let node = keep.then(|| Node::Str {
            head: head.clone(),
            chars,
        });
        self.string.head = head;
        if node.is_some() {
            self.charge(weight);
        }
        self.deliver(node, line, line, weight);
    }

    fn atom(&mut self, text: &str, line: u64) {
        let kind = Kind::of_atom(text);
        let (path, keep) = self.begin(line, kind);
        self.emit(text);
        let listed = char_count(text) <= VALUE_CHARS;
        self.scalar(path, kind, listed.then_some(text), 0);
        let weight = char_count(text) + 1;
        if keep {
            self.charge(weight);
        }
        self.deliver(
            keep.then(|| Node::Atom(Box::from(text))),
            line,
            line,
            weight,
        );
    }

    fn blank(&mut self, run: &str, line: u64, top: bool) {
        let (first, last) = run_lines(run, line);
        if !top {
            self.mini.dropped(first, last);
            return;
        }
        let newline = run.contains('\n');
        let chars = run.len() as u64;
        self.top_run = Some(match self.top_run {
            None => Run {
                first,
                last,
                chars,
                newline,
            },
            Some(r) => Run {
                first: r.first,
                last: last.max(r.last),
                chars: r.chars + chars,
                newline: r.newline || newline,
            },
        });
    }
}

/// Whether the innermost open container is kept.
fn parent_kept(stack: &[Open]) -> bool {
    stack.last().is_some_and(|p| p.node.is_some())
}
