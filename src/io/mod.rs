//! Reading and writing text: board text and judge-format batch input.

pub mod batch;
pub mod board;
