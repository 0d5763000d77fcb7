//! How a tool's output is treated: what kind of tool it is and how a clip shares the budget.
//!
//! The table of tool names lives in Python (`shapeclip.profiles`), where users extend it; the
//! engine receives the resolved profile. The kind decides the retrieval hint a marker gives.

use crate::error::Error;
use crate::numbered::Numbered;
use crate::way_back::WayBack;

/// What produced the output; decides how a marker says to get omitted lines back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolKind {
    /// A shell command (`bash`): a marker says to run it again, narrowed.
    Shell,
    /// A file read: a marker names the lines to read again.
    FileRead,
    /// A shell command that printed a file (`cat F`, `sed -n 'A,Bp' F`): planned as a file
    /// read, and got back as any command's output is, by running it again.
    ShellRead,
    /// A shell command that searched (`grep -r NAME .`, `rg NAME`): planned as a search's
    /// output, and got back as any command's output is, by running it again.
    ShellSearch,
    /// A search tool (grep, ripgrep, glob).
    Search,
    /// A web fetch or search.
    Web,
    /// Any other tool (an MCP or function tool).
    Other,
}

impl ToolKind {
    /// Every kind's name, as [`ToolKind::parse`] reads them.
    pub const NAMES: [&'static str; 7] = [
        "shell",
        "file_read",
        "shell_read",
        "shell_search",
        "search",
        "web",
        "other",
    ];

    /// Parses the kind names the Python profile table uses.
    ///
    /// # Errors
    /// [`Error::Argument`] for a name that is not a kind.
    pub fn parse(name: &str) -> Result<Self, Error> {
        Ok(match name {
            "shell" => ToolKind::Shell,
            "file_read" => ToolKind::FileRead,
            "shell_read" => ToolKind::ShellRead,
            "shell_search" => ToolKind::ShellSearch,
            "search" => ToolKind::Search,
            "web" => ToolKind::Web,
            "other" => ToolKind::Other,
            _ => {
                return Err(Error::Argument(format!(
                    "tool kind must be one of shell, file_read, shell_read, shell_search, search, \
                     web, other; got {name:?}"
                )));
            }
        })
    }

    /// Whether the output is a shell command's, got back by running the command again,
    /// whatever the command printed.
    #[must_use]
    pub fn reruns(self) -> bool {
        matches!(
            self,
            ToolKind::Shell | ToolKind::ShellRead | ToolKind::ShellSearch
        )
    }

    /// Whether the output is a file's text, which the read planner plans.
    #[must_use]
    pub fn reads_file(self) -> bool {
        matches!(self, ToolKind::FileRead | ToolKind::ShellRead)
    }
}

/// A resolved profile. Shares are weights in basis points (1/10,000) so that both backends
/// split a budget with the same integer arithmetic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    /// What kind of tool made the output.
    pub kind: ToolKind,
    /// The tool's name as markers print it ("this bash output").
    pub tool: String,
    /// The head's share of a clip, in basis points of the two weights' sum.
    pub head_weight: u64,
    /// The tail's share of a clip, likewise.
    pub tail_weight: u64,
    /// A stored copy of the output, when there is one: markers then point into it.
    pub way_back: Option<WayBack>,
    /// How a file read's lines map to the file's, where a viewer numbered them and there is
    /// no stored copy: markers then give a file-reading tool the file's offsets.
    pub numbered: Option<Numbered>,
}

/// Longest tool name a marker prints; a marker's length must not depend on arbitrary input.
const MAX_TOOL_LABEL: usize = 40;

impl Profile {
    /// The profile of tool `tool` (its name, if any) of kind `kind` (a [`ToolKind::parse`]
    /// name), whose clips share the budget between head and tail by the two weights.
    ///
    /// # Errors
    /// [`Error::Argument`] when the kind is unknown or both weights are zero.
    pub fn new(
        kind: &str,
        tool: Option<&str>,
        head_weight: u64,
        tail_weight: u64,
    ) -> Result<Self, Error> {
        if head_weight == 0 && tail_weight == 0 {
            return Err(Error::Argument(
                "head and tail shares cannot both be zero".into(),
            ));
        }
        Ok(Profile {
            kind: ToolKind::parse(kind)?,
            tool: tool.map(tool_label).unwrap_or_default(),
            head_weight,
            tail_weight,
            way_back: None,
            numbered: None,
        })
    }

    /// How a marker numbers output lines `first..=last`: the viewer's numbers where they are
    /// numbered lines of a numbered read ([`Numbered::printed`]), else `None` and the output's.
    #[must_use]
    pub fn printed_lines(&self, first: u64, last: u64) -> Option<(u64, u64)> {
        self.numbered?.printed(first, last)
    }

    /// The largest line number a marker of an output of `total_lines` may print, either way.
    #[must_use]
    pub fn widest_line(&self, total_lines: u64) -> u64 {
        self.numbered
            .map_or(total_lines, |numbered| total_lines.max(numbered.widest()))
    }
}

/// Invisible characters that reorder or hide text: the bidi marks, embeddings, overrides and
/// isolates, zero-width spaces and the byte order mark. The Python clip drops the same ones.
const INVISIBLE: &[char] = &[
    '\u{061c}', '\u{200b}', '\u{200e}', '\u{200f}', '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}',
    '\u{202e}', '\u{2060}', '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}', '\u{feff}',
];

/// The tool name reduced to what is safe inside a one-line marker: printable, visible, in
/// logical order, no brackets, at most [`MAX_TOOL_LABEL`] characters.
fn tool_label(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_control() && !matches!(c, '[' | ']') && !INVISIBLE.contains(c))
        .take(MAX_TOOL_LABEL)
        .collect::<String>()
        .trim()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_bounded_and_one_line() {
        let p = Profile::new("shell", Some("ba\nsh[x]"), 3, 6).unwrap();
        assert_eq!(p.tool, "bashx");
        let long = "t".repeat(500);
        assert_eq!(
            Profile::new("other", Some(&long), 1, 1).unwrap().tool.len(),
            MAX_TOOL_LABEL
        );
        assert!(Profile::new("nope", None, 1, 1).is_err());
        assert!(Profile::new("web", None, 0, 0).is_err());
    }
}
