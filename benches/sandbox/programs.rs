//! The CPU-bound program set (`benches/programs/*.py`: loops, recursion, dynamic programming,
//! graph search, sorting, dicts, big integers, strings, classes, a sieve, heaps and numpy), each
//! run in a fresh sandbox instance: the best wall time of a few runs and the fuel one run uses.

use geode_runtime::sandbox::{RunRequest, RunStatus, Sandbox};
use serde_json::json;
use std::path::Path;
use std::time::Duration;

/// Runs per program; the best is kept (the least disturbed by the rest of the machine).
const RUNS: usize = 3;

/// Generous limits: the set measures speed, not limits.
const TIMEOUT: Duration = Duration::from_secs(120);

/// One program's result.
pub struct ProgramTime {
    /// The file's stem, such as `loop_arith`.
    pub name: String,
    /// Best wall time over [`RUNS`] runs, instantiation included.
    pub best: Duration,
    /// Fuel one run consumed (the same on every run).
    pub fuel: u64,
}

/// Runs every `*.py` of `dir` (sorted by name) [`RUNS`] times; panics on a program that fails,
/// since its time would mean nothing.
pub fn run_all(sandbox: &Sandbox, dir: &Path) -> Vec<ProgramTime> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "py"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|path| {
            let code = std::fs::read_to_string(path).expect("read a program");
            let request = RunRequest::python(code, "").with_timeout(TIMEOUT);
            let outcomes: Vec<_> = (0..RUNS).map(|_| sandbox.run(&request)).collect();
            for outcome in &outcomes {
                assert_eq!(
                    (outcome.status, outcome.exit_code),
                    (RunStatus::Ok, 0),
                    "{}: {}",
                    path.display(),
                    outcome.stderr
                );
            }
            ProgramTime {
                name: path.file_stem().unwrap().to_string_lossy().into_owned(),
                best: outcomes.iter().map(|o| o.elapsed).min().unwrap(),
                fuel: outcomes[0].fuel_used,
            }
        })
        .collect()
}

/// The results as one JSON object: `{name: {"ms": best, "fuel": fuel}}`.
pub fn to_json(times: &[ProgramTime]) -> serde_json::Value {
    times
        .iter()
        .map(|t| {
            let value = json!({ "ms": t.best.as_secs_f64() * 1e3, "fuel": t.fuel });
            (t.name.clone(), value)
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}
