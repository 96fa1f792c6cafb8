//! Injected failures, by request sequence number.

use crate::harness::{Server, client, user};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

fn body() -> Value {
    json!({ "model": "m", "messages": user("hello") })
}

#[tokio::test]
async fn rate_limit_carries_retry_after() {
    let server = Server::start(&[
        "--model",
        "m",
        "--policy",
        "constant",
        "--reply",
        "ok",
        "--fail-429-every",
        "2",
        "--retry-after",
        "7",
    ]);
    let c = client();
    assert_eq!(server.chat(&c, &body()).await.status(), 200);
    let r = server.chat(&c, &body()).await;
    assert_eq!(r.status(), 429);
    assert_eq!(r.headers()["retry-after"], "7");
    let e: Value = r.json().await.unwrap();
    assert_eq!(e["error"]["code"], "rate_limit_exceeded");
    assert_eq!(server.chat(&c, &body()).await.status(), 200);
    let stats = server.stats().await;
    assert_eq!(stats["injected"]["rate_limited"], 1);
    assert_eq!(stats["completed"], 2);
}

#[tokio::test]
async fn each_failure_in_turn() {
    // 500 every 2nd, slow every 3rd, malformed every 4th, dropped every 5th: the first of
    // those that applies wins (n=4 and n=6 are 500s); then a request over the context limit.
    let server = Server::start(&[
        "--model",
        "m",
        "--policy",
        "constant",
        "--reply",
        "ok",
        "--fail-500-every",
        "2",
        "--slow-every",
        "3",
        "--slow-ms",
        "300",
        "--malformed-every",
        "4",
        "--drop-every",
        "5",
        "--context-limit-chars",
        "10",
    ]);
    let c = client();
    assert_eq!(server.chat(&c, &body()).await.status(), 200); // 1
    let r = server.chat(&c, &body()).await; // 2
    assert_eq!(r.status(), 500);
    assert!(r.json::<Value>().await.unwrap()["error"]["message"].is_string());
    let start = Instant::now();
    assert_eq!(server.chat(&c, &body()).await.status(), 200); // 3
    assert!(start.elapsed() >= Duration::from_millis(300));
    assert_eq!(server.chat(&c, &body()).await.status(), 500); // 4
    let sent = c
        .post(format!("{}/v1/chat/completions", server.url))
        .json(&body())
        .send()
        .await; // 5
    let error = sent.expect_err("a dropped connection");
    assert!(error.status().is_none(), "{error}");
    assert_eq!(server.chat(&c, &body()).await.status(), 500); // 6
    let long = json!({ "model": "m", "messages": user("far more than ten characters") });
    let r = server.chat(&c, &long).await; // 7
    assert_eq!(r.status(), 400);
    let e: Value = r.json().await.unwrap();
    assert_eq!(e["error"]["code"], "context_length_exceeded");
    let message = e["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("This model's maximum context length is 10 tokens"),
        "{message}"
    );

    let stats = server.stats().await;
    assert_eq!(stats["requests"], 7);
    assert_eq!(stats["completed"], 2);
    assert_eq!(
        stats["injected"],
        json!({
            "rate_limited": 0, "server_error": 3, "slow": 1, "malformed": 0, "dropped": 1,
            "context_length": 1,
        })
    );
}

#[tokio::test]
async fn malformed_body_is_not_json() {
    let server = Server::start(&[
        "--model",
        "m",
        "--policy",
        "constant",
        "--reply",
        "ok",
        "--malformed-every",
        "1",
    ]);
    let r = server.chat(&client(), &body()).await;
    assert_eq!(r.status(), 200);
    let text = r.text().await.unwrap();
    assert_eq!(text, "{\"choices\": [");
    assert!(serde_json::from_str::<Value>(&text).is_err());
    let stats = server.stats().await;
    assert_eq!(
        (
            stats["injected"]["malformed"].as_u64(),
            stats["completed"].as_u64()
        ),
        (Some(1), Some(0))
    );
}
