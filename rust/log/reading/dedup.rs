//! Repeated diagnostics, counted once per template.
//!
//! A build that prints the same warning 500 times says one thing 500 times; the count is the
//! information. A diagnostic's *variant* is its text without the location in front
//! (`a.c:12:5: `), so the same warning at two places is one variant; its *template* also blanks
//! out numbers, hex, paths and quoted names, so near-identical ones group together. The table
//! keeps, per template, its count, where it occurs and a few variants with their first
//! occurrence. It is capped and insertion-ordered: past the cap, occurrences only add to an
//! "other" count, and nothing depends on hash order.

mod template;

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use super::store::Kept;
use crate::hash::FastHash;
pub use template::variant_key;
use template::{head_hash, key_head_hash, template, text_hash};

/// Templates tracked before the rest is counted as "other".
const MAX_TEMPLATES: usize = 256;
/// Variants kept per template.
const MAX_VARIANTS: usize = 8;

/// Where a diagnostic's variant key lies in its text, and the [`text_hash`] of the key: what
/// the tables know it by, worked out by the look-ahead for an error line as it is shown whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    at: usize,
    end: usize,
    hash: u64,
}

impl Key {
    /// The key of the diagnostic `text`.
    #[must_use]
    pub fn of(text: &str) -> Self {
        let key = variant_key(text);
        // A part of `text`: what follows its location, or the kind a summary line names.
        let at = key.as_ptr() as usize - text.as_ptr() as usize;
        Key {
            at,
            end: at + key.len(),
            hash: text_hash(key.as_bytes()),
        }
    }
}

/// A variant's first occurrence and its heading.
pub type Example = (Kept, Option<Kept>);

#[derive(Debug, Clone)]
pub struct Variant {
    pub key: String,
    /// [`text_hash`] of `key`: most keys that are not this one are told apart by it alone.
    hash: u64,
    pub count: u64,
    /// The variant's first occurrence, as shown.
    pub example: Kept,
    /// The line that names the file of `example`, when `example` gives only a line number
    /// ([`super::heading`]).
    pub heading: Option<Kept>,
}

#[derive(Debug, Clone)]
pub struct Template {
    pub count: u64,
    pub first_line: u64,
    pub last_line: u64,
    pub variants: Vec<Variant>,
}

/// Bytes of variant keys remembered in [`Dedup`]'s look-up of known variants.
const KNOWN_BYTES: usize = 1 << 20;
/// Slots of [`Dedup`]'s memory of keys met once: a power of two. A repeat comes back before
/// its slot is taken over when fewer than about this many new keys came between. The table
/// (16 KiB) stays in the first-level cache: at 256 KiB, one slot read per new key missed it,
/// and on a log whose every error is new that miss was half the time of counting it.
const SEEN_SLOTS: usize = 1 << 12;
/// Bits of [`Dedup`]'s sketch of the table's template heads: a power of two, sixteen for each
/// template the table holds, so that few heads not in it find their bit set.
const HEAD_BITS: usize = 1 << 12;

#[derive(Debug, Default)]
pub struct Dedup {
    /// Templates by the [`text_hash`] of their text, to the first one with that hash.
    index: HashMap<u64, usize, FastHash>,
    /// The text of each template, by index: what a look-up in `index` is checked against.
    texts: Vec<Box<[u8]>>,
    /// The template the last line worked out was found or put at.
    last: Option<usize>,
    /// A bit for the [`head_hash`] of each template in the table, by a few of its bits. Past
    /// the cap, a line whose template's head has no bit set is counted as "other" from the
    /// head alone, unread past it: on a log whose every warning is new, that is most of them.
    heads: Vec<u64>,
    /// Variant keys met before, by their [`text_hash`], to the key, its template and its place
    /// among its variants (`None` when it had no room to keep them): a repeat is counted with
    /// one look-up, without working out its template. Keyed by the hash that the other
    /// tables use too, so that a line's key is hashed once. Up to [`KNOWN_BYTES`] of keys, one
    /// a hash; later ones, and a key whose hash another holds, take the long way.
    known: HashMap<u64, (Box<str>, usize, Option<usize>), FastHash>,
    known_bytes: usize,
    /// Hashes of variant keys met once, by a few of their bits, each slot holding the latest:
    /// a key goes into `known` only when it comes again, so that a log whose every diagnostic
    /// is new (an error per line) pays no copy and no insertion for each. A slot taken over by
    /// another key only costs that key a later entry; `known` is a shortcut, never a count.
    seen: Vec<u32>,
    /// The template of the line being added, reused between lines.
    scratch: Vec<u8>,
    pub templates: Vec<Template>,
    /// Occurrences whose template did not fit the table.
    pub other: u64,
}

