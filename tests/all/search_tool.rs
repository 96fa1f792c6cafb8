//! `tool:search` (geode-search): the shipped corpus answers the shipped QA samples through
//! `<search>`, a scripted agent scores 1.0 on the QA ids through the tool wrapper, the local
//! index and `geode-search-server` (a real process speaking GEM's retrieval protocol) give the
//! same observations, corpus files are indexed once and cached next to them, and every failure
//! of a remote search is a `[SearchTool Error: …]` with `has_error`, never a hang.

use geode_runtime::wrappers::ToolRewards;
use geode_runtime::{Env, Error, Limits, MakeOptions, WrapperSpec};
use geode_search::store::{Corpus, shared_index};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The QA ids whose samples the shipped corpus covers, with their sample file and question key.
const QA_IDS: &[(&str, &str, &str)] = &[
    ("qa:NaturalQuestions", "natural_questions", "problem"),
    ("qa:HotpotQA", "hotpotqa", "problem"),
    ("eval:QaOpen", "nq_open", "question"),
    ("eval:2Wiki", "search_eval_2wiki", "question"),
    ("eval:PopQA", "search_eval_popqa", "question"),
    ("eval:TriviaQA", "search_eval_tq", "question"),
    ("eval:HotpotQA", "search_eval_hotpotqa", "question"),
    ("eval:Bamboogle", "search_eval_bamboogle", "question"),
    ("eval:NaturalQuestions", "search_eval_nq", "question"),
    ("eval:Musique", "search_eval_musique", "question"),
];

/// A shipped sample's rows: `(question, accepted answers)`.
fn sample(file: &str, key: &str) -> Vec<(String, Vec<String>)> {
    let path = format!(
        "{}/../plugins/qa/data/{file}.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    text.lines()
        .map(|line| {
            let row: Value = serde_json::from_str(line).unwrap();
            let answers = match &row["answer"] {
                Value::String(one) => vec![one.clone()],
                Value::Array(many) => many
                    .iter()
                    .map(|a| a.as_str().unwrap().to_owned())
                    .collect(),
                other => panic!("answer {other}"),
            };
            (row[key].as_str().unwrap().to_owned(), answers)
        })
        .collect()
}

/// A yes/no question: its answer is a judgement, not a word a passage holds.
fn is_yes_no(answers: &[String]) -> bool {
    answers.iter().all(|a| a == "yes" || a == "no")
}

/// The first accepted answer the text holds (case-insensitive).
fn answer_in<'a>(text: &str, answers: &'a [String]) -> Option<&'a String> {
    let text = text.to_lowercase();
    answers.iter().find(|a| text.contains(&a.to_lowercase()))
}

