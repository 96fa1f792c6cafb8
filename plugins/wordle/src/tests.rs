//! Native tests: hand-checked rules plus episodes recorded from GEM's own `WordleEnv`
//! (run on the same word list) that must replay identically; `tests/make_golden.py` records them.

use super::*;
use serde_json::Value;

/// A game for `id` with its default configuration, changed by `overrides`.
fn make(id: &str, overrides: &Value) -> Wordle {
    let spec = Wordle::specs().into_iter().find(|s| s.id == id).unwrap();
    let mut config = spec.default_config.as_object().unwrap().clone();
    for (key, value) in overrides.as_object().unwrap() {
        config.insert(key.clone(), value.clone());
    }
    Wordle::create(id, Config::new(config)).unwrap()
}

/// A hard game reset with `seed`, and its generator.
fn hard(seed: u64) -> (Wordle, Rng) {
    let mut env = make("game:Wordle-v0-hard", &json!({}));
    let mut rng = Rng::seeded(seed);
    env.reset(&mut rng).unwrap();
    (env, rng)
}

fn boxed(word: &str) -> String {
    format!("\\boxed{{{word}}}")
}

#[test]
fn replays_gem_episodes() {
    let cases: Vec<Value> = serde_json::from_str(include_str!("../tests/golden.json")).unwrap();
    for case in cases {
        let mut env = make(case["id"].as_str().unwrap(), &case["config"]);
        let mut rng = Rng::seeded(case["seed"].as_u64().unwrap());
        let reset = env.reset(&mut rng).unwrap();
        assert_eq!(reset.observation, case["reset"][0].as_str().unwrap());
        assert_eq!(Value::Object(reset.info.to_map()), case["reset"][1]);
        for step in case["steps"].as_array().unwrap() {
            let got = env.step(step[0].as_str().unwrap(), &mut rng).unwrap();
            assert_eq!(got.observation, step[1].as_str().unwrap(), "{case}");
            assert!((got.reward - step[2].as_f64().unwrap()).abs() < 1e-12);
            assert_eq!(got.terminated, step[3].as_bool().unwrap());
            assert_eq!(got.truncated, step[4].as_bool().unwrap());
            assert_eq!(Value::Object(got.info.to_map()), step[5]);
        }
    }
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
    for action in [
        "",
        "CRANE",
        "\\boxed{}",
        "\\boxed{12345}",
        "\\boxed{ab-cd}",
        &huge,
        &hostile,
    ] {
        let (mut env, mut rng) = hard(3);
        let step = env.step(action, &mut rng).unwrap();
        assert_eq!(
            step.observation,
            "At turn 1, you did not provide a valid guess."
        );
        assert_eq!(step.reward, -0.1);
        assert!(step.terminated && !step.truncated);
    }
}

#[test]
fn turn_limit_truncates() {
    let mut env = make("game:Wordle-v0-easy", &json!({ "max_turns": 2 }));
    let mut rng = Rng::seeded(4);
    env.reset(&mut rng).unwrap();
    let others: Vec<&str> = words_of_length(3)
        .into_iter()
        .filter(|w| w.to_uppercase() != env.secret)
        .take(2)
        .collect();
    assert!(!env.step(&boxed(others[0]), &mut rng).unwrap().terminated);
    let last = env.step(&boxed(others[1]), &mut rng).unwrap();
    assert_eq!(
        last.observation,
        "You have reached the maximum number of turns."
    );
    assert!(last.terminated && last.truncated);
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
    let spec = |over: Value| {
        let mut config = Wordle::specs()[0]
            .default_config
            .as_object()
            .unwrap()
            .clone();
        config.extend(over.as_object().unwrap().clone());
        Wordle::create("game:Wordle-v0-hard", Config::new(config))
    };
    assert!(spec(json!({ "word_length": 40 })).is_err());
    assert!(spec(json!({ "max_turns": 0 })).is_err());
    assert!(spec(json!({ "word_length": "five" })).is_err());
}
