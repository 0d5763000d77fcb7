//! The per-file table: every matching file in first-seen order, its exact counts, and the few
//! rows the plan could ever show.
//!
//! Counts are kept for every file, because the map must account for all of them. Rows are kept
//! only while they could be shown: all of them while the whole output might still fold into the
//! budget (the lossless plan needs every row), then only each file's first [`MAX_MATCHES_SHOWN`]
//! matches with their context, capped in number and in length, and none at all for files past
//! the point where even a bare header per file could no longer fit. Lines that are not search
//! rows are counted, and the first few and the latest kept, so none disappears without a trace
//! and a closing summary survives.
//!
//! The table itself is bounded: past [`FileTable::new`]'s file cap, a new file gets no entry and
//! is counted exactly into its directory's aggregate ([`DirTotals`]). The directories are capped
//! too: a file whose directory finds no room is counted in the deepest directory of its path
//! that the roll-up shows anyway, so that every directory line still counts every file under
//! it. A file past the cap is recognised as new when its path differs from the previous row's:
//! search tools print each file's rows together.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::hash::FastHash;

use crate::text::cut::cut_before;
use crate::text::{byte_at_char, char_count};

use super::hashing::{Hashed, Spread, dir_hash, dir_len, path_hash};

/// Matches shown per file at most (the K).
pub const MAX_MATCHES_SHOWN: u64 = 5;
/// Rows (matches and context) kept per file once the lossless fold is out of reach.
const MAX_ROWS_KEPT: usize = 64;
/// Characters of a row kept (and shown) once the lossless fold is out of reach; the rest of a
/// longer row is counted and labelled.
pub const ROW_CHARS_SHOWN: u64 = 300;
/// Non-search lines kept verbatim from the start (all are counted; the latest is kept too).
const MAX_OTHERS_KEPT: usize = 32;
/// The shortest header a file can have (`x (1 match)` and its newline): a file later than
/// `budget / MIN_HEADER_CHARS` in the table can never be shown with rows, so it keeps none.
const MIN_HEADER_CHARS: u64 = 12;
/// Files (and, separately, directory aggregates) the table holds at least, whatever the budget.
const MIN_ENTRIES: usize = 1024;
/// The table holds this many times the files that could ever be named (`budget /
/// MIN_HEADER_CHARS`): the roll-up names at most that many, and the extra entries give it the
/// shape of the tree (which directories hold which files) to choose good directory lines from.
const ENTRIES_PER_NAMEABLE: usize = 4;

/// The index standing for the file being counted past the cap (it has no entry in `files`).
pub const SPILLED: usize = usize::MAX;

/// One kept row of a file.
#[derive(Debug, Clone)]
pub struct Row {
    /// The row's text from the line number on (`12:text`, `12-text`), without its `'\n'`; a
    /// prefix when the row is longer than what is kept.
    pub text: String,
    /// Characters of the whole row text.
    pub chars: u64,
    pub line_no: u64,
    pub is_match: bool,
    /// 1-based line of the input it came from.
    pub input_line: u64,
    /// Characters of that input line, with its path prefix and its `'\n'`.
    pub input_chars: u64,
}

/// A line that is neither a search row nor a heading (a warning, `Binary file x matches`).
#[derive(Debug, Clone)]
pub struct Other {
    pub text: String,
    pub chars: u64,
    pub input_line: u64,
    pub input_chars: u64,
    /// How many files had been seen before it: where it sits between file groups.
    pub files_before: usize,
}

#[derive(Debug, Clone)]
pub struct FileEntry {
    pub path: String,
    /// Characters of `path`; 0 for the file past the cap being counted, which keeps no rows
    /// (what it is for) and is counted in a flood at every row.
    pub path_chars: u64,
    /// Matching lines (context lines are not matches).
    pub matches: u64,
    pub rows: Vec<Row>,
    /// Matches among `rows`.
    pub kept_matches: u64,
    /// Some row of this file is not in `rows`.
    pub truncated: bool,
    /// No further row of this file will be kept.
    sealed: bool,
    /// The line number of the last row [`FileTable::in_order`] noted.
    last_line: Option<u64>,
}

/// Files past the table's cap, counted by directory.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DirTotals {
    /// The directory as the tool printed it, with its trailing separator ("" for files without
    /// one).
    pub dir: String,
    pub files: u64,
    pub matches: u64,
}

