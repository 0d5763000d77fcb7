//! The engine's one error type, turned into a Python exception once, at the binding.
//!
//! Only bad arguments are errors. Data never is: any text, however malformed, gets a result.

use std::fmt;

/// What a caller did wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A caller passed an argument outside what is allowed; the message says what is.
    Argument(String),
    /// The engine was used after `finish`.
    Finished,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Argument(msg) => f.write_str(msg),
            Error::Finished => f.write_str("this Compressor has already finished; make a new one"),
        }
    }
}

impl std::error::Error for Error {}
