//! `geode eval` and `geode reverify` as a user runs them, against a real OpenAI-compatible server
//! (`geode-model-server`, started in this process on loopback) whose scripted policies make the
//! expected numbers known, and whose failure injection the run must survive.

use geode_model_server::cli::Cli;
use geode_model_server::server::Bound;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

const GSM8K: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../builtins/src/math/data/gsm8k.jsonl"
);

/// The model server, serving on loopback from a thread of this process until dropped.
struct ModelServer {
    url: String,
    app: Arc<geode_model_server::app::App>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl ModelServer {
    fn start(args: &[&str]) -> ModelServer {
        let argv = [
            "geode-model-server",
            "--listen",
            "127.0.0.1:0",
            "--model",
            "test-model",
        ];
        let cli: Cli = clap::Parser::try_parse_from(argv.iter().chain(args)).expect("server args");
        let config = cli.serve.into_config().expect("server config");
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async move {
                let bound = Bound::bind(config).await.expect("bind");
                ready_tx.send((bound.url(), bound.app())).expect("ready");
                bound
                    .run(async {
                        let _ = stopped.await;
                    })
                    .await
                    .expect("serve");
            });
        });
        let (url, app) = ready_rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the model server started");
        ModelServer {
            url,
            app,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    fn base_url(&self) -> String {
        format!("{}/v1", self.url)
    }

    fn stats(&self) -> Value {
        self.app.stats.to_json()
    }
}

impl Drop for ModelServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("geode-eval-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn geode(args: &[String]) -> Output {
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_geode"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("geode runs");
    assert!(
        started.elapsed() < Duration::from_secs(300),
        "geode eval took too long"
    );
    out
}

fn eval_args(server: &ModelServer, out: &Path, rest: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "eval",
        "--base-url",
        &server.base_url(),
        "--model",
        "test-model",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(["--out".to_owned(), out.display().to_string()]);
    args.extend(rest.iter().map(|s| s.to_string()));
    args
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).expect("file written")).expect("JSON")
}