impl Dedup {
    /// Counts one occurrence; `line` is kept only when it is a new variant's first occurrence.
    /// Returns the template's index, or `None` past the cap.
    #[cfg(test)]
    pub fn add(&mut self, line: Kept) -> Option<usize> {
        let key = Key::of(&line.text);
        let (id, new_variant) = self.tally(&line.text[key.at..], key.hash, line.no)?;
        self.keep_variant(id, new_variant, || (line, None));
        Some(id)
    }

    /// Counts one occurrence of the shown text `text` at line `no`; `make` is called for the
    /// line (and its heading) only when it is a new variant's first occurrence, so a repeat
    /// costs no copy.
    pub fn add_with(
        &mut self,
        text: &str,
        no: u64,
        make: impl FnOnce() -> Example,
    ) -> Option<usize> {
        self.add_keyed(text, Key::of(text), no, make)
    }

    /// [`Dedup::add_with`] of a text whose [`Key`] is `key`.
    pub fn add_keyed(
        &mut self,
        text: &str,
        key: Key,
        no: u64,
        make: impl FnOnce() -> Example,
    ) -> Option<usize> {
        let (id, new_variant) = self.tally(&text[key.at..key.end], key.hash, no)?;
        self.keep_variant(id, new_variant, make);
        Some(id)
    }

    /// Keeps a new variant of template `id`, with `make`'s line as its first occurrence.
    fn keep_variant(&mut self, id: usize, key: Option<String>, make: impl FnOnce() -> Example) {
        if let Some(key) = key {
            let (example, heading) = make();
            self.templates[id].variants.push(Variant {
                hash: text_hash(key.as_bytes()),
                key,
                count: 1,
                example,
                heading,
            });
        }
    }

