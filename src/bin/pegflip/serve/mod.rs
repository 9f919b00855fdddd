//! `pegflip serve`: a local web page to play, explore and edit puzzles, and the HTTP API behind it.
//!
//! The page (`page/`) is built into the binary. The API answers with JSON:
//!
//! - `GET /api/puzzles`: the puzzles on offer, `GET /api/puzzles/NAME` one file's text;
//! - `POST /api/load`, `/api/solve`, `/api/explore`, `/api/pick`: work on the
//!   puzzle file sent in the body ([`worker::Request`] without `max_memory`).
//!
//! Each piece of work runs in its own `pegflip serve-worker` process under the
//! planner's limits, with `--max-memory` as the most any one may plan to use.
//! At most `--jobs` run at once; the others wait their turn within the time
//! budget. When the budget runs out the process is killed and the page gets
//! a 504 that names the budget, so a hostile file or board cannot stall the
//! server or other users. Nor can a slow client: [`conn`] bounds how long a
//! client may take to send a request or read a reply, and how many
//! connections may be open.

mod colours;
mod conn;
pub mod worker;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use clap::Parser;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::Semaphore;

/// The largest request body the server reads, in bytes.
pub const MAX_BODY: usize = 256 * 1024;

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

/// Serve a web page to play, explore and edit puzzles.
#[derive(Parser)]
#[command(after_help = "\
Examples:
  pegflip serve
  pegflip serve my-puzzle.toml --port 8080

Prints the address to open, then serves until Ctrl-C. The page offers the
files given and every shipped puzzle. It is built into the binary and needs no
network. Each solve runs in its own process under the limits and the time
budget; past either, the page shows the refusal.")]
pub struct Args {
    /// Puzzle files (or shipped names) to offer first.
    puzzles: Vec<String>,
    /// The port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 7333)]
    port: u16,
    /// The address to listen on. Only this machine can connect to the default.
    #[arg(long, default_value = "127.0.0.1")]
    bind: std::net::IpAddr,
    /// Seconds one request may take, waiting for its turn included.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    time_budget: f64,
    /// The most memory one request's work may plan to use (suffixes K, M, G).
    #[arg(long, value_name = "BYTES", value_parser = pegflip::limits::parse_memory,
          default_value = "2G")]
    max_memory: u64,
    /// The most requests worked on at once.
    #[arg(long, value_name = "N", default_value_t = 4)]
    jobs: usize,
    /// Seconds a client may take to send a request's headers, then its body,
    /// or between the bytes of a reply it reads; an idle connection closes after it.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    read_timeout: f64,
    /// The most connections open at once; past it a new one is answered 503.
    #[arg(long, value_name = "N", default_value_t = 64)]
    max_connections: usize,
}

/// One puzzle on offer: its name in the list and its file's text.
#[derive(Clone)]
struct Offer {
    name: String,
    file: String,
    about: String,
    text: String,
}

struct App {
    offers: Vec<Offer>,
    worker: std::path::PathBuf,
    budget: Duration,
    max_memory: u64,
    jobs: Semaphore,
}

