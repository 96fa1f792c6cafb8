//! `geode serve`'s wire layer fuzzed: WebSocket messages and HTTP requests made of random
//! bytes, of envelopes with random fields, and of valid messages with one part changed, sent
//! to a real server over a real env. Every input gets an answer of the protocol's shapes (an
//! OpenEnv envelope, a status with a JSON reason), never a panic or a hang, and a bad input is
//! a client error. CI runs a short campaign; a long one:
//! `GEODE_FUZZ_CASES=10000000 cargo test --release -p geode-tests --test all serve_fuzz`.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use geode_serve::{ServeConfig, Sessions, router, ws_reply};
use geode_tests::registry;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Map, Value, json};
use std::sync::Arc;
use tower::ServiceExt;

const ID: &str = "game:GuessTheNumber-v0-easy";

/// Cases per campaign: `GEODE_FUZZ_CASES`, else 2,000.
fn cases() -> u32 {
    std::env::var("GEODE_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2_000)
}

fn sessions() -> Arc<Sessions> {
    let mut config = ServeConfig::new(ID);
    config.workers = 2;
    Arc::new(Sessions::new(Arc::new(registry()), config).unwrap())
}

/// Any JSON value, nested a few levels.
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        ".{0,40}".prop_map(Value::from),
        Just(Value::from("\\boxed{7}")),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(key(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Field names: the protocol's own, and anything.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec![
            "type", "data", "message", "metadata", "seed", "episode_id", "index", "split",
            "action", "timeout_s", "config",
        ])
        .prop_map(str::to_owned),
        1 => ".{0,12}",
    ]
}

/// A message: random text, an envelope of a protocol type (or any) with random data, or a
/// valid reset or step with one field replaced by any value.
fn message() -> impl Strategy<Value = String> {
    let kinds = prop::sample::select(vec!["reset", "step", "state", "close", "mcp", "nope", ""]);
    prop_oneof![
        1 => ".{0,200}",
        1 => prop::collection::vec(any::<u8>(), 0..64)
            .prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
        3 => (kinds, value()).prop_map(|(kind, data)| json!({"type": kind, "data": data}).to_string()),
        3 => (key(), value(), any::<bool>()).prop_map(|(field, v, step)| {
            let mut data = Map::new();
            if step {
                data.insert("message".into(), "\\boxed{7}".into());
            } else {
                data.insert("seed".into(), 3.into());
            }
            data.insert(field, v);
            json!({"type": if step { "step" } else { "reset" }, "data": data}).to_string()
        }),
        1 => value().prop_map(|v| v.to_string()),
    ]
}

const CODES: &[&str] = &[
    "INVALID_JSON",
    "UNKNOWN_TYPE",
    "VALIDATION_ERROR",
    "EXECUTION_ERROR",
    "SESSION_ERROR",
];

#[test]
fn websocket_messages_always_get_an_envelope() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = sessions();
    let env = runtime.block_on(server.open()).unwrap();
    let mut runner = TestRunner::new(Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&message(), |text| {
            let Some(reply) = runtime.block_on(ws_reply(&server, &env, &text)) else {
                // `close`: the route ends the session.
                prop_assert!(text.contains("close"), "{text}");
                return Ok(());
            };
            let reply: Value = serde_json::from_str(&reply).expect("a JSON reply");
            match reply["type"].as_str() {
                Some("observation" | "state" | "mcp") => {}
                Some("error") => {
                    let code = reply["data"]["code"].as_str().unwrap_or("");
                    prop_assert!(CODES.contains(&code), "{code} for {text}");
                    prop_assert!(
                        reply["data"]["message"]
                            .as_str()
                            .is_some_and(|m| !m.is_empty())
                    );
                    if code == "EXECUTION_ERROR" {
                        // Only the env itself fails this way: a step once the episode is over.
                        let kind = reply["data"]["kind"].as_str().unwrap_or("");
                        prop_assert!(kind == "InvalidStateError", "{kind} for {text}");
                    }
                }
                other => prop_assert!(false, "reply type {other:?} for {text}"),
            }
            Ok(())
        })
        .unwrap();
}

/// A request: one of the protocol's routes (or any path), with a random body.
fn request() -> impl Strategy<Value = (String, String, String)> {
    let routes = prop::sample::select(vec![
        ("POST", "/reset"),
        ("POST", "/step"),
        ("GET", "/state"),
        ("GET", "/state?episode_id=e"),
        ("POST", "/e/tasks"),
        ("POST", "/game/num_tasks"),
        ("GET", "/schema"),
        ("DELETE", "/step"),
    ]);
    let body = prop_oneof![
        2 => message(),
        2 => (key(), value(), any::<bool>()).prop_map(|(field, v, named)| {
            let mut body = Map::new();
            body.insert("action".into(), json!({"message": "\\boxed{7}"}));
            if named {
                body.insert("episode_id".into(), "e".into());
            }
            body.insert(field, v);
            Value::Object(body).to_string()
        }),
        1 => value().prop_map(|v| v.to_string()),
    ];
    (routes, body).prop_map(|((method, path), body)| (method.to_owned(), path.to_owned(), body))
}

#[test]
fn http_requests_always_get_a_status_with_a_reason() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let app = router(sessions());
    // A named episode some requests go on with.
    let reset = Request::post("/reset")
        .body(Body::from(r#"{"episode_id": "e", "seed": 1}"#))
        .unwrap();
    let status = runtime
        .block_on(app.clone().oneshot(reset))
        .unwrap()
        .status();
    assert_eq!(status, StatusCode::OK);
    let mut runner = TestRunner::new(Config {
        cases: cases() / 2,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&request(), |(method, path, body)| {
            let request = Request::builder()
                .method(method.as_str())
                .uri(path.as_str())
                .header("content-type", "application/json")
                .body(Body::from(body.clone()))
                .unwrap();
            let response = runtime.block_on(app.clone().oneshot(request)).unwrap();
            let status = response.status();
            let bytes = runtime
                .block_on(axum::body::to_bytes(response.into_body(), usize::MAX))
                .unwrap();
            let what = format!(
                "{method} {path} {body}: {status} {}",
                String::from_utf8_lossy(&bytes)
            );
            prop_assert!(
                !status.is_server_error() || status == StatusCode::INTERNAL_SERVER_ERROR,
                "{what}"
            );
            if status == StatusCode::INTERNAL_SERVER_ERROR {
                // Only an env failing (EXECUTION_ERROR) answers 500, never the wire layer.
                let reply: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
                prop_assert_eq!(reply["code"].as_str(), Some("EXECUTION_ERROR"), "{}", what);
            }
            if status.is_client_error()
                && status != StatusCode::NOT_FOUND
                && status != StatusCode::METHOD_NOT_ALLOWED
            {
                let reply: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
                prop_assert!(
                    reply["detail"].as_str().is_some_and(|d| !d.is_empty()),
                    "{what}"
                );
            }
            Ok(())
        })
        .unwrap();
}
