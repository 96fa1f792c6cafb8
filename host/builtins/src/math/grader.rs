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
    pub fn judge(&self, check: Check, text: &str, truths: &[String]) -> Grade {
        let started = Instant::now();
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
