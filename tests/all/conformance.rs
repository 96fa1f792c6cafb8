//! The conformance suite over every built-in env id, and proof that it catches broken envs.

use geode_builtins::gem::CODE_ENV_IDS;
use geode_runtime::conformance::{CheckOptions, CheckReport, check_env};
use geode_runtime::sandbox::FUEL_PER_SECOND;
use geode_runtime::{Limits, PluginKind};
use geode_tests::{registry, runtime};
use serde_json::json;
use std::collections::BTreeSet;
use std::time::Duration;

/// Built-in envs known to fail a check: (id, check, why). Fix the game, then drop its entry.
const KNOWN_FAILURES: &[(&str, &str, &str)] = &[];

/// Every built-in env id: the plugins' and the code envs the host provides. Of the coding envs'
/// ids, one env with a task pinned each, `swe:all` and the first task stand for the rest: the
/// same env code answers them all, and `swe_env.rs` plays every task's gold patch and
/// untouched tree (a conformance pass of each took a third of this suite's time).
fn builtin_env_ids() -> Vec<String> {
    let builtins = geode_builtins::registry(runtime()).expect("built-in plugins load");
    let mut tasks_seen = 0;
    builtins
        .ids_of(PluginKind::Env)
        .filter(|id| {
            if !id.starts_with("swe:") || *id == geode_builtins::swe::ALL_TASKS_ID {
                return true;
            }
            tasks_seen += 1;
            tasks_seen == 1
        })
        .map(str::to_owned)
        .collect()
}

/// The options for `id`: code envs get a wall-clock budget far past their fuel budget. Their
/// verdicts are then decided by fuel alone, which is deterministic, so the replay and state
/// checks compare like with like even when a loaded CI machine slows the answers down.
fn options_for(id: &str, options: &CheckOptions) -> CheckOptions {
    let mut options = options.clone();
    if CODE_ENV_IDS.iter().any(|(code_id, _)| *code_id == id) {
        options.overrides =
            json!({"timeout": 60, "fuel": 5 * FUEL_PER_SECOND, "answer_timeout": 120});
    }
    options
}

/// Checks `ids` on two threads (the suite is CPU-bound; CI has two cores).
fn check_all(ids: &[String], options: &CheckOptions) -> Vec<CheckReport> {
    let registry = registry();
    let half = ids.len().div_ceil(2).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = ids
            .chunks(half)
            .map(|chunk| {
                let registry = &registry;
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|id| check_env(registry, id, &options_for(id, options)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("conformance never panics"))
            .collect()
    })
}

#[test]
fn every_builtin_env_passes_the_conformance_suite() {
    let ids = builtin_env_ids();
    assert!(ids.len() >= 3, "too few built-in envs: {ids:?}");
    let reports = check_all(&ids, &CheckOptions::default());
    let known: BTreeSet<(&str, &str)> = KNOWN_FAILURES.iter().map(|(i, c, _)| (*i, *c)).collect();
    let mut unexpected = Vec::new();
    let mut failed = BTreeSet::new();
    for report in &reports {
        for failure in report.failures() {
            failed.insert((report.id.as_str(), failure.check));
            if !known.contains(&(report.id.as_str(), failure.check)) {
                unexpected.push(failure.to_string());
            }
        }
    }
    let stale: Vec<_> = known.difference(&failed).collect();
    assert!(
        unexpected.is_empty(),
        "{} unexpected conformance failures:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
    assert!(
        stale.is_empty(),
        "these KNOWN_FAILURES now pass, remove them: {stale:?}"
    );
}

/// Small budgets so hostile guests fail fast.
fn hostile_options() -> CheckOptions {
    CheckOptions {
        seeds: vec![0, 1],
        replay_steps: 5,
        max_steps: 20,
        limits: Limits {
            fuel_per_call: Some(2_000_000),
            deadline_per_call: Some(Duration::from_secs(1)),
            ..Limits::default()
        },
        ..CheckOptions::default()
    }
}

/// Checks hostile `id`, asserts it fails, and returns the report's text.
fn failing_report(id: &str) -> String {
    let report = check_env(&registry(), id, &hostile_options());
    let text = report.to_string();
    assert!(!report.passed(), "{id} passed the suite:\n{text}");
    for failure in report.failures() {
        let line = failure.to_string();
        assert!(
            line.starts_with(&format!("FAIL  {id} {}: ", failure.check)),
            "{line}"
        );
    }
    text
}

#[test]
fn a_panicking_env_fails_with_the_guest_message() {
    let text = failing_report("hostile:panic");
    for check in [
        "replay",
        "episodes-end",
        "garbage-actions",
        "state-round-trip",
    ] {
        assert!(
            text.contains(&format!("FAIL  hostile:panic {check}: ")),
            "{check} missing:\n{text}"
        );
    }
    assert!(
        text.contains("hostile plugin panicked on purpose at step 1"),
        "{text}"
    );
}

#[test]
fn a_spinning_env_fails_by_running_out_of_fuel() {
    let text = failing_report("hostile:spin");
    assert!(
        text.contains("FAIL  hostile:spin episodes-end: seed 0, step 1: env `hostile:spin`: step ran out of fuel"),
        "{text}"
    );
}

#[test]
fn contract_breakers_and_seed_blind_envs_fail() {
    let text = failing_report("hostile:array-info");
    assert!(text.contains("info must be a JSON object"), "{text}");
    let text = failing_report("hostile:nan-reward");
    assert!(text.contains("reward must be a finite number"), "{text}");
    let text = failing_report("hostile:healthy");
    assert!(text.contains("all play exactly alike"), "{text}");
}

#[test]
fn an_unknown_id_fails_the_make_check_only() {
    let report = check_env(
        &registry(),
        "game:GuessTheNumber-v9",
        &CheckOptions::default(),
    );
    assert_eq!(report.checks.len(), 1, "{report}");
    let line = report.to_string();
    assert!(
        line.starts_with(
            "FAIL  game:GuessTheNumber-v9 make: making a fresh env failed: unknown env id"
        ),
        "{line}"
    );
}
