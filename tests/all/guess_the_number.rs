//! GuessTheNumber over the real built-in component: every reward rule, seeding and replay.

use geode_runtime::{Env, StepOutput};
use geode_tests::registry;
use serde_json::{Value, json};

const HARD: &str = "game:GuessTheNumber-v0-hard";

fn make(id: &str) -> Box<dyn Env> {
    registry().make(id, json!({})).expect("make")
}

/// The hidden number, read through the public snapshot API.
fn target(env: &mut dyn Env) -> i64 {
    let state: Value = serde_json::from_slice(&env.get_state().unwrap()).unwrap();
    state["env"]["target"].as_i64().unwrap()
}

fn guess(env: &mut dyn Env, n: i64) -> StepOutput {
    env.step(&format!("I think it is \\boxed{{{n}}}")).unwrap()
}

/// A wrong, in-range number different from `avoid`.
fn wrong(target: i64, k: i64) -> i64 {
    let n = 1 + (target + k) % 50;
    if n == target { 1 + (n % 50) } else { n }
}

#[test]
fn correct_guess_wins_and_ends() {
    let mut env = make(HARD);
    let reset = env.reset(Some(1)).unwrap();
    assert_eq!(
        reset.info.get("suffix"),
        Some(json!("Enter your next guess."))
    );
    let t = target(&mut env);
    let step = guess(&mut env, t);
    assert_eq!(step.reward, 1.0);
    assert!(step.terminated && !step.truncated);
    assert_eq!(
        step.observation,
        format!("Congratulations! You guessed the correct number {t} in 1 turns.")
    );
    assert_eq!(
        step.info.get("suffix"),
        Some(json!("Enter your next guess."))
    );
}

#[test]
fn hints_point_towards_the_target() {
    let mut env = make(HARD);
    env.reset(Some(3)).unwrap();
    let t = target(&mut env);
    if t > 1 {
        let step = guess(&mut env, t - 1);
        assert_eq!(
            step.observation,
            format!(
                "At turn 1, you guessed {}, and the target number is higher than {}.",
                t - 1,
                t - 1
            )
        );
        assert_eq!((step.reward, step.terminated), (0.0, false));
    }
    if t < 50 {
        let step = guess(&mut env, t + 1);
        assert!(
            step.observation
                .ends_with(&format!("the target number is lower than {}.", t + 1)),
            "{}",
            step.observation
        );
    }
}

#[test]
fn no_parsable_guess_is_a_format_error_that_ends_the_episode() {
    for action in ["fifty", "\\boxed{}", "\\boxed{-3}", "\\boxed{0}", ""] {
        let mut env = make(HARD);
        env.reset(Some(2)).unwrap();
        let step = env.step(action).unwrap();
        assert_eq!(step.reward, -0.1, "action {action:?}");
        assert!(step.terminated && !step.truncated, "action {action:?}");
        assert_eq!(
            step.observation,
            "At turn 1, you did not provide a valid guess."
        );
    }
}

#[test]
fn format_error_on_the_last_turn_is_also_truncated() {
    let mut env = make("game:GuessTheNumber-v0-easy");
    env.reset(Some(4)).unwrap();
    let t = target(&mut env);
    for k in 1..=3 {
        let n = 1 + (t + k - 1) % 10;
        assert!(!guess(&mut env, n).terminated);
    }
    let step = env.step("no idea").unwrap();
    assert_eq!(step.reward, -0.1);
    assert!(step.terminated && step.truncated);
}

#[test]
fn out_of_range_and_repeated_guesses_score_zero_and_continue() {
    let mut env = make(HARD);
    env.reset(Some(5)).unwrap();
    let t = target(&mut env);
    let step = guess(&mut env, 51);
    assert_eq!(
        step.observation,
        "At turn 1, you guessed 51, which is outside the range specified."
    );
    assert_eq!(
        (step.reward, step.terminated, step.truncated),
        (0.0, false, false)
    );
    let w = wrong(t, 7);
    guess(&mut env, w);
    let step = guess(&mut env, w);
    assert_eq!(
        step.observation,
        format!("At turn 3, you guessed {w}, which has been already guessed before.")
    );
    assert_eq!((step.reward, step.terminated), (0.0, false));
    // The last \boxed{} counts, even after an earlier valid one.
    let step = env
        .step(&format!("\\boxed{{{t}}} no wait \\boxed{{99}}"))
        .unwrap();
    assert!(
        step.observation.contains("outside the range"),
        "{}",
        step.observation
    );
    // A guess too large for 64 bits is echoed as written (GEM's Python ints have no bound),
    // without its leading zeros, as Python's int() reads it.
    let step = env
        .step("\\boxed{000123456789012345678901234567890}")
        .unwrap();
    assert_eq!(
        step.observation,
        "At turn 5, you guessed 123456789012345678901234567890, which is outside the range specified."
    );
}