#[derive(Debug, Default)]
pub struct FileTable {
    pub files: Vec<FileEntry>,
    /// Looks a path up in `files`; never iterated, so its order cannot reach the output.
    index: HashMap<String, usize, FastHash>,
    /// A bit per slot of the paths' hashes, set for every path in `index`: a clear bit says a
    /// path has no entry without a look into `index`. Once the table is full, a flood of new
    /// files asks `index` about each one, and its look-ups (a table of thousands of paths,
    /// missing the cache) were most of the time a row took.
    listed: Vec<u64>,
    /// What a hash is shifted right by to give its bit in `listed`: its high bits, which the
    /// multiplying hash mixes best.
    listed_shift: u32,
    pub others: Vec<Other>,
    pub other_lines: u64,
    pub matches: u64,
    pub context_rows: u64,
    /// Files past this index keep no rows.
    row_files: usize,
    /// Files that get an entry in `files`; later files are counted in `dirs`.
    max_files: usize,
    /// Files past the cap, by directory in first-seen order, at most `max_files` of them.
    pub dirs: Vec<DirTotals>,
    /// Where the files of a directory past the cap are counted: its slot in `dirs`, or, once
    /// `dirs` is full, the slot [`FileTable::unlisted_slot`] found, kept for up to `max_files`
    /// more directories to spare the search. Looked up by [`dir_hash`], which the look-ahead
    /// mostly found already: the first of `dir_keys` with that hash. Never iterated.
    dir_index: HashMap<u32, usize, BuildHasherDefault<Spread>>,
    /// The directories in `dir_index`, each chained to the one it displaced under its hash.
    dir_keys: Vec<DirKey>,
    /// Files past the cap whose directory found no room in `dirs`, counted in the deepest
    /// directory of their path that the roll-up shows anyway ([`FileTable::deepest_known`]),
    /// which need not be theirs: `dir` is that directory, `files` those in it or below it.
    pub unlisted: Vec<DirTotals>,
    /// Looks a directory up in `unlisted`; never iterated.
    unlisted_index: HashMap<String, usize, FastHash>,
    /// Files and matches past the cap whose path shares no directory with the roll-up's.
    pub other_dirs: (u64, u64),
    /// Files past the cap, in `dirs`, `unlisted` or `other_dirs`.
    pub spilled_files: u64,
    /// The file past the cap being counted (its entry holds no rows).
    spill: Option<Spill>,
    /// The paths the roll-up builds its directories from (files with entries, directories
    /// with totals), sorted, each after its [`sort_key`]; filled when `dirs` is full, after
    /// which neither changes.
    known: Vec<(u128, Known)>,
}

/// The file past the cap being counted.
#[derive(Debug)]
struct Spill {
    /// Its path (compared with the next rows'), and no rows.
    entry: FileEntry,
    /// [`path_hash`] of its path.
    hash: u64,
    /// Where it is counted.
    slot: Slot,
}

/// A directory of `dir_index`.
#[derive(Debug)]
struct DirKey {
    dir: String,
    slot: Slot,
    /// The directory that had the same hash before, if any.
    next: Option<usize>,
}

/// Where a file past the cap is counted.
#[derive(Debug, Clone, Copy)]
enum Slot {
    Dir(usize),
    Unlisted(usize),
    OtherDirs,
}

/// A path the roll-up knows: of the file entry or of the directory totals at this index.
#[derive(Debug, Clone, Copy)]
enum Known {
    File(usize),
    Dir(usize),
}

impl FileTable {
    #[must_use]
    pub fn new(budget: u64) -> Self {
        let nameable = usize::try_from(budget / MIN_HEADER_CHARS + 1).unwrap_or(usize::MAX);
        FileTable {
            row_files: nameable,
            max_files: nameable
                .saturating_mul(ENTRIES_PER_NAMEABLE)
                .max(MIN_ENTRIES),
            ..FileTable::default()
        }
    }

    /// Every matching file, with an entry or counted past the cap.
    #[must_use]
    pub fn file_count(&self) -> u64 {
        self.files.len() as u64 + self.spilled_files
    }

    /// The entry of file `i` ([`SPILLED`]: the file past the cap being counted).
    #[must_use]
    pub fn entry(&self, i: usize) -> &FileEntry {
        match (&self.spill, i) {
            (Some(spill), SPILLED) => &spill.entry,
            _ => &self.files[i],
        }
    }

