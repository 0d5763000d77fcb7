//! What a line of a file read is: a definition, the line an agent looks for in the part of a
//! file it did not see (a function it will call or edit, a class it will open); or filler,
//! a blank or comment-only line, the first to go when a read is a little too long.
//!
//! A definition is recognised by how it starts, after the line number a viewer may print
//! (`cat -n`, `nl -ba`, `N:` windows) and the indentation: a keyword that opens a definition in
//! common languages, or, for the C family and Java, a signature: a declaration with its
//! parameter list before any `=`. Only the first few bytes are compared, so a line costs a
//! handful of compares however long it is.

use crate::text::past_line_number;

/// Keywords that open a definition when a line starts with them.
const KEYWORDS: &[&[u8]] = &[
    b"def ",
    b"async def ",
    b"class ",
    b"fn ",
    b"pub fn ",
    b"pub(crate) fn ",
    b"pub struct ",
    b"pub enum ",
    b"pub trait ",
    b"impl ",
    b"impl<",
    b"trait ",
    b"struct ",
    b"enum ",
    b"interface ",
    b"func ",
    b"function ",
    b"export ",
    b"module ",
    b"object ",
    b"fun ",
];

/// Modifiers that open a declaration in Java, C#, Kotlin, Scala, TypeScript and C++.
const MODIFIERS: &[&[u8]] = &[
    b"public ",
    b"private ",
    b"protected ",
    b"internal ",
    b"static ",
    b"abstract ",
    b"final ",
    b"override ",
    b"virtual ",
    b"synchronized ",
];

/// Words a C-family signature at the margin has at most before its parameter list
/// (`unsigned long long int hash`).
const MAX_DECLARATOR_WORDS: usize = 6;
/// Words after a C-family signature's parameter list at most, before its `{` (`const
/// noexcept`, `-> int`).
const MAX_QUALIFIER_WORDS: usize = 2;

/// Words that start a statement, not a top-level signature, in C-like code.
const STATEMENTS: &[&[u8]] = &[
    b"if", b"for", b"while", b"switch", b"return", b"else", b"do", b"case", b"catch", b"try",
];

/// The code after annotations on the same line (`@Override public T read(...)`).
fn past_annotations(mut code: &[u8]) -> &[u8] {
    while code.first() == Some(&b'@') {
        let Some(space) = memchr::memchr(b' ', code) else {
            return code;
        };
        code = &code[space + 1..];
    }
    code
}

/// Whether `line` is an annotation or decorator alone (`@Override`, `@property`): it belongs
/// to the definition after it.
#[must_use]
pub fn is_annotation(line: &str) -> bool {
    let code = past_line_number(line.as_bytes());
    let code = &code[code.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
    let rest = past_annotations(code);
    code.first() == Some(&b'@') && (rest.is_empty() || rest.first() == Some(&b'@'))
}

/// Whether `line` (without its `'\n'`) opens a definition.
#[must_use]
pub fn is_definition(line: &str) -> bool {
    let (indent, code) = code_of(line);
    if is_declared(code) {
        return true;
    }
    let paren = memchr::memchr(b'(', code);
    // A C-family function at the margin: `static int f(int x) {`, `int main(void)`.
    indent == 0
        && code.first().is_some_and(u8::is_ascii_alphabetic)
        && signature(code)
        && !code.trim_ascii_end().ends_with(b";")
        && !code.trim_ascii_end().ends_with(b".")
        && paren.is_some_and(|p| declarator(&code[..p]) && ends_signature(&code[p..]))
        && code
            .iter()
            .position(|&b| b == b' ')
            .is_some_and(|s| paren.is_some_and(|p| s < p) && !STATEMENTS.contains(&&code[..s]))
}

/// The words before a signature's parameter list before the list: its return type,
/// qualifiers and name (`static const char *name`, `std::vector<int> &Parser::items`), a few
/// words of identifiers, pointers, references and template arguments. A sentence of prose with
/// a parenthesis (`except for testing (which`, `links on [Wiki](url)`) has more words, or
/// other punctuation.
fn declarator(before: &[u8]) -> bool {
    before
        .split(u8::is_ascii_whitespace)
        .filter(|w| !w.is_empty())
        .count()
        <= MAX_DECLARATOR_WORDS
        && before.iter().all(|&b| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b' ' | b'\t' | b'_' | b'*' | b'&' | b':' | b'<' | b'>' | b',' | b'~'
                )
        })
}

