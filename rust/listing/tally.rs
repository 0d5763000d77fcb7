//! The paths a listing shown as its first lines leaves out, counted by directory: the label of
//! the gap's marker says where they are (`[lines 38-2039 omitted: 2,002 paths, by directory
//! under src/: main/ 412; test/ 1,590]`).
//!
//! A listing of thousands of files in hundreds of directories is too large for a map (see
//! [`super::map`]): its first lines name a few dozen paths of its first directories and the
//! gap after them says nothing of the rest. The tally names the directories the gap holds and
//! how many paths each has, so an agent can narrow its next search to the one it wants. It
//! starts from the directories right under the one all paths share and splits the largest
//! while the marker fits its room: a directory split shows what is directly in it as `DIR/*`,
//! and each directory under it as `DIR/SUB/`, with everything below that. Every count is
//! exact. The largest goes first, and when it does not fit, nothing smaller is split: a
//! smaller one's parts would take the room of the larger directories' own. Where not even
//! the directories right under the shared one fit, the largest of them are named, and the
//! rest counted (`; 31 more directories, 412 paths`).

use std::collections::HashMap;
use std::fmt::Write as _;

use super::line::shared_dir;
use crate::hash::FastHash;
use crate::lookalike::disarm;
use crate::markers::{plural, thousands};
use crate::text::char_count;

/// Distinct directories a tally keeps count of; a listing with more has no tally (`find /`),
/// so that memory stays bounded.
const MAX_DIRS: usize = 4096;

/// Paths counted by the directory each is in.
#[derive(Debug, Default)]
pub(super) struct Tally {
    /// Iterated only where its order is sorted away.
    dirs: HashMap<String, u64, FastHash>,
    /// The directory of the last path, and the paths in it since the one before.
    last: String,
    run: u64,
    /// More than [`MAX_DIRS`] directories, or names under headings: no tally.
    stopped: bool,
}

/// A directory of the tally's marker: a node of the [`Tree`], and whether it stands for the
/// paths directly in it only (`DIR/*`), its directories being shown apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Place {
    node: usize,
    direct: bool,
}

/// A directory under the one all paths share: its name, its parent, the paths directly in it
/// and in it and below, the directories with paths among those, and its own directories.
#[derive(Debug)]
struct Node<'a> {
    name: &'a str,
    parent: usize,
    direct: u64,
    total: u64,
    dirs: u64,
    children: Vec<usize>,
}

/// The directories that hold the tally's paths, the shared one first, each once.
#[derive(Debug)]
struct Tree<'a> {
    nodes: Vec<Node<'a>>,
}

impl Tally {
    /// Counts a path in `dir` (`""`: the current directory).
    pub(super) fn add(&mut self, dir: &str) {
        if self.stopped {
            return;
        }
        // Paths come a directory at a time: the run in the last one is counted apart, and
        // the table is looked up once a run.
        if self.last == dir {
            self.run += 1;
            return;
        }
        self.flush();
        self.last.clear();
        self.last.push_str(dir);
        self.run = 1;
    }

    /// Adds the run of paths in the last directory to the table.
    fn flush(&mut self) {
        if self.stopped || self.run == 0 {
            return;
        }
        if let Some(count) = self.dirs.get_mut(self.last.as_str()) {
            *count += self.run;
        } else if self.dirs.len() < MAX_DIRS {
            self.dirs.insert(self.last.clone(), self.run);
        } else {
            self.stop();
        }
        self.run = 0;
    }

    /// Counts no more: a listing whose names are under headings (`ls -R`, `git status`)
    /// shows its directories in them.
    pub(super) fn stop(&mut self) {
        self.stopped = true;
        self.dirs = HashMap::default();
    }

    /// Takes back a path counted in `dir`: one a plan shows.
    pub(super) fn remove(&mut self, dir: &str) {
        self.flush();
        if let Some(count) = self.dirs.get_mut(dir) {
            *count -= 1;
            if *count == 0 {
                self.dirs.remove(dir);
            }
        }
    }

