//! Native tests; expected texts and draws were printed by GEM's `TowerofHanoiEnv` (CPython 3.11).

use super::*;
use geode_sdk::testing;
use serde_json::Value;

/// A seeded env of `id`, reset, with its first observation.
fn start(id: &str, overrides: Value, seed: u64) -> (TowerOfHanoi, Rng, Reset) {
    testing::start(id, &overrides, seed)
}

/// Plays `script` of (action, observation), expecting 0.0 and the episode to go on.
fn expect(env: &mut TowerOfHanoi, rng: &mut Rng, script: &[(&str, &str)]) {
    for &(action, obs) in script {
        let step = env.step(action, rng).unwrap();
        assert_eq!((step.observation.as_str(), step.reward), (obs, 0.0));
        assert!(!step.terminated && !step.truncated, "{action}");
    }
}

fn state(towers: &str) -> String {
    format!("Here is the current state of the tower of hanoi:\n{towers}\nEnter your move.")
}

#[test]
fn start_matches_gem() {
    let (_, _, reset) = start("game:TowerofHanoi-v0-easy", json!({}), 1);
    assert_eq!(
        reset.observation,
        "You are playing Tower of Hanoi with 3 disks.\n\
         You have to move the disks from tower A to tower C.\n\
         To move a disk, type the source tower and the target tower (e.g., '\\boxed{A C}').\n\
         Note that you can only move the top disk of a tower, and that a bigger disk cannot be placed on a smaller disk.\n\
         As you play, the history of your moves will be displayed.\n"
    );
    assert_eq!(
        reset.info.to_map()["suffix"],
        state("A: [3, 2, 1]\nB: []\nC: []\n")
    );
    let (_, _, reset) = start("game:TowerofHanoi-v0-hard", json!({}), 1);
    assert!(
        reset
            .observation
            .starts_with("You are playing Tower of Hanoi with 5 disks.\n")
    );
}

#[test]
fn random_variant_draws_like_gem() {
    for (seed, size) in [
        (1, RANDOM_SIZES[0]),
        (4, RANDOM_SIZES[0]),
        (5, RANDOM_SIZES[2]),
    ] {
        let (env, _, _) = start("game:TowerofHanoi-v0-random", json!({}), seed);
        assert_eq!(env.size, size, "seed {seed}");
    }
}

#[test]
fn same_seed_same_start() {
    let (a, _, ra) = start("game:TowerofHanoi-v0-random", json!({}), 8);
    let (b, _, rb) = start("game:TowerofHanoi-v0-random", json!({}), 8);
    assert_eq!((a.size, a.towers), (b.size, b.towers));
    assert_eq!((ra.observation, ra.info), (rb.observation, rb.info));
}

#[test]
fn win_in_seven_moves() {
    let (mut env, mut rng, _) = start("game:TowerofHanoi-v0-easy", json!({}), 1);
    expect(
        &mut env,
        &mut rng,
        &[
            (
                "\\boxed{A C}",
                "At turn 1, you moved disk 1 from tower A to tower C.",
            ),
            (
                "\\boxed{a,b}",
                "At turn 2, you moved disk 2 from tower A to tower B.",
            ),
            (
                "\\boxed{C , B}",
                "At turn 3, you moved disk 1 from tower C to tower B.",
            ),
            (
                "\\boxed{A C}",
                "At turn 4, you moved disk 3 from tower A to tower C.",
            ),
            (
                "\\boxed{B A}",
                "At turn 5, you moved disk 1 from tower B to tower A.",
            ),
            (
                "\\boxed{BC}",
                "At turn 6, you moved disk 2 from tower B to tower C.",
            ),
        ],
    );
    let step = env.step("\\boxed{A  ,\t C}", &mut rng).unwrap();
    assert_eq!(
        step.observation,
        "Congratulations! You solved the Tower of Hanoi Puzzle"
    );
    assert_eq!(step.reward, 1.0);
    assert!(step.terminated && !step.truncated);
    assert_eq!(
        step.info.to_map()["suffix"],
        state("A: []\nB: []\nC: [3, 2, 1]\n")
    );
}