fn trajectories(out: &Path) -> Vec<Value> {
    std::fs::read_to_string(out.join("trajectories.jsonl"))
        .expect("trajectories written")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

fn run_ok(args: &[String]) -> String {
    let out = geode(args);
    assert!(
        out.status.success(),
        "geode eval failed:\n{}",
        text(&out.stderr)
    );
    text(&out.stdout)
}

fn num(value: &Value, path: &[&str]) -> f64 {
    let mut v = value;
    for key in path {
        v = &v[*key];
    }
    v.as_f64()
        .unwrap_or_else(|| panic!("{path:?} is not a number in {value}"))
}

#[test]
fn a_math_policy_right_half_the_time_measures_half_and_its_pass_at_k() {
    let server =
        ModelServer::start(&["--policy", "math", "--answers", GSM8K, "--p-correct", "0.5"]);
    let out = scratch("math");
    run_ok(&eval_args(
        &server,
        &out,
        &[
            "math:GSM8K",
            "--samples",
            "32",
            "--seed",
            "1000",
            "--concurrency",
            "32",
            "--max-turns",
            "1",
        ],
    ));
    let summary = read_json(&out.join("summary.json"));
    let group = &summary["envs"]["math:GSM8K"];
    assert_eq!(
        group["episodes"],
        6 * 32,
        "every row of the dataset, 32 samples each"
    );
    let mean = num(group, &["mean_reward"]);
    let ci = group["mean_reward_ci95"].as_array().unwrap();
    let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
    assert!(
        lo <= 0.5 && 0.5 <= hi,
        "0.5 outside [{lo}, {hi}] (mean {mean})"
    );
    for (k, expected) in [
        ("1", 0.5),
        ("2", 0.75),
        ("4", 0.9375),
        ("8", 1.0 - 0.5f64.powi(8)),
    ] {
        let measured = num(group, &["pass_at_k", k]);
        assert!(
            (measured - expected).abs() < 0.1,
            "pass@{k} {measured} vs {expected}"
        );
    }
    let lines = trajectories(&out);
    let keys: BTreeSet<(u64, u64)> = lines
        .iter()
        .map(|l| (l["task"].as_u64().unwrap(), l["sample"].as_u64().unwrap()))
        .collect();
    assert_eq!(keys.len(), 192, "no episode lost or duplicated");
    assert!(
        lines.iter().all(|l| l["start"]["row"].is_u64()),
        "dataset tasks are rows"
    );
}

#[test]
fn a_bisecting_player_wins_every_guess_the_number_episode_streamed_or_not() {
    let server = ModelServer::start(&["--policy", "bisect"]);
    for stream in [false, true] {
        let out = scratch(if stream { "bisect-stream" } else { "bisect" });
        let mut rest = vec![
            "game:GuessTheNumber-v0-hard",
            "--episodes",
            "20",
            "--max-turns",
            "10",
        ];
        if stream {
            rest.push("--stream");
        }
        run_ok(&eval_args(&server, &out, &rest));
        let summary = read_json(&out.join("summary.json"));
        let group = &summary["envs"]["game:GuessTheNumber-v0-hard"];
        assert_eq!(num(group, &["success_rate"]), 1.0, "{group}");
        assert!(num(group, &["mean_turns"]) <= 6.0);
        let first = &trajectories(&out)[0];
        assert_eq!(first["start"]["seed"], 0);
        assert!(
            first["usage"]["completion_tokens"].as_u64().unwrap() > 0,
            "usage recorded"
        );
        assert_eq!(first["messages"][0]["role"], "user");
    }
    assert!(server.stats()["streamed"].as_u64().unwrap() > 0);
}

#[test]
fn a_policy_that_calls_the_python_tool_gets_its_result_then_answers() {
    let server = ModelServer::start(&[
        "--policy",
        "tool-math",
        "--answers",
        GSM8K,
        "--p-correct",
        "1",
    ]);
    let out = scratch("tool");
    run_ok(&eval_args(
        &server,
        &out,
        &[
            "math:GSM8K",
            "--wrappers",
            "python_tool",
            "--max-turns",
            "4",
        ],
    ));
    let lines = trajectories(&out);
    assert_eq!(lines.len(), 6);
    for line in &lines {
        let turns = line["turns"].as_array().unwrap();
        assert_eq!(turns.len(), 2, "a tool call, then the answer: {line}");
        assert!(
            turns[0]["observation"].as_str().unwrap().contains("42"),
            "{line}"
        );
        assert_eq!(line["success"], true);
    }
}

#[test]
fn a_coding_env_is_solved_through_tool_calls_and_graded_by_its_hidden_tests() {
    let call = |tool: &str, arguments: Value| {
        format!(
            "<tool_call><tool_name>{tool}</tool_name><arguments>{arguments}</arguments></tool_call>"
        )
    };
    let fix = call(
        "str_replace_editor",
        serde_json::json!({"command": "str_replace", "path": "/workspace/spans/merge.py",
            "old_str": "current.start < merged[-1].end", "new_str": "current.start <= merged[-1].end"}),
    );
    let script = serde_json::json!({"match": "leaves intervals that touch at an endpoint",
        "replies": [fix, call("pytest", serde_json::json!({"args": ["-q"]})), call("submit", serde_json::json!({}))]});
    let dir = scratch("swe");
    std::fs::create_dir_all(&dir).unwrap();
    let answers = dir.join("script.jsonl");
    std::fs::write(&answers, format!("{script}\n")).unwrap();
    let server =
        ModelServer::start(&["--policy", "script", "--answers", answers.to_str().unwrap()]);
    let out = dir.join("out");
    run_ok(&eval_args(
        &server,
        &out,
        &["swe:interval-merge", "--episodes", "2", "--max-turns", "5"],
    ));
    let lines = trajectories(&out);
    assert_eq!(lines.len(), 2);
    for line in &lines {
        let turns = line["turns"].as_array().unwrap();
        assert_eq!(turns.len(), 3, "edit, pytest, submit: {line}");
        assert!(
            turns[1]["observation"].as_str().unwrap().contains("passed"),
            "{line}"
        );
        assert_eq!(line["success"], true, "{line}");
    }
}

#[test]
fn injected_failures_are_retried_counted_and_lose_no_episode() {
    let server = ModelServer::start(&[
        "--policy",
        "bisect",
        "--fail-429-every",
        "7",
        "--retry-after",
        "0",
        "--fail-500-every",
        "11",
        "--slow-every",
        "13",
        "--slow-ms",
        "3000",
        "--malformed-every",
        "17",
        "--drop-every",
        "19",
    ]);
    let out = scratch("failures");
    run_ok(&eval_args(
        &server,
        &out,
        &[
            "game:GuessTheNumber-v0-hard",
            "--episodes",
            "40",
            "--max-turns",
            "10",
            "--timeout",
            "1",
            "--backoff",
            "0.01",
            "--concurrency",
            "16",
        ],
    ));
    let summary = read_json(&out.join("summary.json"));
    let retries = &summary["overall"]["retries"];
    let injected = &server.stats()["injected"];
    for (ours, theirs) in [
        ("rate_limited", "rate_limited"),
        ("server_error", "server_error"),
        ("malformed", "malformed"),
        ("connection", "dropped"),
        ("timeout", "slow"),
    ] {
        assert_eq!(
            retries[ours], injected[theirs],
            "{ours}: {retries} vs {injected}"
        );
        assert!(retries[ours].as_u64().unwrap() > 0, "{ours} was exercised");
    }
    assert_eq!(
        num(&summary["overall"], &["success_rate"]),
        1.0,
        "every episode still finished"
    );
    let keys: BTreeSet<u64> = trajectories(&out)
        .iter()
        .map(|l| l["task"].as_u64().unwrap())
        .collect();
    assert_eq!(keys.len(), 40);
    assert_eq!(trajectories(&out).len(), 40);
}

#[test]
fn a_context_length_error_ends_that_episode_and_is_counted() {
    let server = ModelServer::start(&["--policy", "bisect", "--context-limit-chars", "800"]);
    let out = scratch("context");
    run_ok(&eval_args(
        &server,
        &out,
        &[
            "game:GuessTheNumber-v0-hard",
            "--episodes",
            "5",
            "--max-turns",
            "50",
        ],
    ));
    let summary = read_json(&out.join("summary.json"));
    let overall = &summary["overall"];
    assert_eq!(overall["episodes"], 5);
    let context = overall["endings"]["context_length"].as_u64().unwrap_or(0)
        + overall["endings"]["terminated"].as_u64().unwrap_or(0)
        + overall["endings"]["truncated"].as_u64().unwrap_or(0);
    assert_eq!(context, 5, "{overall}");
    assert!(
        overall["endings"]["context_length"].as_u64().unwrap_or(0) > 0,
        "{overall}"
    );
}

#[test]
fn an_unknown_model_or_a_bad_key_stops_the_run_with_one_line_naming_the_cause() {
    let server = ModelServer::start(&["--policy", "bisect", "--api-key", "sekret"]);
    let out = scratch("fatal");
    let args = eval_args(
        &server,
        &out,
        &["game:GuessTheNumber-v0-hard", "--episodes", "3"],
    );
    let result = geode(&args);
    assert!(!result.status.success());
    let stderr = text(&result.stderr);
    assert!(stderr.contains("invalid_api_key"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    let out = scratch("fatal-model");
    let mut args = eval_args(
        &server,
        &out,
        &["game:GuessTheNumber-v0-hard", "--episodes", "3"],
    );
    args.extend(["--api-key-env".into(), "GEODE_TEST_KEY".into()]);
    let model = args.iter().position(|a| a == "test-model").unwrap();
    args[model] = "no-such-model".into();
    let result = Command::new(env!("CARGO_BIN_EXE_geode"))
        .args(&args)
        .env("GEODE_TEST_KEY", "sekret")
        .output()
        .unwrap();
    let stderr = text(&result.stderr);
    assert!(
        !result.status.success() && stderr.contains("model_not_found"),
        "{stderr}"
    );
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
}

fn without_timings(line: &Value) -> Value {
    let mut line = line.clone();
    line["latency_ms"] = Value::Null;
    if let Some(turns) = line["turns"].as_array_mut() {
        for turn in turns {
            turn["latency_ms"] = Value::Null;
        }
    }
    line
}

fn strip_summary(summary: &Value) -> Value {
    let mut summary = summary.clone();
    summary["overall"]["latency_ms"] = Value::Null;
    summary["settings"]["concurrency"] = Value::Null;
    if let Some(envs) = summary["envs"].as_object_mut() {
        for group in envs.values_mut() {
            group["latency_ms"] = Value::Null;
        }
    }
    summary
}

#[test]
fn a_run_killed_with_sigkill_resumes_to_the_files_of_an_uninterrupted_run() {
    let server =
        ModelServer::start(&["--policy", "bisect", "--slow-every", "1", "--slow-ms", "20"]);
    let common = [
        "game:GuessTheNumber-v0-hard",
        "--episodes",
        "60",
        "--max-turns",
        "10",
        "--concurrency",
        "4",
    ];
    let whole = scratch("whole");
    run_ok(&eval_args(&server, &whole, &common));
    let cut = scratch("cut");
    let mut child = Command::new(env!("CARGO_BIN_EXE_geode"))
        .args(eval_args(&server, &cut, &common))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let done = std::fs::read_to_string(cut.join("trajectories.jsonl"))
            .map_or(0, |t| t.lines().count());
        if done >= 10 || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = trajectories(&cut).len();
    assert!(
        (10..60).contains(&before),
        "killed mid-run ({before} episodes done)"
    );
    let refused = geode(&eval_args(&server, &cut, &common));
    assert!(!refused.status.success() && text(&refused.stderr).contains("--resume"));
    let mut resumed = eval_args(&server, &cut, &common);
    resumed.push("--resume".into());
    run_ok(&resumed);
    let a: Vec<Value> = trajectories(&whole).iter().map(without_timings).collect();
    let b: Vec<Value> = trajectories(&cut).iter().map(without_timings).collect();
    assert_eq!(
        a, b,
        "the resumed run's episodes equal an uninterrupted run's"
    );
    assert_eq!(
        strip_summary(&read_json(&whole.join("summary.json"))),
        strip_summary(&read_json(&cut.join("summary.json")))
    );
    let changed = eval_args(
        &server,
        &cut,
        &[
            "game:GuessTheNumber-v0-hard",
            "--episodes",
            "61",
            "--resume",
        ],
    );
    let refused = geode(&changed);
    assert!(
        text(&refused.stderr).contains("other settings"),
        "{}",
        text(&refused.stderr)
    );
}

/// A bisecting model server over HTTPS, with a test CA made in `dir` (`dir/ca.pem` trusts it).
fn https_bisect_server(dir: &Path) -> ModelServer {
    std::fs::create_dir_all(dir).unwrap();
    geode_model_server::ca::make_test_ca(dir).unwrap();
    let (cert, key) = (dir.join("server.pem"), dir.join("server.key"));
    ModelServer::start(&[
        "--policy",
        "bisect",
        "--tls-cert",
        cert.to_str().unwrap(),
        "--tls-key",
        key.to_str().unwrap(),
    ])
}

#[test]
fn tls_with_a_self_signed_ca_passed_by_ca_cert() {
    let dir = scratch("tls");
    let server = https_bisect_server(&dir);
    assert!(server.url.starts_with("https://"));
    let out = dir.join("ok");
    let ca = dir.join("ca.pem");
    run_ok(&eval_args(
        &server,
        &out,
        &[
            "game:GuessTheNumber-v0-hard",
            "--episodes",
            "3",
            "--ca-cert",
            ca.to_str().unwrap(),
        ],
    ));
    assert_eq!(
        num(
            &read_json(&out.join("summary.json"))["overall"],
            &["success_rate"]
        ),
        1.0
    );
    let untrusted = dir.join("untrusted");
    run_ok(&eval_args(
        &server,
        &untrusted,
        &[
            "game:GuessTheNumber-v0-hard",
            "--episodes",
            "2",
            "--max-retries",
            "0",
        ],
    ));
    let summary = read_json(&untrusted.join("summary.json"));
    assert_eq!(
        summary["overall"]["errors"]["connection"], 2,
        "{}",
        summary["overall"]
    );
    let line = &trajectories(&untrusted)[0];
    assert!(
        line["error"]["message"]
            .as_str()
            .unwrap()
            .to_lowercase()
            .contains("certificate"),
        "{line}"
    );
}

#[test]
fn reverify_replays_a_run_and_names_a_tampered_verdict() {
    let server =
        ModelServer::start(&["--policy", "math", "--answers", GSM8K, "--p-correct", "0.5"]);
    let out = scratch("reverify");
    run_ok(&eval_args(
        &server,
        &out,
        &[
            "math:GSM8K",
            "--samples",
            "2",
            "--seed",
            "7",
            "--max-turns",
            "1",
        ],
    ));
    let clean = geode(&["reverify".into(), out.display().to_string()]);
    assert!(clean.status.success(), "{}", text(&clean.stderr));
    assert!(
        text(&clean.stdout).contains("12 episodes replayed, 0 changed"),
        "{}",
        text(&clean.stdout)
    );
    let path = out.join("trajectories.jsonl");
    let mut lines: Vec<Value> = trajectories(&out);
    let flipped = lines[0]["turns"][0]["reward"].as_f64().unwrap();
    lines[0]["turns"][0]["reward"] = Value::from(1.0 - flipped);
    lines[0]["reward"] = Value::from(1.0 - flipped);
    let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, body).unwrap();
    let tampered = geode(&["reverify".into(), out.display().to_string()]);
    let stdout = text(&tampered.stdout);
    assert!(
        stdout.contains("1 changed") && stdout.contains("changed math:GSM8K task 0 sample 0"),
        "{stdout}"
    );
    let verdicts = read_json(&out.join("reverify.json"));
    assert_eq!(verdicts["changed"].as_array().unwrap().len(), 1);
}

#[test]
fn a_multi_agent_id_runs_with_the_model_in_one_seat_and_a_random_opponent() {
    let server = ModelServer::start(&["--policy", "constant", "--reply", "\\boxed{5}"]);
    for seat in ["player_0", "player_1"] {
        let out = scratch(&format!("ma-{seat}"));
        run_ok(&eval_args(
            &server,
            &out,
            &[
                "ma:TicTacToe-v0",
                "--episodes",
                "8",
                "--seat",
                seat,
                "--max-turns",
                "9",
            ],
        ));
        let lines = trajectories(&out);
        assert_eq!(lines.len(), 8);
        for line in &lines {
            assert_eq!(line["ending"], "terminated", "{line}");
            let turns = line["turns"].as_array().unwrap();
            // Cell 5 twice is illegal: the model forfeits by its second move at the latest.
            assert!(!turns.is_empty() && turns.len() <= 2, "{line}");
            assert!(line["reward"].as_f64().unwrap() <= 0.0, "{line}");
        }
        let replay = geode(&["reverify".into(), out.display().to_string()]);
        assert!(
            text(&replay.stdout).contains("8 episodes replayed, 0 changed"),
            "the seeded opponent replays: {}{}",
            text(&replay.stdout),
            text(&replay.stderr)
        );
    }
    let out = scratch("ma-bad-seat");
    let bad = geode(&eval_args(
        &server,
        &out,
        &["ma:TicTacToe-v0", "--episodes", "1", "--seat", "player_9"],
    ));
    assert!(!bad.status.success() && text(&bad.stderr).contains("player_9"));
}

#[test]
fn the_search_tool_reaches_an_https_server_through_the_same_tls_stack() {
    let dir = scratch("search-tls");
    // An HTTPS server that is not a retrieval server: a search reaching it gets its 404.
    let tls = https_bisect_server(&dir);
    let model = ModelServer::start(&[
        "--policy",
        "constant",
        "--reply",
        "<search>capital of France</search>",
    ]);
    let search_url = format!("{}/retrieve", tls.url);
    for (trust, expect) in [(true, "404"), (false, "certificate")] {
        let out = dir.join(format!("run-{trust}"));
        let mut command = Command::new(env!("CARGO_BIN_EXE_geode"));
        command
            .args(eval_args(
                &model,
                &out,
                &[
                    "qa:HotpotQA",
                    "--episodes",
                    "1",
                    "--max-turns",
                    "1",
                    "--wrappers",
                    "search_tool",
                ],
            ))
            .env("SEARCH_URL", &search_url);
        if trust {
            command.env("SSL_CERT_FILE", dir.join("ca.pem"));
        }
        let result = command.output().unwrap();
        assert!(result.status.success(), "{}", text(&result.stderr));
        let line = &trajectories(&out)[0];
        let seen = line["turns"][0]["observation"].as_str().unwrap().to_owned();
        assert!(
            seen.contains("SearchTool Error") && seen.contains(expect),
            "{trust}: {seen}"
        );
        assert!(!seen.contains("not supported"), "{seen}");
    }
}

/// The shipped retail tasks of `tau:Retail-v0` (rows of table `tasks`).
fn tau_tasks() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../plugins/tau/data/retail.jsonl"
    );
    std::fs::read_to_string(path)
        .expect("the retail domain")
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).expect("a JSON row"))
        .filter(|row| row["table"] == "tasks")
        .map(|row| row["value"].clone())
        .collect()
}

