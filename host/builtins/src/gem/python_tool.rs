//! [`PythonTool`] (`tool:python`): GEM's `PythonCodeTool` on the sandbox. It runs the first
//! `<python>…</python>` or fenced python block of an action and answers
//! "Code execution result: …"; unlike GEM's, its configured timeout really applies, and the
//! code cannot touch the host.

use super::extract::first_python_block;
use super::run_python::run_python;
use super::settings::RunSettings;
use geode_runtime::Result;
use geode_runtime::config::merge_value;
use geode_runtime::sandbox::Sandbox;
use geode_runtime::sandbox::{RunOutcome, RunStatus};
use geode_runtime::tool::{Tool, ToolOutput};
use serde_json::{Value, json};

/// The id of the Python tool.
pub const PYTHON_TOOL_ID: &str = "tool:python";

/// The Python tool's default configuration: GEM's `timeout=5` (seconds) and
/// `keep_error_last_line=False`, plus the sandbox limits of each run.
pub fn default_config() -> Value {
    json!({
        "timeout": 5.0,
        "keep_error_last_line": false,
        "fuel": null,
        "memory_bytes": 256u64 << 20,
        "output_bytes": 1u64 << 20,
    })
}

/// Runs Python code blocks found in actions.
#[derive(Debug, Clone)]
pub struct PythonTool {
    sandbox: Sandbox,
    settings: RunSettings,
    keep_error_last_line: bool,
}

impl PythonTool {
    /// A tool over `sandbox` with `overrides` merged into the tool's default configuration.
    pub fn new(sandbox: Sandbox, overrides: &Value) -> Result<Self> {
        let config = merge_value(PYTHON_TOOL_ID, &default_config(), overrides)?;
        let settings = RunSettings::from_config(PYTHON_TOOL_ID, &config)?;
        let keep_error_last_line = config["keep_error_last_line"].as_bool().unwrap_or(false);
        Ok(PythonTool {
            sandbox,
            settings,
            keep_error_last_line,
        })
    }

    /// The observation GEM builds from a run: stdout, then stderr on its own line.
    fn observation(&self, outcome: &RunOutcome) -> String {
        let mut stderr = match outcome.status {
            RunStatus::Deadline | RunStatus::OutOfFuel => format!(
                "\nExecution timed out after {} seconds.",
                self.settings.timeout.as_secs_f64()
            ),
            _ => outcome.stderr.trim().to_owned(),
        };
        if self.keep_error_last_line && !stderr.is_empty() {
            stderr = stderr.rsplit('\n').next().unwrap_or_default().to_owned();
        }
        let result = if stderr.is_empty() {
            outcome.stdout.clone()
        } else {
            format!("{}\n{stderr}", outcome.stdout)
        };
        format!(
            "Code execution result: {}\n",
            result.trim_start_matches([' ', '\n'])
        )
    }
}

impl Tool for PythonTool {
    fn id(&self) -> &str {
        PYTHON_TOOL_ID
    }

    fn tool_type(&self) -> &str {
        "python_code"
    }

    fn instructions(&mut self) -> Result<String> {
        Ok("Solve the above problem step by step. You now have the ability to selectively write \
            executable Python code to enhance your reasoning process. The Python code will be executed \
            by an external sandbox, and the output (after \"Code execution result: \") is returned to aid \
            your reasoning and help you arrive at the final answer. The Python code should be complete \
            scripts, including necessary imports, wrapped within <python>...</python> tags or using \
            ```python...``` code block. Return your final answer within \\boxed{}."
            .to_owned())
    }

    fn execute(&mut self, action: &str) -> Result<Option<ToolOutput>> {
        let Some(call) = first_python_block(action) else {
            return Ok(None);
        };
        let outcome = run_python(&self.sandbox, &self.settings.request(&call.code, ""));
        Ok(Some(ToolOutput {
            observation: self.observation(&outcome),
            has_error: !outcome.success(),
            parsed_action: call.parsed_action,
        }))
    }

    fn spawn(&self) -> Result<Box<dyn Tool>> {
        Ok(Box::new(self.clone()))
    }
}
