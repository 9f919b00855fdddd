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

/// The engine table of docs/architecture.md names every engine, once each, in
/// the planner's order, with the queries it answers.
#[test]
fn the_engine_table_lists_every_engine() {
    let doc = include_str!("../../docs/architecture.md");
    let table = doc
        .split("| engine | answers | when |")
        .nth(1)
        .expect("docs/architecture.md has the engine table");
    let rows: Vec<(String, String)> = table
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (cells[1].trim_matches('`').to_string(), cells[2].to_string())
        })
        .collect();
    let engines: Vec<(String, String)> = pegflip::Method::ALL
        .iter()
        .map(|m| (m.name().to_string(), m.answers().to_string()))
        .collect();
    assert_eq!(rows, engines);
}
