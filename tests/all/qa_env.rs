//! GEM's QA and logic ids (`qa:*`, `logic:RuleTaker-*`, the QA `eval:*` ids) over the real
//! built-in component and its sample datasets: GEM's prompt, exact-match grading of tagged and
//! boxed answers, the episode walk over a dataset, seeding, snapshots, and user dataset files.

use geode_runtime::{Env, Error, Runtime, StepOutput};
use geode_tests::registry;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// Every QA id with its sample file, question key, and whether answers are boxed.
const IDS: &[(&str, &str, &str, bool)] = &[
    ("qa:NaturalQuestions", "natural_questions", "problem", false),
    ("qa:HotpotQA", "hotpotqa", "problem", false),
    ("logic:RuleTaker-d0", "ruletaker_d0", "question", true),
    ("logic:RuleTaker-d1", "ruletaker_d1", "question", true),
    ("logic:RuleTaker-d2", "ruletaker_d2", "question", true),
    ("logic:RuleTaker-d3", "ruletaker_d3", "question", true),
    ("logic:RuleTaker-d5", "ruletaker_d5", "question", true),
    ("eval:QaOpen", "nq_open", "question", false),
    ("eval:2Wiki", "search_eval_2wiki", "question", false),
    ("eval:PopQA", "search_eval_popqa", "question", false),
    ("eval:TriviaQA", "search_eval_tq", "question", false),
    ("eval:HotpotQA", "search_eval_hotpotqa", "question", false),
    ("eval:Bamboogle", "search_eval_bamboogle", "question", false),
    ("eval:NaturalQuestions", "search_eval_nq", "question", false),
    ("eval:Musique", "search_eval_musique", "question", false),
];

const TERMINAL_STATE: &str = "<｜TERMINAL_STATE｜>";

/// The rows of a shipped sample, read natively.
fn sample_rows(file: &str) -> Vec<Value> {
    let path = format!(
        "{}/../plugins/qa/data/{file}.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The question an observation asks (GEM's prompt ends with `Question: ...\n`).
fn question_of(observation: &str) -> &str {
    let (_, question) = observation
        .split_once("\nQuestion: ")
        .expect("GEM's prompt");
    question
        .strip_suffix('\n')
        .expect("the prompt ends with a newline")
}

/// The row of `rows` whose question `observation` asks.
fn row_for<'a>(rows: &'a [Value], key: &str, observation: &str) -> &'a Value {
    let question = question_of(observation);
    rows.iter()
        .find(|row| row[key] == question)
        .unwrap_or_else(|| panic!("no row asks {question:?}"))
}

/// The first accepted answer of `row`.
fn first_answer(row: &Value) -> String {
    match &row["answer"] {
        Value::Array(items) => items[0].as_str().unwrap().to_owned(),
        Value::String(text) => text.clone(),
        other => panic!("answer {other}"),
    }
}

fn assert_final(step: &StepOutput, reward: f64, correct: bool) {
    assert_eq!(step.observation, TERMINAL_STATE);
    assert_eq!(step.reward, reward);
    assert!(step.terminated && step.truncated, "GEM ends both ways");
    assert_eq!(
        Value::Object(step.info.to_map()),
        json!({ "correct": correct })
    );
}

#[test]
fn every_id_grades_right_wrong_and_missing_answers() {
    for &(id, file, key, boxed) in IDS {
        let rows = sample_rows(file);
        let mut env = registry().make(id, &Value::Null).unwrap();
        let first = env.reset(Some(1)).unwrap();
        assert!(
            first
                .observation
                .starts_with("For any question, always reason"),
            "{id}: {}",
            first.observation
        );
        assert!(first.info.to_map().is_empty());
        let answer = first_answer(row_for(&rows, key, &first.observation));
        // Case, punctuation, articles and spacing do not matter.
        let loud = format!("The  {}!", answer.to_uppercase());
        let reply = |text: &str| {
            if boxed {
                format!("<think>...</think> so \\boxed{{{text}}}")
            } else {
                format!("<think>...</think><answer>wrong</answer> <answer>{text}</answer>")
            }
        };
        assert_final(&env.step(&reply(&loud)).unwrap(), 1.0, true);
        env.reset(Some(1)).unwrap();
        assert_final(&env.step(&reply("certainly not this")).unwrap(), 0.0, false);
        env.reset(Some(1)).unwrap();
        let unformatted = if boxed {
            answer.clone()
        } else {
            format!("\\boxed{{{answer}}}")
        };
        assert_final(&env.step(&unformatted).unwrap(), 0.0, false);
        let err = env.step(&reply(&answer)).unwrap_err();
        assert!(
            matches!(err, Error::Refused { .. } | Error::InvalidState { .. }),
            "{id}: {err}"
        );
    }
}

#[test]
fn unseeded_resets_visit_every_row_once_per_epoch() {
    let rows = sample_rows("hotpotqa");
    let mut env = registry().make("qa:HotpotQA", json!({"seed": 5})).unwrap();
    let epoch = |env: &mut Box<dyn Env>| {
        (0..rows.len())
            .map(|_| question_of(&env.reset(None).unwrap().observation).to_owned())
            .collect::<Vec<_>>()
    };
    let first = epoch(&mut env);
    let second = epoch(&mut env);
    let all: BTreeSet<&str> = rows
        .iter()
        .map(|r| r["problem"].as_str().unwrap())
        .collect();
    assert_eq!(
        first.iter().map(String::as_str).collect::<BTreeSet<_>>(),
        all
    );
    assert_eq!(
        second.iter().map(String::as_str).collect::<BTreeSet<_>>(),
        all
    );
    assert_ne!(first, second, "each epoch is shuffled anew");
    let mut same_seed = registry().make("qa:HotpotQA", json!({"seed": 5})).unwrap();
    assert_eq!(
        epoch(&mut same_seed),
        first,
        "the order follows the `seed` key"
    );
}

