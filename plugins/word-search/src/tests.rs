//! Native tests: hand-checked rules plus episodes recorded from GEM's own `WordSearchEnv`
//! (run on the same word lists) that must replay identically; `tests/make_golden.py` records them.

use super::*;
use serde_json::Value;

/// A game for `id` with its default configuration, changed by `overrides`.
fn make(id: &str, overrides: &Value) -> Result<WordSearch, Error> {
    let spec = WordSearch::specs()
        .into_iter()
        .find(|s| s.id == id)
        .unwrap();
    let mut config = spec.default_config.as_object().unwrap().clone();
    config.extend(overrides.as_object().unwrap().clone());
    WordSearch::create(id, Config::new(config))
}

/// An easy game reset with `seed`, and its generator.
fn easy(seed: u64) -> (WordSearch, Rng) {
    let mut env = make("game:WordSearch-v0-easy", &json!({})).unwrap();
    let mut rng = Rng::seeded(seed);
    env.reset(&mut rng).unwrap();
    (env, rng)
}

/// The answer naming placed word `k`, forwards or backwards.
fn answer(env: &WordSearch, k: usize, backwards: bool) -> String {
    let p = &env.placed[k];
    let (mut start, mut end) = ((p.row, p.col), p.end());
    if backwards {
        std::mem::swap(&mut start, &mut end);
    }
    format!("\\boxed{{{} {} {} {}}}", start.0, start.1, end.0, end.1)
}

#[test]
fn replays_gem_episodes() {
    let cases: Vec<Value> = serde_json::from_str(include_str!("../tests/golden.json")).unwrap();
    for case in cases {
        let mut env = make(case["id"].as_str().unwrap(), &case["config"]).unwrap();
        let mut rng = Rng::seeded(case["seed"].as_u64().unwrap());
        let reset = env.reset(&mut rng).unwrap();
        assert_eq!(reset.observation, case["reset"][0].as_str().unwrap());
        assert_eq!(
            Value::Object(reset.info.to_map()),
            case["reset"][1],
            "{}",
            case["seed"]
        );
        for step in case["steps"].as_array().unwrap() {
            let got = env.step(step[0].as_str().unwrap(), &mut rng).unwrap();
            assert_eq!(got.observation, step[1].as_str().unwrap(), "{step}");
            assert!((got.reward - step[2].as_f64().unwrap()).abs() < 1e-12);
            assert_eq!(got.terminated, step[3].as_bool().unwrap());
            assert_eq!(got.truncated, step[4].as_bool().unwrap());
            assert_eq!(Value::Object(got.info.to_map()), step[5]);
        }
    }
}

#[test]
fn finding_every_word_wins() {
    let (mut env, mut rng) = easy(4);
    let count = env.placed.len();
    assert_eq!(count, 5);
    for k in 0..count {
        let step = env.step(&answer(&env, k, k % 2 == 1), &mut rng).unwrap();
        assert_eq!(step.reward, 0.2);
        assert_eq!(step.terminated, k + 1 == count);
        if k + 1 == count {
            assert_eq!(
                step.observation,
                "Congratulations! You completed the Word Search puzzle!"
            );
            assert!(!step.truncated);
            assert!(
                step.info.to_map()["suffix"]
                    .as_str()
                    .unwrap()
                    .contains("Words Found: 5/5")
            );
        }
    }
}

#[test]
fn invalid_guesses_continue() {
    let (mut env, mut rng) = easy(4);
    let cases = [
        (
            "\\boxed{99 0 0 0}",
            "At turn 1, your tried coordinates (99, 0) to (0, 0) are out of bounds.",
        ),
        (
            "\\boxed{1 1 2 2}",
            "At turn 2, you tried (1, 1) to (2, 2), which is not valid because words must be either across (horizontal) or down (vertical).",
        ),
        (
            "\\boxed{1 1 2 2}",
            "At turn 3, you have already tried the coordinates (1, 1) to (2, 2).",
        ),
    ];
    for (action, expected) in cases {
        let step = env.step(action, &mut rng).unwrap();
        assert_eq!(step.observation, expected);
        assert_eq!((step.reward, step.terminated), (0.0, false));
    }
}

#[test]
fn format_errors_end_the_episode() {
    let huge = "\\boxed{1 ".repeat(120_000);
    let digits = format!("\\boxed{{{} 1 1}}", "9".repeat(1 << 20));
    for action in [
        "",
        "1 1 1 5",
        "\\boxed{[1 1 1 5]}",
        "\\boxed{1 1 1}",
        "\\boxed{-1 0 0 0}",
        &huge,
        &digits,
    ] {
        let (mut env, mut rng) = easy(5);
        let step = env.step(action, &mut rng).unwrap();
        assert_eq!(
            step.observation,
            "At turn 1, you did not provide a valid guess in \\boxed{start_row start_col end_row end_col} format."
        );
        assert_eq!(step.reward, -0.1);
        assert!(step.terminated && !step.truncated);
    }
}

#[test]
fn turn_limit_truncates() {
    let mut env = make("game:WordSearch-v0-hard", &json!({ "max_turns": 2 })).unwrap();
    let mut rng = Rng::seeded(6);
    env.reset(&mut rng).unwrap();
    assert!(!env.step("\\boxed{0 0 0 0}", &mut rng).unwrap().terminated);
    let last = env.step("\\boxed{0 0 0 0}", &mut rng).unwrap();
    assert_eq!(
        last.observation,
        "You have reached the maximum number of turns."
    );
    assert!(last.terminated && last.truncated);
}

#[test]
fn same_seed_same_start_and_state_round_trips() {
    let (a, _) = easy(7);
    let (b, _) = easy(7);
    assert_eq!((&a.grid, &a.placed), (&b.grid, &b.placed));
    let state = serde_json::to_string(&a).unwrap();
    assert!(state.len() < 10_000);
    let restored: WordSearch = serde_json::from_str(&state).unwrap();
    assert_eq!(restored.render(), a.render());
}

#[test]
fn random_actions_are_accepted() {
    let (mut env, mut rng) = easy(8);
    for _ in 0..20 {
        let action = env.sample_random_action(&mut rng);
        let span = parse_span(&action).unwrap();
        assert!(
            span.iter().all(|n| n.value < env.grid.len() as u64),
            "{action}"
        );
    }
}

#[test]
fn rejects_impossible_configs() {
    let easy = "game:WordSearch-v0-easy";
    assert!(make(easy, &json!({ "num_words": 0 })).is_err());
    assert!(make(easy, &json!({ "max_turns": 0 })).is_err());
    assert!(make(easy, &json!({ "hardcore": 1 })).is_err());
}
