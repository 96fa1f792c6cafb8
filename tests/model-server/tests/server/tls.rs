//! HTTPS with a CA from `make-test-ca`: HTTP/2 by ALPN, HTTP/1.1 too.

use crate::harness::{BIN, Server, TIMEOUT, scratch, user};
use serde_json::{Value, json};
use std::process::Command;

fn client(ca: &[u8], http1: bool) -> reqwest::Client {
    let ca = reqwest::Certificate::from_pem(ca).expect("CA certificate");
    let builder = reqwest::Client::builder()
        .timeout(TIMEOUT)
        .tls_certs_only([ca]);
    let builder = if http1 { builder.http1_only() } else { builder };
    builder.build().expect("client")
}

#[tokio::test]
async fn https_with_the_test_ca_negotiates_http2() {
    let dir = scratch("tls");
    let made = Command::new(BIN)
        .arg("make-test-ca")
        .arg(&dir)
        .status()
        .unwrap();
    assert!(made.success());
    let cert = dir.join("server.pem");
    let key = dir.join("server.key");
    let server = Server::start(&[
        "--model",
        "m",
        "--policy",
        "constant",
        "--reply",
        "secure",
        "--tls-cert",
        cert.to_str().unwrap(),
        "--tls-key",
        key.to_str().unwrap(),
    ]);
    assert!(
        server.url.starts_with("https://127.0.0.1:"),
        "{}",
        server.url
    );
    let ca = std::fs::read(dir.join("ca.pem")).unwrap();
    let body = json!({ "model": "m", "messages": user("hi") });
    let port = server.url.rsplit(':').next().unwrap().to_owned();

    for (url, http1) in [
        (server.url.clone(), false),
        (format!("https://localhost:{port}"), false),
        (server.url.clone(), true),
    ] {
        let r = client(&ca, http1)
            .post(format!("{url}/v1/chat/completions"))
            .json(&body)
            .send()
            .await
            .unwrap();
        let expected = if http1 {
            reqwest::Version::HTTP_11
        } else {
            reqwest::Version::HTTP_2
        };
        assert_eq!(r.version(), expected, "{url}");
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["choices"][0]["message"]["content"], "secure");
    }

    // Without the CA, the handshake fails.
    let untrusting = reqwest::Client::builder()
        .timeout(TIMEOUT)
        .tls_certs_only([])
        .build()
        .unwrap();
    let refused = untrusting.get(format!("{}/stats", server.url)).send().await;
    assert!(refused.is_err());
}

#[tokio::test]
async fn plain_http_speaks_h2c() {
    let server = Server::start(&["--model", "m", "--policy", "constant", "--reply", "ok"]);
    let c = reqwest::Client::builder()
        .timeout(TIMEOUT)
        .http2_prior_knowledge()
        .build()
        .unwrap();
    let r = c
        .get(format!("{}/v1/models", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(r.version(), reqwest::Version::HTTP_2);
    assert_eq!(r.status(), 200);
}
