//! `pegflip serve`'s HTTP API, asked directly: pages, status codes, the same answers as the command line, limits, concurrency.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::pegflip;
use crate::common::server::{Server, shipped};

/// One `0` or `1` per cell, from board text of a square grid with `on` set.
fn bits(rows: &str, on: char) -> String {
    rows.chars()
        .filter(|c| *c != '/')
        .map(|c| {
            if c.eq_ignore_ascii_case(&on) {
                '1'
            } else {
                '0'
            }
        })
        .collect()
}

/// The digits of a board of k colours on the page, one per cell.
const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";

/// Replays the move indices of a solve reply on `state` with the loaded
/// view's moves: flips on two colours, amounts added mod k on more.
fn replay(view: &Value, state: &str, moves: &[Value]) -> String {
    let mut s: Vec<u8> = state.bytes().collect();
    for m in moves {
        let m = &view["moves"][m.as_u64().unwrap() as usize];
        if let Some(k) = view["colours"].as_u64() {
            for add in m["adds"].as_array().unwrap() {
                let (c, a) = (add[0].as_u64().unwrap() as usize, add[1].as_u64().unwrap());
                let v = DIGITS.iter().position(|&d| d == s[c]).unwrap() as u64;
                s[c] = DIGITS[((v + a) % k) as usize];
            }
            continue;
        }
        for c in m["need_on"].as_array().unwrap() {
            assert_eq!(s[c.as_u64().unwrap() as usize], b'1', "a guard fails");
        }
        for c in m["need_off"].as_array().unwrap() {
            assert_eq!(s[c.as_u64().unwrap() as usize], b'0', "a guard fails");
        }
        for c in m["flip"].as_array().unwrap() {
            let c = c.as_u64().unwrap() as usize;
            s[c] = if s[c] == b'1' { b'0' } else { b'1' };
        }
    }
    String::from_utf8(s).unwrap()
}

/// A board's text (a solve answer's `final`) as the page writes it: one
/// `0` or `1` per cell, or one colour digit per cell.
fn page_board(puzzle: &pegflip::Puzzle, text: &str) -> String {
    if puzzle.colours() > 2 {
        let digits = puzzle.read_colours(text, "<final>").unwrap().digits;
        return digits
            .iter()
            .map(|&v| char::from(DIGITS[v as usize]))
            .collect();
    }
    let read = puzzle.read_board(text, "<final>").unwrap().state;
    (0..read.len())
        .map(|i| if read.get(i) { '1' } else { '0' })
        .collect()
}

/// `states --histogram`'s lines as (distance, count).
fn cli_histogram(out: std::process::Output) -> Vec<(u64, String)> {
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (d, n) = l.split_once(' ').unwrap();
            (d.parse().unwrap(), n.to_string())
        })
        .collect()
}

