//! Native tests: hand-checked rules plus episodes recorded from GEM's own `WordSearchEnv`
//! (run on the same word lists) that must replay identically; `tests/make_golden.py` records them.

use super::*;
use geode_sdk::testing;

/// An easy game reset with `seed`, and its generator.
fn easy(seed: u64) -> (WordSearch, Rng) {
    let (env, rng, _) = testing::start("game:WordSearch-v0-easy", &json!({}), seed);
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
    testing::replay_golden::<WordSearch>(include_str!("../tests/golden.json"));
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
    let actions = [
        "",
        "1 1 1 5",
        "\\boxed{[1 1 1 5]}",
        "\\boxed{1 1 1}",
        "\\boxed{-1 0 0 0}",
        &huge,
        &digits,
    ];
    testing::assert_format_errors::<WordSearch>(
        "game:WordSearch-v0-easy",
        5,
        &actions,
        "At turn 1, you did not provide a valid guess in \\boxed{start_row start_col end_row end_col} format.",
    );
}

#[test]
fn turn_limit_truncates() {
    let (mut env, mut rng, _) =
        testing::start::<WordSearch>("game:WordSearch-v0-hard", &json!({ "max_turns": 2 }), 6);
    assert!(!env.step("\\boxed{0 0 0 0}", &mut rng).unwrap().terminated);
    let last = env.step("\\boxed{0 0 0 0}", &mut rng).unwrap();
    testing::assert_turn_limit(&last);
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
    let bad = [
        json!({ "num_words": 0 }),
        json!({ "max_turns": 0 }),
        json!({ "hardcore": 1 }),
    ];
    testing::assert_bad_configs::<WordSearch>("game:WordSearch-v0-easy", &bad);
}
