//! [`MathGrader`]: grades answers in the math grader component, one fresh instance per call,
//! under a fuel budget.
//!
//! Instance strategy: every call instantiates the pre-initialized snapshot anew (copy-on-write
//! memory from the pooling allocator) and drops it afterwards. A warm instance reused across
//! calls would be cheaper per call, but sympy's and math-verify's caches would then carry over
//! from earlier answers, so the fuel an answer needs (and so its verdict near the budget) would
//! depend on what that instance graded before. Fresh instances make a verdict a function of the
//! answer, the ground truths and the budget only. Instances are made per call, never per env:
//! an env holds only a clone of this (an `Arc`).

use super::bindings::{Check as WitCheck, MathGrader as Bindings, MathGraderPre};
use super::check::{Check, Grade, GradeStatus};
use super::extract::extract_boxed;
use geode_runtime::CompileCache;
use geode_runtime::sandbox::{
    CallInputs, ComponentService, Finished, RunState, SandboxLimits, StopSignal,
};
use std::sync::Arc;
use std::time::{Duration, Instant};
use wasmtime::{Engine, Trap};

/// Default fuel per grading call, at most about one second of the grader's CPU (GEM gives an
/// answer one second). Measured on the 2-core reference machine: CPython in the component burns
/// 1.5e9 (object-heavy sympy work) to 6.5e9 (big-integer arithmetic) fuel per second, so this
/// budget ends in 0.25 to 1.1 s; the costliest golden answer that finishes needs 1.41e9 and the
/// median one 0.1% of the budget.
pub const DEFAULT_GRADE_FUEL: u64 = 1_600_000_000;

/// The longest answer [`MathGrader::judge`] grades correct on the host for being the first
/// ground truth character for character. GEM's MATH normalization of two identical answers this
/// long takes about 0.3 s natively (well inside its 1 s), and makes them equal whatever they hold.
pub const IDENTICAL_ANSWER_MAX: usize = 8 << 10;

/// The limits of one grading call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GradeLimits {
    /// Fuel budget: the deterministic limit. Out of fuel means incorrect.
    pub fuel: u64,
    /// Linear memory cap, in bytes.
    pub memory_bytes: u64,
    /// Wall-clock backstop, far above what the fuel budget takes on an idle machine; it only
    /// fires on a machine many times slower, so verdicts do not depend on timing.
    pub backstop: Duration,
}

impl Default for GradeLimits {
    fn default() -> Self {
        GradeLimits {
            fuel: DEFAULT_GRADE_FUEL,
            memory_bytes: 768 << 20,
            backstop: Duration::from_secs(30),
        }
    }
}

/// The math grader. Cheap to clone; share it across threads and envs.
#[derive(Clone)]
pub struct MathGrader {
    inner: Arc<Inner>,
}

struct Inner {
    /// The grader's fresh instances (shared by every variant).
    service: ComponentService<MathGraderPre<RunState>>,
    limits: GradeLimits,
}

impl std::fmt::Debug for MathGrader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MathGrader")
            .field("limits", &self.inner.limits)
            .finish_non_exhaustive()
    }
}

impl MathGrader {
    /// Loads the math grader component `wasm` on `engine` (compiled once, then from `cache`).
    /// The engine needs fuel and epoch interruption, as the runtime's engine has.
    pub fn new(engine: &Engine, cache: &CompileCache, wasm: &[u8]) -> wasmtime::Result<Self> {
        let service = ComponentService::load(engine, cache, wasm, MathGraderPre::new)?;
        Ok(MathGrader {
            inner: Arc::new(Inner {
                service,
                limits: GradeLimits::default(),
            }),
        })
    }

    /// The same grader under other limits.
    pub fn with_limits(&self, limits: GradeLimits) -> Self {
        MathGrader {
            inner: Arc::new(Inner {
                service: self.inner.service.clone(),
                limits,
            }),
        }
    }

    /// The limits each call runs under.
    pub fn limits(&self) -> &GradeLimits {
        &self.inner.limits
    }

    /// GEM's `boxed_reward_fn(response, truths, fast=False)`: whether the last `\boxed{}` of
    /// `response` matches any of `truths`.
    pub fn boxed_reward(&self, response: &str, truths: &[String]) -> Grade {
        self.judge(Check::BoxedReward, response, truths)
    }