    /// The label, `": ..."`, in at most `room` characters: `None` when the paths counted are
    /// in fewer than two directories (the gap's marker says as much), or when not even the
    /// largest directory right under the shared one fits with the count of the others.
    pub(super) fn label(&mut self, room: u64) -> Option<String> {
        self.flush();
        if self.stopped || self.dirs.len() < 2 {
            return None;
        }
        let shared = shared_dir(self.dirs.keys().map(String::as_str));
        // In order of their paths, so that the tree's order is the paths' own.
        let mut dirs: Vec<(&str, u64)> =
            self.dirs.iter().map(|(d, &n)| (&d[shared..], n)).collect();
        dirs.sort_unstable();
        let tree = Tree::new(dirs.into_iter());
        let any = self.dirs.keys().next()?;
        let under = &any[..shared];
        // The directories right under the shared one, then the largest split while it fits.
        let mut places = tree.expand(0);
        let mut best = tree.render(under, &places, (0, 0));
        if char_count(&best) > room {
            return tree.largest(under, &places, room);
        }
        while let Some(i) = tree.largest_splittable(&places) {
            let mut split = places.clone();
            let place = split.remove(i);
            split.extend(tree.expand(place.node));
            split.sort_unstable();
            let text = tree.render(under, &split, (0, 0));
            if char_count(&text) > room {
                break;
            }
            (best, places) = (text, split);
        }
        Some(best)
    }
}