/// A script for the assistant seat: for each task (matched by its instruction, which the
/// customer states first), ask who the customer is, run the gold actions, then say the outputs
/// (`drop` leaves out the gold action of that index).
fn tau_script(tasks: &[Value], drop: Option<usize>) -> String {
    let mut lines = String::new();
    for task in tasks {
        let mut replies =
            vec!["Could you give me your email, or your name and zip code?".to_owned()];
        for (i, action) in task["actions"].as_array().unwrap().iter().enumerate() {
            if Some(i) != drop {
                replies.push(format!(
                    "<tool_call><tool_name>{}</tool_name><arguments>{}</arguments></tool_call>",
                    action["name"].as_str().unwrap(),
                    action["kwargs"]
                ));
            }
        }
        let outputs: Vec<&str> = task["outputs"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        replies.push(format!("All done. {}", outputs.join(" and ")));
        let row = serde_json::json!({"match": task["instruction"], "replies": replies});
        lines.push_str(&format!("{row}\n"));
    }
    lines
}

/// Runs `geode eval` on `tau:Retail-v0` (every shipped task, `extra` flags after) with `script`
/// playing the assistant and the `tau-user` policy the customer; returns what it printed.
fn run_tau(script: &Path, out: &Path, extra: &[&str]) -> String {
    run_tau_tasks(tau_tasks().len(), script, out, extra)
}

/// [`run_tau`] for `episodes` episodes (of a domain given in `extra`'s `--config`).
fn run_tau_tasks(episodes: usize, script: &Path, out: &Path, extra: &[&str]) -> String {
    let assistant =
        ModelServer::start(&["--policy", "script", "--answers", script.to_str().unwrap()]);
    let customer = ModelServer::start(&["--policy", "tau-user"]);
    let (count, user_url) = (episodes.to_string(), customer.base_url());
    let mut args = vec![
        "tau:Retail-v0",
        "--episodes",
        &count,
        "--max-turns",
        "12",
        "--user-model",
        "test-model",
        "--user-base-url",
        &user_url,
    ];
    args.extend(extra);
    run_ok(&eval_args(&assistant, out, &args))
}

#[test]
fn tau_retail_with_a_model_playing_the_customer_scores_every_gold_task_and_reports_pass_hat_k() {
    let tasks = tau_tasks();
    let instructions: BTreeSet<&str> = tasks
        .iter()
        .map(|t| t["instruction"].as_str().unwrap())
        .collect();
    assert_eq!(
        instructions.len(),
        tasks.len(),
        "each task is told apart by its instruction"
    );
    let dir = scratch("tau");
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("assistant.jsonl");
    std::fs::write(&script, tau_script(&tasks, None)).unwrap();
    let out = dir.join("out");
    let printed = run_tau(&script, &out, &["--samples", "2"]);
    assert!(
        printed.contains("pass^k {1: 1.0000, 2: 1.0000}"),
        "{printed}"
    );
    let lines = trajectories(&out);
    assert_eq!(lines.len(), tasks.len() * 2);
    for line in &lines {
        assert_eq!(line["success"], true, "{line}");
        let last = line["turns"].as_array().unwrap().last().unwrap();
        assert_eq!(
            last["info"]["reward_info"]["database_matches"], true,
            "{line}"
        );
        // The customer gave its facts when asked and stopped at the end.
        let said: Vec<&str> = line["turns"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|t| {
                t["info"]["opponent_actions"]
                    .as_array()
                    .into_iter()
                    .flatten()
            })
            .filter_map(|pair| pair[1].as_str())
            .collect();
        assert!(said.first().unwrap().starts_with("Sure. "), "{said:?}");
        assert_eq!(said.last(), Some(&"###STOP###"));
    }
    let summary = read_json(&out.join("summary.json"));
    assert_eq!(num(&summary, &["overall", "pass_hat_k", "2"]), 1.0);
    // The customer's recorded replies replay the run without asking a model again (its
    // server is gone).
    let replay = geode(&["reverify".into(), out.display().to_string()]);
    assert!(
        text(&replay.stdout).contains(&format!("{} episodes replayed, 0 changed", tasks.len() * 2)),
        "{}{}",
        text(&replay.stdout),
        text(&replay.stderr)
    );

    // An assistant that skips the last gold action of each task fails every writing task.
    let skipping = dir.join("skipping.jsonl");
    let last_index = |t: &Value| t["actions"].as_array().unwrap().len() - 1;
    let rows: String = tasks
        .iter()
        .map(|t| tau_script(std::slice::from_ref(t), Some(last_index(t))))
        .collect();
    std::fs::write(&skipping, rows).unwrap();
    let out = dir.join("skipping-out");
    run_tau(&skipping, &out, &[]);
    for line in trajectories(&out) {
        let task = &tasks[line["task"].as_u64().unwrap() as usize];
        let writes = task["actions"].as_array().unwrap().last().unwrap()["name"]
            .as_str()
            .is_some_and(|n| !["get_", "find_", "list_"].iter().any(|p| n.starts_with(p)));
        if writes {
            assert_eq!(line["success"], false, "{line}");
            let last = line["turns"].as_array().unwrap().last().unwrap();
            assert_eq!(last["info"]["reward_info"]["failed"], "database", "{line}");
        }
    }
}

/// `value` as a Python literal (what TAU-bench's task files are written in).
/// Runs `geode tau-import DOMAIN --out OUT`; returns what it printed.
fn tau_import(domain: &Path, out: &Path) -> String {
    run_ok(&[
        "tau-import".into(),
        domain.display().to_string(),
        "--out".into(),
        out.display().to_string(),
    ])
}

/// Writes `tasks` as TAU-bench's tasks file does: `NAME = [Task(...), ...]`.
fn write_tau_tasks(path: &Path, name: &str, tasks: &[Value]) {
    let mut source = format!("from tau_bench.types import Task, Action\n\n{name} = [\n");
    for task in tasks {
        let actions: Vec<String> = task["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                format!(
                    "Action(name={}, kwargs={})",
                    a["name"],
                    python_literal(&a["kwargs"])
                )
            })
            .collect();
        source.push_str(&format!(
            "    Task(\n        annotator=\"0\",\n        user_id={},\n        instruction={},\n        actions=[\n            {}\n        ],\n        outputs={},\n    ),\n",
            task["user_id"], task["instruction"], actions.join(",\n            "), python_literal(&task["outputs"])
        ));
    }
    source.push_str("]\n");
    std::fs::write(path, source).unwrap();
}

