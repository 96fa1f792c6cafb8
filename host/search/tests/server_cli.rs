//! `geode-search-server`'s command line: bad arguments fail at once with a message naming what
//! was wrong. (Its protocol is tested end to end in `tests/all/search_tool.rs`; this test also
//! makes `cargo test` build the binary that test starts.)

use std::process::Command;

fn server() -> Command {
    Command::new(env!("CARGO_BIN_EXE_geode-search-server"))
}

#[test]
fn a_missing_corpus_is_named() {
    let out = server()
        .args([
            "--corpus",
            "/nonexistent/search-corpus.jsonl",
            "--port",
            "0",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("/nonexistent/search-corpus.jsonl"),
        "{stderr}"
    );
}

#[test]
fn a_zero_topk_is_refused() {
    let out = server().args(["--topk", "0"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--topk must be positive"));
}
