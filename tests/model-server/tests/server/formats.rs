//! The wire format: non-streamed and streamed completions, models, errors, stats, exit.

use crate::harness::{Server, client, user};
use serde_json::{Value, json};

fn constant() -> Server {
    Server::start(&[
        "--model",
        "m",
        "--api-key",
        "k",
        "--policy",
        "constant",
        "--reply",
        "héllo world",
    ])
}

#[tokio::test]
async fn non_streamed_completion_is_openai_shaped() {
    let server = constant();
    let body = json!({
        "model": "m", "messages": user("12345"), "logprobs": true, "return_token_ids": true,
        "temperature": 0.7, "top_p": 0.9, "seed": 3,
    });
    let response = client()
        .post(format!("{}/v1/chat/completions", server.url))
        .bearer_auth("k")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let v: Value = response.json().await.unwrap();
    assert_eq!(v["object"], "chat.completion");
    assert_eq!(v["model"], "m");
    assert!(v["id"].as_str().unwrap().starts_with("chatcmpl-"));
    assert!(v["created"].as_u64().is_some());
    let choice = &v["choices"][0];
    assert_eq!(choice["index"], 0);
    assert_eq!(choice["finish_reason"], "stop");
    assert_eq!(choice["message"]["role"], "assistant");
    assert_eq!(choice["message"]["content"], "héllo world");
    let ids: Vec<u64> = serde_json::from_value(choice["token_ids"].clone()).unwrap();
    let bytes: Vec<u64> = "héllo world".bytes().map(u64::from).collect();
    assert_eq!(ids, bytes);
    let logprobs = choice["logprobs"]["content"].as_array().unwrap();
    assert_eq!(logprobs.len(), bytes.len());
    assert_eq!(
        logprobs[0],
        json!({"token": "h", "logprob": -0.5, "bytes": [104], "top_logprobs": []})
    );
    // "12345": 5 bytes, 2 tokens; "héllo world": 12 bytes.
    assert_eq!(
        v["usage"],
        json!({"prompt_tokens": 2, "completion_tokens": 12, "total_tokens": 14})
    );

    let plain = json!({ "model": "m", "messages": user("x"), "max_tokens": 2 });
    let v: Value = client()
        .post(format!("{}/v1/chat/completions", server.url))
        .bearer_auth("k")
        .json(&plain)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let choice = &v["choices"][0];
    assert_eq!(choice["message"]["content"], "h");
    assert_eq!(choice["finish_reason"], "length");
    assert!(choice.get("logprobs").is_none() && choice.get("token_ids").is_none());
}

#[tokio::test]
async fn streamed_completion_is_server_sent_chunks() {
    let server = constant();
    let body = json!({
        "model": "m", "messages": user("hi"), "stream": true,
        "stream_options": { "include_usage": true }, "return_token_ids": true,
    });
    let response = client()
        .post(format!("{}/v1/chat/completions", server.url))
        .bearer_auth("k")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let kind = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(kind.starts_with("text/event-stream"), "{kind}");
    let text = response.text().await.unwrap();
    let data: Vec<&str> = text
        .split("\n\n")
        .filter(|e| !e.is_empty())
        .map(|e| e.strip_prefix("data: ").expect("a data event"))
        .collect();
    assert_eq!(data.last(), Some(&"[DONE]"));
    let chunks: Vec<Value> = data[..data.len() - 1]
        .iter()
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    assert!(
        chunks
            .iter()
            .all(|c| c["object"] == "chat.completion.chunk")
    );
    assert_eq!(chunks[0]["choices"][0]["delta"]["role"], "assistant");
    let content: String = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["delta"]["content"].as_str())
        .collect();
    assert_eq!(content, "héllo world");
    let ids: Vec<u64> = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["token_ids"].as_array())
        .flatten()
        .map(|id| id.as_u64().unwrap())
        .collect();
    assert_eq!(ids.len(), "héllo world".len());
    let finish = &chunks[chunks.len() - 2];
    assert_eq!(finish["choices"][0]["finish_reason"], "stop");
    let usage = chunks.last().unwrap();
    assert_eq!(usage["choices"], json!([]));
    assert_eq!(usage["usage"]["completion_tokens"], 12);

    let stats = server.stats().await;
    assert_eq!(
        (stats["requests"].as_u64(), stats["streamed"].as_u64()),
        (Some(1), Some(1))
    );
}

#[tokio::test]
async fn auth_model_and_stats() {
    let server = constant();
    let c = client();
    let url = format!("{}/v1/chat/completions", server.url);
    let body = json!({ "model": "m", "messages": user("hi") });
    let r = c.post(&url).json(&body).send().await.unwrap();
    assert_eq!(r.status(), 401);
    let e: Value = r.json().await.unwrap();
    assert_eq!(e["error"]["code"], "invalid_api_key");
    let r = c
        .post(&url)
        .bearer_auth("wrong")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);

    let other = json!({ "model": "gpt-x", "messages": user("hi") });
    let r = c
        .post(&url)
        .bearer_auth("k")
        .json(&other)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
    let e: Value = r.json().await.unwrap();
    assert_eq!(e["error"]["code"], "model_not_found");
    assert_eq!(e["error"]["message"], "The model `gpt-x` does not exist");
    assert!(e["error"]["type"].is_string());

    let models: Value = c
        .get(format!("{}/v1/models", server.url))
        .bearer_auth("k")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(models["object"], "list");
    assert_eq!(models["data"][0]["id"], "m");
    assert_eq!(models["data"][0]["object"], "model");

    let stats = server.stats().await;
    assert_eq!(stats["requests"], 3);
    assert_eq!(stats["completed"], 0);
    assert_eq!(stats["unauthorized"], 2);
    assert_eq!(stats["unknown_model"], 1);
    assert_eq!(stats["injected"]["dropped"], 0);
}

#[test]
fn exits_when_stdin_closes() {
    assert!(constant().close_stdin_and_wait());
}
