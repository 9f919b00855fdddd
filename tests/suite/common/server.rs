//! A `pegflip serve` started for one test on a free port, and stopped when dropped.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// A running server.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub url: String,
    agent: ureq::Agent,
}

impl Server {
    /// Starts `pegflip serve --port 0 ARGS` and waits for it to print its address.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pegflip"))
            .args(["serve", "--port", "0"])
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("pegflip serve starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("serve prints its address");
        // The line README.md shows.
        assert!(
            line.starts_with("pegflip serve: open http://127.0.0.1:")
                && line.ends_with("/ (Ctrl-C stops)\n"),
            "{line:?}"
        );
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .trim_end_matches('/')
            .to_string();
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        Server { child, url, agent }
    }

    /// `GET path`: the status and the body as text.
    pub fn get(&self, path: &str) -> (u16, String) {
        let mut response = self
            .agent
            .get(format!("{}{path}", self.url))
            .call()
            .expect("the server answers");
        let status = response.status().as_u16();
        (
            status,
            response.body_mut().read_to_string().unwrap_or_default(),
        )
    }

    /// `POST path` with a JSON body: the status and the JSON answer.
    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.post_raw(path, body.to_string().into_bytes())
    }

    /// `POST path` with `body` as bytes, sent as JSON.
    pub fn post_raw(&self, path: &str, body: Vec<u8>) -> (u16, Value) {
        let mut response = self
            .agent
            .post(format!("{}{path}", self.url))
            .header("content-type", "application/json")
            .send(&body[..])
            .expect("the server answers");
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().unwrap_or_default();
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{path} answered {status} without JSON ({e}): {text}"));
        (status, value)
    }

    /// The process id, to signal it.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits for the server to exit; its exit code.
    pub fn wait(mut self) -> Option<i32> {
        let status = self.child.wait().expect("the server can be waited for");
        status.code()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A shipped puzzle's file text.
pub fn shipped(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/puzzles/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("a shipped puzzle")
}
