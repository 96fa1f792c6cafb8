//! Starting the server binary and talking to it, every step bounded in time.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The bound on every request and on the server's start.
pub const TIMEOUT: Duration = Duration::from_secs(5);

/// The server binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_geode-model-server");

/// A running server, killed when dropped.
pub struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    /// The base URL it printed.
    pub url: String,
}

impl Server {
    /// Starts the binary with `args` and reads the URL from its first line.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(BIN)
            .args(["--listen", "127.0.0.1:0"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn the server");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(TIMEOUT).expect("the server's first line");
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_owned();
        Server { child, stdin, url }
    }

    /// Closes stdin and waits (boundedly) for the exit; true when it exited with success.
    pub fn close_stdin_and_wait(mut self) -> bool {
        drop(self.stdin.take());
        let deadline = Instant::now() + TIMEOUT;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status.success();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// POSTs a chat request.
    pub async fn chat(&self, client: &reqwest::Client, body: &Value) -> reqwest::Response {
        client
            .post(format!("{}/v1/chat/completions", self.url))
            .json(body)
            .send()
            .await
            .expect("chat request")
    }

    /// The reply text of a successful non-streamed chat over `messages`.
    pub async fn reply(&self, messages: Value, seed: u64) -> String {
        let body = json!({ "model": "m", "messages": messages, "seed": seed });
        let response = self.chat(&client(), &body).await;
        assert_eq!(response.status(), 200);
        let value: Value = response.json().await.expect("JSON");
        value["choices"][0]["message"]["content"]
            .as_str()
            .expect("content")
            .to_owned()
    }

    /// `GET /stats`.
    pub async fn stats(&self) -> Value {
        client()
            .get(format!("{}/stats", self.url))
            .send()
            .await
            .expect("stats")
            .json()
            .await
            .expect("stats JSON")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A plain client with the request timeout.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(TIMEOUT)
        .build()
        .expect("client")
}

/// A fresh directory under cargo's scratch space for tests.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("model-server-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// A single user message.
pub fn user(text: &str) -> Value {
    json!([{ "role": "user", "content": text }])
}