    /// Counts one occurrence at line `no` of the variant key `key`, of [`text_hash`] `hash`:
    /// its template's index (`None` past the cap), and the key of a new variant that the
    /// template has room to keep.
    fn tally(&mut self, key: &str, hash: u64, no: u64) -> Option<(usize, Option<String>)> {
        if self.templates.len() >= MAX_TEMPLATES
            && key_head_hash(key).is_some_and(|head| !self.may_hold(head))
        {
            // Neither the template nor, then, the key (`known` holds only keys of templates in
            // the table) can be found.
            self.other += 1;
            return None;
        }
        if let Some((_, id, variant)) = self.known.get(&hash).filter(|k| *k.0 == *key) {
            let template = &mut self.templates[*id];
            template.count += 1;
            template.last_line = no;
            if let Some(v) = *variant {
                template.variants[v].count += 1;
            }
            return Some((*id, None));
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        let built = template(key, &mut scratch);
        let text = built.unwrap_or(key.as_bytes());
        // Diagnostics in a row often share a template: the last one is tried before a hash.
        let found = match self.last {
            Some(id) if *self.texts[id] == *text => Some(id),
            _ => self.lookup(text, built.map_or(hash, text_hash)),
        };
        let id = if let Some(id) = found {
            id
        } else if self.templates.len() >= MAX_TEMPLATES {
            self.scratch = scratch;
            self.other += 1;
            return None;
        } else {
            let id = self.templates.len();
            self.index
                .entry(built.map_or(hash, text_hash))
                .or_insert(id);
            self.texts.push(text.into());
            self.mark_head(head_hash(text));
            self.templates.push(Template {
                count: 0,
                first_line: no,
                last_line: no,
                variants: Vec::new(),
            });
            id
        };
        self.scratch = scratch;
        self.last = Some(id);
        let template = &mut self.templates[id];
        template.count += 1;
        template.last_line = no;
        if let Some(v) = template
            .variants
            .iter_mut()
            .find(|v| v.hash == hash && v.key == key)
        {
            v.count += 1;
            return Some((id, None));
        }
        // The caller keeps a new variant, at the end of the list, when there is room.
        let room = template.variants.len() < MAX_VARIANTS;
        let place = room.then_some(template.variants.len());
        if self.known_bytes + key.len() <= KNOWN_BYTES && self.seen_before(hash) {
            if let Entry::Vacant(slot) = self.known.entry(hash) {
                self.known_bytes += key.len();
                slot.insert((key.into(), id, place));
            }
        }
        Some((id, room.then(|| key.to_owned())))
    }

    /// The index of the template with text `text`, of [`text_hash`] `hash`, if the table has it.
    fn lookup(&self, text: &[u8], hash: u64) -> Option<usize> {
        let &id = self.index.get(&hash)?;
        if *self.texts[id] == *text {
            Some(id)
        } else {
            // Another template has this hash (the index holds the first): rare, and the
            // table is capped.
            self.texts.iter().position(|t| **t == *text)
        }
    }

    /// The bit of `heads` for the head hash `head`: its word and the bit in it.
    fn head_bit(head: u64) -> (usize, u64) {
        // The high bits, which the multiplying hash mixes best.
        let bit = usize::try_from(head >> (64 - HEAD_BITS.trailing_zeros())).unwrap_or(0);
        (bit / 64, 1 << (bit % 64))
    }

    /// Remembers that a template in the table has the head hash `head`.
    fn mark_head(&mut self, head: u64) {
        if self.heads.is_empty() {
            self.heads = vec![0; HEAD_BITS / 64];
        }
        let (word, bit) = Self::head_bit(head);
        self.heads[word] |= bit;
    }

    /// Whether a template in the table may have the head hash `head`.
    fn may_hold(&self, head: u64) -> bool {
        let (word, bit) = Self::head_bit(head);
        self.heads.get(word).is_some_and(|w| w & bit != 0)
    }

    /// Whether the key of hash `hash` was probably met before (see `seen`); remembers it for
    /// the next time.
    fn seen_before(&mut self, hash: u64) -> bool {
        if self.seen.is_empty() {
            self.seen = vec![0; SEEN_SLOTS];
        }
        // The slot from the high bits, which the multiplying hash mixes best; the low half,
        // never 0 (an empty slot), tells keys in one slot apart.
        let slot = usize::try_from(hash >> (64 - SEEN_SLOTS.trailing_zeros())).unwrap_or(0);
        #[allow(clippy::cast_possible_truncation, reason = "the low half is wanted")]
        let tag = (hash as u32) | 1;
        std::mem::replace(&mut self.seen[slot], tag) == tag
    }

    /// The template a diagnostic with this text belongs to, if the table has it.
    #[must_use]
    pub fn find(&self, text: &str) -> Option<usize> {
        let key = variant_key(text);
        let mut scratch = Vec::new();
        let text = template(key, &mut scratch).unwrap_or(key.as_bytes());
        self.lookup(text, text_hash(text))
    }

    /// The count of the template `id` (0 for `None`).
    #[must_use]
    pub fn count(&self, id: Option<usize>) -> u64 {
        id.map_or(0, |i| self.templates[i].count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::reading::class::{Class, Counts};

    fn kept(no: u64, text: &str) -> Kept {
        Kept {
            no,
            class: Class::Warning,
            cum: Counts::default(),
            text: text.into(),
            chars: text.chars().count() as u64,
            nl: true,
            truncated: false,
        }
    }

    fn template_of(key: &str) -> String {
        let mut scratch = Vec::new();
        let text = template(key, &mut scratch).unwrap_or(key.as_bytes());
        String::from_utf8(text.to_vec()).expect("a template is UTF-8")
    }

    #[test]
    fn identical_and_similar_are_counted_per_template() {
        let mut d = Dedup::default();
        let a = d.add(kept(3, "a.c:1:2: warning: unused 'x'"));
        d.add(kept(9, "a.c:7:2: warning: unused 'x'"));
        d.add(kept(12, "b.c:4:4: warning: unused 'y'"));
        let b = d.add(kept(20, "a.c:1:2: warning: other"));
        assert_eq!(a, Some(0));
        assert_eq!(b, Some(1));
        let t = &d.templates[0];
        assert_eq!((t.count, t.first_line, t.last_line), (3, 3, 12));
        assert_eq!(t.variants.len(), 2);
        assert_eq!(t.variants[0].count, 2);
        assert_eq!(t.variants[0].example.no, 3);
        assert_eq!(d.count(a), 3);
    }

    /// Adds `texts` (line numbers from 1) and checks the counts against a plain tally: per
    /// template (the first `MAX_TEMPLATES` met), its count, first and last line; per kept
    /// variant (the first `MAX_VARIANTS` met), its count and first line; and the rest.
    fn assert_counts_match_a_plain_tally(texts: impl Iterator<Item = String>) {
        let mut d = Dedup::default();
        let mut templates: Vec<(String, u64, u64, u64)> = Vec::new();
        let mut variants: Vec<(String, String, u64, u64)> = Vec::new();
        let mut other = 0;
        for (text, no) in texts.zip(1u64..) {
            d.add(kept(no, &text));
            let key = variant_key(&text).to_owned();
            let template = template_of(&key);
            let full = templates.len() >= MAX_TEMPLATES;
            match templates.iter_mut().find(|t| t.0 == template) {
                Some(t) => {
                    t.1 += 1;
                    t.3 = no;
                }
                None if full => {
                    other += 1;
                    continue;
                }
                None => templates.push((template.clone(), 1, no, no)),
            }
            let room = variants.iter().filter(|v| v.0 == template).count() < MAX_VARIANTS;
            match variants.iter_mut().find(|v| v.1 == key) {
                Some(v) => v.2 += 1,
                None if room => variants.push((template, key, 1, no)),
                None => {}
            }
        }
        assert_eq!((d.templates.len(), d.other), (templates.len(), other));
        for (got, want) in d.templates.iter().zip(&templates) {
            assert_eq!(
                (got.count, got.first_line, got.last_line),
                (want.1, want.2, want.3)
            );
            let kept: Vec<_> = variants.iter().filter(|v| v.0 == want.0).collect();
            assert_eq!(got.variants.len(), kept.len());
            for (g, w) in got.variants.iter().zip(kept) {
                assert_eq!((&g.key, g.count, g.example.no), (&w.1, w.2, w.3));
            }
        }
    }

    /// Many repeats, and more variants than a template keeps, so that known variants are
    /// counted the short way.
    #[test]
    fn counts_match_a_plain_tally() {
        let mut seed = 0x9e37_79b9_u32;
        assert_counts_match_a_plain_tally((1..20_000u64).map(|no| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let (kind, var) = ((seed >> 16) % 3, (seed >> 20) % 13);
            format!("m{no}.c:{no}: warning: kind{kind} unused 'v{var}'")
        }));
    }

    /// Past the cap, templates in the table and out of it, with heads of every kind: longer
    /// than [`template::HEAD`] or not, with something blanked in them or not.
    #[test]
    fn counts_match_a_plain_tally_past_the_cap() {
        let word = |n: u32| -> String {
            (0..=n / 26)
                .map(|k| char::from(b'a' + u8::try_from((n + k) % 26).unwrap()))
                .collect()
        };
        let mut seed = 0x2545_f491_u32;
        assert_counts_match_a_plain_tally((1..30_000u64).map(|no| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let (kind, a, b) = ((seed >> 8) % 4, (seed >> 12) % 400, (seed >> 22) % 5);
            let (a, b) = (word(a), word(b));
            match kind {
                0 => format!("a.c:{no}: warning: {a} shadows '{b}'"),
                1 => format!("w{a}"),
                2 => format!("'{a}' {b}"),
                _ => format!("note: {no} {a} {b}"),
            }
        }));
    }

    /// Two templates of one hash are still told apart: here the index is made to hold the
    /// first one under the second's hash, as a collision would leave it.
    #[test]
    fn templates_of_one_hash_are_told_apart() {
        let mut d = Dedup::default();
        d.add(kept(1, "warning: first"));
        d.index.insert(text_hash(b"warning: second"), 0);
        assert_eq!(d.find("warning: second"), None);
        assert_eq!(d.add(kept(2, "a.c:1: warning: second")), Some(1));
        assert_eq!(d.add(kept(3, "warning: second")), Some(1));
        assert_eq!(d.add(kept(4, "warning: first")), Some(0));
        assert_eq!(d.find("warning: second"), Some(1));
        assert_eq!((d.count(Some(0)), d.count(Some(1))), (2, 2));
    }

    #[test]
    fn the_table_is_capped_with_an_other_count() {
        let mut d = Dedup::default();
        for i in 0..(MAX_TEMPLATES + 10) {
            let word: String = (0..6)
                .map(|k| char::from(b'a' + u8::try_from((i >> (k * 3)) % 8).unwrap()))
                .collect();
            d.add(kept(i as u64, &format!("warning: {word}")));
        }
        assert_eq!(d.templates.len(), MAX_TEMPLATES);
        assert_eq!(d.other, 10);
    }
}
