//! Repeated diagnostics, counted once per template.
//!
//! A build that prints the same warning 500 times says one thing 500 times; the count is the
//! information. A diagnostic's *variant* is its text without the location in front
//! (`a.c:12:5: `), so the same warning at two places is one variant; its *template* also blanks
//! out numbers, hex, paths and quoted names, so near-identical ones group together. The table
//! keeps, per template, its count, where it occurs and a few variants with their first
//! occurrence. It is capped and insertion-ordered: past the cap, occurrences only add to an
//! "other" count, and nothing depends on hash order.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::BuildHasher;

use super::store::Kept;
use crate::hash::FastHash;

/// Templates tracked before the rest is counted as "other".
const MAX_TEMPLATES: usize = 256;
/// Variants kept per template.
const MAX_VARIANTS: usize = 8;

#[derive(Debug, Clone)]
pub struct Variant {
    pub key: String,
    /// [`key_hash`] of `key`: most keys that are not this one are told apart by it alone.
    hash: u64,
    pub count: u64,
    /// The variant's first occurrence, as shown.
    pub example: Kept,
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

#[derive(Debug, Default)]
pub struct Dedup {
    index: HashMap<String, usize, FastHash>,
    /// Variant keys met before, by their [`key_hash`], to the key, its template and its place
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
    scratch: String,
    pub templates: Vec<Template>,
    /// Occurrences whose template did not fit the table.
    pub other: u64,
}

impl Dedup {
    /// Counts one occurrence; `line` is kept only when it is a new variant's first occurrence.
    /// Returns the template's index, or `None` past the cap.
    #[cfg(test)]
    pub fn add(&mut self, line: Kept) -> Option<usize> {
        let (id, new_variant) = self.tally(&line.text, line.no)?;
        self.keep_variant(id, new_variant, || line);
        Some(id)
    }

    /// Counts one occurrence of the shown text `text` at line `no`; `make` is called for the
    /// line only when it is a new variant's first occurrence, so a repeat costs no copy.
    pub fn add_with(&mut self, text: &str, no: u64, make: impl FnOnce() -> Kept) -> Option<usize> {
        let (id, new_variant) = self.tally(text, no)?;
        self.keep_variant(id, new_variant, make);
        Some(id)
    }

    /// Keeps a new variant of template `id`, with `make`'s line as its first occurrence.
    fn keep_variant(&mut self, id: usize, key: Option<String>, make: impl FnOnce() -> Kept) {
        if let Some(key) = key {
            self.templates[id].variants.push(Variant {
                hash: key_hash(&key),
                key,
                count: 1,
                example: make(),
            });
        }
    }

    /// Counts one occurrence of `text` at line `no`: its template's index (`None` past the
    /// cap), and the key of a new variant that the template has room to keep.
    fn tally(&mut self, text: &str, no: u64) -> Option<(usize, Option<String>)> {
        let key = variant_key(text);
        let hash = key_hash(key);
        if let Some((_, id, variant)) = self.known.get(&hash).filter(|k| *k.0 == *key) {
            let template = &mut self.templates[*id];
            template.count += 1;
            template.last_line = no;
            if let Some(v) = *variant {
                template.variants[v].count += 1;
            }
            return Some((*id, None));
        }
        let mut template_key = std::mem::take(&mut self.scratch);
        template_of(key, &mut template_key);
        let found = self.index.get(template_key.as_str()).copied();
        let id = if let Some(id) = found {
            self.scratch = template_key;
            id
        } else {
            if self.templates.len() >= MAX_TEMPLATES {
                self.scratch = template_key;
                self.other += 1;
                return None;
            }
            self.index.insert(template_key, self.templates.len());
            self.templates.push(Template {
                count: 0,
                first_line: no,
                last_line: no,
                variants: Vec::new(),
            });
            self.templates.len() - 1
        };
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
        let mut template_key = String::new();
        template_of(variant_key(text), &mut template_key);
        self.index.get(&template_key).copied()
    }