pub fn run(args: &Args) -> anyhow::Result<u8> {
    if !(args.time_budget.is_finite() && args.time_budget > 0.0 && args.time_budget <= 3600.0) {
        anyhow::bail!(
            "--time-budget must be a number of seconds above 0 and at most 3600, not {}",
            args.time_budget
        );
    }
    if args.jobs == 0 || args.jobs > 256 {
        anyhow::bail!("--jobs must be from 1 to 256, not {}", args.jobs);
    }
    if !(args.read_timeout.is_finite() && args.read_timeout > 0.0 && args.read_timeout <= 3600.0) {
        anyhow::bail!(
            "--read-timeout must be a number of seconds above 0 and at most 3600, not {}",
            args.read_timeout
        );
    }
    if args.max_connections == 0 || args.max_connections > 4096 {
        anyhow::bail!(
            "--max-connections must be from 1 to 4096, not {}",
            args.max_connections
        );
    }
    let bounds = conn::Bounds {
        read: Duration::from_secs_f64(args.read_timeout),
        connections: args.max_connections,
    };
    let app = Arc::new(App {
        offers: offers(&args.puzzles)?,
        worker: std::env::current_exe()?,
        budget: Duration::from_secs_f64(args.time_budget),
        max_memory: args.max_memory,
        jobs: Semaphore::new(args.jobs),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(serve(app, bounds, SocketAddr::new(args.bind, args.port)))?;
    Ok(crate::OK)
}

/// The files named on the command line, then every shipped puzzle.
fn offers(names: &[String]) -> anyhow::Result<Vec<Offer>> {
    let mut offers = Vec::new();
    for name in names {
        let (file, text) = if std::path::Path::new(name).exists() {
            let text = std::fs::read_to_string(name).map_err(|source| pegflip::Error::Io {
                path: name.clone(),
                source,
            })?;
            (name.clone(), text)
        } else if let Some(entry) = pegflip::catalogue::find(name) {
            (format!("{}.toml", entry.name), entry.text.to_string())
        } else {
            anyhow::bail!(
                "cannot read {name}: no such file, and no shipped puzzle has that name \
                 (`pegflip list` shows them)"
            );
        };
        let stem = std::path::Path::new(&file)
            .file_stem()
            .map_or(file.clone(), |s| s.to_string_lossy().into_owned());
        offers.push(Offer {
            name: stem,
            about: about(&text),
            file,
            text,
        });
    }
    for entry in pegflip::catalogue::PUZZLES {
        if offers.iter().all(|o| o.name != entry.name) {
            offers.push(Offer {
                name: entry.name.to_string(),
                file: format!("{}.toml", entry.name),
                about: about(entry.text),
                text: entry.text.to_string(),
            });
        }
    }
    Ok(offers)
}

/// The `about` line of a puzzle file, or nothing when it does not parse.
fn about(text: &str) -> String {
    pegflip::Puzzle::parse(text, "<offer>")
        .map(|p| p.about)
        .unwrap_or_default()
}

async fn serve(app: Arc<App>, bounds: conn::Bounds, addr: SocketAddr) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr()?;
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        writeln!(out, "pegflip serve: open http://{local}/ (Ctrl-C stops)")?;
        out.flush()?;
    }
    conn::serve(listener, router(app, bounds), bounds, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await;
    use std::io::Write;
    writeln!(std::io::stdout(), "pegflip serve: stopped")?;
    Ok(())
}

fn router(app: Arc<App>, bounds: conn::Bounds) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", PAGE) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", SCRIPT) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE) }),
        )
        .route("/api/puzzles", get(list))
        .route("/api/puzzles/{name}", get(file))
        .route("/api/load", post(|s, b| work(s, b, "load")))
        .route("/api/solve", post(|s, b| work(s, b, "solve")))
        .route("/api/explore", post(|s, b| work(s, b, "explore")))
        .route("/api/pick", post(|s, b| work(s, b, "pick")))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page or API route".into()) })
        .method_not_allowed_fallback(|method: axum::http::Method| async move {
            error(
                StatusCode::METHOD_NOT_ALLOWED,
                format!("{method} is not served here: see the Allow header"),
            )
        })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            (bounds, MAX_BODY),
            conn::read_body,
        ))
        .layer(axum::middleware::map_response(json_errors))
        .with_state(app)
}

/// Every error answers `{"error": MESSAGE}`, also those axum makes itself
/// (a body past the limit, a method a route does not serve): their text
/// becomes the message, and their headers (`Allow`) stay.
async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, MAX_BODY)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = match text.is_empty() {
        true => status.canonical_reason().unwrap_or("error").to_lowercase(),
        false => text,
    };
    let mut reply = error(status, message);
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            reply.headers_mut().insert(name.clone(), value.clone());
        }
    }
    reply
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

fn error(status: StatusCode, message: String) -> Response {
    (status, Json(json!({ "error": message }))).into_response()
}

async fn list(State(app): State<Arc<App>>) -> Json<Value> {
    let offers: Vec<Value> = app
        .offers
        .iter()
        .map(|o| json!({ "name": o.name, "file": o.file, "about": o.about }))
        .collect();
    Json(json!({ "puzzles": offers }))
}