/// An explore reply's histogram as (distance, count).
fn page_histogram(reply: &Value) -> Vec<(u64, String)> {
    reply["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["distance"].as_u64().unwrap(),
                h["count"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The names of the puzzles in a `GET /api/puzzles` answer, in order.
fn offered(list: &str) -> Vec<String> {
    let list: Value = serde_json::from_str(list).unwrap();
    list["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn pages_and_puzzles_are_served() {
    let server = Server::start(&[]);
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("<title>pegflip</title>"), "{page}");
    for asset in ["/app.js", "/style.css"] {
        let (status, body) = server.get(asset);
        assert_eq!(status, 200, "{asset}");
        assert!(body.len() > 500, "{asset} is {} bytes", body.len());
    }
    let (status, missing) = server.get("/no-such-page");
    assert_eq!(status, 404);
    assert!(missing.contains("no such page"), "{missing}");
    let (status, list) = server.get("/api/puzzles");
    assert_eq!(status, 200);
    let names = offered(&list);
    let shipped_names: Vec<String> = pegflip::catalogue::PUZZLES
        .iter()
        .map(|e| e.name.to_string())
        .collect();
    assert_eq!(names, shipped_names);
    let (status, file) = server.get("/api/puzzles/french37");
    assert_eq!(status, 200);
    let file: Value = serde_json::from_str(&file).unwrap();
    assert_eq!(file["toml"], shipped("french37"));
    let (status, _) = server.get("/api/puzzles/nothing");
    assert_eq!(status, 404);
}

#[test]
fn files_on_the_command_line_come_first() {
    let server = Server::start(&["tests/data/lights9x9.toml", "merlin"]);
    let (_, list) = server.get("/api/puzzles");
    let names = offered(&list);
    assert_eq!(&names[..3], ["lights9x9", "merlin", "flip4x4"]);
    assert_eq!(names.len(), pegflip::catalogue::PUZZLES.len() + 1);
    let out = pegflip(&["serve", "no-such-puzzle.toml"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no such file, and no shipped puzzle"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_shipped_puzzle_loads_and_its_start_solves_as_the_command_line_says() {
    let server = Server::start(&["--time-budget", "60"]);
    for entry in pegflip::catalogue::PUZZLES {
        let toml = entry.text;
        let file = format!("{}.toml", entry.name);
        let (status, view) = server.post("/api/load", &json!({ "toml": toml, "file": file }));
        let puzzle = pegflip::Puzzle::parse(toml, &file).unwrap();
        assert_eq!(status, 200, "{}: {view}", entry.name);
        if puzzle.colours() > 2 {
            let k = puzzle.colours();
            assert_eq!(view["colours"], k, "{}", entry.name);
            assert_eq!(view["palette"].as_array().unwrap().len(), k);
            assert_eq!(view["states"].as_array().unwrap().len(), k);
        }
        assert_eq!(
            view["cells"].as_array().unwrap().len(),
            puzzle.board.cells()
        );
        let start = view["start"].as_str().unwrap();
        let (status, reply) = server.post(
            "/api/solve",
            &json!({ "toml": toml, "file": file, "state": start }),
        );
        assert_eq!(status, 200, "{}: {reply}", entry.name);
        // The same answer as `pegflip solve NAME BOARD --json`.
        let answer = &reply["answer"];
        let board = answer["start"].as_str().unwrap();
        let out = pegflip(&["solve", entry.name, "--json", "--", board], b"");
        let cli: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{}: {e}: {}",
                entry.name,
                String::from_utf8_lossy(&out.stderr)
            )
        });
        assert_eq!(answer, &cli, "{}", entry.name);
        if answer["solvable"] == true {
            let end = replay(&view, start, reply["moves"].as_array().unwrap());
            let fin = answer["final"].as_str().unwrap();
            assert_eq!(end, page_board(&puzzle, fin), "{}", entry.name);
        }
    }
}

#[test]
fn flip4x4_sample_and_french_certificate() {
    let server = Server::start(&[]);
    let toml = shipped("flip4x4");
    let state = bits("bwwb/bbwb/bwwb/bwww", 'b');
    let (status, view) = server.post("/api/load", &json!({ "toml": toml }));
    assert_eq!(status, 200);
    let (status, reply) = server.post("/api/solve", &json!({ "toml": toml, "state": state }));
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["length"], 4);
    assert_eq!(reply["answer"]["optimal"], true);
    let end = replay(&view, &state, reply["moves"].as_array().unwrap());
    assert!(end == "1".repeat(16) || end == "0".repeat(16), "{end}");
    let toml = shipped("french37");
    let (_, view) = server.post("/api/load", &json!({ "toml": toml }));
    let (status, reply) = server.post(
        "/api/solve",
        &json!({ "toml": toml, "state": view["start"] }),
    );
    assert_eq!(status, 200);
    assert_eq!(reply["answer"]["solvable"], false);
    assert_eq!(reply["answer"]["proof"], "parity");
    let cells = reply["certificates"][0].as_array().unwrap();
    assert_eq!(cells.len(), 17, "{reply}");
    assert!(
        reply["proof"][0]
            .as_str()
            .unwrap()
            .starts_with("every move flips an even number of the 17 cells marked #"),
        "{reply}"
    );
}

#[test]
fn every_error_case_gives_the_message_check_gives() {
    let server = Server::start(&[]);
    let dir = format!("{}/tests/data/errors", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    assert!(names.len() >= 30, "{names:?}");
    for name in names {
        let file = format!("tests/data/errors/{name}");
        let toml = std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
        let expected =
            std::fs::read_to_string(format!("{dir}/{}", name.replace(".toml", ".err"))).unwrap();
        let expected = expected.trim_end_matches('\n');
        let expected = expected
            .strip_prefix("pegflip: error: ")
            .unwrap_or(expected);
        let (status, reply) = server.post("/api/load", &json!({ "toml": toml, "file": file }));
        assert_eq!(status, 422, "{name}: {reply}");
        assert_eq!(reply["error"], expected, "{name}");
        if let Some(line) = reply["line"].as_u64() {
            assert!(
                expected.starts_with(&format!("{file}:{line}:{}:", reply["col"])),
                "{name}"
            );
        }
    }
}

#[test]
fn explore_and_pick_agree_with_states() {
    let server = Server::start(&[]);
    let toml = shipped("flip4x4");
    let (status, reply) = server.post("/api/explore", &json!({ "toml": toml }));
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["linear"]["rank"], 12);
    assert_eq!(reply["linear"]["nullity"], 4);
    assert_eq!(reply["linear"]["solvable_states"], "4096");
    assert_eq!(reply["linear"]["quiet"].as_array().unwrap().len(), 4);
    let out = pegflip(&["states", "flip4x4", "--histogram"], b"");
    let cli = cli_histogram(out);
    let page = page_histogram(&reply);
    assert_eq!(page, cli);
    // A board picked at the farthest distance solves in exactly that many moves, and is
    // the board `generate` draws with the same seed.
    let (far, _) = page.last().unwrap().clone();
    let (status, picked) = server.post(
        "/api/pick",
        &json!({ "toml": toml, "distance": far, "seed": 9 }),
    );
    assert_eq!(status, 200, "{picked}");
    assert_eq!(picked["uniform"], true);
    let (_, solved) = server.post(
        "/api/solve",
        &json!({ "toml": toml, "state": picked["state"] }),
    );
    assert_eq!(solved["length"], far);
    let far_text = far.to_string();
    let out = pegflip(
        &[
            "generate",
            "flip4x4",
            "--distance",
            &far_text,
            "--seed",
            "9",
            "--json",
        ],
        b"",
    );
    let generated: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let state = picked["state"].as_str().unwrap();
    let (_, loaded) = server.post("/api/load", &json!({ "toml": toml }));
    let board: String = state
        .chars()
        .map(|c| {
            let key = if c == '1' { "on" } else { "off" };
            loaded[key].as_str().unwrap().to_string()
        })
        .collect::<Vec<_>>()
        .chunks(4)
        .map(|row| row.concat())
        .collect::<Vec<_>>()
        .join("/");
    assert_eq!(generated["boards"][0], board.as_str());
    let (status, past) = server.post(
        "/api/pick",
        &json!({ "toml": toml, "distance": far + 1, "seed": 9 }),
    );
    assert_eq!(status, 422);
    assert!(
        past["error"]
            .as_str()
            .unwrap()
            .contains(&format!("no board is at distance {}", far + 1)),
        "{past}"
    );
    // A peg puzzle is not linear; its histogram is by fewest moves to the goal.
    let (status, reply) = server.post("/api/explore", &json!({ "toml": shipped("triangle15") }));
    assert_eq!(status, 200, "{reply}");
    assert!(reply["linear"].is_null());
    assert!(!reply["histogram"].as_array().unwrap().is_empty());
    // English is too large to explore on the page: refused at once, by the planner's estimate.
    let started = Instant::now();
    let (status, reply) = server.post("/api/explore", &json!({ "toml": shipped("english33") }));
    assert_eq!(status, 200, "{reply}");
    assert!(reply["histogram"].is_null());
    let refused = reply["histogram_refused"].as_str().unwrap();
    assert!(
        refused.starts_with("too large to explore on the page"),
        "{refused}"
    );
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn colour_puzzles_explore_and_pick_as_the_command_line_counts() {
    let server = Server::start(&[]);
    // Lights Out 2000: the algebra, and no histogram (3^22 boards a target class).
    let toml = shipped("lights-out-2000");
    let (status, reply) = server.post("/api/explore", &json!({ "toml": toml }));
    assert_eq!(status, 200, "{reply}");
    let c = &reply["colours"];
    assert_eq!(
        (c["modulus"].as_u64(), c["ring"].as_str()),
        (Some(3), Some("GF(3)"))
    );
    assert_eq!(
        (c["rank"].as_u64(), c["nullity"].as_u64()),
        (Some(22), Some(3))
    );
    assert_eq!(c["per_target"], 3u64.pow(22).to_string());
    assert_eq!(c["quiet"].as_array().unwrap().len(), 3);
    assert!(reply["histogram"].is_null());
    assert!(
        reply["histogram_refused"]
            .as_str()
            .unwrap()
            .starts_with("too large to explore on the page"),
        "{reply}"
    );
    // Each quiet pattern changes nothing: replayed on the page's own moves.
    let (_, view) = server.post("/api/load", &json!({ "toml": toml }));
    for q in c["quiet"].as_array().unwrap() {
        let q = q.as_str().unwrap();
        let presses: Vec<Value> = q
            .bytes()
            .enumerate()
            .flat_map(|(i, t)| {
                let times = DIGITS.iter().position(|&d| d == t).unwrap();
                std::iter::repeat_n(json!(i), times)
            })
            .collect();
        assert!(!presses.is_empty());
        assert_eq!(replay(&view, &"0".repeat(25), &presses), "0".repeat(25));
    }
    // A 2 x 3 board of four colours: the histogram equals `states --histogram`, and a
    // board picked at each distance solves in exactly that many presses.
    let toml = "name = \"four\"\n[board]\nrows = 2\ncols = 3\n[symbols]\n\
                states = [\"-\", \"a\", \"b\", \"c\"]\n[[moves]]\ntoggle = \"plus\"\n\
                [goal]\ntarget = \"all-off\"\n";
    let dir = std::env::temp_dir().join(format!("pegflip-serve-colours-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("four.toml");
    std::fs::write(&file, toml).unwrap();
    let out = pegflip(&["states", file.to_str().unwrap(), "--histogram"], b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cli = cli_histogram(out);
    let (status, reply) = server.post("/api/explore", &json!({ "toml": toml }));
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["colours"]["ring"], "Z/4Z");
    let page = page_histogram(&reply);
    assert_eq!(page, cli);
    let total: u128 = page.iter().map(|(_, n)| n.parse::<u128>().unwrap()).sum();
    assert_eq!(reply["colours"]["solvable_states"], total.to_string());
    for &(d, _) in &page {
        let (status, picked) = server.post(
            "/api/pick",
            &json!({ "toml": toml, "distance": d, "seed": 5 }),
        );
        assert_eq!(status, 200, "{picked}");
        let (status, solved) = server.post(
            "/api/solve",
            &json!({ "toml": toml, "state": picked["state"] }),
        );
        assert_eq!(status, 200, "{solved}");
        assert_eq!(solved["length"], d, "{picked} {solved}");
        assert_eq!(solved["moves"].as_array().unwrap().len() as u64, d);
    }
    let far = page.last().unwrap().0 + 1;
    let (status, past) = server.post(
        "/api/pick",
        &json!({ "toml": toml, "distance": far, "seed": 5 }),
    );
    assert_eq!(status, 422);
    assert!(
        past["error"]
            .as_str()
            .unwrap()
            .contains(&format!("no board is at distance {far}")),
        "{past}"
    );
    // An impossible board: the weights of its certificate, as `solve --json` gives them.
    let toml = shipped("lights-out-2000");
    let puzzle = pegflip::Puzzle::parse(&toml, "lights-out-2000.toml").unwrap();
    let program =
        pegflip::program::colours::ColourProgram::compile(&puzzle, &puzzle.limits).unwrap();
    let impossible = (0..25)
        .map(|i| {
            let mut board = vec![0u64; 25];
            board[i] = 1;
            board
        })
        .find(|b| {
            matches!(
                pegflip::solve_colours(&program, b, &puzzle.limits).unwrap(),
                pegflip::ColourOutcome::Unsolvable(_)
            )
        })
        .expect("a one-light board that cannot be solved");
    let state: String = impossible
        .iter()
        .map(|&v| char::from(DIGITS[v as usize]))
        .collect();
    let (status, reply) = server.post("/api/solve", &json!({ "toml": toml, "state": state }));
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["answer"]["solvable"], false);
    assert_eq!(reply["answer"]["proof"], "weights");
    let weights = reply["certificates"][0].as_array().unwrap();
    assert_eq!(
        weights.len(),
        reply["answer"]["certificate"][0]["cells"]
            .as_array()
            .unwrap()
            .len()
    );
    assert!(
        reply["proof"][0]
            .as_str()
            .unwrap()
            .starts_with("every press adds a multiple of 3"),
        "{reply}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_requests_get_their_status_and_a_message() {
    let server = Server::start(&[]);
    let toml = shipped("flip4x4");
    let cases: Vec<(&str, Vec<u8>, u16, &str)> = vec![
        ("/api/solve", b"{not json".to_vec(), 400, ""),
        ("/api/solve", b"[1, 2]".to_vec(), 400, "JSON object"),
        ("/api/solve", b"{}".to_vec(), 400, "\"toml\""),
        ("/api/solve", json!({ "toml": 7 }).to_string().into_bytes(), 400, "\"toml\""),
        ("/api/solve", json!({ "toml": toml }).to_string().into_bytes(), 400, "missing field `state`"),
        ("/api/solve", json!({ "toml": toml, "state": "01" }).to_string().into_bytes(), 422, "16 characters"),
        ("/api/solve", json!({ "toml": toml, "state": "2".repeat(16) }).to_string().into_bytes(), 422, "character 1 is '2'"),
        ("/api/solve", json!({ "toml": toml, "state": "0110011001100é10" }).to_string().into_bytes(), 422, "character 14 is 'é'"),
        ("/api/solve", json!({ "toml": toml, "state": "é".repeat(8) }).to_string().into_bytes(), 422, "character 1 is 'é'"),
        ("/api/pick", json!({ "toml": toml, "distance": -1, "seed": 0 }).to_string().into_bytes(), 400, "invalid value: integer `-1`"),
        ("/api/pick", json!({ "toml": toml, "distance": 1, "index": 0 }).to_string().into_bytes(), 400, "missing field `seed`"),
        ("/api/pick", json!({ "toml": toml, "distance": 7, "seed": u64::MAX }).to_string().into_bytes(), 422, "no board is at distance 7"),
        ("/api/load", json!({ "toml": "name = " }).to_string().into_bytes(), 422, "puzzle.toml:1:8"),
        ("/api/load", json!({ "toml": "name = \"big\"\n[board]\nrows = 200\ncols = 200\n[[moves]]\ntoggle = \"plus\"\n[goal]\ntarget = \"all-off\"\n" }).to_string().into_bytes(), 422, "is 40000, past the limit svg-cells = 10000"),
        ("/api/solve", vec![b' '; 300 * 1024], 413, ""),
        // A file sent may lower the server's limits, never raise them.
        ("/api/load", json!({ "toml": "name = \"big\"\n[board]\nrows = 20000\ncols = 20000\n[[moves]]\ntoggle = \"plus\"\n[goal]\ntarget = \"all-off\"\n[limits]\ngrid-positions = 1000000000000\n" }).to_string().into_bytes(), 422, "past the limit grid-positions = 134217728"),
        ("/api/load", json!({ "toml": format!("{toml}\n[limits]\nmove-entries = 10\n") }).to_string().into_bytes(), 422, "past the limit move-entries = 10"),
    ];
    for (path, body, status, words) in cases {
        let shown = String::from_utf8_lossy(&body[..body.len().min(80)]).into_owned();
        let (got, reply) = server.post_raw(path, body);
        assert_eq!(got, status, "{path} {shown}: {reply}");
        let message = reply["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{shown}: {reply}"));
        assert!(message.contains(words), "{shown}: {message}");
    }
    // A method a route does not serve: 405, its Allow header, and the JSON error.
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    for (path, allow) in [
        ("/api/solve", "POST"),
        ("/api/load", "POST"),
        ("/api/pick", "POST"),
    ] {
        let mut r = agent.get(format!("{}{path}", server.url)).call().unwrap();
        assert_eq!(r.status().as_u16(), 405, "GET {path}");
        assert_eq!(r.headers().get("allow").unwrap(), allow, "GET {path}");
        let reply: Value = serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap();
        assert!(
            reply["error"]
                .as_str()
                .unwrap()
                .contains("GET is not served here"),
            "{reply}"
        );
    }
    let mut r = agent
        .post(format!("{}/api/puzzles", server.url))
        .send(&b"{}"[..])
        .unwrap();
    assert_eq!(r.status().as_u16(), 405);
    let reply: Value = serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap();
    assert!(
        reply["error"]
            .as_str()
            .unwrap()
            .contains("POST is not served here"),
        "{reply}"
    );
    // Past --max-memory, the planner refuses up front and says which limit: dense
    // elimination of a 100 x 100 knight's-move puzzle, and the layers of a 7 x 7 lights out.
    let small = Server::start(&["--max-memory", "16M"]);
    let knights = "name = \"k\"\n[board]\nrows = 100\ncols = 100\n[[moves]]\n\
                   toggle = \"knight\"\n[goal]\ntarget = \"all-off\"\n";
    let seven = "name = \"l\"\n[board]\nrows = 7\ncols = 7\n[[moves]]\n\
                 toggle = \"plus\"\n[goal]\ntarget = \"all-off\"\n";
    let (status, reply) = small.post("/api/explore", &json!({ "toml": knights }));
    assert_eq!(status, 200, "{reply}");
    let refused = reply["linear_refused"].as_str().unwrap();
    assert!(
        refused.contains("past the limit max-memory = 16777216"),
        "{refused}"
    );
    let (status, reply) = small.post("/api/explore", &json!({ "toml": seven }));
    assert_eq!(status, 200, "{reply}");
    let refused = reply["histogram_refused"].as_str().unwrap();
    assert!(
        refused.contains("past the limit max-memory = 16777216"),
        "{refused}"
    );
    let (status, reply) = small.post(
        "/api/pick",
        &json!({ "toml": knights, "distance": 1, "seed": 0 }),
    );
    assert_eq!(status, 422, "{reply}");
    assert!(
        reply["error"].as_str().unwrap().contains("max-memory"),
        "{reply}"
    );
}

#[test]
fn a_request_past_the_time_budget_is_stopped_and_the_server_goes_on() {
    let server = Server::start(&["--time-budget", "1"]);
    // English by moves takes seconds: more than the budget.
    let toml = format!("metric = \"moves\"\n{}", shipped("english33"));
    let (_, view) = server.post("/api/load", &json!({ "toml": toml }));
    assert_eq!(view["metric"], "moves", "{view}");
    let started = Instant::now();
    let (status, reply) = server.post(
        "/api/solve",
        &json!({ "toml": toml, "state": view["start"] }),
    );
    assert_eq!(status, 504, "{reply}");
    assert!(
        reply["error"]
            .as_str()
            .unwrap()
            .contains("time budget of 1 s"),
        "{reply}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    // The worker was killed and reaped, not left running or a zombie; one is
    // seen while a request runs.
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(workers_of(server.pid()), 0);
    assert_eq!(
        zombies_of(server.pid()),
        0,
        "a killed worker waits to be reaped"
    );
    let slow = {
        let (url, toml, start) = (server.url.clone(), toml.clone(), view["start"].clone());
        std::thread::spawn(move || {
            let agent: ureq::Agent = ureq::Agent::config_builder()
                .http_status_as_error(false)
                .build()
                .into();
            agent
                .post(format!("{url}/api/solve"))
                .send_json(json!({ "toml": toml, "state": start }))
                .map(|r| r.status().as_u16())
        })
    };
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(workers_of(server.pid()), 1);
    assert_eq!(slow.join().unwrap().unwrap(), 504);
    let started = Instant::now();
    let (status, _) = server.post(
        "/api/solve",
        &json!({ "toml": shipped("flip4x4"), "state": "0".repeat(16) }),
    );
    assert_eq!(status, 200);
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn concurrent_requests_are_all_answered() {
    let server = std::sync::Arc::new(Server::start(&["--jobs", "2"]));
    let toml = shipped("lights-out");
    let threads: Vec<_> = (0..12)
        .map(|k| {
            let server = server.clone();
            let toml = toml.clone();
            std::thread::spawn(move || {
                let state: String = (0..25)
                    .map(|i| if (i * 7 + k) % 3 == 0 { '1' } else { '0' })
                    .collect();
                let (status, reply) =
                    server.post("/api/solve", &json!({ "toml": toml, "state": state }));
                assert_eq!(status, 200, "{reply}");
                let out = pegflip(
                    &[
                        "solve",
                        "lights-out",
                        "--json",
                        reply["answer"]["start"].as_str().unwrap(),
                    ],
                    b"",
                );
                let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
                assert_eq!(reply["answer"], cli);
            })
        })
        .collect();
    for t in threads {
        t.join().expect("a request thread");
    }
}

#[test]
fn ctrl_c_stops_the_server_cleanly() {
    let server = Server::start(&[]);
    let (status, _) = server.get("/api/puzzles");
    assert_eq!(status, 200);
    let kill = std::process::Command::new("kill")
        .args(["-INT", &server.pid().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    assert_eq!(server.wait(), Some(0));
}

/// How many children of the process `parent` are zombies: ended, not yet reaped (Linux's /proc).
fn zombies_of(parent: u32) -> usize {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    dir.filter_map(|e| e.ok())
        .filter(|e| {
            let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
            // After the command's closing parenthesis: the state, then the parent's pid.
            let mut rest = stat
                .rsplit_once(')')
                .map_or("", |(_, rest)| rest)
                .split_whitespace();
            let state = rest.next();
            let ppid = rest.next().and_then(|p| p.parse::<u32>().ok());
            ppid == Some(parent) && state == Some("Z")
        })
        .count()
}

/// How many `serve-worker` processes the process `parent` has (Linux's /proc).
fn workers_of(parent: u32) -> usize {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    dir.filter_map(|e| e.ok())
        .filter(|e| {
            let path = e.path();
            let stat = std::fs::read_to_string(path.join("stat")).unwrap_or_default();
            // The parent's pid is the second field after the command's closing parenthesis.
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                .and_then(|p| p.parse::<u32>().ok());
            let cmdline = std::fs::read(path.join("cmdline")).unwrap_or_default();
            ppid == Some(parent) && String::from_utf8_lossy(&cmdline).contains("serve-worker")
        })
        .count()
}

/// A ladder of board sizes for toggles and jumps, then hostile bodies and
/// fields: every request gets a right answer or a clear refusal (a status
/// below 500 with a message, or the time budget's 504), never a crash.
#[test]
fn generated_sizes_and_hostile_requests_get_an_answer_or_a_refusal() {
    // Loading a board of 10,000 cells takes about a second on a busy machine: the
    // loads get the default budget, the solves one second.
    let server = Server::start(&[]);
    let solver = Server::start(&["--time-budget", "1"]);
    let sizes: Vec<(usize, usize)> = [1, 2, 7, 64, 100]
        .iter()
        .flat_map(|&n| [(1, n), (n, 1), (n, n)])
        .chain([(100, 101), (101, 100), (1, 10_001)])
        .collect();
    let rules = [
        (
            "[[moves]]\ntoggle = \"plus\"\n[goal]\ntarget = \"all-off\"\n",
            false,
        ),
        (
            "[[moves]]\njump = \"orthogonal\"\n[goal]\none-piece = \"anywhere\"\n",
            true,
        ),
        (
            "[[moves]]\njump = \"orthogonal\"\n[goal]\nfewest = \"pieces\"\n",
            true,
        ),
        (
            "[symbols]\nstates = [\"-\", \"r\", \"g\", \"b\", \"y\"]\n[[moves]]\n\
             toggle = \"plus\"\namount = 2\n[goal]\ntarget = \"all-same\"\n",
            false,
        ),
    ];
    let mut cases = 0;
    for &(rows, cols) in &sizes {
        for (rule, pegs) in rules {
            let toml = format!("name = \"g\"\n[board]\nrows = {rows}\ncols = {cols}\n{rule}");
            let (status, view) = server.post("/api/load", &json!({ "toml": toml }));
            cases += 1;
            if rows * cols > 10_000 {
                assert_eq!(status, 422, "{rows}x{cols}: {view}");
                assert!(
                    view["error"].as_str().unwrap().contains(&format!(
                        "is {}, past the limit svg-cells = 10000",
                        rows * cols
                    )),
                    "{view}"
                );
                continue;
            }
            assert_eq!(status, 200, "{rows}x{cols} {rule}: {view}");
            assert_eq!(view["cells"].as_array().unwrap().len(), rows * cols);
            assert_eq!(view["pegs"], pegs);
            let start = view["start"].as_str().unwrap().to_string();
            let (status, reply) =
                solver.post("/api/solve", &json!({ "toml": toml, "state": start }));
            cases += 1;
            match status {
                200 => {
                    let answer = &reply["answer"];
                    if answer["solvable"] == true {
                        let end = replay(&view, &start, reply["moves"].as_array().unwrap());
                        let puzzle = pegflip::Puzzle::parse(&toml, "g.toml").unwrap();
                        let fin = page_board(&puzzle, answer["final"].as_str().unwrap());
                        assert_eq!(end, fin, "{rows}x{cols} {rule}");
                    }
                }
                // Past search-cells, or the time budget on a large peg board.
                422 | 504 => assert!(!reply["error"].as_str().unwrap().is_empty()),
                _ => panic!("{rows}x{cols} {rule}: {status} {reply}"),
            }
        }
    }
    let flip = shipped("flip4x4");
    let lo = shipped("lights-out-2000");
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let bodies: Vec<Vec<u8>> = vec![
        Vec::new(),
        b"null".to_vec(),
        b"\"text\"".to_vec(),
        deep.into_bytes(),
        vec![0xff, 0xfe, 0x00],
        json!({ "toml": null }).to_string().into_bytes(),
        json!({ "toml": [1] }).to_string().into_bytes(),
        json!({ "toml": flip, "state": 5 }).to_string().into_bytes(),
        json!({ "toml": flip, "state": "" }).to_string().into_bytes(),
        json!({ "toml": flip, "state": "0".repeat(15) }).to_string().into_bytes(),
        json!({ "toml": flip, "state": "0".repeat(17) }).to_string().into_bytes(),
        json!({ "toml": flip, "state": "é".repeat(16) }).to_string().into_bytes(),
        json!({ "toml": flip, "state": "0".repeat(200_000) }).to_string().into_bytes(),
        json!({ "toml": flip, "state": "0".repeat(16), "extra": [1, 2] }).to_string().into_bytes(),
        json!({ "toml": flip, "file": 7, "state": "0".repeat(16) }).to_string().into_bytes(),
        json!({ "toml": "", "state": "" }).to_string().into_bytes(),
        json!({ "toml": "name = \"x\"\n[board]\nrows = 9223372036854775807\ncols = 1\n[[moves]]\ntoggle = \"plus\"\n[goal]\ntarget = \"all-off\"\n" }).to_string().into_bytes(),
        json!({ "toml": "name = \"x\"\n[board]\nrows = -1\ncols = 1\n" }).to_string().into_bytes(),
        json!({ "toml": "name = \"x\"\n[board]\nrows = 0\ncols = 0\n[[moves]]\ntoggle = \"plus\"\n[goal]\ntarget = \"all-off\"\n" }).to_string().into_bytes(),
        json!({ "toml": "\u{0}\u{1}\u{2}" }).to_string().into_bytes(),
        json!({ "toml": lo, "state": "3".repeat(25) }).to_string().into_bytes(),
        json!({ "toml": lo, "state": "r".repeat(25) }).to_string().into_bytes(),
        json!({ "toml": lo, "state": "0".repeat(24) }).to_string().into_bytes(),
        json!({ "toml": lo, "state": "0".repeat(26) }).to_string().into_bytes(),
        json!({ "toml": lo, "distance": 4_000_000_000u64, "seed": 1 }).to_string().into_bytes(),
    ];
    for path in ["/api/load", "/api/solve", "/api/explore", "/api/pick"] {
        for body in &bodies {
            let shown = String::from_utf8_lossy(&body[..body.len().min(60)]).into_owned();
            let (status, reply) = server.post_raw(path, body.clone());
            cases += 1;
            assert!(
                (200..500).contains(&status) || status == 504,
                "{path} {shown}: {status} {reply}"
            );
            if status != 200 {
                let message = reply["error"].as_str().unwrap_or_default();
                assert!(!message.is_empty(), "{path} {shown}: {reply}");
            }
        }
    }
    assert!(cases >= 120, "{cases} cases");
}

/// What a slow client sends before it goes quiet: nothing, half the headers,
/// the headers and half the body.
const SLOW_CLIENTS: [&[u8]; 3] = [
    b"",
    b"POST /api/load HTTP/1.1\r\nHost: x\r\ncontent-",
    b"POST /api/load HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n\
      content-length: 200\r\n\r\n{\"toml\": \"",
];

#[test]
fn slow_clients_are_timed_out_and_cannot_hold_more_than_the_cap() {
    use std::io::{Read, Write};
    let server = Server::start(&["--read-timeout", "1", "--max-connections", "6"]);
    let addr = server.url.trim_start_matches("http://").to_string();
    let mut held = Vec::new();
    for k in 0..6 {
        let mut stream = std::net::TcpStream::connect(&addr).unwrap();
        stream.write_all(SLOW_CLIENTS[k % 3]).unwrap();
        held.push((k % 3, stream));
    }
    std::thread::sleep(Duration::from_millis(200));
    // Past the cap: 503 at once, with the JSON error naming the flag.
    let mut extra = std::net::TcpStream::connect(&addr).unwrap();
    extra
        .write_all(b"GET /api/puzzles HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut reply = String::new();
    extra.read_to_string(&mut reply).unwrap();
    assert!(reply.starts_with("HTTP/1.1 503"), "{reply}");
    assert!(
        reply.ends_with(
            "{\"error\":\"the server has 6 connections open, its most (--max-connections); \
             try again\"}"
        ),
        "{reply}"
    );
    // Each slow client is closed at the read timeout; one whose body stalls
    // is told so first.
    let started = Instant::now();
    for (kind, mut stream) in held {
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut got = String::new();
        stream.read_to_string(&mut got).unwrap();
        match kind {
            2 => {
                assert!(got.starts_with("HTTP/1.1 408"), "{got}");
                assert!(
                    got.contains("did not arrive within the read timeout of 1 s (--read-timeout)"),
                    "{got}"
                );
            }
            _ => assert_eq!(got, "", "a client that sent no whole headers gets no reply"),
        }
    }
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    // Then the server answers as before.
    let (status, list) = server.get("/api/puzzles");
    assert_eq!(status, 200, "{list}");
}
