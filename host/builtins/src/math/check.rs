//! [`Check`], [`Grade`] and [`GradeStatus`]: what a grading call asks and what it returns.

use std::time::Duration;

/// Which of GEM's grading functions a call stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Check {
    /// `boxed_reward_fn(fast=False)`: the last `\boxed{}` of a whole response is graded.
    BoxedReward,
    /// `boxed_reward_fn(fast=True)`: without the math-verify stage.
    BoxedRewardFast,
    /// `grade(answer, truth, fast=False)` on a bare answer.
    Grade,
    /// `grade(answer, truth, fast=True)`.
    GradeFast,
    /// `is_latex_equal(answer, truth)`.
    LatexEqual,
    /// `grade_answer_mathd(answer, truth)`.
    Mathd,
    /// `grade_answer_sympy(answer, truth)`.
    Sympy,
    /// `extract_answer(text)`: extraction only.
    Extract,
}

impl Check {
    /// The check named `name` (`boxed_reward`, `boxed_reward_fast`, `grade`, `grade_fast`,
    /// `latex_equal`, `mathd`, `sympy`, `extract`).
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "boxed_reward" => Check::BoxedReward,
            "boxed_reward_fast" => Check::BoxedRewardFast,
            "grade" => Check::Grade,
            "grade_fast" => Check::GradeFast,
            "latex_equal" => Check::LatexEqual,
            "mathd" => Check::Mathd,
            "sympy" => Check::Sympy,
            "extract" => Check::Extract,
            _ => return None,
        })
    }
}

/// How a grading call ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GradeStatus {
    /// The grader returned a verdict.
    Done,
    /// The fuel budget ran out (the answer is graded incorrect, as GEM's timeout does).
    OutOfFuel,
    /// The memory cap was hit.
    Memory,
    /// The wall-clock backstop fired (only on a machine far slower than the fuel budget assumes).
    Deadline,
    /// The grader raised (its exception) or crashed (the trap): incorrect.
    Failed(String),
}

/// The outcome of one grading call.
#[derive(Debug, Clone, PartialEq)]
pub struct Grade {
    /// An answer was found (`\boxed{}` for the response checks; always true otherwise, unless
    /// the call failed).
    pub formatted: bool,
    /// The answer matches one of the ground truths.
    pub correct: bool,
    /// The extracted answer (response checks and `Extract`).
    pub answer: Option<String>,
    /// How the call ended; anything but [`GradeStatus::Done`] leaves `correct` false.
    pub status: GradeStatus,
    /// Fuel the call used: the deterministic measure of its cost.
    pub fuel_used: u64,
    /// Wall-clock time of the call (for benchmarks; never part of a verdict).
    pub elapsed: Duration,
}