async fn file(State(app): State<Arc<App>>, Path(name): Path<String>) -> Response {
    match app.offers.iter().find(|o| o.name == name) {
        Some(o) => Json(json!({ "name": o.name, "file": o.file, "toml": o.text })).into_response(),
        None => error(
            StatusCode::NOT_FOUND,
            format!("no puzzle called {name} is on offer"),
        ),
    }
}

/// Runs `op` on the puzzle in the body in a worker process, within the time budget.
async fn work(
    State(app): State<Arc<App>>,
    body: Result<Json<Value>, axum::extract::rejection::JsonRejection>,
    op: &str,
) -> Response {
    let Json(mut request) = match body {
        Ok(body) => body,
        Err(rejection) => return error(rejection.status(), rejection.body_text()),
    };
    let Some(fields) = request.as_object_mut() else {
        return error(
            StatusCode::BAD_REQUEST,
            "the body must be a JSON object".into(),
        );
    };
    if !fields.get("toml").is_some_and(Value::is_string) {
        return error(
            StatusCode::BAD_REQUEST,
            "the body needs \"toml\": the puzzle file's text".into(),
        );
    }
    fields.insert("op".into(), json!(op));
    fields.insert("max_memory".into(), json!(app.max_memory));
    if !fields.get("file").is_some_and(Value::is_string) {
        fields.insert("file".into(), json!("puzzle.toml"));
    }
    let started = Instant::now();
    let budget = app.budget;
    let seconds = budget.as_secs_f64();
    let Ok(Ok(_permit)) = tokio::time::timeout(budget, app.jobs.acquire()).await else {
        return error(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the server is busy: every worker stayed taken for the whole time budget of \
                 {seconds} s (--time-budget); try again"
            ),
        );
    };
    let left = budget.saturating_sub(started.elapsed());
    match run_worker(&app.worker, &request, left, app.max_memory).await {
        Ok(Some(reply)) => {
            let status = StatusCode::from_u16(reply.status).unwrap_or(StatusCode::BAD_GATEWAY);
            let body = reply.body.get().to_string();
            (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
        }
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, format!("{e:#}")),
        // The worker was killed and reaped at the budget.
        Ok(None) => error(
            StatusCode::GATEWAY_TIMEOUT,
            format!(
                "stopped at the time budget of {seconds} s per request (--time-budget): this \
                 work is too large for the page; `pegflip` on the command line has no time limit"
            ),
        ),
    }
}

/// A worker's reply as the server passes it on: the body is kept as the
/// worker wrote it, never parsed into a tree.
#[derive(serde::Deserialize)]
struct Relayed {
    status: u16,
    body: Box<serde_json::value::RawValue>,
}

/// Runs one request in a worker process: its reply, or `None` when the
/// worker was still working after `left`, in which case it is killed and
/// reaped before this returns (no zombie waits for a later request). A
/// reply longer than `max_memory` bytes is refused, not held.
async fn run_worker(
    exe: &std::path::Path,
    request: &Value,
    left: Duration,
    max_memory: u64,
) -> anyhow::Result<Option<Relayed>> {
    let mut child = tokio::process::Command::new(exe)
        .arg("serve-worker")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()?;
    let mut stdin = child
        .stdin
        .take()
        .ok_or_else(|| anyhow::anyhow!("the worker has no stdin"))?;
    let mut stdout = child
        .stdout
        .take()
        .ok_or_else(|| anyhow::anyhow!("the worker has no stdout"))?;
    let talk = async {
        stdin.write_all(request.to_string().as_bytes()).await?;
        drop(stdin);
        let mut out = Vec::new();
        (&mut stdout)
            .take(max_memory.saturating_add(1))
            .read_to_end(&mut out)
            .await?;
        if out.len() as u64 > max_memory {
            anyhow::bail!(
                "the reply is larger than the server's max-memory of {} bytes (--max-memory)",
                max_memory
            );
        }
        anyhow::Ok(out)
    };
    let out = match tokio::time::timeout(left, talk).await {
        Ok(out) => out?,
        Err(_) => {
            // Kills the worker and waits for it.
            child.kill().await?;
            return Ok(None);
        }
    };
    let status = child.wait().await?;
    serde_json::from_slice(&out).map(Some).map_err(|e| {
        anyhow::anyhow!("the worker ended ({status}) without a reply the server can read: {e}")
    })
}
