//! The math grader component against GEM's own verdicts: `plugins/math-grader/tests/golden.json`
//! holds (response, ground truth) pairs recorded from GEM's `boxed_reward_fn(fast=False)` as its
//! MathEnv runs it (`record_golden.py`); each is graded here in the sandbox, without GEM.
//! At least 99% must agree, and every disagreement is listed below with its reason. Hostile
//! answers must end within their fuel budget and under 2 s of wall-clock time.

use geode_builtins::math::{Check, GradeStatus, MathGrader, extract_boxed};
use geode_runtime::Runtime;
use rayon::prelude::*;
use serde_json::Value;
use std::time::Duration;

/// Disagreements with GEM, by the case's response prefix, and why. None left: the 5,000-digit
/// answer identical to its ground truth, once over the fuel budget in the component, is graded
/// correct on the host (`MathGrader::judge`'s shortcut for identical answers), as GEM grades it.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[];

/// Wall-clock ceiling of any grading call in this test: a guard against hangs that holds on an
/// oversubscribed machine (the test suite's other threads and any other load). The budget
/// itself is fuel, checked exactly below; `benches/math_vs_gem.py` measures the worst wall time
/// (under 2 s with both cores busy).
const WALL_CEILING: Duration = Duration::from_secs(6);

fn golden() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../plugins/math-grader/tests/golden.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn grader() -> MathGrader {
    geode_builtins::math::grader(&Runtime::new().unwrap()).unwrap()
}

fn truths(case: &Value) -> Vec<String> {
    case["truths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_owned())
        .collect()
}

fn known_reason(response: &str) -> Option<&'static str> {
    KNOWN_DIFFERENCES
        .iter()
        .find(|(prefix, _)| response.starts_with(prefix))
        .map(|(_, reason)| *reason)
}

#[test]
fn golden_verdicts_match_gem() {
    let grader = grader();
    let cases = golden();
    assert!(cases.len() >= 300, "{} golden cases", cases.len());
    let results: Vec<_> = cases
        .par_iter()
        .map(|case| {
            let response = case["response"].as_str().unwrap();
            let grade = grader.boxed_reward(response, &truths(case));
            (case, grade)
        })
        .collect();
    let mut differences = Vec::new();
    let mut worst = Duration::ZERO;
    for (index, (case, grade)) in results.iter().enumerate() {
        worst = worst.max(grade.elapsed);
        let response = case["response"].as_str().unwrap();
        let expected = case["correct"].as_bool().unwrap();
        // The answer GEM extracted is the one the host and the grader extract.
        let answer = case["answer"].as_str();
        assert_eq!(extract_boxed(response), answer, "case {index}: extraction");
        if grade.status == GradeStatus::Done {
            assert_eq!(
                grade.answer.as_deref(),
                answer,
                "case {index}: grader extraction"
            );
        }
        if grade.correct != expected {
            let short: String = response.chars().take(80).collect();
            let truths: String = case["truths"].to_string().chars().take(80).collect();
            differences.push(format!(
                "case {index} ({}): GEM {expected}, geode {} [{:?}, fuel {}] {short:?} vs {truths}; {}",
                case["group"],
                grade.correct,
                grade.status,
                grade.fuel_used,
                known_reason(response).unwrap_or("UNEXPLAINED"),
            ));
        }
    }
    let finished = results
        .iter()
        .filter(|(_, g)| g.status == GradeStatus::Done);
    let most = finished.map(|(_, g)| g.fuel_used).max().unwrap_or(0);
    let spent: Vec<_> = results
        .iter()
        .filter(|(_, g)| g.status == GradeStatus::OutOfFuel)
        .map(|(_, g)| g.fuel_used as f64 / g.elapsed.as_secs_f64())
        .collect();
    eprintln!(
        "most fuel of a finished call: {most}; out-of-fuel calls: {}, fuel per second {:?}",
        spent.len(),
        spent.iter().map(|f| (*f / 1e6).round()).collect::<Vec<_>>()
    );
    if std::env::var_os("GEODE_MATH_FUEL_REPORT").is_some() {
        for (case, grade) in &results {
            let short: String = case["response"]
                .as_str()
                .unwrap()
                .chars()
                .take(50)
                .collect();
            eprintln!(
                "fuel {:>12} {:>8.3}s {:?} {short:?}",
                grade.fuel_used,
                grade.elapsed.as_secs_f64(),
                grade.status
            );
        }
    }
    for line in &differences {
        eprintln!("{line}");
    }
    let agree = cases.len() - differences.len();
    eprintln!(
        "{agree}/{} verdicts equal to GEM's; slowest call {worst:?}",
        cases.len()
    );
    assert!(
        differences.iter().all(|d| !d.ends_with("UNEXPLAINED")),
        "unexplained differences"
    );
    assert!(agree * 100 >= cases.len() * 99, "{agree}/{}", cases.len());
}

