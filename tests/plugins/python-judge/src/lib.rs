//! A test plugin proving the SDK's `sandbox` wrapper end to end: `test:PythonJudge-v0` runs
//! each action as a Python program (through `geode_sdk::sandbox::run`) on the configured stdin
//! and rewards 1.0 when its stdout, stripped, is the expected answer. The run's status, output,
//! exit code and fuel go into info (no wall time: a seeded episode replays exactly).

use geode_sdk::config::at_least;
use geode_sdk::prelude::*;
use geode_sdk::sandbox::{self, RunRequest};
use std::time::Duration;

/// The judge: one problem, given by its config.
#[derive(Serialize, Deserialize)]
struct PythonJudge {
    stdin: String,
    expected: String,
    timeout_ms: u64,
    fuel: Option<u64>,
}

impl Environment for PythonJudge {
    fn specs() -> Vec<Spec> {
        vec![Spec::new(
            "test:PythonJudge-v0",
            "Runs the action as Python on stdin; reward 1 when stdout is the expected answer",
            json!({"stdin": "2 3\n", "expected": "5", "timeout_ms": 2000, "fuel": null}),
        )]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        let text = |key: &str| -> Result<String, Error> {
            Ok(config.opt_str(key)?.unwrap_or_default().to_owned())
        };
        Ok(PythonJudge {
            stdin: text("stdin")?,
            expected: text("expected")?,
            timeout_ms: at_least("timeout_ms", config.int("timeout_ms")?, 1)?,
            fuel: config
                .opt_int("fuel")?
                .map(|f| at_least("fuel", f, 1))
                .transpose()?,
        })
    }

    fn reset(&mut self, _rng: &mut Rng) -> Result<Reset, Error> {
        Ok(Reset::new(format!(
            "Write a Python program that reads {:?} from stdin and prints {:?}.",
            self.stdin, self.expected
        )))
    }

    fn step(&mut self, action: &str, _rng: &mut Rng) -> Result<Step, Error> {
        let mut request = RunRequest::python(action)
            .stdin(self.stdin.as_str())
            .timeout(Duration::from_millis(self.timeout_ms));
        if let Some(fuel) = self.fuel {
            request = request.fuel(fuel);
        }
        let outcome = sandbox::run(&request);
        let solved = outcome.succeeded() && outcome.stdout.trim() == self.expected.trim();
        Ok(
            Step::new(outcome.stdout.clone(), if solved { 1.0 } else { 0.0 })
                .terminated()
                .info("status", outcome.status.as_str())
                .info("exit_code", outcome.exit_code)
                .info("stderr", &outcome.stderr)
                .info("fuel_used", outcome.fuel_used),
        )
    }

    fn sample_random_action(&mut self, _rng: &mut Rng) -> String {
        "print(input())".to_owned()
    }
}

export_env!(PythonJudge);