    /// Runs `check` on `text` against `truths` in a fresh instance. Never fails: a call that
    /// runs out of budget or breaks is an incorrect [`Grade`] with its [`GradeStatus`].
    ///
    /// Two verdicts need no instance (`host_verdict`): a response without a balanced
    /// last `\boxed{}` is unformatted, and an answer identical to the first ground truth is
    /// correct. Those calls report no fuel.
    pub fn judge(&self, check: Check, text: &str, truths: &[String]) -> Grade {
        let started = Instant::now();
        if let Some(mut grade) = host_verdict(check, text, truths) {
            grade.elapsed = started.elapsed();
            return grade;
        }
        let limits = &self.inner.limits;
        let run_limits = SandboxLimits {
            fuel: Some(limits.fuel),
            timeout: limits.backstop,
            memory_bytes: limits.memory_bytes,
            output_bytes: 64 << 10,
        };
        let grade = |pre: &MathGraderPre<RunState>, store: &mut _| {
            let grader: Bindings = pre.instantiate(&mut *store)?;
            grader.call_judge(store, wit_check(check), text, truths)
        };
        let finish =
            |done: Finished<'_, _>| (done.result, done.fuel_used, done.state.memory_denied());
        let (result, fuel_used, memory_denied) = self.inner.service.call(
            &CallInputs::default(),
            &run_limits,
            StopSignal::new(),
            grade,
            finish,
        );
        let response_check = matches!(
            check,
            Check::BoxedReward | Check::BoxedRewardFast | Check::Extract
        );
        let mut grade = match result {
            Ok(verdict) => Grade {
                formatted: verdict.formatted,
                correct: verdict.correct && verdict.error.is_none(),
                answer: verdict.answer,
                status: verdict.error.map_or(GradeStatus::Done, GradeStatus::Failed),
                fuel_used,
                elapsed: Duration::ZERO,
            },
            Err(error) => Grade {
                formatted: !response_check || extract_boxed(text).is_some(),
                correct: false,
                answer: if response_check {
                    extract_boxed(text).map(str::to_owned)
                } else {
                    None
                },
                status: classify(&error, memory_denied),
                fuel_used,
                elapsed: Duration::ZERO,
            },
        };
        grade.elapsed = started.elapsed();
        grade
    }
}

/// The verdict of `check` on `text` when it follows from the text alone, the same as GEM's (and
/// the grader's) in every case; `None` when the grader must run.
///
/// - A response check whose response has no balanced last `\boxed{...}`: GEM's
///   `boxed_reward_fn` returns unformatted and incorrect before grading anything
///   ([`extract_boxed`] is the grader's extraction, character for character).
/// - An answer equal to the first ground truth (one without a `\boxed`, which GEM would unbox
///   first), at most [`IDENTICAL_ANSWER_MAX`] bytes: GEM's `grade` starts with
///   `grade_answer_mathd`, which normalizes both strings with the same function and compares
///   the results, so identical strings are equal whatever they hold (the normalization keeps
///   the input when it fails). `grade_answer_mathd` and the checks that start with it only:
///   `is_latex_equal` and `grade_answer_sympy` are left to the grader.
/// - A plain integer answer against a plain integer ground truth (see `small_integer`): correct
///   when their values are equal, incorrect when they differ and that ground truth is the only
///   one. Not for `grade_answer_mathd` alone, which compares the strings.
fn host_verdict(check: Check, text: &str, truths: &[String]) -> Option<Grade> {
    let done = |formatted, correct, answer: Option<&str>| Grade {
        formatted,
        correct,
        answer: answer.map(str::to_owned),
        status: GradeStatus::Done,
        fuel_used: 0,
        elapsed: Duration::ZERO,
    };
    let answer = match check {
        Check::BoxedReward | Check::BoxedRewardFast => match extract_boxed(text) {
            None => return Some(done(false, false, None)),
            Some(answer) => answer,
        },
        Check::Grade | Check::GradeFast | Check::Mathd => text,
        Check::LatexEqual | Check::Sympy | Check::Extract => return None,
    };
    let truth = truths.first()?;
    if truth.contains("\\boxed") {
        return None;
    }
    let response_check = matches!(check, Check::BoxedReward | Check::BoxedRewardFast);
    let verdict = |correct| Some(done(true, correct, response_check.then_some(answer)));
    if answer == truth && answer.len() <= IDENTICAL_ANSWER_MAX {
        return verdict(true);
    }
    if check == Check::Mathd {
        return None;
    }
    match (small_integer(answer), small_integer(truth)) {
        (Some(given), Some(expected)) if given == expected => verdict(true),
        // Only with a single ground truth: another one may still match.
        (Some(_), Some(_)) if truths.len() == 1 => verdict(false),
        _ => None,
    }
}

