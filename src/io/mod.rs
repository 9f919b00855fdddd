//! Reading and writing board text: rows, tokens, symbols.

pub mod board;
