//! Math answers graded in the sandbox: GEM's `boxed_reward_fn(fast=False)` rules (MATH string
//! normalization, sympy equality, math-verify) run in a CPython component
//! (`plugins/math-grader`) with sympy and math-verify in its snapshot, one fresh instance per
//! call under a fuel budget instead of SIGALRM, so a verdict never depends on wall-clock time
//! or on the calls before it.
//!
//! On top of it: [`MathEnv`] (`math:GSM8K`, `math:Math12K`, ..., `eval:MATH500`, ...).
//!
//! ```no_run
//! use geode_runtime::Runtime;
//!
//! let runtime = Runtime::new()?;
//! let grader = geode_builtins::math::grader(&runtime)?;
//! let grade = grader.boxed_reward("so \\boxed{\\frac{1}{2}}", &["0.5".to_owned()]);
//! assert!(grade.correct);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bindings;
mod check;
mod env;
mod extract;
mod grader;
mod ids;
mod provider;
mod shared;

pub use check::{Check, Grade, GradeStatus};
pub use env::{MathEnv, default_config};
pub use extract::extract_boxed;
pub use grader::{DEFAULT_GRADE_FUEL, GradeLimits, MathGrader};
pub use ids::{MATH_IDS, MATH_IDS_NOT_PROVIDED, MathId, math_id};
pub use provider::{MATH_SOURCE, MathProvider};
pub use shared::grader;
