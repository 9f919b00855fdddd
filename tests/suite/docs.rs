//! Every complete TOML example in docs/format.md is a valid puzzle.

#[test]
fn format_doc_examples_parse() {
    let doc = include_str!("../../docs/format.md");
    let mut count = 0;
    for block in doc.split("```toml\n").skip(1) {
        let text = block.split("```").next().unwrap();
        pegflip::Puzzle::parse(text, "docs/format.md")
            .unwrap_or_else(|e| panic!("example does not parse:\n{text}\n{e}"));
        count += 1;
    }
    assert!(count >= 8, "found {count} examples");
}
