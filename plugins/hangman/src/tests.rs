//! Native tests: hand-checked rules plus episodes recorded from GEM's own `HangmanEnv`
//! (run on the same word lists) that must replay identically; `tests/make_golden.py` records them.

use super::*;
use geode_sdk::testing;
use serde_json::Value;

/// A game for `id` with its default configuration, changed by `overrides`.
fn make(id: &str, overrides: &Value) -> Result<Hangman, Error> {
    testing::make(id, overrides)
}

/// A game for `id` reset with `seed`, and its generator.
fn started(id: &str, seed: u64) -> (Hangman, Rng) {
    let (env, rng, _) = testing::start(id, &json!({}), seed);
    (env, rng)
}

fn boxed(text: &str) -> String {
    format!("\\boxed{{{text}}}")
}

#[test]
fn replays_gem_episodes() {
    testing::replay_golden::<Hangman>(include_str!("../tests/golden.json"));
}

#[test]
fn letters_then_word_win() {
    let (mut env, mut rng) = started("game:Hangman-v0-hard", 1);
    assert_eq!(env.secret, "COURSES");
    let hit = env.step(&boxed("s"), &mut rng).unwrap();
    assert_eq!(
        hit.observation,
        "At turn 1, you successfully guessed a letter 'S' that is in the secret word."
    );
    assert_eq!(hit.reward, 2.0 / 7.0 * 0.5);
    assert_eq!(
        hit.info.to_map()["suffix"],
        "Here is the current state of the Hangman grid:\n\
         C00 C01 C02 C03 C04 C05 C06\n  _   _   _   _   S   _   S \n\nEnter your guess."
    );
    let win = env.step("final answer \\boxed{Courses}", &mut rng).unwrap();
    assert_eq!(
        win.observation,
        "Congratulations! You guessed the word 'COURSES' correctly!"
    );
    assert_eq!(win.reward, 5.0 / 7.0 * 0.5 + 0.5);
    assert!(win.terminated && !win.truncated);
}

#[test]
fn invalid_guesses_continue() {
    let (mut env, mut rng) = started("game:Hangman-v0-hard", 1);
    env.step(&boxed("z"), &mut rng).unwrap();
    let again = env.step(&boxed("Z"), &mut rng).unwrap();
    assert_eq!(
        again.observation,
        "At turn 2, you guessed 'Z', which has been already guessed before."
    );
    let long = env.step(&boxed("abc"), &mut rng).unwrap();
    assert_eq!(
        long.observation,
        "At turn 3, You guessed 'ABC' which is of length 3, but the secret word is of length 7."
    );
    for step in [again, long] {
        assert_eq!(
            (step.reward, step.terminated, step.truncated),
            (0.0, false, false)
        );
    }
}

#[test]
fn format_errors_end_the_episode() {
    let huge = "\\boxed{".repeat(150_000) + "}";
    let long = "a".repeat(1 << 20);
    let actions = [
        "",
        "s",
        "\\boxed{}",
        "\\boxed{s!}",
        "\\boxed{é}",
        &huge,
        &long,
    ];
    testing::assert_format_errors::<Hangman>(
        "game:Hangman-v0-easy",
        2,
        &actions,
        "You did not provide a valid guess.",
    );
}

#[test]
fn turn_limit_truncates_and_a_full_board_does_not_end() {
    let (mut env, mut rng) = started("game:Hangman-v0-easy", 4);
    let mut letters: Vec<char> = env.secret.chars().collect();
    letters.dedup();
    for letter in &letters {
        let step = env.step(&boxed(&letter.to_string()), &mut rng).unwrap();
        assert!(!step.terminated);
    }
    assert!(env.board.iter().all(|&c| c != '_'));
    let mut last = None;
    for turn in letters.len() + 1..=10 {
        let step = env.step(&boxed("QQ"), &mut rng).unwrap();
        assert_eq!(step.terminated, turn == 10);
        last = Some(step);
    }
    testing::assert_turn_limit(&last.unwrap());
}

#[test]
fn same_seed_same_start_and_state_round_trips() {
    let (a, _) = started("game:Hangman-v0-random", 8);
    let (b, _) = started("game:Hangman-v0-random", 8);
    assert_eq!((a.secret.clone(), a.rules), (b.secret.clone(), b.rules));
    let state = serde_json::to_string(&a).unwrap();
    assert!(state.len() < 1_000);
    let restored: Hangman = serde_json::from_str(&state).unwrap();
    assert_eq!(restored.secret, a.secret);
}

#[test]
fn random_actions_are_accepted() {
    let (mut env, mut rng) = started("game:Hangman-v0-hard", 6);
    for _ in 0..20 {
        let action = env.sample_random_action(&mut rng);
        let guess = parse_guess(&action).unwrap();
        assert!(guess.len() == 1 || guess.len() == 7, "{action}");
    }
}

#[test]
fn rejects_impossible_configs() {
    let hard = "game:Hangman-v0-hard";
    let bad = [json!({ "word_length": 60 }), json!({ "max_turns": -1 })];
    testing::assert_bad_configs::<Hangman>(hard, &bad);
    assert!(make(hard, &json!({ "hardcore": true, "word_length": 9 })).is_ok());
}

#[test]
fn a_huge_word_guess_is_echoed_elided() {
    let (mut env, mut rng) = started("game:Hangman-v0-hard", 1);
    let step = env.step(&boxed(&"q".repeat(1 << 20)), &mut rng).unwrap();
    assert!(
        step.observation.len() < 1_000,
        "{} bytes",
        step.observation.len()
    );
    assert!(step.observation.contains("which is of length 1048576"));
}
