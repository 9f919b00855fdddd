//! Reading and writing board text: rows, tokens, symbols.

/// The UTF-8 byte-order mark some editors write at the start of a file; every
/// reader skips it.
pub const BOM: &str = "\u{feff}";

pub mod board;
pub(crate) mod stream;
