//! Robustness: generated puzzle files, boards, batch input and `--set` overrides never panic,
//! and every rejection is an input error with its place, a named limit, or a usage error.
//! `examples/fuzz.rs` runs the same cases by the million.

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn generated_inputs_never_panic(seed in any::<u64>()) {
        if let Err(e) = crate::common::fuzz::run_case(seed) {
            prop_assert!(false, "{}", e);
        }
    }
}