fn python_literal(value: &Value) -> String {
    match value {
        Value::Null => "None".into(),
        Value::Bool(b) => if *b { "True" } else { "False" }.into(),
        Value::Array(items) => format!(
            "[{}]",
            items
                .iter()
                .map(python_literal)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Object(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!("{}: {}", Value::String(k.clone()), python_literal(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

#[test]
fn tau_import_reads_tau_benchs_layout_and_its_tasks_play_as_shipped() {
    // The shipped domain written out the way TAU-bench's repository lays a domain out.
    let dir = scratch("tau-import");
    let domain = dir.join("retail");
    std::fs::create_dir_all(domain.join("data")).unwrap();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../plugins/tau/data/retail.jsonl"
    );
    let rows: Vec<Value> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for (table, key) in [
        ("users", "user_id"),
        ("orders", "order_id"),
        ("products", "product_id"),
    ] {
        let records: serde_json::Map<String, Value> = rows
            .iter()
            .filter(|r| r["table"] == table)
            .map(|r| {
                let mut value = r["value"].clone();
                let id = value[key].as_str().unwrap().to_owned();
                if table == "users" {
                    value.as_object_mut().unwrap().remove(key); // TAU-bench keys users outside
                }
                (id, value)
            })
            .collect();
        std::fs::write(
            domain.join(format!("data/{table}.json")),
            Value::Object(records).to_string(),
        )
        .unwrap();
    }
    let policy = rows.iter().find(|r| r["table"] == "policy").unwrap()["value"]
        .as_str()
        .unwrap();
    std::fs::write(domain.join("wiki.md"), policy).unwrap();
    let tasks = tau_tasks();
    write_tau_tasks(&domain.join("tasks_test.py"), "TASKS_TEST", &tasks);

    let imported = dir.join("imported.jsonl");
    let printed = tau_import(&domain, &imported);
    assert!(
        printed.contains(&format!("{} tasks", tasks.len())),
        "{printed}"
    );

    let script = dir.join("assistant.jsonl");
    std::fs::write(&script, tau_script(&tasks, None)).unwrap();
    let config = serde_json::json!({"dataset": imported.display().to_string()}).to_string();
    let out = dir.join("out");
    run_tau(&script, &out, &["--config", &config]);
    let lines = trajectories(&out);
    assert_eq!(lines.len(), tasks.len());
    assert!(
        lines.iter().all(|l| l["success"] == true),
        "{:?}",
        lines.iter().find(|l| l["success"] != true)
    );

    // A directory that is neither domain is refused with the reason.
    let unknown = dir.join("unknown");
    std::fs::create_dir_all(unknown.join("data")).unwrap();
    std::fs::write(unknown.join("data/flights.json"), "{}").unwrap();
    let refused = geode(&[
        "tau-import".into(),
        unknown.display().to_string(),
        "--out".into(),
        dir.join("a.jsonl").display().to_string(),
    ]);
    assert!(
        !refused.status.success() && text(&refused.stderr).contains("reservations.json"),
        "{}",
        text(&refused.stderr)
    );
}

/// An airline domain in TAU-bench's layout (records, policy, `TASKS = [...]`), imported by
/// `geode tau-import` and played through `geode eval` with the model server on both seats:
/// every task's gold actions (a booking paid three ways, a flight change paid by gift card, a
/// cancellation, added bags, a certificate) score 1.0, and skipping the last one scores 0.0.
#[test]
fn tau_import_reads_an_airline_domain_and_eval_plays_it() {
    use serde_json::json;
    let dir = scratch("tau-airline");
    let domain = dir.join("airline");
    std::fs::create_dir_all(domain.join("data")).unwrap();
    let day = |price: i64| {
        json!({"status": "available",
               "available_seats": {"basic_economy": 9, "economy": 9, "business": 9},
               "prices": {"basic_economy": price / 2, "economy": price, "business": price * 3}})
    };
    let flight = |number: &str, from: &str, to: &str, price: i64| {
        json!({"flight_number": number, "origin": from, "destination": to,
               "scheduled_departure_time_est": "08:00:00", "scheduled_arrival_time_est": "10:00:00",
               "dates": {"2024-05-20": day(price), "2024-05-21": day(price + 40)}})
    };
    let files = [
        (
            "users",
            json!({"lena_ortiz_1": {
            "name": {"first_name": "Lena", "last_name": "Ortiz"}, "dob": "1985-06-07",
            "email": "lena@example.com", "membership": "silver", "saved_passengers": [],
            "payment_methods": {
                "credit_card_11": {"source": "credit_card", "brand": "visa", "last_four": "4242", "id": "credit_card_11"},
                "gift_card_12": {"source": "gift_card", "amount": 400, "id": "gift_card_12"},
                "certificate_13": {"source": "certificate", "amount": 150, "id": "certificate_13"}},
            "reservations": ["LO1234"]}}),
        ),
        (
            "flights",
            json!({"HAT101": flight("HAT101", "BOS", "MIA", 210),
                           "HAT102": flight("HAT102", "MIA", "BOS", 190)}),
        ),
        (
            "reservations",
            json!({"LO1234": {
            "reservation_id": "LO1234", "user_id": "lena_ortiz_1", "origin": "BOS",
            "destination": "MIA", "flight_type": "one_way", "cabin": "economy",
            "flights": [{"flight_number": "HAT101", "date": "2024-05-20", "price": 200,
                         "origin": "BOS", "destination": "MIA"}],
            "passengers": [{"first_name": "Lena", "last_name": "Ortiz", "dob": "1985-06-07"}],
            "payment_history": [{"payment_id": "credit_card_11", "amount": 200}],
            "created_at": "2024-05-02T09:00:00", "total_baggages": 0, "nonfree_baggages": 0,
            "insurance": "no"}}),
        ),
    ];
    for (table, records) in &files {
        std::fs::write(
            domain.join(format!("data/{table}.json")),
            records.to_string(),
        )
        .unwrap();
    }
    std::fs::write(domain.join("wiki.md"), "# Airline policy\n\nBe exact.\n").unwrap();
    let task = |instruction: &str, actions: Value, outputs: Value| json!({"user_id": "lena_ortiz_1", "instruction": instruction, "actions": actions, "outputs": outputs});
    let tasks = vec![
        task(
            "You want a round trip Boston to Miami on May 20, back May 21, economy, one bag paid, insurance.",
            json!([{"name": "book_reservation", "kwargs": {
                "user_id": "lena_ortiz_1", "origin": "BOS", "destination": "MIA",
                "flight_type": "round_trip", "cabin": "economy",
                "flights": [{"flight_number": "HAT101", "date": "2024-05-20"},
                            {"flight_number": "HAT102", "date": "2024-05-21"}],
                "passengers": [{"first_name": "Lena", "last_name": "Ortiz", "dob": "1985-06-07"}],
                "payment_methods": [{"payment_id": "certificate_13", "amount": 150},
                                    {"payment_id": "gift_card_12", "amount": 200},
                                    {"payment_id": "credit_card_11", "amount": 170}],
                "total_baggages": 1, "nonfree_baggages": 1, "insurance": "yes"}}]),
            json!(["520"]),
        ),
        task(
            "You want your Boston to Miami flight moved to May 21, paid with your gift card.",
            json!([{"name": "get_reservation_details", "kwargs": {"reservation_id": "LO1234"}},
                   {"name": "update_reservation_flights", "kwargs": {
                       "reservation_id": "LO1234", "cabin": "economy",
                       "flights": [{"flight_number": "HAT101", "date": "2024-05-21"}],
                       "payment_id": "gift_card_12"}}]),
            json!(["50"]),
        ),
        task(
            "You want to cancel reservation LO1234 and be sent a certificate of 100 for the trouble.",
            json!([{"name": "cancel_reservation", "kwargs": {"reservation_id": "LO1234"}},
                   {"name": "send_certificate", "kwargs": {"user_id": "lena_ortiz_1", "amount": 100}}]),
            json!([]),
        ),
        task(
            "You want two more checked bags on reservation LO1234, both paid, with your card ending 4242.",
            json!([{"name": "update_reservation_baggages", "kwargs": {
                "reservation_id": "LO1234", "total_baggages": 2, "nonfree_baggages": 2,
                "payment_id": "credit_card_11"}}]),
            json!([]),
        ),
    ];
    write_tau_tasks(&domain.join("tasks_test.py"), "TASKS", &tasks);

    let imported = dir.join("airline.jsonl");
    let printed = tau_import(&domain, &imported);
    assert!(printed.contains("4 records, 4 tasks"), "{printed}");
    let config = serde_json::json!({"dataset": imported.display().to_string()}).to_string();
    for (drop, expected) in [(None, true), (Some(usize::MAX), false)] {
        // `Some(usize::MAX)`: each task's last gold action is left out.
        let script = dir.join("assistant.jsonl");
        let mut lines = String::new();
        for task in &tasks {
            let last = task["actions"].as_array().unwrap().len() - 1;
            lines.push_str(&tau_script(std::slice::from_ref(task), drop.map(|_| last)));
        }
        std::fs::write(&script, lines).unwrap();
        let out = dir.join(format!("out-{expected}"));
        run_tau_tasks(tasks.len(), &script, &out, &["--config", &config]);
        let lines = trajectories(&out);
        assert_eq!(lines.len(), tasks.len());
        for line in &lines {
            assert_eq!(line["success"], expected, "{line}");
            let last = line["turns"].as_array().unwrap().last().unwrap();
            assert_eq!(
                last["info"]["reward_info"]["database_matches"], expected,
                "{line}"
            );
        }
    }
}
