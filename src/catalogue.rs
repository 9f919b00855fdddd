//! The shipped puzzles, built into the library so that the binary can list, load and copy them by name.

/// One shipped puzzle: its short name (the file stem in `puzzles/`) and its text.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The short name, as in `pegflip solve flip4x4`.
    pub name: &'static str,
    /// The puzzle file's text.
    pub text: &'static str,
}

macro_rules! entry {
    ($name:literal) => {
        Entry {
            name: $name,
            text: include_str!(concat!("../puzzles/", $name, ".toml")),
        }
    };
}

/// Every shipped puzzle, in the order `pegflip list` prints them.
pub const PUZZLES: &[Entry] = &[
    entry!("flip4x4"),
    entry!("pebble12"),
    entry!("pebble23"),
    entry!("lights-out"),
    entry!("lights-out-torus"),
    entry!("lights-out-2000"),
    entry!("alien-tiles"),
    entry!("merlin"),
    entry!("petersen"),
    entry!("triangle15"),
    entry!("english33"),
    entry!("french37"),
    entry!("poj1222"),
    entry!("fliptile"),
    entry!("painter"),
    entry!("peg-game"),
];

/// The shipped puzzle called `name` (with or without `.toml`).
///
/// ```
/// let entry = pegflip::catalogue::find("merlin").unwrap();
/// let puzzle = pegflip::Puzzle::parse(entry.text, "merlin.toml")?;
/// assert_eq!(puzzle.board.cells(), 9);
/// # Ok::<(), pegflip::Error>(())
/// ```
pub fn find(name: &str) -> Option<&'static Entry> {
    let name = name.strip_suffix(".toml").unwrap_or(name);
    PUZZLES.iter().find(|e| e.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_in_puzzles_is_listed() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| {
                let name = e.unwrap().file_name().into_string().unwrap();
                name.strip_suffix(".toml").map(str::to_string)
            })
            .collect();
        files.sort();
        let mut listed: Vec<String> = PUZZLES.iter().map(|e| e.name.to_string()).collect();
        listed.sort();
        assert_eq!(files, listed);
    }
}
