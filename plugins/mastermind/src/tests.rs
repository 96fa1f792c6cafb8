//! Native tests; expected texts and draws were printed by GEM's `MastermindEnv` (CPython 3.11).

use super::*;
use geode_sdk::testing;
use serde_json::Value;

/// A seeded env of `id`, reset, with its first observation.
fn start(id: &str, overrides: Value, seed: u64) -> (Mastermind, Rng, Reset) {
    testing::start(id, &overrides, seed)
}

fn play(env: &mut Mastermind, rng: &mut Rng, action: &str) -> Step {
    env.step(action, rng).unwrap()
}

#[test]
fn seeded_start_matches_gem() {
    let (env, _, reset) = start("game:Mastermind-v0-hard", json!({}), 42);
    assert_eq!(env.code, vec![2, 1, 6, 3]);
    assert!(reset.info.to_map().is_empty());
    assert_eq!(
        reset.observation,
        "You are playing Mastermind.\n\
         You have to guess the secret 4 digit code within 30 turns.\n\
         The code consists of digits from 1 to 8 (inclusive). Duplicate numbers are not allowed.\n\
         After you enter your guess, I will say mark your guess with black and white pegs, where a black peg indicates a correct digit in the correct position, while a white peg indicates a correct digit in the wrong position.\n\
         After thinking, format your final answer inside \\boxed{...}, for example, \\boxed{4 2 7 1}.\n\
         As you play, the history of your guesses will be appended below. Use the information to complete the game before you run out of guesses.\n\
         Enter your first guess to start the game.\n"
    );
    let (env, _, _) = start("game:Mastermind-v0-easy", json!({}), 7);
    assert_eq!(env.code, vec![3, 2]);
    let (env, _, reset) = start("game:Mastermind-v0-random", json!({}), 7);
    assert_eq!(
        (env.rules, env.code.clone()),
        (RANDOM_RULES[1], vec![2, 4, 1, 5])
    );
    assert!(reset.observation.contains("for example, \\boxed{5 1 3 4}."));
}

#[test]
fn large_ranges_and_duplicates_draw_like_cpython() {
    let config = json!({"code_length": 6, "num_numbers": 40, "max_turns": 5});
    let (mut env, mut rng, _) = start("game:Mastermind-v0-hard", config, 3);
    assert_eq!(env.code, vec![16, 38, 35, 9, 24, 31]);
    assert_eq!(
        env.sample_random_action(&mut rng),
        "\\boxed{13 31 35 36 39 26}"
    );
    let config = json!({"code_length": 6, "num_numbers": 40, "duplicate_numbers": true});
    let (_, _, reset) = start("game:Mastermind-v0-hard", config.clone(), 3);
    let (env, _, _) = start("game:Mastermind-v0-hard", config, 3);
    assert_eq!(env.code, vec![10, 22, 15, 25, 26, 3]);
    assert!(reset.observation.contains("Duplicate numbers are allowed."));
}

#[test]
fn same_seed_same_start() {
    let (a, _, ra) = start("game:Mastermind-v0-random", json!({}), 2025);
    let (b, _, rb) = start("game:Mastermind-v0-random", json!({}), 2025);
    assert_eq!((a.code, a.rules), (b.code, b.rules));
    assert_eq!(ra.observation, rb.observation);
}

#[test]
fn win_with_progress_rewards_and_invalid_guesses() {
    let (mut env, mut rng, _) = start("game:Mastermind-v0-hard", json!({}), 42);
    let expected = [
        (
            "\\boxed{1 2 3 4}",
            "At turn 1, you guessed [1, 2, 3, 4]. This guess receives 0 black peg(s) and 3 white peg(s).",
            0.0,
        ),
        (
            "\\boxed{1 2}",
            "At turn 2, you guessed [1, 2] which has 2 entries but the code has length 4.",
            0.0,
        ),
        (
            "\\boxed{0 2 3 009}",
            "At turn 3, you guessed [0, 2, 3, 9], which has numbers outside the range 1 to 8.",
            0.0,
        ),
        (
            "\\boxed{1 2 3 4}",
            "At turn 4, you guessed [1, 2, 3, 4], which has been already guessed before.",
            0.0,
        ),
        (
            "I think \\boxed{2 1 6 4}",
            "At turn 5, you guessed [2, 1, 6, 4]. This guess receives 3 black peg(s) and 0 white peg(s).",
            0.75,
        ),
        (
            "\\boxed{2\t1  3\n6}",
            "At turn 6, you guessed [2, 1, 3, 6]. This guess receives 2 black peg(s) and 2 white peg(s).",
            0.0,
        ),
    ];
    for (action, obs, reward) in expected {
        let step = play(&mut env, &mut rng, action);
        assert_eq!((step.observation.as_str(), step.reward), (obs, reward));
        assert!(!step.terminated && !step.truncated);
        assert_eq!(step.info.to_map()["suffix"], "Enter your guess.");
    }
    let step = play(&mut env, &mut rng, "\\boxed{2 1 6 3} \\boxed{x}");
    assert_eq!(
        step.observation,
        "Congratulations! You guessed the correct code [2, 1, 6, 3] in 7 turns."
    );
    assert_eq!(step.reward, 0.25);
    assert!(step.terminated && !step.truncated);
}

