//! The `geode` binary: list, run, play and inspect, as a user types them.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn geode(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_geode"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("geode starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn list_shows_every_guess_the_number_id() {
    let out = geode(&["list"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for id in [
        "game:GuessTheNumber-v0-hard",
        "game:GuessTheNumber-v0-easy",
        "game:GuessTheNumber-v0-random",
    ] {
        assert!(stdout.contains(id), "{id} missing from:\n{stdout}");
    }
}

#[test]
fn run_prints_a_summary_table() {
    let out = geode(
        &[
            "run",
            "game:GuessTheNumber-v0-easy",
            "--episodes",
            "300",
            "--seed",
            "7",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let value = |key: &str| -> f64 {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(key))
            .unwrap_or_else(|| panic!("no {key} in {stdout}"));
        line[key.len()..].trim().parse().unwrap()
    };
    assert_eq!(value("episodes"), 300.0);
    // A random guesser on 1..10 with 4 turns wins often but not always.
    let success = value("success rate");
    assert!((0.2..0.9).contains(&success), "success rate {success}");
    let length = value("mean length");
    assert!((1.0..=4.0).contains(&length), "mean length {length}");
    assert!(value("steps/s") > 0.0);
    // The same seed gives the same statistics.
    let again = geode(
        &[
            "run",
            "game:GuessTheNumber-v0-easy",
            "--episodes",
            "300",
            "--seed",
            "7",
        ],
        "",
    );
    let strip = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("steps/s") && !l.starts_with("wall"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&stdout), strip(&text(&again.stdout)));
}

#[test]
fn run_rejects_bad_ids_and_config_clearly() {
    let out = geode(&["run", "game:GuessTheNumber-v9"], "");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("unknown env id `game:GuessTheNumber-v9`"),
        "{}",
        text(&out.stderr)
    );
    let out = geode(
        &[
            "run",
            "game:GuessTheNumber-v0-hard",
            "--config",
            "{\"turns\": 3}",
        ],
        "",
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("bad config key `turns`"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn play_reads_actions_from_stdin() {
    let out = geode(
        &["play", "game:GuessTheNumber-v0-hard", "--seed", "42"],
        "\\boxed{25}\n\\boxed{41}\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("You are playing Guess The Number."),
        "{stdout}"
    );
    assert!(
        stdout.contains("you guessed 25, and the target number is higher than 25."),
        "{stdout}"
    );
    // Seed 42 hides 41, as CPython's random.seed(42); random.randint(1, 50) does.
    assert!(
        stdout.contains("Congratulations! You guessed the correct number 41 in 2 turns."),
        "{stdout}"
    );
    assert!(
        stdout.contains("[reward 1 | return 1 | terminated true | truncated false]"),
        "{stdout}"
    );
}

#[test]
fn inspect_describes_a_plugin_file_and_rejects_junk() {
    let dir = std::env::temp_dir().join(format!("geode-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plugin = dir.join("guess.wasm");
    let (_, wasm) = geode_builtins::plugins()
        .iter()
        .find(|(n, _)| *n == "guess-the-number")
        .unwrap();
    std::fs::write(&plugin, wasm).unwrap();
    let out = geode(&["inspect", plugin.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("contract   geode:env@0.1.0"), "{stdout}");
    assert!(
        stdout.contains("default config: {\"max_number\":50,\"max_turns\":7,\"min_number\":1}"),
        "{stdout}"
    );

    let junk = dir.join("junk.wasm");
    std::fs::write(&junk, b"definitely not wasm").unwrap();
    let out = geode(&["inspect", junk.to_str().unwrap()], "");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("junk.wasm is not a geode plugin"),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_runs_the_conformance_suite_on_a_builtin_id() {
    let out = geode(
        &["check", "game:GuessTheNumber-v0-easy", "--seeds", "2"],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for check in [
        "replay",
        "episodes-end",
        "garbage-actions",
        "state-round-trip",
    ] {
        assert!(
            stdout.contains(&format!("ok    game:GuessTheNumber-v0-easy {check}")),
            "{check} missing from:\n{stdout}"
        );
    }
    assert!(
        stdout.contains("checked 1 env ids: 1 passed, 0 failed"),
        "{stdout}"
    );
    // An unknown id fails the suite (its `make` check) and exits 1.
    let out = geode(&["check", "game:GuessTheNumber-v9"], "");
    assert!(!out.status.success());
    assert!(
        text(&out.stdout).contains("FAIL  game:GuessTheNumber-v9 make:"),
        "{}",
        text(&out.stdout)
    );
}

/// The first JSON object `geode play --json` printed on each line of `stdout`.
fn json_lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

#[test]
fn list_shows_the_code_envs_and_the_python_tool() {
    let out = geode(&["list"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for (id, kind) in [
        ("code:CodeContest", "env"),
        ("code:Taco8k", "env"),
        ("code:PrimeIntellect15k", "env"),
        ("eval:CodeContest", "env"),
        ("tool:python", "tool"),
    ] {
        let row = stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(id))
            .unwrap_or_else(|| panic!("{id} missing from:\n{stdout}"));
        let columns: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(columns[1], kind, "{row}");
        assert!(row.contains("native (sandbox)"), "{row}");
    }
}

#[test]
fn play_grades_a_code_answer_from_the_shipped_sample() {
    // Seed 109 picks "Sum of two" from the shipped sample.
    let correct = "Here you go.\n```python\na, b = map(int, input().split())\nprint(a + b)\n```";
    let wrong = "```python\nprint(0)\n```";
    let stdin = [
        serde_json::json!(correct),
        serde_json::json!({"reset": 109}),
        serde_json::json!(wrong),
        serde_json::json!({"reset": 109}),
        serde_json::json!("no code block at all"),
    ]
    .map(|v| v.to_string())
    .join("\n");
    let out = geode(
        &["play", "code:CodeContest", "--json", "--seed", "109"],
        &stdin,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines = json_lines(&text(&out.stdout));
    assert_eq!(lines.len(), 6, "{lines:?}");
    let title = lines[0]["observation"].as_str().unwrap();
    assert!(title.starts_with("Sum of two"), "{title}");
    assert_eq!(lines[1]["reward"], 1.0, "{}", lines[1]);
    assert_eq!(lines[1]["terminated"], true);
    assert_eq!(lines[1]["info"]["passed"], 5);
    assert_eq!(lines[1]["info"]["total"], 5);
    assert_eq!(lines[3]["reward"], 0.0, "{}", lines[3]);
    // Tests run in parallel and stop at the first failure: whichever failed is named.
    assert_eq!(
        lines[3]["info"]["first_failure"]["verdict"], "wrong_answer",
        "{}",
        lines[3]
    );
    assert_eq!(lines[5]["reward"], -0.1, "{}", lines[5]);
    assert_eq!(lines[5]["info"]["format_error"], true);
}

#[test]
fn play_takes_a_pasted_code_block_as_one_action() {
    let pasted = "```python\na, b = map(int, input().split())\nprint(a + b)\n```\n";
    let out = geode(&["play", "code:CodeContest", "--seed", "109"], pasted);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("Sum of two"), "{stdout}");
    assert!(
        stdout.contains("[reward 1 | return 1 | terminated true | truncated true]"),
        "{stdout}"
    );
}

#[test]
fn run_inspect_and_check_accept_code_env_ids() {
    let out = geode(
        &[
            "run",
            "code:Taco8k",
            "--episodes",
            "3",
            "--config",
            "{\"timeout\": 2}",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("episodes       3"), "{stdout}");
    // One step per episode: the random action echoes the input, which never solves a problem.
    assert!(stdout.contains("mean length    1.00"), "{stdout}");
    assert!(stdout.contains("success rate   0.000"), "{stdout}");

    let out = geode(&["inspect", "code:CodeContest"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("plugin     native (sandbox)"), "{stdout}");
    assert!(stdout.contains("\"max_tests\":12"), "{stdout}");

    let out = geode(&["check", "eval:CodeContest", "--seeds", "2"], "");
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout).contains("checked 1 env ids: 1 passed, 0 failed"),
        "{}",
        text(&out.stdout)
    );

    // A misspelt code id suggests the right one.
    let out = geode(&["play", "code:CodeContst"], "");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("code:CodeContest"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn data_dir_lets_an_env_read_a_dataset_file() {
    let dir = std::env::temp_dir().join(format!("geode-cli-data-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("q.jsonl"),
        "{\"question\": \"2+2?\", \"answer\": \"4\"}\n",
    )
    .unwrap();
    let config = "{\"dataset\": \"q.jsonl\"}";
    let data_dir = dir.to_str().unwrap();
    let run = ["run", "eval:QaOpen", "--config", config, "--episodes", "3"];
    let out = geode(&[&["--data-dir", data_dir], &run[..]].concat(), "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("mean length    1.00"),
        "{}",
        text(&out.stdout)
    );

    let out = geode(&run, "");
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("bad config key `dataset`") && stderr.contains("--data-dir"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn list_says_where_the_reasoning_gym_ids_are() {
    let out = geode(&["list"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("rg:*") && stdout.contains("pip install 'geode[rg]'"),
        "{stdout}"
    );
}
