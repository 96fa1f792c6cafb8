//! `geode-serve`'s routes in process (the real router over real envs, requests through tower):
//! an HTTP episode, 4xx for malformed and oversize requests, capacity, a trapping env whose
//! session survives, a fault that stays with its session among those sharing its instance, and
//! concurrent sessions. tests/openenv drives the `geode serve` binary with
//! OpenEnv's own client over HTTP and WebSocket.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use geode_serve::{ServeConfig, Sessions, router};
use geode_tests::registry;
use serde_json::{Value, json};
use std::sync::Arc;
use tower::ServiceExt;

fn app(id: &str, tune: impl FnOnce(&mut ServeConfig)) -> axum::Router {
    let mut config = ServeConfig::new(id);
    config.workers = 2;
    tune(&mut config);
    router(Arc::new(
        Sessions::new(Arc::new(registry()), config).unwrap(),
    ))
}

async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    body: impl Into<Body>,
) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(body.into())
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

async fn post(app: &axum::Router, uri: &str, body: Value) -> (StatusCode, Value) {
    call(app, "POST", uri, body.to_string()).await
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn an_http_episode_named_by_episode_id() {
    runtime().block_on(async {
        let app = app("game:GuessTheNumber-v0-easy", |_| {});
        let (status, reset) = post(&app, "/reset", json!({"seed": 3, "episode_id": "e"})).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(reset["reward"], Value::Null);
        assert_eq!(reset["done"], false);
        let mut done = false;
        let mut turns = 0;
        for guess in 1..=10 {
            let body =
                json!({"action": {"message": format!("\\boxed{{{guess}}}")}, "episode_id": "e"});
            let (status, step) = post(&app, "/step", body).await;
            assert_eq!(status, StatusCode::OK, "{step}");
            turns += 1;
            assert_eq!(
                step["done"],
                step["observation"]["terminated"].as_bool().unwrap()
                    || step["observation"]["truncated"].as_bool().unwrap()
            );
            if step["done"] == true {
                done = true;
                break;
            }
        }
        assert!(done);
        let (_, state) = call(&app, "GET", "/state?episode_id=e", Body::empty()).await;
        assert_eq!(state["step_count"], turns);
        assert_eq!(state["episode_id"], "e");
    });
}

#[test]
fn malformed_and_oversize_requests_get_4xx_with_the_reason() {
    runtime().block_on(async {
        let app = app("game:GuessTheNumber-v0-easy", |c| {
            c.max_request_bytes = 4096
        });
        let (status, body) = call(&app, "POST", "/step", "{nope").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body["detail"].as_str().unwrap().contains("invalid JSON"));
        let (status, body) = post(&app, "/step", json!({"action": {"message": ["x"]}})).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["code"], "VALIDATION_ERROR");
        let (status, _) = call(&app, "POST", "/step", "x".repeat(10_000)).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        let (status, body) = post(
            &app,
            "/step",
            json!({"action": {"message": "x"}, "episode_id": "none"}),
        )
        .await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(body["code"], "SESSION_ERROR");
    });
}

#[test]
fn capacity_is_refused_with_openenvs_code() {
    runtime().block_on(async {
        let app = app("game:GuessTheNumber-v0-easy", |c| c.max_sessions = 1);
        assert_eq!(
            post(&app, "/reset", json!({"episode_id": "held"})).await.0,
            StatusCode::OK
        );
        let (status, body) = post(&app, "/reset", json!({})).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(body["code"], "CAPACITY_REACHED");
        assert_eq!(body["max_sessions"], 1);
    });
}

#[test]
fn a_trapping_env_reports_a_typed_error_and_its_session_goes_on() {
    runtime().block_on(async {
        let app = app("hostile:healthy", |_| {});
        post(&app, "/reset", json!({"episode_id": "h"})).await;
        let trap = json!({"action": {"message": "trap"}, "episode_id": "h"});
        let (status, body) = post(&app, "/step", trap).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(body["kind"], "GuestTrapError");
        assert!(body["detail"].as_str().unwrap().contains("asked to trap"));
        let (status, _) = post(&app, "/reset", json!({"episode_id": "h"})).await;
        assert_eq!(status, StatusCode::OK);
        let (status, step) = post(
            &app,
            "/step",
            json!({"action": {"message": "a"}, "episode_id": "h"}),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(step["reward"], 1.0);
    });
}

/// Eight named HTTP episodes of the poison env, played in turns; episode `a` steps a poison at
/// round 3. Every reply, in order.
async fn eight_episodes_one_poisoned(app: &axum::Router) -> Vec<(StatusCode, Value)> {
    let names = ["a", "b", "c", "d", "e", "f", "g", "h"];
    let mut replies = Vec::new();
    for (i, name) in names.iter().enumerate() {
        replies.push(post(app, "/reset", json!({"seed": i, "episode_id": name})).await);
    }
    for round in 0..6 {
        for (i, name) in names.iter().enumerate() {
            let message = match (round, *name) {
                (3, "a") => "poison:panic".to_owned(),
                _ => format!("\\boxed{{{}}}", 1 + (round * 5 + i * 3) % 20),
            };
            let body = json!({"action": {"message": message}, "episode_id": name});
            replies.push(post(app, "/step", body).await);
        }
    }
    replies
}

#[test]
fn a_fault_stays_with_its_session_among_those_sharing_its_instance() {
    runtime().block_on(async {
        let shared = app("poison:Counter-v0", |c| {
            c.envs_per_instance = 8;
            c.workers = 1;
        });
        let lone = app("poison:Counter-v0", |c| c.envs_per_instance = 1);
        let (status, metrics) = {
            let replies = eight_episodes_one_poisoned(&shared).await;
            let request = Request::get("/metrics").body(Body::empty()).unwrap();
            let response = shared.clone().oneshot(request).await.unwrap();
            let text = axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .unwrap();
            let alone = eight_episodes_one_poisoned(&lone).await;
            assert_eq!(replies.len(), alone.len());
            for (k, (got, want)) in replies.iter().zip(&alone).enumerate() {
                assert_eq!(
                    got, want,
                    "reply {k}: shared instance against an instance each"
                );
            }
            (
                replies[8 + 3 * 8].0,
                String::from_utf8_lossy(&text).into_owned(),
            )
        };
        assert_eq!(
            status,
            StatusCode::INTERNAL_SERVER_ERROR,
            "the poisoned step"
        );
        assert!(
            metrics.contains("geode_serve_instances 1\n"),
            "eight sessions in one instance: {metrics}"
        );
    });
}

#[test]
fn sessions_step_concurrently() {
    runtime().block_on(async {
        let app = app("game:GuessTheNumber-v0-easy", |_| {});
        let calls = (0..64).map(|seed| {
            let app = app.clone();
            tokio::spawn(async move {
                post(
                    &app,
                    "/step",
                    json!({"action": {"message": "\\boxed{5}"}, "seed": seed}),
                )
                .await
            })
        });
        let mut texts = std::collections::BTreeSet::new();
        for call in calls {
            let (status, step) = call.await.unwrap();
            assert_eq!(status, StatusCode::OK);
            texts.insert(step["observation"]["text"].as_str().unwrap().to_owned());
        }
        // Seeds hide different numbers: 5 is right for some, too high or low for others.
        assert!(texts.len() >= 2);
    });
}