    /// The count of the template `id` (0 for `None`).
    #[must_use]
    pub fn count(&self, id: Option<usize>) -> u64 {
        id.map_or(0, |i| self.templates[i].count)
    }
}

/// The hash a variant key is known by in [`Dedup`]'s tables.
fn key_hash(key: &str) -> u64 {
    FastHash::default().hash_one(key)
}

/// The text after a leading location such as `src/a.c:12:5: ` or `a.py:21: `.
pub fn variant_key(text: &str) -> &str {
    let t = text.trim_start();
    let bytes = t.as_bytes();
    // A path-like first word followed by `:digits` fields: the first ':' comes before any ' '.
    let Some(colon) = memchr::memchr2(b':', b' ', bytes) else {
        return t;
    };
    if colon == 0 || bytes[colon] != b':' {
        return t;
    }
    let mut at = colon + 1;
    let mut fields = 0;
    loop {
        let digits = bytes[at..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits == 0 || bytes.get(at + digits) != Some(&b':') {
            break;
        }
        at += digits + 1;
        fields += 1;
    }
    if fields > 0 { t[at..].trim_start() } else { t }
}

/// What a byte starts in [`template_of`]: nothing to blank, a quoted name, a number or a path.
const PLAIN: u8 = 0;
const QUOTE: u8 = 1;
const NUMBER: u8 = 2;
const PATH: u8 = 3;

static STARTS: [u8; 256] = {
    let mut table = [PLAIN; 256];
    table[b'\'' as usize] = QUOTE;
    table[b'"' as usize] = QUOTE;
    table[b'`' as usize] = QUOTE;
    let mut d = b'0';
    while d <= b'9' {
        table[d as usize] = NUMBER;
        d += 1;
    }
    table[b'/' as usize] = PATH;
    table[b'\\' as usize] = PATH;
    table
};

/// Numbers, hex, paths and quoted names blanked out.
fn template_of(key: &str, out: &mut String) {
    // Every character that starts a blanked run is ASCII, so the text between such runs is
    // copied as whole slices.
    let bytes = key.as_bytes();
    out.clear();
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match STARTS[usize::from(c)] {
            PLAIN => {
                i += 1;
                continue;
            }
            QUOTE => {
                // A quoted name: up to the closing quote on the same line. An unclosed quote
                // keeps the rest as it is.
                let Some(len) = memchr::memchr(c, &bytes[i + 1..]) else {
                    break;
                };
                out.push_str(&key[copied..=i]);
                out.push('\u{2026}');
                out.push(char::from(c));
                i += len + 2;
            }
            NUMBER => {
                let mut j = i + 1;
                while j < bytes.len()
                    && (bytes[j].is_ascii_hexdigit() || matches!(bytes[j], b'x' | b'.'))
                {
                    j += 1;
                }
                out.push_str(&key[copied..i]);
                out.push('#');
                i = j;
            }
            _ => {
                // A path: the rest of the word.
                let mut j = i + 1;
                while j < bytes.len()
                    && !(bytes[j].is_ascii_whitespace()
                        || matches!(bytes[j], b':' | b',' | b')' | 0x0b | 0x0c)
                        || starts_unicode_space(&key[j..]))
                {
                    j += 1;
                    while !key.is_char_boundary(j) {
                        j += 1;
                    }
                }
                out.push_str(&key[copied..i]);
                out.push('/');
                i = j;
            }
        }
        copied = i;
    }
    out.push_str(&key[copied..]);
}

/// Whether `s` starts with a whitespace character outside ASCII (it ends a path as ASCII
/// whitespace does).
fn starts_unicode_space(s: &str) -> bool {
    s.as_bytes().first().is_some_and(|&b| b >= 0x80)
        && s.chars().next().is_some_and(char::is_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::class::{Class, Counts};

    /// `template_of` one character at a time: the plain statement of what it does.
    fn template_of_naive(key: &str) -> String {
        let mut out = String::new();
        let mut chars = key.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\'' | '"' | '`' => {
                    let mut rest = String::new();
                    let mut closed = false;
                    for d in chars.by_ref() {
                        if d == c {
                            closed = true;
                            break;
                        }
                        rest.push(d);
                    }
                    out.push(c);
                    if closed {
                        out.push('\u{2026}');
                        out.push(c);
                    } else {
                        out.push_str(&rest);
                    }
                }
                '0'..='9' => {
                    out.push('#');
                    while chars
                        .peek()
                        .is_some_and(|d| d.is_ascii_hexdigit() || matches!(d, 'x' | '.'))
                    {
                        chars.next();
                    }
                }
                '/' | '\\' => {
                    out.push('/');
                    while chars
                        .peek()
                        .is_some_and(|d| !d.is_whitespace() && !matches!(d, ':' | ',' | ')'))
                    {
                        chars.next();
                    }
                }
                _ => out.push(c),
            }
        }
        out
    }