#[test]
fn seeded_resets_replay_and_snapshots_restore_the_question() {
    let make = || registry().make("eval:TriviaQA", &Value::Null).unwrap();
    let (mut a, mut b) = (make(), make());
    b.reset(None).unwrap();
    let picks: Vec<String> = (0..6)
        .map(|s| a.reset(Some(s)).unwrap().observation)
        .collect();
    let again: Vec<String> = (0..6)
        .map(|s| b.reset(Some(s)).unwrap().observation)
        .collect();
    assert_eq!(picks, again);
    assert!(
        picks.iter().collect::<BTreeSet<_>>().len() > 1,
        "seeds pick different rows"
    );

    let rows = sample_rows("search_eval_tq");
    let observation = a.reset(None).unwrap().observation;
    let state = a.get_state().unwrap();
    let mut restored = make();
    restored.set_state(&state).unwrap();
    let answer = first_answer(row_for(&rows, "question", &observation));
    assert_final(
        &restored
            .step(&format!("<answer>{answer}</answer>"))
            .unwrap(),
        1.0,
        true,
    );
    // Both walks go on alike.
    assert_eq!(
        a.reset(None).unwrap().observation,
        restored.reset(None).unwrap().observation
    );
}

#[test]
fn a_dataset_file_from_a_data_directory_with_other_keys() {
    let dir = std::env::temp_dir().join(format!("geode-qa-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("trivia")).unwrap();
    let rows = [
        json!({"q": "Largest planet?", "gold": ["Jupiter"]}),
        json!({"q": "Boiling point of water at sea level in Celsius?", "gold": 100}),
    ];
    let text: String = rows.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(dir.join("trivia/mine.jsonl"), text).unwrap();
    let runtime = Runtime::new().unwrap();
    runtime.datasets().add_root(&dir).unwrap();
    let registry = geode_builtins::registry(runtime).unwrap();
    let config = json!({"dataset": "trivia/mine.jsonl", "question_key": "q", "answer_key": "gold"});
    let mut env = registry.make("qa:NaturalQuestions", &config).unwrap();
    for _ in 0..2 {
        let observation = env.reset(None).unwrap().observation;
        let answer = if question_of(&observation) == "Largest planet?" {
            "jupiter"
        } else {
            "100"
        };
        assert_final(
            &env.step(&format!("<answer>{answer}</answer>")).unwrap(),
            1.0,
            true,
        );
    }

    let missing = registry
        .make(
            "qa:NaturalQuestions",
            json!({"dataset": "trivia/none.jsonl"}),
        )
        .unwrap_err();
    assert!(
        matches!(&missing, Error::BadConfig { key, .. } if key == "dataset"),
        "{missing}"
    );
    let escape = registry
        .make("qa:HotpotQA", json!({"dataset": "../etc/passwd.jsonl"}))
        .unwrap_err();
    assert!(
        matches!(&escape, Error::BadConfig { key, .. } if key == "dataset"),
        "{escape}"
    );

    // A row without the configured question key is reported with its row and field.
    let mut env = registry
        .make(
            "qa:HotpotQA",
            json!({"dataset": "trivia/mine.jsonl", "question_key": "nope"}),
        )
        .unwrap();
    let err = env.reset(None).unwrap_err().to_string();
    assert!(
        err.contains("`nope`") && err.contains("trivia/mine.jsonl"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_dataset_file_at_an_absolute_path_needs_no_data_directory() {
    // The user's own configuration is trusted: an absolute path is read as is.
    let dir = std::env::temp_dir().join(format!("geode-qa-abs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mine.jsonl");
    std::fs::write(
        &path,
        format!("{}\n", json!({"q": "Largest planet?", "gold": ["Jupiter"]})),
    )
    .unwrap();
    let registry = geode_builtins::registry(Runtime::new().unwrap()).unwrap();
    let config =
        json!({"dataset": path.display().to_string(), "question_key": "q", "answer_key": "gold"});
    let mut env = registry.make("qa:NaturalQuestions", &config).unwrap();
    env.reset(None).unwrap();
    assert_final(&env.step("<answer>Jupiter</answer>").unwrap(), 1.0, true);
    let missing = registry
        .make(
            "qa:NaturalQuestions",
            json!({"dataset": dir.join("none.jsonl").display().to_string()}),
        )
        .unwrap_err();
    assert!(
        matches!(&missing, Error::BadConfig { key, .. } if key == "dataset"),
        "{missing}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn no_data_directory_is_a_clear_error() {
    let registry = geode_builtins::registry(Runtime::new().unwrap()).unwrap();
    let err = registry
        .make("qa:HotpotQA", json!({"dataset": "hotpot/train.parquet"}))
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("GEODE_DATA_PATH") && text.contains("dataset"),
        "{text}"
    );
}

#[test]
fn vector_slots_get_their_own_shuffle_seed() {
    use geode_runtime::{Actions, VecSpec};
    let mut vec = registry()
        .make_vec(&VecSpec::uniform("qa:HotpotQA", 4, 0))
        .unwrap();
    vec.reset(None).unwrap();
    let actions: Vec<String> = vec!["<answer>x</answer>".to_owned(); 4];
    let distinct: Vec<usize> = (0..3)
        .map(|_| {
            let step = vec.step(Actions::All(&actions)).unwrap();
            step.observations()
                .map(question_of)
                .collect::<BTreeSet<_>>()
                .len()
        })
        .collect();
    assert!(distinct.iter().any(|&d| d > 1), "{distinct:?}");
}
