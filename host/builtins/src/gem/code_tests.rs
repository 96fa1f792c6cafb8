//! The tests of a code problem, as GEM's `CodeEnv` reads and grades them: `{inputs, outputs}`
//! (possibly as a JSON string), at most `max_tests` of them (those with the longest inputs),
//! outputs compared after stripping surrounding whitespace.

use geode_runtime::sandbox::{RunOutcome, RunStatus};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One stdin/stdout test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestCase {
    /// The program's stdin.
    pub input: String,
    /// The expected stdout (compared after stripping).
    pub output: String,
}

/// Python's `str(value)` for the JSON values test fields hold.
fn py_str(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::Null => "None".to_owned(),
        other => other.to_string(),
    }
}

/// GEM's `_parse_test`: a string as is, a list as its items' `str` joined by newlines.
fn test_text(value: &Value) -> String {
    match value {
        Value::Array(items) => items.iter().map(py_str).collect::<Vec<_>>().join("\n"),
        other => py_str(other),
    }
}

/// Reads a row's tests field: `{inputs: [...], outputs: [...]}`, as an object or a JSON string.
pub fn parse_tests(field: &Value) -> Result<Vec<TestCase>, String> {
    let parsed;
    let tests = match field {
        Value::String(text) => {
            parsed = serde_json::from_str::<Value>(text)
                .map_err(|e| format!("the tests field is not JSON: {e}"))?;
            &parsed
        }
        other => other,
    };
    let list = |key: &str| {
        tests.get(key).and_then(Value::as_array).ok_or_else(|| {
            format!("the tests have no `{key}` list (lists of test dicts are not supported)")
        })
    };
    let (inputs, outputs) = (list("inputs")?, list("outputs")?);
    if inputs.len() != outputs.len() {
        return Err(format!(
            "{} test inputs but {} outputs",
            inputs.len(),
            outputs.len()
        ));
    }
    Ok(inputs
        .iter()
        .zip(outputs)
        .map(|(i, o)| TestCase {
            input: test_text(i),
            output: test_text(o),
        })
        .collect())
}

/// The tests to run: all of them, or the `max` with the longest inputs (ties keep their order).
pub fn select_tests(tests: &[TestCase], max: usize) -> Vec<TestCase> {
    if tests.len() <= max {
        return tests.to_vec();
    }
    let mut order: Vec<usize> = (0..tests.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(tests[i].input.chars().count()));
    order
        .into_iter()
        .take(max)
        .map(|i| tests[i].clone())
        .collect()
}

/// How one test went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Exit code 0 and the expected output.
    Passed,
    /// Exit code 0 and another output.
    WrongAnswer,
    /// An uncaught exception, an interpreter crash or a non-zero exit code.
    RuntimeError,
    /// The fuel budget ran out.
    OutOfFuel,
    /// The wall-clock limit passed.
    Deadline,
    /// The memory cap was hit.
    Memory,
    /// Too much output.
    OutputLimit,
    /// The sandbox is not available.
    Unsupported,
    /// Not run to the end: another test of the same answer failed first.
    Skipped,
}

impl Verdict {
    /// Grades `outcome` against `test`.
    pub fn of(outcome: &RunOutcome, test: &TestCase) -> Self {
        if outcome.stopped {
            return Verdict::Skipped;
        }
        match outcome.status {
            RunStatus::Ok if outcome.exit_code != 0 => Verdict::RuntimeError,
            RunStatus::Ok if outcome.stdout.trim() == test.output.trim() => Verdict::Passed,
            RunStatus::Ok => Verdict::WrongAnswer,
            RunStatus::RuntimeError => Verdict::RuntimeError,
            RunStatus::OutOfFuel => Verdict::OutOfFuel,
            RunStatus::Deadline => Verdict::Deadline,
            RunStatus::Memory => Verdict::Memory,
            RunStatus::OutputLimit => Verdict::OutputLimit,
            RunStatus::Unsupported => Verdict::Unsupported,
        }
    }

    /// The snake_case name used in infos.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Passed => "passed",
            Verdict::WrongAnswer => "wrong_answer",
            Verdict::RuntimeError => "runtime_error",
            Verdict::OutOfFuel => "out_of_fuel",
            Verdict::Deadline => "deadline",
            Verdict::Memory => "memory",
            Verdict::OutputLimit => "output_limit",
            Verdict::Unsupported => "unsupported",
            Verdict::Skipped => "skipped",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tests_parse_from_objects_strings_and_lists() {
        let direct =
            parse_tests(&json!({"inputs": ["1\n", [1, 2]], "outputs": ["a", "b"]})).unwrap();
        assert_eq!(direct[1].input, "1\n2");
        let text = json!(r#"{"inputs": ["x"], "outputs": ["y"]}"#);
        assert_eq!(parse_tests(&text).unwrap()[0].output, "y");
        assert!(parse_tests(&json!([{"input": "x"}])).is_err());
    }

    #[test]
    fn selection_keeps_the_longest_inputs_stably() {
        let tests: Vec<TestCase> = ["a", "ccc", "bb", "dd", "e"]
            .iter()
            .map(|s| TestCase {
                input: (*s).into(),
                output: String::new(),
            })
            .collect();
        let picked: Vec<String> = select_tests(&tests, 3)
            .into_iter()
            .map(|t| t.input)
            .collect();
        assert_eq!(picked, ["ccc", "bb", "dd"]);
    }
}
