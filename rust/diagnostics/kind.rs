//! The kind of a diagnostic: its message with what varies from one place to the next masked,
//! so that sixty `unused variable ‘x’` warnings are one kind and `unused import` another.

/// Characters of a kind: the rest of a long message is detail.
const KIND_CHARS: usize = 96;
/// Characters of a message read for its kind: a quoted span may be long.
const READ_CHARS: usize = 512;

/// The kind of a diagnostic saying `message`: its first characters with each quoted span
/// (between ‘ and ’, or a pair of `'`, `` ` `` or `"`) and each run of digits masked, up to [`KIND_CHARS`] of them.
#[must_use]
pub fn of(message: &str) -> String {
    let mut kind = String::new();
    let mut closing: Option<char> = None;
    let mut digits = false;
    for c in message.chars().take(READ_CHARS) {
        if kind.len() >= KIND_CHARS {
            break;
        }
        if let Some(close) = closing {
            if c == close {
                closing = None;
            }
            continue;
        }
        let close = match c {
            '\u{2018}' => Some('\u{2019}'),
            '\'' | '`' | '"' => Some(c),
            _ => None,
        };
        if let Some(close) = close {
            kind.push_str("<>");
            closing = Some(close);
            continue;
        }
        if c.is_ascii_digit() {
            if !digits {
                kind.push('#');
            }
            digits = true;
            continue;
        }
        digits = false;
        kind.push(c);
    }
    kind
}
