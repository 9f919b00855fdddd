//! The integration tests, one module per concern, built as one binary (one link instead of
//! one per file). Run one module with a filter: `cargo test --release --test suite judges::`.

mod common;
mod dataflow;

mod browser;
mod catalogue;
mod cli;
mod colours;
mod docs;
mod errors;
mod exhaustive;
mod fuzz;
mod generate;
mod generated;
mod hostile;
mod judges;
mod layers;
mod linear;
mod memory;
mod moves;
mod properties;
mod python;
mod readme;
mod reliability;
mod samples;
mod serve;
mod states;
mod verify;
mod zk;