    /// Notes a row numbered `line_no` of file `i`: whether it comes after the file's last row
    /// noted. A search tool prints a file's lines in order, each once, and its rows together.
    /// Files past the cap share one entry, so their rows are never out of order.
    pub fn in_order(&mut self, i: usize, line_no: u64) -> bool {
        if i == SPILLED {
            return true;
        }
        let last = self.files[i].last_line.replace(line_no);
        last.is_none_or(|last| line_no > last)
    }

    fn entry_mut(&mut self, i: usize) -> &mut FileEntry {
        match (&mut self.spill, i) {
            (Some(spill), SPILLED) => &mut spill.entry,
            _ => &mut self.files[i],
        }
    }

    /// The index of `path`'s entry, added at the end when new; past the cap, [`SPILLED`], the
    /// file counted in its directory's aggregate (as a new file unless it is the one already
    /// being counted). `hashed`: its hashes, when the look-ahead found them.
    pub fn file(&mut self, path: &str, hashed: Option<Hashed>) -> usize {
        if self.files.len() < self.max_files {
            if let Some(&i) = self.index.get(path) {
                return i;
            }
            let hash = hashed.map_or_else(|| path_hash(path), |h| h.hash);
            return self.add_file(path, hash);
        }
        let hash = hashed.map_or_else(|| path_hash(path), |h| h.hash);
        // Only a full table gains from the bits: before, a new path is inserted anyway.
        if self.maybe_listed(hash) {
            if let Some(&i) = self.index.get(path) {
                return i;
            }
        }
        if !matches!(&self.spill, Some(s) if s.hash == hash && s.entry.path == path) {
            let (dir_len, dir_hash) = if let Some(h) = hashed {
                (h.dir_len, h.dir_hash)
            } else {
                let len = dir_len(path);
                (len, dir_hash(&path[..len]))
            };
            self.spill_file(path, hash, dir_len, dir_hash);
        }
        SPILLED
    }

    fn add_file(&mut self, path: &str, hash: u64) -> usize {
        let i = self.files.len();
        self.files.push(FileEntry {
            path: path.to_owned(),
            path_chars: char_count(path),
            matches: 0,
            rows: Vec::new(),
            kept_matches: 0,
            truncated: false,
            sealed: i >= self.row_files,
            last_line: None,
        });
        self.index.insert(path.to_owned(), i);
        if self.listed.is_empty() {
            // At least eight bits per entry, so that few paths share one.
            let bits = (self.max_files.max(1) * 8).next_power_of_two().max(64);
            self.listed = vec![0; bits / 64];
            self.listed_shift = 64 - bits.trailing_zeros();
        }
        let (word, mask) = self.listed_bit(hash);
        self.listed[word] |= mask;
        i
    }

    /// The bit of `listed` that stands for a path of [`path_hash`] `hash`: its word and mask.
    fn listed_bit(&self, hash: u64) -> (usize, u64) {
        let bit = usize::try_from(hash >> self.listed_shift).unwrap_or(usize::MAX);
        (bit / 64, 1 << (bit % 64))
    }

    /// False when the path of [`path_hash`] `hash` surely has no entry.
    fn maybe_listed(&self, hash: u64) -> bool {
        let (word, mask) = self.listed_bit(hash);
        self.listed.get(word).is_some_and(|w| w & mask != 0)
    }

    /// Where the files of `dir` past the cap are counted, if `dir_index` knows.
    fn dir_slot(&self, dir: &str, hash: u32) -> Option<Slot> {
        let mut at = self.dir_index.get(&hash).copied();
        while let Some(k) = at {
            let key = &self.dir_keys[k];
            if key.dir == dir {
                return Some(key.slot);
            }
            at = key.next;
        }
        None
    }

