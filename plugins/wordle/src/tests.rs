//! Native tests: hand-checked rules plus episodes recorded from GEM's own `WordleEnv`
//! (run on the same word list) that must replay identically; `tests/make_golden.py` records them.

use super::*;
use geode_sdk::testing;
use serde_json::Value;

/// A game for `id` with its default configuration, changed by `overrides`.
fn make(id: &str, overrides: &Value) -> Wordle {
    testing::make(id, overrides).unwrap()
}

/// A hard game reset with `seed`, and its generator.
fn hard(seed: u64) -> (Wordle, Rng) {
    let (env, rng, _) = testing::start("game:Wordle-v0-hard", &json!({}), seed);
    (env, rng)
}

fn boxed(word: &str) -> String {
    format!("\\boxed{{{word}}}")
}

#[test]
fn replays_gem_episodes() {
    testing::replay_golden::<Wordle>(include_str!("../tests/golden.json"));
}

#[test]
fn feedback_counts_repeated_letters_once() {
    let chars = |w: &str| w.chars().collect::<Vec<_>>();
    let marks = evaluate(&chars("EERIE"), &chars("THERE"));
    assert_eq!(marks_repr(&marks), "['Y', 'X', 'Y', 'X', 'G']");
}

#[test]
fn win_pays_new_greens_plus_half() {
    let (mut env, mut rng) = hard(1);
    let secret = env.secret.clone();
    let mut near: Vec<char> = secret.chars().collect();
    near[0] = if near[0] == 'Z' { 'Q' } else { 'Z' };
    let near: String = near.into_iter().collect();
    let first = env.step(&boxed(&near), &mut rng).unwrap();
    assert!(!first.terminated);
    let win = env.step(&boxed(&secret.to_lowercase()), &mut rng).unwrap();
    assert_eq!(
        win.observation,
        format!("Congratulations! You guessed the secret word {secret} in 2 turns.")
    );
    assert_eq!(first.reward + win.reward, 1.0);
    assert!((win.reward - 0.6).abs() < 1e-12);
    assert!(win.terminated && !win.truncated);
    assert_eq!(win.info.to_map()["suffix"], "Enter your guess.");
}

#[test]
fn invalid_guesses_cost_nothing_and_continue() {
    let (mut env, mut rng) = hard(2);
    let short = env.step("\\boxed{cat}", &mut rng).unwrap();
    assert_eq!(
        short.observation,
        "At turn 1, you guessed CAT which has 3 letters but the secret word has 5 letters."
    );
    assert_eq!((short.reward, short.terminated), (0.0, false));
    let word = words_of_length(5)
        .into_iter()
        .find(|w| w.to_uppercase() != env.secret)
        .unwrap();
    env.step(&boxed(word), &mut rng).unwrap();
    let again = env.step(&boxed(word), &mut rng).unwrap();
    assert_eq!(
        again.observation,
        format!(
            "At turn 3, you guessed {}, which has been already guessed before.",
            word.to_uppercase()
        )
    );
    assert_eq!((again.reward, again.terminated), (0.0, false));
}

#[test]
fn format_errors_end_the_episode() {
    let huge = "x".repeat(1 << 20);
    let hostile = "\\boxed{".repeat(150_000);
    let actions = [
        "",
        "CRANE",
        "\\boxed{}",
        "\\boxed{12345}",
        "\\boxed{ab-cd}",
        &huge,
        &hostile,
    ];
    testing::assert_format_errors::<Wordle>(
        "game:Wordle-v0-hard",
        3,
        &actions,
        "At turn 1, you did not provide a valid guess.",
    );
}

#[test]
fn turn_limit_truncates() {
    let (mut env, mut rng, _) =
        testing::start::<Wordle>("game:Wordle-v0-easy", &json!({ "max_turns": 2 }), 4);
    let others: Vec<&str> = words_of_length(3)
        .into_iter()
        .filter(|w| w.to_uppercase() != env.secret)
        .take(2)
        .collect();
    assert!(!env.step(&boxed(others[0]), &mut rng).unwrap().terminated);
    let last = env.step(&boxed(others[1]), &mut rng).unwrap();
    testing::assert_turn_limit(&last);
}

#[test]
fn same_seed_same_start_and_state_round_trips() {
    let (a, _) = hard(99);
    let (b, _) = hard(99);
    assert_eq!(a.secret, b.secret);
    let mut env = make("game:Wordle-v0-random", &json!({}));
    let first = env.reset(&mut Rng::seeded(5)).unwrap().observation;
    let again = env.reset(&mut Rng::seeded(5)).unwrap().observation;
    assert_eq!(first, again);
    let state = serde_json::to_string(&env).unwrap();
    assert!(state.len() < 1_000);
    let restored: Wordle = serde_json::from_str(&state).unwrap();
    assert_eq!(restored.secret, env.secret);
    assert_eq!(restored.rules, env.rules);
}

#[test]
fn random_actions_are_accepted() {
    let (mut env, mut rng) = hard(6);
    for _ in 0..20 {
        let action = env.sample_random_action(&mut rng);
        assert!(
            parse_guess(&action).is_some_and(|g| g.len() == 5),
            "{action}"
        );
    }
}

#[test]
fn rejects_impossible_configs() {
    let bad = [
        json!({ "word_length": 40 }),
        json!({ "max_turns": 0 }),
        json!({ "word_length": "five" }),
    ];
    testing::assert_bad_configs::<Wordle>("game:Wordle-v0-hard", &bad);
}

#[test]
fn a_huge_guess_is_echoed_elided() {
    let (mut env, mut rng) = hard(1);
    let step = env.step(&boxed(&"q".repeat(1 << 20)), &mut rng).unwrap();
    assert!(
        step.observation.len() < 1_000,
        "{} bytes",
        step.observation.len()
    );
    assert!(step.observation.contains("which has 1048576 letters"));
}