#[test]
fn invalid_moves_and_turn_limit() {
    let (mut env, mut rng, _) = start("game:TowerofHanoi-v0-easy", json!({}), 1);
    expect(
        &mut env,
        &mut rng,
        &[
            (
                "\\boxed{B C}",
                "At turn 1, you tried to move from tower B, which is empty.",
            ),
            (
                "\\boxed{A B}",
                "At turn 2, you moved disk 1 from tower A to tower B.",
            ),
            (
                "\\boxed{A C}",
                "At turn 3, you moved disk 2 from tower A to tower C.",
            ),
            (
                "\\boxed{B A}",
                "At turn 4, you moved disk 1 from tower B to tower A.",
            ),
            (
                "\\boxed{C B}",
                "At turn 5, you moved disk 2 from tower C to tower B.",
            ),
            (
                "\\boxed{A A}",
                "At turn 6, you moved disk 1 from tower A to tower A.",
            ),
            (
                "\\boxed{A C}",
                "At turn 7, you moved disk 1 from tower A to tower C.",
            ),
            (
                "\\boxed{B C}",
                "At turn 8, you tried to move from tower B to tower C, but the top disk on tower B is larger than the top disk on tower C.",
            ),
            (
                "\\boxed{A B}",
                "At turn 9, you tried to move from tower A to tower B, but the top disk on tower A is larger than the top disk on tower B.",
            ),
        ],
    );
    let step = env.step("\\boxed{A C}", &mut rng).unwrap();
    testing::assert_turn_limit(&step);
    assert_eq!(step.reward, 1.0 / 3.0);
    assert_eq!(
        step.info.to_map()["suffix"],
        state("A: [3]\nB: [2]\nC: [1]\n")
    );
}

#[test]
fn format_errors_end_the_episode() {
    let actions = [
        "",
        "A C",
        "\\boxed{A D}",
        "\\boxed{A,,C}",
        "\\boxed{ A C}",
        "\\boxed{A C }",
        "\\boxed{A to C}",
        "\\boxed{A C",
        "\u{0}\u{ffff}garbage",
    ];
    let id = "game:TowerofHanoi-v0-easy";
    let obs = "You did not provide a valid action.";
    for step in testing::assert_format_errors::<TowerOfHanoi>(id, 1, &actions, obs) {
        assert_eq!(
            step.info.to_map()["suffix"],
            state("A: [3, 2, 1]\nB: []\nC: []\n")
        );
    }
    let (mut env, mut rng, _) = start("game:TowerofHanoi-v0-easy", json!({"max_turns": 1}), 1);
    let step = env.step("\\boxed{A D}", &mut rng).unwrap();
    assert!(step.terminated && step.truncated);
}

#[test]
fn huge_actions_are_handled() {
    let (mut env, mut rng, _) = start("game:TowerofHanoi-v0-easy", json!({}), 1);
    let junk = format!("\\boxed{{A{}", " ".repeat(1 << 20));
    assert_eq!(env.step(&junk, &mut rng).unwrap().reward, -0.1);
    let (mut env, mut rng, _) = start("game:TowerofHanoi-v0-easy", json!({}), 1);
    let junk = "\\boxed{A ".repeat(120_000);
    assert_eq!(env.step(&junk, &mut rng).unwrap().reward, -0.1);
}

#[test]
fn random_actions_are_legal_moves() {
    let (mut env, mut rng, _) = start("game:TowerofHanoi-v0-random", json!({}), 2);
    for _ in 0..40 {
        let action = env.sample_random_action(&mut rng);
        let step = env.step(&action, &mut rng).unwrap();
        assert!(!step.observation.contains("tried"), "{action}");
        if step.terminated {
            break;
        }
    }
}

#[test]
fn bad_configs_are_refused() {
    let bad = [
        json!({"num_disks": 0}),
        json!({"num_disks": 101}),
        json!({"max_turns": 0}),
    ];
    testing::assert_bad_configs::<TowerOfHanoi>("game:TowerofHanoi-v0-easy", &bad);
}

#[test]
fn state_round_trips() {
    let (mut env, mut rng, _) = start("game:TowerofHanoi-v0-easy", json!({}), 1);
    env.step("\\boxed{A C}", &mut rng).unwrap();
    let saved = serde_json::to_string(&env).unwrap();
    let mut copy: TowerOfHanoi = serde_json::from_str(&saved).unwrap();
    let step = copy.step("\\boxed{A C}", &mut rng).unwrap();
    assert!(
        step.observation
            .ends_with("is larger than the top disk on tower C.")
    );
}
