//! Each policy's reply on crafted conversations.

use crate::harness::{Server, scratch, user};
use serde_json::json;

const ANSWERS: &str = r#"{"problem": "What is 2 + 2?", "answer": "4"}
{"question": "What is 12 + 2?", "answer": 14}
{"problem": "What is 2 + 2? Then double it.", "answer": "8"}
{"problem": "Which number is -123456789?", "answer": "-123456789"}
"#;

fn answers() -> String {
    let path = scratch("answers").join("answers.jsonl");
    std::fs::write(&path, ANSWERS).unwrap();
    path.to_str().unwrap().to_owned()
}

fn math(policy: &str, p: &str) -> Server {
    Server::start(&[
        "--model",
        "m",
        "--policy",
        policy,
        "--answers",
        &answers(),
        "--p-correct",
        p,
    ])
}

#[tokio::test]
async fn constant_replies_its_text() {
    let server = Server::start(&["--model", "m", "--policy", "constant", "--reply", "same"]);
    assert_eq!(server.reply(user("anything"), 0).await, "same");
    assert_eq!(server.reply(user("else"), 9).await, "same");
}

#[tokio::test]
async fn math_answers_by_table_and_draw() {
    let right = math("math", "1");
    let prompt = "Solve: What is 2 + 2? Then double it. Put the answer in \\boxed{}.";
    // The longest matching problem wins.
    assert_eq!(
        right.reply(user(prompt), 0).await,
        "The answer is \\boxed{8}."
    );
    assert_eq!(
        right.reply(user("What is 12 + 2?"), 0).await,
        "The answer is \\boxed{14}."
    );
    assert_eq!(
        right.reply(user("What is 3 + 3?"), 0).await,
        "I do not know."
    );
    // Only the first user message is searched.
    let later = json!([
        { "role": "system", "content": "What is 12 + 2?" },
        { "role": "user", "content": "What is 2 + 2?" },
        { "role": "user", "content": "What is 12 + 2?" },
    ]);
    assert_eq!(right.reply(later, 0).await, "The answer is \\boxed{4}.");

    let wrong = math("math", "0");
    assert_eq!(
        wrong.reply(user("What is 2 + 2?"), 0).await,
        "The answer is \\boxed{-123456789}."
    );
    let odd = wrong.reply(user("Which number is -123456789?"), 0).await;
    assert_eq!(odd, "The answer is \\boxed{-987654321}.");

    let half = math("math", "0.5");
    let mut rights = 0;
    for seed in 0..40 {
        let a = half.reply(user("What is 2 + 2?"), seed).await;
        assert_eq!(
            a,
            half.reply(user("What is 2 + 2?"), seed).await,
            "deterministic"
        );
        rights += usize::from(a == "The answer is \\boxed{4}.");
    }
    assert!((5..=35).contains(&rights), "{rights} of 40 right at p=0.5");
}

#[tokio::test]
async fn bisect_halves_the_hinted_range() {
    let server = Server::start(&["--model", "m", "--policy", "bisect"]);
    let first = "You are playing Guess The Number.\nYou have to guess the number between 1 and 50 \
                 (inclusive) within 7 turns.\nEnter your first guess to start the game.\n";
    let mut messages = vec![json!({ "role": "user", "content": first })];
    assert_eq!(server.reply(json!(messages), 0).await, "\\boxed{25}");
    messages.push(json!({ "role": "assistant", "content": "\\boxed{25}" }));
    messages.push(json!({ "role": "user", "content":
        "At turn 1, you guessed 25, and the target number is higher than 25.\nEnter your next guess." }));
    assert_eq!(server.reply(json!(messages), 0).await, "\\boxed{38}");
    messages.push(json!({ "role": "assistant", "content": "\\boxed{38}" }));
    messages.push(json!({ "role": "user", "content":
        "At turn 2, you guessed 38, and the target number is lower than 38.\nEnter your next guess." }));
    assert_eq!(server.reply(json!(messages), 0).await, "\\boxed{31}");
    assert_eq!(
        server.reply(user("no game here"), 0).await,
        "I do not know."
    );
}

#[tokio::test]
async fn tool_math_calls_python_then_answers() {
    let server = math("tool-math", "1");
    let first = "What is 2 + 2? Write code; the output (after \"Code execution result: \") helps.";
    assert_eq!(
        server.reply(user(first), 0).await,
        "<python>print(6 * 7)</python>"
    );
    let messages = json!([
        { "role": "user", "content": first },
        { "role": "assistant", "content": "<python>print(6 * 7)</python>" },
        { "role": "user", "content": "Code execution result: 42\n" },
    ]);
    assert_eq!(server.reply(messages, 0).await, "The answer is \\boxed{4}.");
}
