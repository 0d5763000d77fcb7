//! The map when not even one line per file fits: named files and directory roll-ups.
//!
//! The files form a tree of directories (in first-seen order). The listing starts as one line
//! for the whole tree and is refined step by step: each step shows one more child of a
//! directory (a file with its count, or a subdirectory rolled up with its file and match
//! counts) while the directory's remaining children shrink to one "other files" line. First
//! every top-level entry gets its line, then files are named in first-seen order, depth first.
//! A step is taken only if the listing still fits, so at every point each file is either named
//! or inside a directory line that counts it, and every number is exact.
//!
//! Files past the table's cap have no entries, only their directory's totals: each such
//! directory is one more child that cannot be broken down (`dir/ (N files directly inside, M
//! matches)`). Files whose directory found no room either are counted in a directory of their
//! path that the tree has anyway, where they stay in its "other files" line, or, sharing none,
//! are one last top-level line. The tree's own directories are capped the same way.

use std::collections::HashMap;

use super::table::{FileEntry, FileTable};
use crate::hash::FastHash;
use crate::markers::plural;
use crate::text::char_count;

#[derive(Debug, Clone, Copy)]
enum Node {
    Dir(usize),
    File(usize),
    /// The table's directory totals `k` (files past the cap directly in that directory).
    Spilled(usize),
    /// Files past the cap whose path shares no directory with the tree.
    OtherDirs,
}

#[derive(Debug)]
struct Dir<'a> {
    label: &'a str,
    files: u64,
    matches: u64,
    children: Vec<Node>,
    /// Files and matches in it or below it that no child stands for: files past the cap whose
    /// directory has no totals (see `FileTable::unlisted`). They are always in its rest line.
    unlisted: (u64, u64),
    /// `rest[j]`: files and matches in `children[j..]`, and the unlisted ones.
    rest: Vec<(u64, u64)>,
}

/// A listing of every file, each named or counted in a directory line.
#[derive(Debug)]
pub struct Rollup {
    pub lines: Vec<String>,
    pub named_files: u64,
    pub rolled_files: u64,
    pub dir_lines: u64,
}

/// `path (N matches)`: how a named file is listed, here and in the grouped plan.
#[must_use]
pub fn file_line(path: &str, matches: u64) -> String {
    format!("{path} ({})\n", plural(matches, "match", "matches"))
}

/// Directories the tree holds at least, and per path of the table (see [`Builder`]).
const MIN_TREE_DIRS: usize = 1 << 16;
const TREE_DIRS_PER_PATH: usize = 8;

/// Builds the tree's directories. There is one for every directory of every path, as long as
/// fewer than a cap exist; the cap is far above the directories of real trees, and keeps a
/// table of paths thousands of directories deep from costing a node per directory each. Past
/// it, a path stops at its deepest directory that exists, and is counted there as unlisted.
struct Builder<'a> {
    dirs: Vec<Dir<'a>>,
    /// Looked up only; the children vectors keep first-seen order.
    by_name: HashMap<(usize, &'a str), usize, FastHash>,
    cap: usize,
}

impl<'a> Builder<'a> {
    /// Walks `shown`'s directories from the root, creating the missing ones, adds `(files,
    /// matches)` to each on the way, and returns the innermost directory; `false` when that is
    /// not `shown`'s own, the cap having stopped the walk.
    fn descend(&mut self, shown: &'a str, (files, matches): (u64, u64)) -> (usize, bool) {
        let mut dir = 0;
        self.dirs[0].files += files;
        self.dirs[0].matches += matches;
        let mut start = 0;
        for sep in memchr::memchr2_iter(b'/', b'\\', shown.as_bytes()) {
            // The name keeps its separator: `/x` and `\x` are different directories.
            let name = &shown[start..=sep];
            start = sep + 1;
            let next = match self.by_name.get(&(dir, name)) {
                Some(&next) => next,
                None if self.dirs.len() >= self.cap => return (dir, false),
                None => {
                    self.dirs.push(Dir {
                        label: &shown[..=sep],
                        files: 0,
                        matches: 0,
                        children: Vec::new(),
                        unlisted: (0, 0),
                        rest: Vec::new(),
                    });
                    let new = self.dirs.len() - 1;
                    self.dirs[dir].children.push(Node::Dir(new));
                    self.by_name.insert((dir, name), new);
                    new
                }
            };
            dir = next;
            self.dirs[dir].files += files;
            self.dirs[dir].matches += matches;
        }
        (dir, true)
    }