#[test]
fn the_shipped_corpus_holds_the_answer_to_every_shipped_question() {
    let mut tool = geode_tests::registry()
        .make_tool(
            "tool:search",
            &json!({"backend": "local"}),
            &Limits::default(),
        )
        .unwrap();
    assert_eq!(tool.tool_type(), "search");
    let mut missing = Vec::new();
    for (_, file, key) in QA_IDS {
        for (question, answers) in sample(file, key) {
            let out = tool
                .execute(&format!("<search>{question}</search>"))
                .unwrap()
                .unwrap();
            assert!(!out.has_error, "{}", out.observation);
            assert!(
                out.observation
                    .starts_with("\n\n<information>Doc 1(Title: ")
            );
            assert!(out.observation.matches("(Title: ").count() <= 3, "topk 3");
            if !is_yes_no(&answers) && answer_in(&out.observation, &answers).is_none() {
                missing.push(format!("{file}: {question} {answers:?}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "no passage holds the answer to:\n{}",
        missing.join("\n")
    );
}

/// Plays one episode of `env` as a scripted agent: search the question, then answer with the
/// first accepted answer the passages hold. Returns every observation and the final reward.
fn scripted_episode(
    env: &mut dyn Env,
    seed: u64,
    rows: &[(String, Vec<String>)],
) -> (Vec<String>, f64) {
    let first = env.reset(Some(seed)).unwrap();
    let (question, answers) = rows
        .iter()
        .find(|(q, _)| first.observation.contains(&format!("Question: {q}\n")))
        .expect("the prompt asks a sample question");
    assert!(
        first
            .observation
            .contains("<search> your query here </search>"),
        "GEM's instructions follow the prompt"
    );
    let searched = env
        .step(&format!(
            "<think>I should look it up.</think>\n<search> {question} </search>"
        ))
        .unwrap();
    assert_eq!((searched.reward, searched.terminated), (0.0, false));
    let info = searched.info.to_map();
    assert_eq!(info["tool_type"], "search");
    assert_eq!(info["tool_use_counter"], 1);
    assert_eq!(info["tool_success_counter"], 1);
    let answer = answer_in(&searched.observation, answers).unwrap_or(&answers[0]);
    let answered = env.step(&format!("<answer>{answer}</answer>")).unwrap();
    assert!(answered.terminated);
    (
        vec![
            first.observation,
            searched.observation,
            answered.observation,
        ],
        answered.reward,
    )
}

fn search_stack(config: Value, rewards: ToolRewards) -> MakeOptions {
    MakeOptions::default().with_wrappers(vec![WrapperSpec::Tools {
        tools: vec![("tool:search".into(), config)],
        rewards,
    }])
}

#[test]
fn a_scripted_agent_answers_every_qa_id_through_search() {
    let registry = geode_tests::registry();
    for (id, file, key) in QA_IDS {
        let rows = sample(file, key);
        let options = search_stack(json!({"backend": "local"}), ToolRewards::default());
        let mut env = registry.make(id, options).unwrap();
        for seed in 0..rows.len() as u64 {
            let (_, reward) = scripted_episode(&mut *env, seed, &rows);
            assert_eq!(reward, 1.0, "{id} seed {seed}");
        }
    }
}

/// A `geode-search-server` process; killed when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the server over `corpus` (the shipped one when `None`) on a free port.
fn start_server(corpus: Option<&Path>) -> Server {
    let mut command = Command::new(geode_tests::workspace_binary(
        "geode-search-server",
        "geode-search",
    ));
    command
        .args(["--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(corpus) = corpus {
        command.arg("--corpus").arg(corpus);
    }
    let mut child = command.spawn().expect("the server starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let Some(url) = line.trim().strip_prefix("listening on ") else {
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        panic!("the server did not start: {line:?} {stderr}");
    };
    Server {
        url: url.to_owned(),
        child,
    }
}

#[test]
fn the_local_index_and_the_retrieval_server_give_the_same_episodes() {
    let server = start_server(None);
    assert!(server.url.ends_with("/retrieve"), "{}", server.url);
    let registry = geode_tests::registry();
    let rows = sample("search_eval_musique", "question");
    let local = search_stack(json!({"backend": "local"}), ToolRewards::default());
    let remote = search_stack(
        json!({"search_url": server.url, "timeout": 10}),
        ToolRewards::default(),
    );
    let mut local = registry.make("eval:Musique", local).unwrap();
    let mut remote = registry.make("eval:Musique", remote).unwrap();
    for seed in 0..rows.len() as u64 {
        let (local_obs, local_reward) = scripted_episode(&mut *local, seed, &rows);
        let (remote_obs, remote_reward) = scripted_episode(&mut *remote, seed, &rows);
        assert_eq!(local_obs, remote_obs, "seed {seed}");
        assert_eq!((local_reward, remote_reward), (1.0, 1.0));
    }
}

#[test]
fn the_server_speaks_gems_protocol_with_scores() {
    let server = start_server(None);
    let client = geode_search::remote::RemoteSearch::new(&server.url, Duration::from_secs(10));
    let response = client.search("capital of Bhutan", 2).unwrap();
    assert_eq!(response.result.len(), 2);
    assert!(response.result[0].document.contents.starts_with("Bhutan\n"));
    assert!(response.result[0].score.unwrap() >= response.result[1].score.unwrap());
    let index = shared_index(&Corpus::Shipped).unwrap();
    let local = index.search("capital of Bhutan", 2).unwrap();
    assert_eq!(response.result[0].document.id, json!(local[0].id));
    assert_eq!(response.result[0].score.unwrap() as f32, local[0].score);
}

fn search_once(config: Value, action: &str) -> geode_runtime::tool::ToolOutput {
    let mut tool = geode_tests::registry()
        .make_tool("tool:search", &config, &Limits::default())
        .unwrap();
    tool.execute(action).unwrap().expect("a search action")
}

#[test]
fn remote_failures_are_search_tool_errors() {
    // Nobody listens on a port just released.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = search_once(
        json!({"search_url": format!("http://127.0.0.1:{port}/retrieve")}),
        "<search>x</search>",
    );
    assert!(out.has_error);
    assert!(
        out.observation
            .starts_with("\n\n<information>[SearchTool Error: cannot connect"),
        "{}",
        out.observation
    );
    assert_eq!(out.parsed_action, "<search>x</search>");

    // A real server at a path it does not serve: the HTTP status is the error.
    let server = start_server(None);
    let wrong = server.url.replace("/retrieve", "/search");
    let out = search_once(json!({"search_url": wrong}), "<search>x</search>");
    assert!(out.has_error);
    assert!(
        out.observation
            .contains("[SearchTool Error: 404 Not Found for url"),
        "{}",
        out.observation
    );

    // A server that accepts and never answers: the timeout ends the search.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/retrieve", silent.local_addr().unwrap());
    let started = Instant::now();
    let out = search_once(
        json!({"search_url": url, "timeout": 0.5}),
        "<search>x</search>",
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(out.has_error);
    assert!(
        out.observation.contains("within 0.5 s (timeout)"),
        "{}",
        out.observation
    );
    drop(silent);
}

#[test]
fn actions_without_a_search_block_are_not_searches() {
    let mut tool = geode_tests::registry()
        .make_tool("tool:search", &Value::Null, &Limits::default())
        .unwrap();
    assert_eq!(tool.execute("<answer>Paris</answer>").unwrap(), None);
    assert_eq!(tool.execute("<search>unclosed").unwrap(), None);
    let instructions = tool.instructions().unwrap();
    assert!(
        instructions.starts_with("You have access to a search engine to help answer questions.")
    );
}

/// A scratch directory of this test binary.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("search-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_corpus(path: &Path, passages: &[(&str, &str)]) {
    let lines: Vec<String> = passages
        .iter()
        .enumerate()
        .map(|(i, (title, text))| {
            json!({"id": i.to_string(), "contents": format!("{title}\n{text}")}).to_string()
        })
        .collect();
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn a_corpus_file_is_indexed_once_cached_next_to_it_and_shared() {
    let dir = scratch("cache");
    let corpus = dir.join("tiny.jsonl");
    write_corpus(
        &corpus,
        &[
            ("Zebra", "Zebras are striped."),
            ("Okapi", "The okapi lives in the Congo."),
        ],
    );
    let config = json!({"corpus": corpus.display().to_string(), "topk": 1});
    let out = search_once(config.clone(), "<search>where do okapis live</search>");
    assert_eq!(
        out.observation,
        "\n\n<information>Doc 1(Title: Okapi) The okapi lives in the Congo.\n</information>\n\n"
    );
    let cached: Vec<_> = std::fs::read_dir(dir.join("tiny.jsonl.geode-index"))
        .unwrap()
        .collect();
    assert_eq!(cached.len(), 1, "one index, no leftover build directory");

    let first = shared_index(&Corpus::File(corpus.clone())).unwrap();
    let again = shared_index(&Corpus::File(corpus.clone())).unwrap();
    assert!(
        Arc::ptr_eq(&first, &again),
        "one index per corpus in a process"
    );

    // Relative paths are looked up in the data directories.
    geode_tests::registry()
        .runtime()
        .datasets()
        .add_root(&dir)
        .unwrap();
    let out = search_once(
        json!({"corpus": "tiny.jsonl", "topk": 1}),
        "<search>zebra</search>",
    );
    assert!(out.observation.contains("(Title: Zebra)"));

    // New content is a new index.
    std::thread::sleep(Duration::from_millis(20));
    write_corpus(
        &corpus,
        &[
            ("Zebra", "Zebras are striped."),
            ("Quagga", "The quagga was a zebra."),
        ],
    );
    let out = search_once(config, "<search>quagga</search>");
    assert!(
        out.observation.contains("(Title: Quagga)"),
        "{}",
        out.observation
    );
    assert_eq!(
        std::fs::read_dir(dir.join("tiny.jsonl.geode-index"))
            .unwrap()
            .count(),
        2
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_corpora_and_configs_are_named() {
    let dir = scratch("bad");
    let corpus = dir.join("broken.jsonl");
    std::fs::write(
        &corpus,
        "{\"id\": 1, \"contents\": \"A\\nb\"}\n{\"id\": 2}\n",
    )
    .unwrap();
    let registry = geode_tests::registry();
    let make = |config: Value| {
        registry
            .make_tool("tool:search", &config, &Limits::default())
            .map(|_| ())
    };
    let error = make(json!({"corpus": corpus.display().to_string()})).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("broken.jsonl, line 2: no `contents` key"),
        "{error}"
    );
    let error =
        make(json!({"corpus": dir.join("absent.jsonl").display().to_string()})).unwrap_err();
    assert!(error.to_string().contains("absent.jsonl"), "{error}");
    match make(json!({"topk": "three"})).unwrap_err() {
        Error::BadConfig { key, .. } => assert_eq!(key, "topk"),
        other => panic!("{other}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gems_search_tool_wrappers_by_name() {
    let registry = geode_tests::registry();
    let spec = WrapperSpec::from_name("search_tool", serde_json::Value::Null).unwrap();
    let WrapperSpec::Tools { tools, rewards } = &spec else {
        panic!("{spec:?}")
    };
    assert_eq!(tools[0].0, "tool:search");
    assert_eq!(
        (
            rewards.tool_reward,
            rewards.tool_success_reward,
            rewards.max_tool_uses
        ),
        (0.3, 0.0, Some(5))
    );
    let mut env = registry
        .make(
            "eval:PopQA",
            MakeOptions::default().with_wrappers(vec![spec]),
        )
        .unwrap();
    env.reset(Some(0)).unwrap();
    let step = env.step("<search>capital of Bhutan</search>").unwrap();
    assert_eq!(step.reward, 0.3);
    let spec =
        WrapperSpec::from_name("search_tool_no_int_reward", serde_json::Value::Null).unwrap();
    let mut env = registry
        .make(
            "eval:PopQA",
            MakeOptions::default().with_wrappers(vec![spec]),
        )
        .unwrap();
    env.reset(Some(0)).unwrap();
    assert_eq!(
        env.step("<search>capital of Bhutan</search>")
            .unwrap()
            .reward,
        0.0
    );
}

#[test]
fn python_and_search_in_one_tool_wrapper() {
    let registry = geode_tests::registry();
    let rewards = ToolRewards {
        tool_reward: 0.1,
        tool_success_reward: 0.2,
        ..ToolRewards::default()
    };
    let options = MakeOptions::default().with_wrappers(vec![WrapperSpec::Tools {
        tools: vec![
            ("tool:python".into(), json!({})),
            ("tool:search".into(), json!({"backend": "local"})),
        ],
        rewards,
    }]);
    let rows = sample("search_eval_bamboogle", "question");
    let mut env = registry.make("eval:Bamboogle", options).unwrap();
    // An episode whose answer is a year.
    let first = (0..rows.len() as u64)
        .map(|seed| env.reset(Some(seed)).unwrap())
        .find(|first| {
            rows.iter()
                .any(|(q, a)| first.observation.contains(q.as_str()) && a[0].parse::<i64>().is_ok())
        })
        .expect("a question with a numeric answer");
    assert!(
        first
            .observation
            .contains("\nAvailable tools:\nSolve the above problem step by step.")
    );
    assert!(
        first
            .observation
            .ends_with("<answer> your answer here </answer>")
    );
    let (question, answers) = rows
        .iter()
        .find(|(q, _)| first.observation.contains(q.as_str()))
        .unwrap();
    let searched = env.step(&format!("<search>{question}</search>")).unwrap();
    let info = searched.info.to_map();
    assert_eq!(
        (info["tool_type"].clone(), searched.reward),
        (json!("search"), 0.1 + 0.2)
    );
    let born: i64 = answers[0].parse().unwrap();
    assert!(
        searched.observation.contains(&answers[0]),
        "{}",
        searched.observation
    );
    let computed = env
        .step(&format!("<python>print({} + 1)</python>", born - 1))
        .unwrap();
    let info = computed.info.to_map();
    assert_eq!(info["tool_type"], "python_code");
    assert_eq!(
        computed.observation,
        format!("Code execution result: {born}\n\n")
    );
    assert_eq!(
        (
            info["tool_use_counter"].clone(),
            info["tool_success_counter"].clone()
        ),
        (json!(2), json!(2))
    );
    let failed = env
        .step("<search>x</search> <python>raise SystemExit(3)</python>")
        .unwrap();
    let info = failed.info.to_map();
    assert_eq!(
        info["tool_type"], "search",
        "the python tool failed, so the search tool's turn counts"
    );
    assert_eq!(
        (
            info["tool_use_counter"].clone(),
            info["tool_success_counter"].clone()
        ),
        (json!(3), json!(3))
    );
    let answered = env
        .step(&format!("<answer>{}</answer>", answers[0]))
        .unwrap();
    assert_eq!((answered.reward, answered.terminated), (1.0, true));
}