/// The value of `text` when it is a plain integer: an optional `-` and one to nine ASCII
/// digits, nothing else (no sign `+`, space, separator or decimal point).
///
/// GEM grades two of them by value: equal values are equal for its sympy stage (which
/// rewrites a number within 1e-7 of an integer as that integer: `0042` and `42`, `-0` and `0`),
/// and different values differ in all three stages (their MATH-normalized forms are the
/// strings themselves, `sympy.simplify` of their difference is a nonzero integer, and
/// math-verify compares two sympy integers exactly). Checked on 8,464 pairs against GEM's
/// `boxed_reward_fn`; `fast_path.json` records the edge cases.
fn small_integer(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn classify(error: &wasmtime::Error, memory_denied: bool) -> GradeStatus {
    match error.downcast_ref::<Trap>() {
        Some(Trap::OutOfFuel) => GradeStatus::OutOfFuel,
        Some(Trap::Interrupt) => GradeStatus::Deadline,
        _ if memory_denied => GradeStatus::Memory,
        _ => GradeStatus::Failed(format!("the grader crashed: {error:#}")),
    }
}

fn wit_check(check: Check) -> WitCheck {
    use WitCheck as W;
    match check {
        Check::BoxedReward => W::BoxedReward,
        Check::BoxedRewardFast => W::BoxedRewardFast,
        Check::Grade => W::Grade,
        Check::GradeFast => W::GradeFast,
        Check::LatexEqual => W::LatexEqual,
        Check::Mathd => W::Mathd,
        Check::Sympy => W::Sympy,
        Check::Extract => W::Extract,
    }
}

#[cfg(test)]
mod tests {
    //! The shortcuts against GEM's own verdicts: `plugins/math-grader/tests/fast_path.json`
    //! (recorded by `record_fast_path.py` from GEM's `boxed_reward_fn`) holds answers at their
    //! edges, identical strings and near misses ("1/2" and "0.5", "1,000" and "1000", "+3",
    //! units, unbalanced boxes).

    use super::{Check, GradeStatus, host_verdict};
    use serde_json::Value;

    fn cases() -> Vec<(String, Vec<String>, Option<String>, bool)> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../plugins/math-grader/tests/fast_path.json"
        );
        let cases: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        cases
            .iter()
            .map(|case| {
                let truths = case["truths"].as_array().unwrap();
                (
                    case["response"].as_str().unwrap().to_owned(),
                    truths
                        .iter()
                        .map(|t| t.as_str().unwrap().to_owned())
                        .collect(),
                    case["answer"].as_str().map(str::to_owned),
                    case["correct"].as_bool().unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn host_verdicts_are_gems() {
        let mut decided = 0;
        for (response, truths, answer, correct) in cases() {
            let Some(grade) = host_verdict(Check::BoxedReward, &response, &truths) else {
                continue;
            };
            decided += 1;
            let short: String = response.chars().take(40).collect();
            assert_eq!(grade.correct, correct, "{short:?} vs {truths:?}");
            assert_eq!(grade.formatted, answer.is_some(), "{short:?}");
            assert_eq!(grade.answer, answer, "{short:?}");
            assert_eq!(grade.status, GradeStatus::Done);
            // The bare-answer checks agree on the same answers.
            if let Some(answer) = &answer
                && let Some(bare) = host_verdict(Check::Grade, answer, &truths)
            {
                assert_eq!(bare.correct, correct, "{short:?}");
            }
        }
        assert!(decided >= 25, "{decided} cases decided on the host");
        // Past the length bound, the grader decides.
        let long = "9".repeat(super::IDENTICAL_ANSWER_MAX + 1);
        let response = format!("\\boxed{{{long}}}");
        assert!(host_verdict(Check::BoxedReward, &response, &[long]).is_none());
        // Only the first ground truth is compared; `\boxed` ones, LatexEqual and Sympy go to the grader.
        let truths = ["13".to_owned(), "12".to_owned()];
        assert!(host_verdict(Check::BoxedReward, "\\boxed{12}", &truths).is_none());
        let boxed = ["\\boxed{x}".to_owned()];
        assert!(host_verdict(Check::Grade, "\\boxed{x}", &boxed).is_none());
        let same = ["x".to_owned()];
        assert!(host_verdict(Check::LatexEqual, "x", &same).is_none());
        // Integers: by value, but not for the MATH check alone, nor past nine digits.
        let integer = ["42".to_owned()];
        assert!(host_verdict(Check::Grade, "0042", &integer).is_some_and(|g| g.correct));
        assert!(host_verdict(Check::Mathd, "0042", &integer).is_none());
        let big = ["1000000000".to_owned()];
        assert!(host_verdict(Check::Grade, "01000000000", &big).is_none());
        assert!(host_verdict(Check::Grade, "+42", &integer).is_none());
        assert!(host_verdict(Check::Sympy, "x", &same).is_none());
    }

    #[test]
    fn grader_verdicts_are_gems_on_the_fast_path_cases() {
        let Ok(runtime) = geode_runtime::Runtime::new() else {
            return;
        };
        let Ok(grader) = crate::math::grader(&runtime) else {
            eprintln!("math grader not built: skipped");
            return;
        };
        let mut differences = Vec::new();
        for (response, truths, answer, correct) in cases() {
            if answer.is_some_and(|a| a.len() > super::IDENTICAL_ANSWER_MAX) {
                // Past the bound the fuel budget decides: GEM's native normalization of two
                // 9,000-digit answers fits its second, the component's does not.
                continue;
            }
            let grade = grader.boxed_reward(&response, &truths);
            if grade.correct != correct {
                let short: String = response.chars().take(40).collect();
                differences.push(format!(
                    "{short:?} vs {:?}: GEM {correct}, geode {} ({:?}, fuel {})",
                    truths[0].chars().take(20).collect::<String>(),
                    grade.correct,
                    grade.status,
                    grade.fuel_used
                ));
            }
        }
        assert!(differences.is_empty(), "{differences:#?}");
    }
}