impl<'a> Tree<'a> {
    /// The tree of `dirs`, each a path under the shared directory and its count of paths.
    fn new(dirs: impl Iterator<Item = (&'a str, u64)>) -> Self {
        let root = Node {
            name: "",
            parent: 0,
            direct: 0,
            total: 0,
            dirs: 0,
            children: Vec::new(),
        };
        let mut tree = Tree { nodes: vec![root] };
        let mut index: HashMap<(usize, &'a str), usize, FastHash> = HashMap::default();
        for (dir, n) in dirs {
            let mut at = 0;
            let mut path = vec![0];
            for part in dir.split('/').filter(|part| !part.is_empty()) {
                at = *index.entry((at, part)).or_insert_with(|| {
                    let child = tree.nodes.len();
                    tree.nodes.push(Node {
                        name: part,
                        parent: at,
                        direct: 0,
                        total: 0,
                        dirs: 0,
                        children: Vec::new(),
                    });
                    tree.nodes[at].children.push(child);
                    child
                });
                path.push(at);
            }
            tree.nodes[at].direct += n;
            for &node in &path {
                tree.nodes[node].total += n;
                tree.nodes[node].dirs += 1;
            }
        }
        tree
    }

    /// What is in `node`: `node/*` where paths lie directly in it, and each directory under
    /// it; a directory that holds only paths directly in it is said as a directory.
    fn expand(&self, node: usize) -> Vec<Place> {
        let n = &self.nodes[node];
        let mut places: Vec<Place> = n
            .children
            .iter()
            .map(|&child| Place {
                node: child,
                direct: false,
            })
            .collect();
        if n.direct > 0 {
            places.push(Place {
                node,
                direct: !places.is_empty(),
            });
        }
        places.sort_unstable();
        places
    }

    /// The place that holds the most paths of more than one directory (of equals, the first
    /// in order of their paths).
    fn largest_splittable(&self, places: &[Place]) -> Option<usize> {
        places
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.direct && self.nodes[p.node].dirs > 1)
            .map(|(i, p)| (std::cmp::Reverse(self.count(*p)), i))
            .min()
            .map(|(_, i)| i)
    }

    /// The paths `place` stands for.
    fn count(&self, place: Place) -> u64 {
        let node = &self.nodes[place.node];
        if place.direct {
            node.direct
        } else {
            node.total
        }
    }

    /// The path of `node` under the shared directory, each name with its `/`.
    fn path(&self, mut node: usize) -> String {
        let mut names = Vec::new();
        while node != 0 {
            names.push(self.nodes[node].name);
            node = self.nodes[node].parent;
        }
        names.iter().rev().flat_map(|name| [*name, "/"]).collect()
    }

    /// The label of the largest of `places` that fit in `room` with the count of the others,
    /// if any do.
    fn largest(&self, under: &str, places: &[Place], room: u64) -> Option<String> {
        let mut by_size = places.to_vec();
        by_size.sort_unstable_by_key(|&p| (std::cmp::Reverse(self.count(p)), p));
        let mut fitted = None;
        for shown in 1..by_size.len() {
            let mut chosen = by_size[..shown].to_vec();
            chosen.sort_unstable();
            let rest = &by_size[shown..];
            let others = (rest.len() as u64, rest.iter().map(|&p| self.count(p)).sum());
            let text = self.render(under, &chosen, others);
            if char_count(&text) > room {
                break;
            }
            fitted = Some(text);
        }
        fitted
    }

    /// The label for `places` under the directory `under`, and for `others`, a count of
    /// directories and of their paths not named. Places in one directory are said once under
    /// it (`databind/{* 20, deser/ 95, ser/ 80}`), so that a long path is not repeated for
    /// each.
    fn render(&self, under: &str, places: &[Place], others: (u64, u64)) -> String {
        let paths = self.nodes[0].total;
        let mut text = format!(": {}, by directory", plural(paths, "path", "paths"));
        if !under.is_empty() {
            let _ = write!(text, " under {}/", disarm(under.trim_end_matches('/')));
        }
        text.push(':');
        // Each place as its directory and its own name in it, in order of their paths.
        let mut named: Vec<(String, String, u64)> = places
            .iter()
            .map(|&p| {
                let node = &self.nodes[p.node];
                let (parent, name) = if p.direct {
                    (self.path(p.node), "*".to_owned())
                } else {
                    (self.path(node.parent), format!("{}/", node.name))
                };
                (parent, name, self.count(p))
            })
            .collect();
        named.sort_by_cached_key(|(parent, name, _)| format!("{parent}{name}"));
        let mut sep = " ";
        for same in named.chunk_by(|a, b| a.0 == b.0) {
            let parent = disarm(&same[0].0);
            let each = |(_, name, n): &(String, String, u64)| {
                format!("{} {}", disarm(name), thousands(*n))
            };
            let inner: Vec<String> = same.iter().map(each).collect();
            if same.len() == 1 || parent.is_empty() {
                let _ = write!(text, "{sep}{parent}{}", inner.join("; "));
            } else {
                let _ = write!(text, "{sep}{parent}{{{}}}", inner.join(", "));
            }
            sep = "; ";
        }
        if others.0 > 0 {
            let _ = write!(
                text,
                "; {}, {}",
                plural(others.0, "more directory", "more directories"),
                plural(others.1, "path", "paths")
            );
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(paths: &[(&str, u64)]) -> Tally {
        let mut tally = Tally::default();
        for &(dir, n) in paths {
            for _ in 0..n {
                tally.add(dir);
            }
        }
        tally
    }

    #[test]
    fn the_largest_directory_is_split_while_the_marker_fits() {
        let mut t = tally(&[
            ("src/main/java/a", 3),
            ("src/main/java/a/b", 40),
            ("src/main/java/a/c", 9),
            ("src/test/java/a", 20),
        ]);
        assert_eq!(
            t.label(60).as_deref(),
            Some(": 72 paths, by directory under src/: main/java/ 52; test/ 20")
        );
        assert_eq!(
            t.label(200).as_deref(),
            Some(": 72 paths, by directory under src/: main/java/a/{* 3, b/ 40, c/ 9}; test/ 20")
        );
        assert_eq!(t.label(40), None);
    }

    #[test]
    fn paths_in_one_directory_make_no_tally_and_taken_back_paths_are_not_counted() {
        let mut t = tally(&[("a", 5), ("b", 1)]);
        assert!(t.label(100).is_some());
        t.remove("b");
        assert_eq!(t.label(100), None);
    }
}