    #[test]
    fn template_of_same_as_naive() {
        let parts = [
            "a",
            "Z",
            " ",
            "0",
            "9",
            "x",
            ".",
            "'",
            "\"",
            "`",
            "/",
            "\\",
            ":",
            ",",
            ")",
            "\u{a0}",
            "\u{b}",
            "\u{e9}",
            "\u{4e2d}",
            "warning: ",
            "f",
            "\t",
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..50_000 {
            let mut key = String::new();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            for _ in 0..(state % 12) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                key.push_str(parts[usize::try_from(state % parts.len() as u64).unwrap()]);
            }
            assert_eq!(template_of(&key), template_of_naive(&key), "{key:?}");
        }
    }

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

    #[test]
    fn locations_are_not_part_of_a_variant() {
        assert_eq!(variant_key("src/a.c:12:5: warning: x"), "warning: x");
        assert_eq!(
            variant_key("a.py:21: DeprecationWarning: y"),
            "DeprecationWarning: y"
        );
        assert_eq!(variant_key("warning: no location"), "warning: no location");
        assert_eq!(
            variant_key("WARNING:linecheck:a.py: 3 lines"),
            "WARNING:linecheck:a.py: 3 lines"
        );
    }

    fn template_of(key: &str) -> String {
        let mut out = String::new();
        super::template_of(key, &mut out);
        out
    }

    #[test]
    fn templates_blank_numbers_paths_and_names() {
        assert_eq!(
            template_of("conversion to 'char' from 'unsigned char' [-Wsign-conversion]"),
            "conversion to '\u{2026}' from '\u{2026}' [-Wsign-conversion]"
        );
        assert_eq!(
            template_of("x.py: 32 lines over 79 at 0x7f3a in /usr/lib/a.py"),
            "x.py: # lines over # at # in /"
        );
        assert_eq!(template_of("unclosed 'quote"), "unclosed 'quote");
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

    /// Counts against a plain tally: per template, its count, first and last line; per kept
    /// variant (the first `MAX_VARIANTS` met), its count and first line. Many repeats, and more
    /// variants than a template keeps, so that known variants are counted the short way.
    #[test]
    fn counts_match_a_plain_tally() {
        let mut d = Dedup::default();
        let mut templates: Vec<(String, u64, u64, u64)> = Vec::new();
        let mut variants: Vec<(String, String, u64, u64)> = Vec::new();
        let mut seed = 0x9e37_79b9_u32;
        for no in 1..20_000u64 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let (kind, var) = ((seed >> 16) % 3, (seed >> 20) % 13);
            let text = format!("m{no}.c:{no}: warning: kind{kind} unused 'v{var}'");
            d.add(kept(no, &text));
            let key = variant_key(&text).to_owned();
            let template = template_of(&key);
            match templates.iter_mut().find(|t| t.0 == template) {
                Some(t) => {
                    t.1 += 1;
                    t.3 = no;
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
        assert_eq!(d.templates.len(), templates.len());
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