    /// Adds `node` as a child of the directory of `shown`, or its counts to the unlisted ones
    /// of the deepest directory the cap left.
    fn place(&mut self, shown: &'a str, counts: (u64, u64), node: Node) {
        match self.descend(shown, counts) {
            (dir, true) => self.dirs[dir].children.push(node),
            (dir, false) => self.unlisted(dir, counts),
        }
    }

    fn unlisted(&mut self, dir: usize, (files, matches): (u64, u64)) {
        let unlisted = &mut self.dirs[dir].unlisted;
        *unlisted = (unlisted.0 + files, unlisted.1 + matches);
    }
}

struct Tree<'a> {
    files: &'a [FileEntry],
    table: &'a FileTable,
    prefix_len: usize,
    dirs: Vec<Dir<'a>>,
}

impl<'a> Tree<'a> {
    fn build(table: &'a FileTable, prefix_len: usize, root_label: &'a str) -> Self {
        let files = &table.files[..];
        let paths = files.len() + table.dirs.len() + table.unlisted.len();
        let mut builder = Builder {
            dirs: vec![Dir {
                label: root_label,
                files: 0,
                matches: 0,
                children: Vec::new(),
                unlisted: (0, 0),
                rest: Vec::new(),
            }],
            by_name: HashMap::default(),
            cap: paths.saturating_mul(TREE_DIRS_PER_PATH).max(MIN_TREE_DIRS),
        };
        for (i, file) in files.iter().enumerate() {
            builder.place(&file.path[prefix_len..], (1, file.matches), Node::File(i));
        }
        for (k, totals) in table.dirs.iter().enumerate() {
            let counts = (totals.files, totals.matches);
            builder.place(&totals.dir[prefix_len..], counts, Node::Spilled(k));
        }
        if table.other_dirs.0 > 0 {
            builder.place("", table.other_dirs, Node::OtherDirs);
        }
        for totals in &table.unlisted {
            let counts = (totals.files, totals.matches);
            let (dir, _) = builder.descend(&totals.dir[prefix_len..], counts);
            builder.unlisted(dir, counts);
        }
        let mut tree = Tree {
            files,
            table,
            prefix_len,
            dirs: builder.dirs,
        };
        for d in 0..tree.dirs.len() {
            let mut sums = vec![tree.dirs[d].unlisted; tree.dirs[d].children.len() + 1];
            for (j, &child) in tree.dirs[d].children.iter().enumerate().rev() {
                let (f, m) = tree.counts(child);
                sums[j] = (sums[j + 1].0 + f, sums[j + 1].1 + m);
            }
            tree.dirs[d].rest = sums;
        }
        tree
    }

    fn counts(&self, node: Node) -> (u64, u64) {
        match node {
            Node::Dir(d) => (self.dirs[d].files, self.dirs[d].matches),
            Node::File(f) => (1, self.files[f].matches),
            Node::Spilled(k) => (self.table.dirs[k].files, self.table.dirs[k].matches),
            Node::OtherDirs => self.table.other_dirs,
        }
    }

    /// The line that stands for the children of `dir` from `shown` on, and its unlisted files
    /// ("" when none is left).
    fn rest_line(&self, dir: usize, shown: usize) -> String {
        let (files, matches) = self.dirs[dir].rest[shown];
        if files == 0 {
            return String::new();
        }
        let other = if shown == 0 { "" } else { "other " };
        format!(
            "{} ({}{}, {})\n",
            self.dirs[dir].label,
            other,
            plural(files, "file", "files"),
            plural(matches, "match", "matches"),
        )
    }

