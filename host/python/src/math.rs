//! `_geode.grade_math`: the sandboxed math grader for `geode.utils.math_grader` (GEM's
//! `gem.utils.math_grader` functions), with the GIL released while an answer is graded.

use crate::errors::{IntoPyResult, invalid_argument};
use crate::registry::current;
use geode_builtins::math::{Check, GradeLimits, GradeStatus};
use pyo3::prelude::*;

/// What one call returns to Python: (formatted, correct, extracted answer, status, fuel used).
type GradeTuple = (bool, bool, Option<String>, String, u64);

/// Runs grading function `check` (`boxed_reward`, `boxed_reward_fast`, `grade`, `grade_fast`,
/// `latex_equal`, `mathd`, `sympy`, `extract`) on `text` against `truths` in a fresh grader
/// instance; `fuel` overrides the default budget. The status is `done`, `out_of_fuel`,
/// `memory`, `deadline` or `failed: <reason>`.
#[pyfunction]
#[pyo3(signature = (check, text, truths, fuel=None))]
pub fn grade_math(
    py: Python<'_>,
    check: &str,
    text: String,
    truths: Vec<String>,
    fuel: Option<u64>,
) -> PyResult<GradeTuple> {
    let check = Check::from_name(check)
        .ok_or_else(|| invalid_argument(py, format!("unknown grading check `{check}`")))?;
    py.detach(|| {
        let mut grader = geode_builtins::math::grader(current()?.runtime())?;
        if let Some(fuel) = fuel {
            grader = grader.with_limits(GradeLimits {
                fuel,
                ..grader.limits().clone()
            });
        }
        let grade = grader.judge(check, &text, &truths);
        let status = match &grade.status {
            GradeStatus::Done => "done".to_owned(),
            GradeStatus::OutOfFuel => "out_of_fuel".to_owned(),
            GradeStatus::Memory => "memory".to_owned(),
            GradeStatus::Deadline => "deadline".to_owned(),
            GradeStatus::Failed(reason) => format!("failed: {reason}"),
        };
        Ok::<_, geode_runtime::Error>((
            grade.formatted,
            grade.correct,
            grade.answer,
            status,
            grade.fuel_used,
        ))
    })
    .py_err(py)
}