#[test]
fn format_errors_end_the_episode() {
    let actions = [
        "",
        "2 1 6 3",
        "\\boxed{}",
        "\\boxed{2 1 6 3 }",
        "\\boxed{2,1,6,3}",
        "\\boxed{-2 1 6 3}",
        "\\boxed{2 1 6 3",
        "\u{0}\u{ffff}garbage",
    ];
    testing::assert_format_errors::<Mastermind>(
        "game:Mastermind-v0-hard",
        42,
        &actions,
        "At turn 1, you did not provide a valid guess.",
    );
    let (mut env, mut rng, _) = start("game:Mastermind-v0-hard", json!({}), 42);
    let huge = format!("\\boxed{{1 2 3 {}}}", "4".repeat(4301));
    assert_eq!(play(&mut env, &mut rng, &huge).reward, -0.1);
}

#[test]
fn format_error_on_the_last_turn_is_also_truncated() {
    let (mut env, mut rng, _) = start("game:Mastermind-v0-easy", json!({"max_turns": 1}), 1);
    let step = play(&mut env, &mut rng, "nothing");
    assert!(step.terminated && step.truncated);
}

#[test]
fn turn_limit_is_a_loss() {
    let (mut env, mut rng, _) = start("game:Mastermind-v0-easy", json!({}), 42);
    assert_eq!(env.code, vec![6, 1]);
    for turn in 1..10 {
        let step = play(&mut env, &mut rng, "\\boxed{9 9}");
        assert_eq!(step.reward, 0.0);
        assert!(!step.terminated, "turn {turn}");
    }
    let step = play(&mut env, &mut rng, "\\boxed{6 2}");
    testing::assert_turn_limit(&step);
    assert_eq!(step.reward, 0.5);
}

#[test]
fn huge_actions_are_handled() {
    let (mut env, mut rng, _) = start("game:Mastermind-v0-hard", json!({}), 42);
    let many = format!("\\boxed{{{}1}}", "1 ".repeat(500_000));
    let step = play(&mut env, &mut rng, &many);
    assert!(
        step.observation
            .ends_with(", ...] which has 500001 entries but the code has length 4.")
    );
    assert!(step.observation.len() < 1000);
    let junk = "\\boxed{".repeat(150_000);
    assert_eq!(play(&mut env, &mut rng, &junk).reward, -0.1);
}

#[test]
fn random_actions_are_well_formed() {
    let (mut env, mut rng, _) = start("game:Mastermind-v0-random", json!({}), 5);
    for _ in 0..20 {
        let action = env.sample_random_action(&mut rng);
        let step = play(&mut env, &mut rng, &action);
        assert_ne!(step.reward, -0.1, "{action}");
        if step.terminated {
            break;
        }
    }
}

#[test]
fn pegs_count_each_digit_once() {
    assert_eq!(pegs(&[1, 1, 2, 2], &[2, 1, 1, 3]), (1, 2));
    assert_eq!(pegs(&[1, 2, 3, 4], &[4, 3, 2, 1]), (0, 4));
    assert_eq!(pegs(&[1, 1, 1, 2], &[1, 1, 1, 1]), (3, 0));
}

#[test]
fn bad_configs_are_refused() {
    let bad = [
        json!({"code_length": 0}),
        json!({"code_length": 9}),
        json!({"max_turns": 0}),
    ];
    testing::assert_bad_configs::<Mastermind>("game:Mastermind-v0-hard", &bad);
}

#[test]
fn state_round_trips() {
    let (mut env, mut rng, _) = start("game:Mastermind-v0-hard", json!({}), 42);
    play(&mut env, &mut rng, "\\boxed{1 2 3 4}");
    let saved = serde_json::to_string(&env).unwrap();
    let mut copy: Mastermind = serde_json::from_str(&saved).unwrap();
    let step = play(&mut copy, &mut rng, "\\boxed{1 2 3 4}");
    assert!(step.observation.ends_with("already guessed before."));
}