    /// Starts counting a new file past the cap, in the aggregate of its directory, the first
    /// `dir_len` bytes of `path` (hashed `dir_hash`).
    fn spill_file(&mut self, path: &str, hash: u64, dir_len: usize, dir_hash: u32) {
        self.spilled_files += 1;
        let dir = &path[..dir_len];
        let slot = self.dir_slot(dir, dir_hash).unwrap_or_else(|| {
            let slot = if self.dirs.len() < self.max_files {
                self.dirs.push(DirTotals {
                    dir: dir.to_owned(),
                    ..DirTotals::default()
                });
                Slot::Dir(self.dirs.len() - 1)
            } else {
                self.unlisted_slot(dir)
            };
            if self.dir_keys.len() < 2 * self.max_files {
                let next = self.dir_index.insert(dir_hash, self.dir_keys.len());
                self.dir_keys.push(DirKey {
                    dir: dir.to_owned(),
                    slot,
                    next,
                });
            }
            slot
        });
        match slot {
            Slot::Dir(d) => self.dirs[d].files += 1,
            Slot::Unlisted(u) => self.unlisted[u].files += 1,
            Slot::OtherDirs => self.other_dirs.0 += 1,
        }
        // The entry is reused: its path is what the next rows are compared with.
        let spill = self.spill.get_or_insert_with(|| Spill {
            entry: FileEntry {
                path: String::new(),
                path_chars: 0,
                matches: 0,
                rows: Vec::new(),
                kept_matches: 0,
                truncated: true,
                sealed: true,
                last_line: None,
            },
            hash,
            slot,
        });
        spill.entry.path.clear();
        spill.entry.path.push_str(path);
        spill.entry.matches = 0;
        spill.hash = hash;
        spill.slot = slot;
    }

    /// Counts a row of file `i`.
    pub fn count_row(&mut self, i: usize, is_match: bool) {
        if is_match {
            self.count_rows(i, 1, 0);
        } else {
            self.context_rows += 1;
        }
    }

    /// Where a file past the cap in `dir`, which has no totals of its own and gets none, is
    /// counted: in the deepest directory of `dir` that the roll-up shows anyway. Every
    /// directory line that covers the file covers that directory too, and no line stands for
    /// anything between them, so each line's count stays exact. A path that shares no directory
    /// with the roll-up's is counted apart, in `other_dirs`.
    fn unlisted_slot(&mut self, dir: &str) -> Slot {
        if self.known.is_empty() {
            let files = (0..self.files.len()).map(Known::File);
            let mut known: Vec<(u128, Known)> = files
                .chain((0..self.dirs.len()).map(Known::Dir))
                .map(|k| (sort_key(self.known_path(k)), k))
                .collect();
            known.sort_unstable_by(|a, b| self.cmp_known(*a, b.0, self.known_path(b.1)));
            self.known = known;
        }
        let shared = match self.deepest_known(dir) {
            0 => return Slot::OtherDirs,
            end => &dir[..end],
        };
        if let Some(&u) = self.unlisted_index.get(shared) {
            return Slot::Unlisted(u);
        }
        self.unlisted.push(DirTotals {
            dir: shared.to_owned(),
            ..DirTotals::default()
        });
        self.unlisted_index
            .insert(shared.to_owned(), self.unlisted.len() - 1);
        Slot::Unlisted(self.unlisted.len() - 1)
    }

    fn known_path(&self, known: Known) -> &str {
        match known {
            Known::File(i) => &self.files[i].path,
            Known::Dir(d) => &self.dirs[d].dir,
        }
    }

    /// Orders a known path against `path`, whose [`sort_key`] is `key`: as the paths are.
    fn cmp_known(&self, (known_key, known): (u128, Known), key: u128, path: &str) -> Ordering {
        known_key
            .cmp(&key)
            .then_with(|| self.known_path(known).cmp(path))
    }

    /// The length of the deepest directory `dir` shares with a known path (0: none). The
    /// known path sharing the longest prefix with `dir` is one of its two neighbours in sorted
    /// order, so one binary search finds it.
    fn deepest_known(&self, dir: &str) -> usize {
        let key = sort_key(dir);
        let at = self
            .known
            .partition_point(|&k| self.cmp_known(k, key, dir).is_lt());
        let shared = [at.checked_sub(1), Some(at)]
            .into_iter()
            .flatten()
            .filter_map(|j| self.known.get(j))
            .map(|&(_, k)| {
                let path = self.known_path(k).as_bytes();
                path.iter()
                    .zip(dir.as_bytes())
                    .take_while(|(a, b)| a == b)
                    .count()
            })
            .max()
            .unwrap_or(0);
        dir.as_bytes()[..shared]
            .iter()
            .rposition(|&b| b == b'/' || b == b'\\')
            .map_or(0, |i| i + 1)
    }

    /// Counts `matches` match rows and `context` context rows of file `i` at once.
    pub fn count_rows(&mut self, i: usize, matches: u64, context: u64) {
        self.entry_mut(i).matches += matches;
        if i == SPILLED {
            match self.spill.as_ref().map(|s| s.slot) {
                Some(Slot::Dir(d)) => self.dirs[d].matches += matches,
                Some(Slot::Unlisted(u)) => self.unlisted[u].matches += matches,
                _ => self.other_dirs.1 += matches,
            }
        }
        self.matches += matches;
        self.context_rows += context;
    }