/// Whether what follows a signature's parameter list on its line (`list`, from its `(`) can
/// end a signature: nothing (or the list goes on to the next line), `{`, a qualifier or two
/// (`const`, `-> int`, `override`), a constructor's initializers (`: base(x)`). A sentence
/// goes on after its parenthesis: `(with or without modification), making available to the`.
fn ends_signature(list: &[u8]) -> bool {
    let mut depth = 0_usize;
    let Some(close) = list.iter().position(|&b| {
        match b {
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            _ => return false,
        }
        depth == 0
    }) else {
        return true;
    };
    let after = list[close + 1..].trim_ascii();
    let before_brace = &after[..memchr::memchr(b'{', after).unwrap_or(after.len())];
    !after.starts_with(b",")
        && !after.starts_with(b".")
        && (after.starts_with(b":")
            || before_brace
                .split(u8::is_ascii_whitespace)
                .filter(|w| !w.is_empty())
                .count()
                <= MAX_QUALIFIER_WORDS)
}

/// Whether `line` opens a definition by a keyword or a modifier (`def`, `fn`, `public`), which
/// only code does: a line of a log may look like a C function at the margin (`Result: f(x)`).
#[must_use]
pub fn is_declaration(line: &str) -> bool {
    is_declared(code_of(line).1)
}

/// The indentation's width and the code after it, past a viewer's line number and annotations.
fn code_of(line: &str) -> (usize, &[u8]) {
    let code = past_line_number(line.as_bytes());
    let indent = code
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    (indent, past_annotations(&code[indent..]))
}

fn is_declared(code: &[u8]) -> bool {
    if KEYWORDS.iter().any(|k| code.starts_with(k)) {
        return true;
    }
    MODIFIERS.iter().any(|m| code.starts_with(m))
        && (signature(code) || code.windows(7).any(|w| w == b" class "))
}

/// Whether `code` has a parameter list before any `=`.
fn signature(code: &[u8]) -> bool {
    let paren = memchr::memchr(b'(', code);
    let equals = memchr::memchr(b'=', code);
    paren.is_some_and(|p| equals.is_none_or(|e| p < e))
}

/// How a comment-only line starts, after the indentation.
const COMMENTS: &[&[u8]] = &[b"//", b"/*", b"*", b"# ", b"#\t", b"--"];

/// Whether `line` holds a word or a number after the line number a viewer may print: not a
/// blank line, nor a comment's opening or closing (`/**`, `*/`, `"""`) alone.
#[must_use]
pub fn has_words(line: &str) -> bool {
    past_line_number(line.as_bytes())
        .iter()
        .any(u8::is_ascii_alphanumeric)
}

