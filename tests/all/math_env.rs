//! GEM's math ids (`math:*`, the math `eval:*` ids) as native envs on the sandboxed grader:
//! GEM's step rules, the episode walk (eval ids unshuffled), snapshots, the shipped samples and
//! the user's own dataset files.

use geode_builtins::math::{MATH_IDS, MATH_IDS_NOT_PROVIDED};
use geode_runtime::wrappers::ToolRewards;
use geode_runtime::{Env, MakeOptions, PluginKind, WrapperSpec};
use geode_tests::registry;
use serde_json::{Value, json};
use std::collections::BTreeSet;

const TERMINAL_STATE: &str = "<｜TERMINAL_STATE｜>";

fn make(id: &str, config: Value) -> Box<dyn Env> {
    registry().make(id, config).unwrap()
}

/// The shipped rows of sample `name`, read natively: (problem, answer).
fn sample(name: &str) -> Vec<(String, String)> {
    let path = format!(
        "{}/../host/builtins/src/math/data/{name}.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| {
            let row: Value = serde_json::from_str(line).unwrap();
            (
                row["problem"].as_str().unwrap().to_owned(),
                row["answer"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn every_id_is_listed_and_grades_its_sample() {
    let registry = registry();
    let listed: BTreeSet<&str> = registry.ids_of(PluginKind::Env).collect();
    for math in MATH_IDS {
        assert!(listed.contains(math.id), "{} not listed", math.id);
        let rows = sample(math.sample);
        let mut env = make(math.id, Value::Null);
        for _ in 0..rows.len() {
            let observation = env.reset(None).unwrap().observation;
            let (_, answer) = rows.iter().find(|(q, _)| *q == observation).unwrap();
            let step = env
                .step(&format!(
                    "Reasoning... so the answer is \\boxed{{{answer}}}."
                ))
                .unwrap();
            assert_eq!(step.reward, 1.0, "{}: {observation}", math.id);
            assert_eq!(step.info.get("correct"), Some(json!(true)));
            assert!(step.terminated && step.truncated);
            assert_eq!(step.observation, TERMINAL_STATE);
        }
    }
    for (id, _) in MATH_IDS_NOT_PROVIDED {
        assert!(!listed.contains(id));
    }
}

#[test]
fn wrong_and_unboxed_answers() {
    let mut env = make("math:GSM8K", Value::Null);
    env.reset(Some(1)).unwrap();
    let wrong = env.step("\\boxed{-1}").unwrap();
    assert_eq!(wrong.reward, 0.0);
    assert_eq!(wrong.info.get("correct"), Some(json!(false)));
    env.reset(Some(1)).unwrap();
    assert_eq!(env.step("the answer is 14").unwrap().reward, 0.0);
    let mut strict = make("math:GSM8K", json!({"use_format_error_reward": true}));
    strict.reset(Some(1)).unwrap();
    let unboxed = strict.step("the answer is 14").unwrap();
    assert_eq!(unboxed.reward, -0.1);
    assert_eq!(unboxed.info.get("correct"), Some(json!(false)));
    assert!(
        env.step("\\boxed{1}").is_ok(),
        "stepping after the end grades again, as GEM does"
    );
}

#[test]
fn eval_ids_walk_their_first_epoch_in_order_training_ids_shuffle() {
    let rows = sample("math500");
    let mut env = make("eval:MATH500", Value::Null);
    let walked: Vec<String> = (0..rows.len())
        .map(|_| env.reset(None).unwrap().observation)
        .collect();
    let expected: Vec<String> = rows.iter().map(|(q, _)| q.clone()).collect();
    assert_eq!(walked, expected);
    let rows = sample("gsm8k");
    let mut env = make("math:GSM8K", json!({"seed": 3}));
    let walked: BTreeSet<String> = (0..rows.len())
        .map(|_| env.reset(None).unwrap().observation)
        .collect();
    assert_eq!(walked.len(), rows.len(), "one epoch visits every row once");
    let mut a = make("math:Math12K", Value::Null);
    let mut b = make("math:Math12K", Value::Null);
    assert_eq!(
        a.reset(Some(9)).unwrap().observation,
        b.reset(Some(9)).unwrap().observation
    );
}

#[test]
fn snapshots_restore_the_question_and_the_walk() {
    let mut env = make("math:Orz57K", Value::Null);
    env.reset(None).unwrap();
    let state = env.get_state().unwrap();
    let next = env.reset(None).unwrap().observation;
    let mut copy = env.spawn(false).unwrap();
    copy.set_state(&state).unwrap();
    assert_eq!(copy.reset(None).unwrap().observation, next);
}

#[test]
fn user_files_with_their_own_keys_and_answer_types() {
    let dir = std::env::temp_dir().join(format!("geode-math-data-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rows = [
        json!({"q": "One half as a decimal?", "a": 0.5}),
        json!({"q": "Six times seven?", "a": 42}),
        json!({"q": "A root of x^2 = 4?", "a": ["2", "-2"]}),
    ];
    let text: String = rows.iter().map(|r| format!("{r}\n")).collect();
    let path = dir.join("mine.jsonl");
    std::fs::write(&path, text).unwrap();
    let config =
        json!({"dataset": path.display().to_string(), "question_key": "q", "answer_key": "a"});
    let mut env = make("math:Math12K", config);
    for (seed_answer, expected) in [("\\frac{1}{2}", "decimal"), ("42", "seven"), ("-2", "x^2")] {
        // Find the row by walking (the order is shuffled).
        let mut found = false;
        for _ in 0..rows.len() {
            let observation = env.reset(None).unwrap().observation;
            if observation.contains(expected) {
                let step = env.step(&format!("\\boxed{{{seed_answer}}}")).unwrap();
                assert_eq!(step.reward, 1.0, "{observation}");
                found = true;
                break;
            }
        }
        assert!(found);
    }
    std::fs::remove_dir_all(&dir).ok();
    let broken = registry().make("math:GSM8K", json!({"answer_key": 3}));
    assert!(broken.is_err());
}

#[test]
fn envs_share_one_grader_and_make_no_instance_of_their_own() {
    // 1,024 envs cost no grader instance each: making them is cheap and they all grade.
    let started = std::time::Instant::now();
    let mut envs: Vec<_> = (0..1024)
        .map(|_| make("math:ASDiv2K", Value::Null))
        .collect();
    // Generous: a guard against a grader instance per env, not a timing claim.
    assert!(
        started.elapsed().as_secs_f64() < 30.0,
        "{:?}",
        started.elapsed()
    );
    for env in envs.iter_mut().take(4) {
        env.reset(Some(0)).unwrap();
        assert!(env.step("\\boxed{0}").is_ok());
    }
}

#[test]
fn math_with_the_python_tool() {
    // GEM's math + python tool recipe: the model computes with `<python>`, then answers boxed.
    let tools = WrapperSpec::Tools {
        tools: vec![("tool:python".to_owned(), json!({}))],
        rewards: ToolRewards::default(),
    };
    let mut env = registry()
        .make("eval:AIME24", MakeOptions::default().with_wrappers([tools]))
        .unwrap();
    let first = env.reset(None).unwrap();
    assert!(
        first.observation.contains("3 or 5"),
        "{}",
        first.observation
    );
    let code = "<python>print(sum(1 for n in range(1, 100) if n % 3 == 0 or n % 5 == 0))</python>";
    let step = env.step(code).unwrap();
    assert_eq!(step.observation, "Code execution result: 46\n\n");
    assert!(!step.done());
    let step = env.step("So the answer is \\boxed{46}.").unwrap();
    assert_eq!(step.reward, 1.0);
    assert!(step.done());
}

/// A Parquet file in the layout of GEM's math datasets: `problem` and `answer`, both text.
fn write_math_parquet(path: &std::path::Path, rows: &[(&str, &str)]) {
    use parquet::data_type::{ByteArray, ByteArrayType};
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    let schema = std::sync::Arc::new(
        parse_message_type(
            "message rows { REQUIRED BYTE_ARRAY problem (UTF8); REQUIRED BYTE_ARRAY answer (UTF8); }",
        )
        .unwrap(),
    );
    let file = std::fs::File::create(path).unwrap();
    let mut writer = SerializedFileWriter::new(file, schema, Default::default()).unwrap();
    let mut group = writer.next_row_group().unwrap();
    for column_index in 0..2 {
        let values: Vec<ByteArray> = rows
            .iter()
            .map(|row| ByteArray::from(if column_index == 0 { row.0 } else { row.1 }))
            .collect();
        let mut column = group.next_column().unwrap().unwrap();
        column
            .typed::<ByteArrayType>()
            .write_batch(&values, None, None)
            .unwrap();
        column.close().unwrap();
    }
    group.close().unwrap();
    writer.close().unwrap();
}

#[test]
fn user_parquet_files() {
    let dir = std::env::temp_dir().join(format!("geode-math-parquet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mine.parquet");
    write_math_parquet(&path, &[("Half of one?", "\\frac{1}{2}")]);
    let mut env = make(
        "eval:MATH500",
        json!({"dataset": path.display().to_string()}),
    );
    assert_eq!(env.reset(None).unwrap().observation, "Half of one?");
    assert_eq!(env.step("\\boxed{0.5}").unwrap().reward, 1.0);
    std::fs::remove_dir_all(&dir).ok();
}