    /// File `i` keeps no further row: only its counts change.
    #[must_use]
    pub fn counts_only(&self, i: usize) -> bool {
        let file = self.entry(i);
        file.sealed && file.truncated
    }

    /// Whether a row just counted for file `i` is one of those the plan could show (its first
    /// matches and their context). A refusal is final for the file.
    pub fn wants_row(&mut self, i: usize, is_match: bool) -> bool {
        let file = self.entry_mut(i);
        if file.sealed
            || (is_match && file.kept_matches == MAX_MATCHES_SHOWN)
            || file.rows.len() >= MAX_ROWS_KEPT
        {
            file.sealed = true;
            file.truncated = true;
            return false;
        }
        true
    }

    /// Keeps a row of file `i`; `text` is cut to what is kept
    /// unless `keep_all`.
    pub fn keep_row(&mut self, i: usize, mut row: Row, keep_all: bool) -> usize {
        if !keep_all {
            cut_to_shown(&mut row.text);
        }
        let file = &mut self.files[i];
        file.kept_matches += u64::from(row.is_match);
        file.rows.push(row);
        file.rows.len() - 1
    }

    /// Counts a non-search line and keeps it, its text already cut to its [`shown_part`]
    /// unless `keep_all`: all of them while `keep_all`, else the first [`MAX_OTHERS_KEPT`] and,
    /// in one more slot, the latest, which is where a tool's closing summary ends up. Returns
    /// where it is kept.
    pub fn other(&mut self, other: Other, keep_all: bool) -> usize {
        self.other_lines += 1;
        debug_assert!(keep_all || shown_part(&other.text) == other.text);
        let full = !keep_all && self.others.len() > MAX_OTHERS_KEPT;
        match self.others.last_mut() {
            Some(latest) if full => *latest = other,
            _ => self.others.push(other),
        }
        self.others.len() - 1
    }

    /// Drops what only the lossless fold needed: rows past each file's first matches and their
    /// context, rows of files too late to be shown, long texts, and extra non-search lines.
    pub fn trim_to_shown(&mut self) {
        for (i, file) in self.files.iter_mut().enumerate() {
            let before = file.rows.len();
            if i >= self.row_files {
                file.rows.clear();
                file.sealed = true;
            } else {
                let mut seen = 0;
                let end = file
                    .rows
                    .iter()
                    .position(|r| {
                        seen += u64::from(r.is_match);
                        seen > MAX_MATCHES_SHOWN
                    })
                    .unwrap_or(file.rows.len())
                    .min(MAX_ROWS_KEPT);
                file.sealed |= end < file.rows.len();
                file.rows.truncate(end);
            }
            file.truncated |= file.rows.len() < before;
            file.kept_matches = file.rows.iter().map(|r| u64::from(r.is_match)).sum();
            for row in &mut file.rows {
                cut_to_shown(&mut row.text);
            }
        }
        if self.others.len() > MAX_OTHERS_KEPT + 1 {
            let latest = self.others.pop();
            self.others.truncate(MAX_OTHERS_KEPT);
            self.others.extend(latest);
        }
        for other in &mut self.others {
            cut_to_shown(&mut other.text);
        }
    }
}

/// The first 16 bytes of `path` as a number that orders as they do (a shorter path has zeros,
/// lower than any byte of a path), kept beside a reference to the path in a sorted table so
/// that a binary search mostly compares numbers next to each other in memory instead of
/// following a pointer to each path's text.
fn sort_key(path: &str) -> u128 {
    let mut bytes = [0u8; 16];
    let n = path.len().min(16);
    bytes[..n].copy_from_slice(&path.as_bytes()[..n]);
    u128::from_be_bytes(bytes)
}

/// The start of a row or other line that a plan shows: its first [`ROW_CHARS_SHOWN`]
/// characters, or a few fewer so as not to cut a character cluster (see [`crate::text::cut`]). The
/// shown start of a shown start is itself.
#[must_use]
pub fn shown_part(text: &str) -> &str {
    &text[..cut_before(text, byte_at_char(text, ROW_CHARS_SHOWN))]
}

/// Cuts `text` to its [`shown_part`].
fn cut_to_shown(text: &mut String) {
    let end = shown_part(text).len();
    text.truncate(end);
}