/// Whether `line` is blank or a comment alone (`#`, `//`, `/* */`, a doc comment's `*`), after
/// the line number a viewer may print.
#[must_use]
pub fn is_filler(line: &str) -> bool {
    let code = past_line_number(line.as_bytes());
    let code = &code[code.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
    code.is_empty() || code == b"#" || COMMENTS.iter().any(|c| code.starts_with(c))
}

/// Whether `line` is blank after the line number a viewer may print.
#[must_use]
pub fn is_blank(line: &str) -> bool {
    past_line_number(line.as_bytes()).trim_ascii().is_empty()
}

/// Whether `line` is an import of one line, after the line number a viewer may print and
/// the indentation: `import a.b;`, `from a import b`, `use a::b;`, `#include <a.h>`,
/// `package a;`. (The lines inside a bracketed import are not told from code.)
#[must_use]
pub fn is_import(line: &str) -> bool {
    let code = past_line_number(line.as_bytes());
    let code = &code[code.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
    let ends = |end: &[u8]| code.trim_ascii_end().ends_with(end);
    (code.starts_with(b"import ") && !ends(b"(") && !ends(b"{"))
        || (code.starts_with(b"from ")
            && memchr::memmem::find(code, b" import ").is_some()
            && !ends(b"("))
        || (code.starts_with(b"use ") && ends(b";"))
        || code.starts_with(b"#include ")
        || code.starts_with(b"#include<")
        || (code.starts_with(b"package ") && !ends(b"{"))
}

/// Where a line leaves the reader: inside a docstring or block comment (filler until it
/// closes), or inside a multi-line string that is data (code until it closes).
#[derive(Debug, Clone, Copy)]
struct Open {
    close: &'static [u8],
    filler: bool,
}

/// Says which lines of a file, read in order, are filler: blank and comment-only lines as
/// [`is_filler`] says, and every line of a docstring or block comment, which an agent reads
/// far less often than the code between them. A triple-quoted string that a line of code
/// opens (`sql = """`) is data, and its lines are not filler.
///
/// A read often starts inside a file (`sed -n`, a viewer's window), perhaps inside a
/// docstring, whose closing quotes would then look like an opening: everything after would
/// pass for documentation. So only where Python puts one does a docstring open (the first
/// statement after a header ending in `:`, or before any code), and only after `=`, `(`, `,`
/// and the like does a string of data: any other lone triple quote closes a string that
/// opened before the read began.
#[derive(Debug, Default)]
pub struct FillerReader {
    open: Option<Open>,
    /// Some line of code was read.
    code_seen: bool,
    /// The last line of code ended a header (`def f(x):`, `class A:`, `) -> int:`).
    after_header: bool,
}

impl FillerReader {
    /// Whether `line`, the next line of the file, is filler.
    pub fn is_filler(&mut self, line: &str) -> bool {
        let code = past_line_number(line.as_bytes());
        let code = &code[code.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
        if let Some(open) = self.open {
            if memchr::memmem::find(code, open.close).is_some() {
                self.open = None;
            }
            return open.filler;
        }
        if let Some(after) = code.strip_prefix(b"/*") {
            if memchr::memmem::find(after, b"*/").is_none() {
                self.open = Some(Open {
                    close: b"*/",
                    filler: true,
                });
            }
            return true;
        }
        if is_filler(line) {
            return true;
        }
        let docstring_may_open = self.after_header || !self.code_seen;
        self.code_seen = true;
        self.after_header = code.trim_ascii_end().ends_with(b":");
        let Some((at, quote)) = first_triple_quote(code) else {
            return false;
        };
        // A docstring opens its line (after a string prefix such as `r`); any other triple
        // quote is a string in code.
        let starts_line = code[..at].iter().all(|b| b"rRuUbBfF".contains(b)) && at <= 2;
        if memchr::memmem::find_iter(code, quote).count() % 2 == 0 {
            return starts_line;
        }
        let opens = if starts_line {
            docstring_may_open
        } else {
            opens_data(&code[..at])
        };
        if opens {
            self.open = Some(Open {
                close: quote,
                filler: starts_line,
            });
        }
        opens && starts_line
    }
}

/// Whether a triple quote after `before` (the code before it on its line) opens a string:
/// one follows an operator, a bracket or a keyword (`x = """`, `f("""`, `return """`), while
/// one after a word or a full stop closes a string.
fn opens_data(before: &[u8]) -> bool {
    let mut before = before.trim_ascii_end();
    // A string prefix (`r`, `rb`, `f`) is part of the quote, not a word before it.
    let letters = before
        .iter()
        .rev()
        .take_while(|b| b"rRuUbBfF".contains(b))
        .count();
    if letters <= 2
        && !before[..before.len() - letters]
            .last()
            .is_some_and(u8::is_ascii_alphanumeric)
    {
        before = before[..before.len() - letters].trim_ascii_end();
    }
    before.is_empty()
        || before.ends_with(b"return")
        || before.ends_with(b"yield")
        || before.last().is_some_and(|b| b"=(,[{:+%".contains(b))
}

/// The first triple quote of `code`, by offset, and which one it is.
fn first_triple_quote(code: &[u8]) -> Option<(usize, &'static [u8])> {
    let double = memchr::memmem::find(code, b"\"\"\"").map(|at| (at, &b"\"\"\""[..]));
    let single = memchr::memmem::find(code, b"'''").map(|at| (at, &b"'''"[..]));
    match (double, single) {
        (Some(d), Some(s)) => Some(if d.0 < s.0 { d } else { s }),
        (d, s) => d.or(s),
    }
}

#[cfg(test)]
mod tests {
    use super::{is_definition, is_filler};

    #[test]
    fn annotations_alone_belong_to_the_next_line() {
        assert!(super::is_annotation("74:    @Override"));
        assert!(super::is_annotation("    @property"));
        assert!(!super::is_annotation(
            "    @Override public T read(JsonReader in) {"
        ));
        assert!(!super::is_annotation("x @ y"));
    }

    #[test]
    fn filler_is_blank_or_a_comment_alone() {
        for line in [
            "",
            "   ",
            "1307:     * via {@link Feeder}",
            "  12\t    # a note",
            "    12→    # a note",
            "// x",
            "    /**",
            "#",
        ] {
            assert!(is_filler(line), "{line:?}");
        }
        for line in [
            "x = 1  # note",
            "1302:        return x;",
            "#include <stdio.h>",
            "#!/bin/sh",
            "a * b",
        ] {
            assert!(!is_filler(line), "{line:?}");
        }
    }

    #[test]
    fn definitions_in_common_languages_and_numbered_views() {
        for line in [
            "def separability_matrix(transform):",
            "    async def fetch(self):",
            "class HTML(core.BaseReader):",
            "1384:    public JsonGenerator createGenerator(OutputStream out) throws IOException {",
            "   600\tdef _set_unit(self, unit):",
            "   600→def _set_unit(self, unit):",
            "pub fn plan(window: &Window) -> Plan {",
            "    public abstract JsonGenerator writeStartArray() throws JacksonException;",
            "static int parse_args(int argc, char **argv)",
            "unsigned long long int hash(const char *key)",
            "const std::vector<int> &Parser::items() const {",
            "func (s *Server) Serve(l net.Listener) error {",
            "export function render(node) {",
            "public final class Version implements Comparable<Version>",
            "63:  @Override public T read(JsonReader in) throws IOException {",
            "auto Parser::parse(std::string_view text) -> Result {",
            "inline Parser::Parser(int depth) : depth_(depth), seen_(0) {}",
            "void on_event(void (*callback)(int code), void *data)",
            "static int read_block(struct file *f, char *buf,",
            "main (int argc, char **argv)",
        ] {
            assert!(is_definition(line), "{line}");
        }
    }

    #[test]
    fn statements_calls_and_fields_are_not() {
        for line in [
            "        return createGenerator(out, JsonEncoding.UTF8);",
            "x = compute(y)",
            "    private final int _majorVersion = major();",
            "if (x) {",
            "setup(name='pkg')",
            "   12\t    self.x = f(1)",
            "",
            "1302:",
            "    // def not_code(x):",
            "Package has no external dependencies, except for testing (which uses `JUnit`).",
            "or download jars from Maven repository or links on [Wiki](../../wiki).",
            "51:Jackson 2.10 and above include `module-info.class` definitions (JPMS)",
            "See the manual (section 3).",
            "distribution (with or without modification), making available to the",
            "Component, and (b) serves only to enable use of the work with that",
            "feature that (1) displays an appropriate copyright notice, and (2)",
        ] {
            assert!(!is_definition(line), "{line}");
        }
    }
}
