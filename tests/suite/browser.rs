//! `pegflip serve`'s page driven in a real browser (Chromium through chromedriver): play, undo, hint to the goal, a certificate, edit.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them).
//! Without chromedriver the test says so and passes, unless
//! `PEGFLIP_BROWSER=required` (set by `.ci/run`), when it fails. Screenshots
//! go to `target/tmp/screenshots/`; `docs/screenshots/` holds two of them for the README.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

use crate::common::server::Server;

/// chromedriver, started on a free port for one test and stopped when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn find_driver() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMEDRIVER") {
        return Some(path.into());
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("chromedriver"))
            .find(|p| p.is_file())
    })
}

fn start_driver(path: &PathBuf) -> Driver {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let child = Command::new(path)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let url = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "chromedriver did not listen within 20 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Driver { child, url }
}

fn screenshots() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).expect("the screenshot folder");
    dir
}

/// The page in one browser session, with the steps a test takes on it.
struct Page {
    client: Client,
}

impl Page {
    /// The value of a JavaScript expression.
    async fn eval(&self, expression: &str) -> Value {
        self.client
            .execute(&format!("return ({expression});"), vec![])
            .await
            .unwrap_or_else(|e| panic!("{expression}: {e}"))
    }

    /// Waits until `expression` is true, for at most 30 s; on failure saves a screenshot.
    async fn wait_for(&self, expression: &str) {
        let started = Instant::now();
        loop {
            if self.eval(expression).await == json!(true) {
                return;
            }
            if started.elapsed() > Duration::from_secs(30) {
                self.shot("failure").await;
                let status = self.text("#status").await;
                let errors = self.text("#errors").await;
                panic!("waited 30 s for {expression}; status: {status}; errors: {errors}");
            }
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }

    /// Clicks the element; found again when the page redrew it between the
    /// find and the click (a stale element), up to five times.
    async fn click(&self, selector: &str) {
        for attempt in 1..=5 {
            let element = self
                .client
                .find(Locator::Css(selector))
                .await
                .unwrap_or_else(|e| panic!("{selector}: {e}"));
            match element.click().await {
                Ok(()) => return,
                Err(e) if attempt < 5 && e.to_string().contains("stale element") => {
                    tokio::time::sleep(Duration::from_millis(40)).await;
                }
                Err(e) => panic!("click {selector}: {e}"),
            }
        }
    }

    async fn text(&self, selector: &str) -> String {
        let selector = serde_json::to_string(selector).unwrap();
        match self
            .eval(&format!(
                "document.querySelector({selector}) ? document.querySelector({selector}).textContent : ''"
            ))
            .await
        {
            Value::String(s) => s,
            other => other.to_string(),
        }
    }

    /// Chooses the puzzle `name` in the page's list.
    async fn choose(&self, name: &str) {
        self.client
            .find(Locator::Css("#puzzle"))
            .await
            .unwrap()
            .select_by_value(name)
            .await
            .unwrap();
    }

    /// The board being played, one `0` or `1` per cell.
    async fn board(&self) -> String {
        self.eval("document.getElementById('board').dataset.state")
            .await
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Waits for the status to settle after a move or a load.
    async fn settled(&self) {
        self.wait_for("document.getElementById('status').dataset.state !== 'wait'")
            .await;
    }

    async fn shot(&self, name: &str) -> PathBuf {
        let png = self.client.screenshot().await.expect("a screenshot");
        let path = screenshots().join(format!("{name}.png"));
        std::fs::write(&path, png).expect("the screenshot is written");
        path
    }

    /// Puts `text` in the editor as if typed, and waits for its check.
    async fn edit(&self, text: &str) {
        self.client
            .execute(
                "const s = document.getElementById('source'); s.value = arguments[0]; \
                 s.dispatchEvent(new Event('input')); return true;",
                vec![json!(text)],
            )
            .await
            .expect("the editor takes text");
        self.wait_for("['ok', 'error'].includes(document.getElementById('errors').dataset.state)")
            .await;
    }

    /// Clicks the hinted move until the goal is reached; the number of moves played.
    async fn follow_hints(&self, most: usize) -> usize {
        for played in 0..=most {
            self.settled().await;
            if self
                .eval("document.getElementById('status').dataset.state")
                .await
                == "goal"
            {
                return played;
            }
            self.click("#hint").await;
            self.wait_for("document.querySelector('#board .hint') !== null")
                .await;
            let cell = self
                .eval("document.querySelector('#board .hint').dataset.cell")
                .await;
            let cell = cell.as_str().expect("a toggle hint names its cell");
            let before = self.board().await;
            self.click(&format!("#board .cell[data-cell=\"{cell}\"]"))
                .await;
            assert_ne!(
                self.board().await,
                before,
                "the hinted press changed nothing"
            );
        }
        panic!("the goal was not reached in {most} hinted moves");
    }
}

#[test]
fn the_whole_user_story_in_chromium() {
    let Some(driver) = find_driver() else {
        let required = std::env::var("PEGFLIP_BROWSER").is_ok_and(|v| v == "required");
        assert!(
            !required,
            "PEGFLIP_BROWSER=required but no chromedriver on PATH: apt-get install chromium \
             chromium-driver"
        );
        eprintln!(
            "NOTE: browser test not run: no chromedriver on PATH (apt-get install chromium \
             chromium-driver; .ci/run installs them and requires this test)"
        );
        return;
    };
    let driver = start_driver(&driver);
    let server = Server::start(&[]);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(story(&driver.url, &server.url));
}

async fn story(driver: &str, site: &str) {
    let mut capabilities = serde_json::Map::new();
    let mut options = json!({
        "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,900"],
    });
    if let Some(binary) = std::env::var_os("CHROMIUM") {
        options["binary"] = json!(binary.to_string_lossy());
    } else if std::path::Path::new("/usr/bin/chromium").exists() {
        options["binary"] = json!("/usr/bin/chromium");
    }
    capabilities.insert("goog:chromeOptions".into(), options);
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(driver)
        .await
        .expect("a Chromium session through chromedriver");
    let page = Page { client };

    // Open flip4x4.
    page.client
        .goto(&format!("{site}/?puzzle=flip4x4"))
        .await
        .unwrap();
    page.wait_for("document.body.dataset.ready === '1'").await;
    page.settled().await;
    assert_eq!(page.text("#title").await, "Play: Flip Game");
    assert_eq!(
        page.eval("document.querySelectorAll('#board .cell').length")
            .await,
        16
    );
    let start = page.board().await;
    assert_eq!(start.len(), 16);

    // Make moves: a press flips the cell and its orthogonal neighbours.
    page.click("#board .cell[data-cell=\"5\"]").await;
    let one = page.board().await;
    let flipped: Vec<usize> = (0..16)
        .filter(|&i| start.as_bytes()[i] != one.as_bytes()[i])
        .collect();
    assert_eq!(flipped, [1, 4, 5, 6, 9]);
    assert_eq!(page.text("#counter").await, "1 move");
    page.click("#board .cell[data-cell=\"0\"]").await;
    assert_eq!(page.text("#counter").await, "2 moves");

    // Undo, redo, undo.
    page.click("#undo").await;
    assert_eq!(page.board().await, one);
    assert_eq!(page.text("#counter").await, "1 move");
    page.click("#redo").await;
    assert_eq!(page.text("#counter").await, "2 moves");
    page.click("#undo").await;
    assert_eq!(page.board().await, one);
    page.settled().await;
    let status = page.text("#status").await;
    assert!(
        status.starts_with("the goal can be reached in "),
        "{status}"
    );
    let fewest: usize = status
        .trim_start_matches("the goal can be reached in ")
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();

    // Ask for hints and follow them to the goal, in exactly the promised number of moves.
    page.click("#hint").await;
    page.wait_for("document.querySelector('#board .hint') !== null")
        .await;
    assert!(page.text("#hint-text").await.starts_with("hint: press "));
    page.shot("flip4x4-hint").await;
    let played = page.follow_hints(20).await;
    assert_eq!(played, fewest);
    let status = page.text("#status").await;
    assert_eq!(status, format!("goal reached in {} moves", fewest + 1));
    let done = page.board().await;
    assert!(done == "1".repeat(16) || done == "0".repeat(16), "{done}");

    // Reset, then Solve animates a fewest-moves solution to the goal.
    page.click("#reset").await;
    assert_eq!(page.board().await, start);
    page.settled().await;
    page.click("#solve").await;
    page.wait_for("document.getElementById('status').dataset.state === 'goal'")
        .await;

    // Explore: rank and nullity, the histogram, and a random board at distance 6.
    page.click("#explore-run").await;
    page.wait_for("document.querySelectorAll('#histogram .bar').length === 7")
        .await;
    assert_eq!(page.text("#rank").await, "12");
    assert_eq!(page.text("#nullity").await, "4");
    assert_eq!(
        page.eval("document.querySelectorAll('#quiet svg').length")
            .await,
        4
    );
    page.click("#histogram .bar[data-distance=\"6\"]").await;
    page.click("#pick").await;
    page.wait_for("document.getElementById('note').textContent.includes('distance 6')")
        .await;
    page.settled().await;
    assert_eq!(
        page.text("#status").await,
        "the goal can be reached in 6 moves at best"
    );

    // Open french37 and see the certificate: 17 marked cells and the parity sentence.
    page.choose("french37").await;
    page.wait_for("document.getElementById('title').textContent === 'Play: French peg solitaire'")
        .await;
    page.wait_for("document.getElementById('status').dataset.state === 'impossible'")
        .await;
    assert_eq!(
        page.eval("document.querySelectorAll('#board .mark').length")
            .await,
        17
    );
    let proof = page.text("#proof").await;
    assert!(
        proof.starts_with("every move flips an even number of the 17 cells marked #"),
        "{proof}"
    );
    page.shot("french37-certificate").await;

    // Jumps: on triangle15, click a peg and then a hole, or drag.
    page.choose("triangle15").await;
    page.wait_for("document.getElementById('title').textContent.includes('riangle')")
        .await;
    page.settled().await;
    let before = page.board().await;
    let hole = before.find('0').expect("the start has a hole");
    // A legal jump into that hole, from the page's own move list.
    let from = page
        .eval(&format!(
            "game.view.moves.find(m => m.kind === 'jump' && m.cells[2] === {hole} && \
             m.need_on.every(c => game.state[c] === '1')).cells[0]"
        ))
        .await;
    page.click(&format!("#board .cell[data-cell=\"{from}\"]"))
        .await;
    page.click(&format!("#board .cell[data-cell=\"{hole}\"]"))
        .await;
    assert_eq!(page.text("#counter").await, "1 jump");
    let after = page.board().await;
    assert_eq!(after.as_bytes()[hole], b'1');
    assert_eq!(after.bytes().filter(|&b| b == b'1').count(), 13);
    // A second jump by dragging a peg onto a hole.
    let jump = page
        .eval(
            "game.view.moves.find(m => m.kind === 'jump' && \
             m.need_on.every(c => game.state[c] === '1') && \
             m.need_off.every(c => game.state[c] === '0')).cells",
        )
        .await;
    let (from, to) = (jump[0].as_u64().unwrap(), jump[2].as_u64().unwrap());
    let cell = |i: u64| format!("#board .cell[data-cell=\"{i}\"]");
    let (from_css, to_css) = (cell(from), cell(to));
    // The page settles (a move may draw the board again) before its cells are found.
    page.settled().await;
    let mut tries = 0;
    loop {
        let from_el = page.client.find(Locator::Css(&from_css)).await.unwrap();
        let to_el = page.client.find(Locator::Css(&to_css)).await.unwrap();
        let drag = MouseActions::new("mouse".into())
            .then(PointerAction::MoveToElement {
                element: from_el,
                duration: None,
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::MoveToElement {
                element: to_el,
                duration: Some(Duration::from_millis(150)),
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        match page.client.perform_actions(drag).await {
            Ok(()) => break,
            // The board was drawn again between finding its cells and the drag.
            Err(fantoccini::error::CmdError::Standard(e))
                if e.error == fantoccini::error::ErrorStatus::StaleElementReference
                    && tries < 3 =>
            {
                tries += 1;
            }
            Err(e) => panic!("the drag: {e}"),
        }
    }
    assert_eq!(page.text("#counter").await, "2 jumps");
    let dragged = page.board().await;
    assert_eq!(dragged.as_bytes()[to as usize], b'1');
    assert_eq!(dragged.as_bytes()[from as usize], b'0');

    // Edit: back to flip4x4, break the file, see the message at its line, fix it into a 5x5 game, play it.
    page.choose("flip4x4").await;
    page.wait_for("document.getElementById('title').textContent === 'Play: Flip Game'")
        .await;
    let source = page
        .eval("document.getElementById('source').value")
        .await
        .as_str()
        .unwrap()
        .to_string();
    let line = source
        .lines()
        .position(|l| l.starts_with("rows = 4"))
        .expect("flip4x4 has `rows = 4`")
        + 1;
    page.edit(&source.replacen("rows = 4", "rows = \"four\"", 1))
        .await;
    assert_eq!(
        page.eval("document.getElementById('errors').dataset.state")
            .await,
        "error"
    );
    assert_eq!(
        page.eval("document.getElementById('errors').dataset.line")
            .await,
        line.to_string()
    );
    let error = page.text("#errors").await;
    assert!(
        error.starts_with(&format!("flip4x4.toml:{line}:8: error: ")),
        "{error}"
    );
    assert!(
        page.eval("document.getElementById('play-edited').disabled")
            .await
            == json!(true)
    );
    assert_eq!(page.text("#gutter .bad").await, line.to_string());
    page.shot("edit-error").await;
    let fixed = source
        .replacen("rows = 4", "rows = 5", 1)
        .replacen("cols = 4", "cols = 5", 1)
        .replacen("name = \"Flip Game\"", "name = \"Flip Game 5x5\"", 1);
    page.edit(&fixed).await;
    assert_eq!(
        page.eval("document.getElementById('errors').dataset.state")
            .await,
        "ok"
    );
    assert_eq!(
        page.eval("document.querySelectorAll('#preview .cell').length")
            .await,
        25
    );
    page.click("#play-edited").await;
    page.wait_for("document.getElementById('title').textContent === 'Play: Flip Game 5x5'")
        .await;
    assert_eq!(
        page.eval("document.querySelectorAll('#board .cell').length")
            .await,
        25
    );
    page.settled().await;
    if page
        .eval("document.getElementById('status').dataset.state")
        .await
        == "impossible"
    {
        // The made-up start of a file without one can always be solved.
        panic!(
            "the made-up start is impossible: {}",
            page.text("#status").await
        );
    }
    page.follow_hints(25).await;
    page.shot("flip5x5-solved").await;

    colours(&page).await;
    page.client.close().await.expect("the session closes");
}

/// Lights Out 2000, three colours: a click advances a cell and its
/// neighbours one colour, drawn in the palette; hints reach the goal in the
/// promised presses; an impossible start shows its certificate's weights;
/// Explore gives the algebra over GF(3).
async fn colours(page: &Page) {
    page.choose("lights-out-2000").await;
    page.wait_for("document.getElementById('title').textContent === 'Play: Lights Out 2000'")
        .await;
    page.settled().await;
    let start = page.board().await;
    assert_eq!(start.len(), 25);
    let colour = |board: &str, i: usize| u32::from(board.as_bytes()[i] - b'0');
    page.click("#board .cell[data-cell=\"12\"]").await;
    let one = page.board().await;
    let changed: Vec<usize> = (0..25)
        .filter(|&i| one.as_bytes()[i] != start.as_bytes()[i])
        .collect();
    assert_eq!(changed, [7, 11, 12, 13, 17]);
    for &i in &changed {
        assert_eq!(colour(&one, i), (colour(&start, i) + 1) % 3);
        // Drawn in the palette's colour for its state.
        let fill = page
            .eval(&format!(
                "document.querySelector('#board .cell[data-cell=\"{i}\"] rect').getAttribute('fill')"
            ))
            .await;
        let palette = pegflip::render::palette(3);
        assert_eq!(fill, palette[colour(&one, i) as usize].as_str());
    }
    // Three presses of one button change nothing; undo steps back one colour.
    page.click("#board .cell[data-cell=\"12\"]").await;
    page.click("#board .cell[data-cell=\"12\"]").await;
    assert_eq!(page.board().await, start);
    assert_eq!(page.text("#counter").await, "3 moves");
    page.click("#undo").await;
    let two = page.board().await;
    assert_eq!(colour(&two, 12), (colour(&start, 12) + 2) % 3);
    page.click("#reset").await;
    assert_eq!(page.board().await, start);
    page.settled().await;
    let status = page.text("#status").await;
    let fewest: usize = status
        .trim_start_matches("the goal can be reached in ")
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("{status}"));
    let played = page.follow_hints(60).await;
    assert_eq!(played, fewest);
    page.shot("lights-out-2000-solved").await;

    // Explore: GF(3), rank 22, nullity 3, and three quiet patterns drawn with their counts.
    page.click("#explore-run").await;
    page.wait_for("document.getElementById('nullity') !== null")
        .await;
    assert_eq!(page.text("#rank").await, "22");
    assert_eq!(page.text("#nullity").await, "3");
    assert_eq!(page.text("#modulus").await, "3");
    assert_eq!(
        page.eval("document.querySelectorAll('#quiet svg').length")
            .await,
        3
    );

    // An impossible start: the certificate's weights are written on their cells.
    let puzzle = pegflip::Puzzle::from_file("puzzles/lights-out-2000.toml").unwrap();
    let program =
        pegflip::program::colours::ColourProgram::compile(&puzzle, &puzzle.limits).unwrap();
    let (board, weights) = (0..25)
        .find_map(|i| {
            let mut board = vec![0u64; 25];
            board[i] = 1;
            match pegflip::solve_colours(&program, &board, &puzzle.limits).unwrap() {
                pegflip::ColourOutcome::Unsolvable(c) => Some((board, c[0].weights.clone())),
                pegflip::ColourOutcome::Solved(_) => None,
            }
        })
        .expect("a one-light board that cannot be solved");
    let text = puzzle.colour_text(&board);
    let file = std::fs::read_to_string("puzzles/lights-out-2000.toml")
        .unwrap()
        .replace("[board]", &format!("start = \"{text}\"\n\n[board]"));
    page.edit(&file).await;
    page.click("#play-edited").await;
    page.wait_for("document.getElementById('status').dataset.state === 'impossible'")
        .await;
    let marks = weights.iter().filter(|&&w| w != 0).count();
    assert_eq!(
        page.eval("document.querySelectorAll('#board .mark').length")
            .await,
        marks
    );
    for (i, &w) in weights.iter().enumerate().filter(|&(_, &w)| w != 0) {
        let mark = page
            .text(&format!("#board .cell[data-cell=\"{i}\"] .mark"))
            .await;
        assert_eq!(mark, w.to_string());
    }
    let proof = page.text("#proof").await;
    assert!(
        proof.starts_with("every press adds a multiple of 3"),
        "{proof}"
    );
    page.shot("lights-out-2000-certificate").await;
}