    /// The line of `node`; `first`: no earlier child of its directory is shown.
    fn node_line(&self, node: Node, first: bool) -> String {
        match node {
            Node::Dir(d) => self.rest_line(d, 0),
            Node::File(f) => file_line(
                &self.files[f].path[self.prefix_len..],
                self.files[f].matches,
            ),
            Node::Spilled(k) => {
                let totals = &self.table.dirs[k];
                let label = &totals.dir[self.prefix_len..];
                // Earlier children come from files with entries, so the first child of a
                // directory that is spilled totals counts every file directly inside it.
                format!(
                    "{} ({}{} directly inside, {})\n",
                    match (label.is_empty(), self.prefix_len) {
                        (false, _) => label,
                        (true, 0) => "(top level)",
                        (true, _) => self.dirs[0].label,
                    },
                    if first { "" } else { "other " },
                    plural(totals.files, "file", "files"),
                    plural(totals.matches, "match", "matches"),
                )
            }
            Node::OtherDirs => format!(
                "other directories ({}, {})\n",
                plural(self.table.other_dirs.0, "file", "files"),
                plural(self.table.other_dirs.1, "match", "matches"),
            ),
        }
    }

    fn render(&self, dir: usize, shown: &[usize], out: &mut Rollup) {
        for (j, &child) in self.dirs[dir].children[..shown[dir]].iter().enumerate() {
            match child {
                Node::Dir(d) => self.render(d, shown, out),
                Node::File(f) => {
                    out.named_files += 1;
                    out.lines.push(self.node_line(Node::File(f), j == 0));
                }
                Node::Spilled(_) | Node::OtherDirs => {
                    out.dir_lines += 1;
                    out.lines.push(self.node_line(child, j == 0));
                }
            }
        }
        let rest = self.rest_line(dir, shown[dir]);
        if !rest.is_empty() {
            out.dir_lines += 1;
            out.lines.push(rest);
        }
    }
}

/// The listing being refined: how many children of each directory are shown, and its length.
struct Steps<'t, 'a> {
    tree: &'t Tree<'a>,
    shown: Vec<usize>,
    used: u64,
    room: u64,
}

impl Steps<'_, '_> {
    /// Shows the next child of `dir` if the listing still fits; says whether it did.
    fn step(&mut self, dir: usize) -> bool {
        let tree = self.tree;
        let j = self.shown[dir];
        let Some(&child) = tree.dirs[dir].children.get(j) else {
            return false;
        };
        let before = char_count(&tree.rest_line(dir, j));
        let after = char_count(&tree.rest_line(dir, j + 1));
        let next = self.used + char_count(&tree.node_line(child, j == 0)) + after - before;
        if next > self.room {
            return false;
        }
        self.used = next;
        self.shown[dir] += 1;
        true
    }

    /// Names the files under `dir` in order, depth first, while they fit; says whether all did.
    fn name_files(&mut self, dir: usize) -> bool {
        while self.shown[dir] < self.tree.dirs[dir].children.len() {
            let child = self.tree.dirs[dir].children[self.shown[dir]];
            if !self.step(dir) {
                return false;
            }
            if let Node::Dir(d) = child {
                if !self.name_files(d) {
                    return false;
                }
            }
        }
        true
    }
}

/// Lists every file of `table` in at most `room` characters: as many named with their counts
/// as fit, the rest counted in directory lines. Paths are shown without their first
/// `prefix_len` bytes; `root_label` names the directory they all share. `None` when not even
/// one line for everything fits.
#[must_use]
pub fn roll_up(
    table: &FileTable,
    prefix_len: usize,
    root_label: &str,
    room: u64,
) -> Option<Rollup> {
    let tree = Tree::build(table, prefix_len, root_label);
    let used = char_count(&tree.rest_line(0, 0));
    if used > room {
        return None;
    }
    let mut steps = Steps {
        tree: &tree,
        shown: vec![0usize; tree.dirs.len()],
        used,
        room,
    };
    // Every top-level entry gets a line first: one line for the shared directory itself would
    // say nothing about where the matches are.
    while steps.step(0) {}
    // Then files are named in first-seen order, each directory broken down as its files are.
    for j in 0..steps.shown[0] {
        if let Node::Dir(d) = tree.dirs[0].children[j] {
            steps.name_files(d);
        }
    }
    let Steps { shown, .. } = steps;
    let mut out = Rollup {
        lines: Vec::new(),
        named_files: 0,
        rolled_files: 0,
        dir_lines: 0,
    };
    tree.render(0, &shown, &mut out);
    out.rolled_files = table.file_count() - out.named_files;
    Some(out)
}