#[test]
fn turn_limit_ends_with_distance_reward() {
    let mut env = make(HARD);
    env.reset(Some(6)).unwrap();
    let t = target(&mut env);
    let guesses: Vec<i64> = (1..=7).map(|k| wrong(t, k * 3)).collect();
    let mut last = None;
    for (turn, &g) in guesses.iter().enumerate() {
        let step = guess(&mut env, g);
        if turn < 6 {
            assert!(!step.done(), "ended early at turn {}", turn + 1);
        }
        last = Some(step);
    }
    let last = last.unwrap();
    let g = guesses[6];
    assert_eq!(
        last.observation,
        "You have reached the maximum number of turns."
    );
    assert!(last.terminated && last.truncated);
    let expected = 1.0 - (g - t).abs() as f64 / 49.0;
    assert!(
        (last.reward - expected).abs() < 1e-12,
        "reward {} expected {expected}",
        last.reward
    );
}

#[test]
fn out_of_range_on_the_last_turn_scores_zero() {
    let mut env = make("game:GuessTheNumber-v0-easy");
    env.reset(Some(8)).unwrap();
    for _ in 0..3 {
        guess(&mut env, 11);
    }
    let step = guess(&mut env, 11);
    assert!(step.terminated && step.truncated);
    assert_eq!(step.reward, 0.0);
}

#[test]
fn instructions_state_range_and_turns() {
    let mut env = make("game:GuessTheNumber-v0-easy");
    let obs = env.reset(Some(1)).unwrap().observation;
    assert!(
        obs.starts_with("You are playing Guess The Number.\n"),
        "{obs}"
    );
    assert!(
        obs.contains("between 1 and 10 (inclusive) within 4 turns"),
        "{obs}"
    );
    let mut env = make(HARD);
    let obs = env.reset(Some(1)).unwrap().observation;
    assert!(
        obs.contains("between 1 and 50 (inclusive) within 7 turns"),
        "{obs}"
    );
}

#[test]
fn seeds_draw_the_numbers_cpython_draws() {
    // CPython: random.seed(s); random.randint(1, 50) (target), then the example action.
    for (seed, expected_target, example) in [(42, 41, 8), (7, 21, 10), (123, 4, 18)] {
        let mut env = make(HARD);
        let obs = env.reset(Some(seed)).unwrap().observation;
        assert_eq!(target(&mut env), expected_target, "seed {seed}");
        assert!(
            obs.contains(&format!("for example, \\boxed{{{example}}}.")),
            "seed {seed}: {obs}"
        );
    }
    // The random variant: range, turns and target drawn in GEM's order.
    let mut env = make("game:GuessTheNumber-v0-random");
    let obs = env.reset(Some(5)).unwrap().observation;
    assert!(
        obs.contains("between 10 and 31 (inclusive) within 6 turns"),
        "{obs}"
    );
    assert_eq!(target(&mut env), 21);
}

#[test]
fn random_variant_redraws_range_each_episode() {
    let mut env = make("game:GuessTheNumber-v0-random");
    let mut headers = std::collections::BTreeSet::new();
    for seed in 0..20 {
        let obs = env.reset(Some(seed)).unwrap().observation;
        headers.insert(obs.lines().nth(1).unwrap().to_owned());
    }
    assert!(headers.len() > 5, "ranges barely vary: {headers:?}");
}

/// Observations and rewards of `episodes` random-policy episodes from `seed`.
fn rollout(seed: u64, episodes: u64) -> Vec<(String, f64, bool, bool)> {
    let mut env = make(HARD);
    let mut trace = Vec::new();
    for e in 0..episodes {
        let reset = env.reset(Some(seed + e)).unwrap();
        trace.push((reset.observation, 0.0, false, false));
        loop {
            let action = env.sample_random_action().unwrap();
            let step = env.step(&action).unwrap();
            let done = step.done();
            trace.push((
                step.observation,
                step.reward,
                step.terminated,
                step.truncated,
            ));
            if done {
                break;
            }
        }
    }
    trace
}

#[test]
fn same_seed_replays_exactly_and_different_seeds_differ() {
    let a = rollout(1000, 100);
    let b = rollout(1000, 100);
    assert_eq!(a, b);
    let c = rollout(5000, 100);
    assert_ne!(a, c);
}

#[test]
fn unseeded_reset_continues_randomness() {
    let mut env = make(HARD);
    env.reset(Some(9)).unwrap();
    let first = target(&mut env);
    let targets: Vec<i64> = (0..10)
        .map(|_| {
            env.reset(None).unwrap();
            target(&mut env)
        })
        .collect();
    assert!(
        targets.iter().any(|&t| t != first),
        "unseeded resets repeat the same target"
    );
}

#[test]
fn state_round_trips_and_spawn_continues_identically() {
    let mut env = make(HARD);
    env.reset(Some(11)).unwrap();
    let t = target(&mut env);
    guess(&mut env, wrong(t, 4));
    let mut twin = env.spawn(true).unwrap();
    let a = guess(&mut env, wrong(t, 9));
    let b = twin.step(&format!("\\boxed{{{}}}", wrong(t, 9))).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.observation.split(',').next(), Some("At turn 2"));
    let mut fresh = env.spawn(false).unwrap();
    assert!(
        fresh.step("\\boxed{1}").is_err(),
        "a spawned env without state must be reset first"
    );
}