#[test]
fn hostile_answers_end_within_budget_with_reward_zero() {
    let grader = grader();
    let hostile: Vec<Value> = golden()
        .into_iter()
        .filter(|case| case["group"] == "hostile")
        .collect();
    assert!(hostile.len() >= 30);
    // Both cores busy: the cases run two at a time.
    let grades: Vec<_> = hostile
        .par_iter()
        .map(|case| {
            let response = case["response"].as_str().unwrap();
            (case, grader.boxed_reward(response, &truths(case)))
        })
        .collect();
    for (case, grade) in grades {
        let short: String = case["response"]
            .as_str()
            .unwrap()
            .chars()
            .take(60)
            .collect();
        assert!(
            grade.elapsed < WALL_CEILING,
            "{short:?} took {:?}",
            grade.elapsed
        );
        assert!(grade.fuel_used <= grader.limits().fuel, "{short:?}");
        // A hostile answer that is literally the ground truth (the braces around 1, the
        // 5,000-digit number) is correct for GEM too; every other one scores 0.
        let response = case["response"].as_str().unwrap();
        let expected = case["correct"].as_bool().unwrap() && known_reason(response).is_none();
        assert_eq!(grade.correct, expected, "{short:?}: {:?}", grade.status);
    }
}

#[test]
fn verdicts_do_not_depend_on_history_or_load() {
    let grader = grader();
    let response = "\\boxed{\\frac{\\sqrt{2}}{2}}";
    let truths = vec!["\\frac{1}{\\sqrt{2}}".to_owned()];
    let first = grader.boxed_reward(response, &truths);
    assert!(first.correct, "{first:?}");
    // The same answer after other answers, and concurrently with them: same verdict, same fuel.
    let others: Vec<_> = (0..6)
        .into_par_iter()
        .map(|i| {
            let text = format!("\\boxed{{{i}x^2}}");
            grader.boxed_reward(&text, &["x".to_owned()]);
            grader.boxed_reward(response, &truths)
        })
        .collect();
    for again in others {
        assert_eq!(again.correct, first.correct);
        assert_eq!(again.fuel_used, first.fuel_used);
    }
}

#[test]
fn budget_is_a_fuel_count() {
    let grader = grader();
    let tight = grader.with_limits(geode_builtins::math::GradeLimits {
        fuel: 100_000,
        ..grader.limits().clone()
    });
    let grade = tight.boxed_reward("\\boxed{\\frac{1}{2}}", &["0.5".to_owned()]);
    assert_eq!(grade.status, GradeStatus::OutOfFuel);
    assert!(!grade.correct);
    assert!(grade.formatted, "the box is still found: {grade:?}");
    assert_eq!(grade.answer.as_deref(), Some("\\frac{1}{2}"));
}

#[test]
fn checks_other_than_the_boxed_reward() {
    let grader = grader();
    let truth = ["\\frac{1}{2}".to_owned()];
    assert!(grader.judge(Check::Mathd, "1/2", &truth).correct);
    assert!(grader.judge(Check::GradeFast, "0.5", &truth).correct);
    assert!(
        grader
            .judge(Check::LatexEqual, "\\dfrac{2}{4}", &truth)
            .correct
    );
    let extracted = grader.judge(Check::Extract, "x \\boxed{7} y", &[]);
    assert_eq!(extracted.answer.as_deref(), Some("7"));
    let none = grader.judge(Check::BoxedReward, "7", &truth);
    assert!(!none.formatted && !none.correct);
}
