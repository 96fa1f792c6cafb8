//! GEM's content on the sandbox: the code envs (`code:CodeContest`, `code:Taco8k`,
//! `code:PrimeIntellect15k`, `eval:CodeContest`), the Python tool (`tool:python`, GEM's
//! `PythonCodeTool`), GEM's `run_python`, and the answer parsing they share. The registry
//! reaches them through [`GemProvider`]; the sandbox itself (`crate::sandbox`) knows nothing of
//! them.

mod code_env;
mod code_tests;
mod extract;
mod provider;
mod python_tool;
mod run_python;
mod settings;

pub use code_env::{CODE_ENV_IDS, CodeEnv, FORMAT_ERROR_REWARD, SAMPLE_DATASET, TERMINAL_STATE};
pub use code_tests::{TestCase, Verdict, parse_tests, select_tests};
pub use extract::{PythonCall, first_python_block, last_fenced_block};
pub use provider::{GemProvider, NATIVE_SOURCE, python_tool_provider};
pub use python_tool::{PYTHON_TOOL_ID, PythonTool};
pub use run_python::{BASE_IMPORTS, run_python};
pub use settings::RunSettings;
