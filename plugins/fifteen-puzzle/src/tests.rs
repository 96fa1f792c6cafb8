//! Native tests; expected texts and draws were printed by GEM's `FifteenPuzzleEnv` (CPython 3.11).

use super::*;
use geode_sdk::testing;
use serde_json::Value;

/// A seeded env of `id`, reset, with its first observation.
fn start(id: &str, overrides: Value, seed: u64) -> (FifteenPuzzle, Rng, Reset) {
    testing::start(id, &overrides, seed)
}

fn board(rows: &str) -> String {
    format!("Here is the current board layout: \n{rows}\nEnter your move.")
}

#[test]
fn seeded_start_matches_gem() {
    let (_, _, reset) = start("game:FifteenPuzzle-v0-easy", json!({}), 1);
    assert_eq!(
        reset.observation,
        "You are playing the 3-Puzzle game.\n\
         You have to arrange the numbered tiles in ascending order from 1 to 3, with the empty space located in the bottom-right corner.\n\
         To make a move, you can slide a tile into the empty space (represented by a double underscore, e.g. __) by using one of the following commands:\n\
         - 'up': Move the tile below the empty space up.\n\
         - 'down': Move the tile above the empty space down.\n\
         - 'left': Move the tile to the right of the empty space left.\n\
         - 'right': Move the tile to the left of the empty space right.\n\
         To submit your move, type the direction (e.g., 'up', 'down', 'left', or 'right') in \\boxed{...}.\n\
         The current board layout is shown below\n\
         Use logic and planning to solve the puzzle.\n"
    );
    assert_eq!(reset.info.to_map()["suffix"], board("__  1\n 3  2\n"));
    let (_, _, reset) = start("game:FifteenPuzzle-v0-hard", json!({}), 42);
    assert_eq!(
        reset.info.to_map()["suffix"],
        board(" 8 10  6  7\n15 11 13  9\n 2  3 14 __\n 5 12  1  4\n")
    );
    let (env, _, _) = start("game:FifteenPuzzle-v0-random", json!({}), 5);
    assert_eq!(env.size, RANDOM_SIZES[2]);
    let expected = [3, 4, 5, 14, 10, 2, 7, 8, 1, 0, 11, 15, 13, 6, 12, 9];
    let got: Vec<u32> = env.board.iter().map(|t| t.unwrap_or(0)).collect();
    assert_eq!(got, expected);
    let (env, _, reset) = start("game:FifteenPuzzle-v0-random", json!({}), 1);
    assert_eq!(env.size, RANDOM_SIZES[0]);
    assert_eq!(reset.info.to_map()["suffix"], board(" 3 __\n 2  1\n"));
}

#[test]
fn same_seed_same_start() {
    let (a, _, ra) = start("game:FifteenPuzzle-v0-random", json!({}), 11);
    let (b, _, rb) = start("game:FifteenPuzzle-v0-random", json!({}), 11);
    assert_eq!((a.board, a.size), (b.board, b.size));
    assert_eq!(ra.info, rb.info);
}

#[test]
fn win_after_invalid_moves() {
    let (mut env, mut rng, _) = start("game:FifteenPuzzle-v0-easy", json!({}), 7);
    let script = [
        (
            "\\boxed{down}",
            "At turn 1, you chose a move down that is outside the bounds of the board.",
        ),
        (
            "\\boxed{right}",
            "At turn 2, you chose a move right that is outside the bounds of the board.",
        ),
        ("\\boxed{up}", "At turn 3, you made a valid move: up.\n"),
    ];
    for (action, obs) in script {
        let step = env.step(action, &mut rng).unwrap();
        assert_eq!((step.observation.as_str(), step.reward), (obs, 0.0));
        assert!(!step.terminated && !step.truncated);
    }
    let step = env.step("so \\boxed{left}", &mut rng).unwrap();
    assert_eq!(
        step.observation,
        "Congratulations! You have solved the puzzle!"
    );
    assert_eq!(step.reward, 1.0);
    assert!(step.terminated && !step.truncated);
    assert_eq!(step.info.to_map()["suffix"], board(" 1  2\n 3 __\n"));
}

#[test]
fn turn_limit_gives_partial_credit() {
    let (mut env, mut rng, _) = start("game:FifteenPuzzle-v0-easy", json!({}), 42);
    let mut actions = vec!["\\boxed{left}"];
    actions.extend(["\\boxed{down}"; 8]);
    for action in actions {
        let step = env.step(action, &mut rng).unwrap();
        assert!(!step.terminated, "{action}");
    }
    let step = env
        .step("\\boxed{left} then \\boxed{up}", &mut rng)
        .unwrap();
    testing::assert_turn_limit(&step);
    assert_eq!(step.reward, 0.5);
    assert_eq!(step.info.to_map()["suffix"], board(" 3  2\n 1 __\n"));

    let (mut env, mut rng, _) = start(
        "game:FifteenPuzzle-v0-hard",
        json!({"num_rows": 3, "max_turns": 2}),
        42,
    );
    env.step("\\boxed{up}", &mut rng).unwrap();
    let step = env.step("\\boxed{left}", &mut rng).unwrap();
    assert_eq!(step.reward, 0.1111111111111111);
    assert!(step.terminated && step.truncated);
}

#[test]
fn format_errors_end_the_episode() {
    let actions = [
        "",
        "up",
        "\\boxed{Up}",
        "\\boxed{ up}",
        "\\boxed{upward}",
        "\\boxed{up",
        "\\boxed{\\boxed{}",
        "\u{0}\u{ffff}garbage",
    ];
    let id = "game:FifteenPuzzle-v0-easy";
    let obs = "At turn 1, you did not provide a valid guess";
    for step in testing::assert_format_errors::<FifteenPuzzle>(id, 42, &actions, obs) {
        assert_eq!(step.info.to_map()["suffix"], board(" 3  2\n__  1\n"));
    }
    let (mut env, mut rng, _) = start("game:FifteenPuzzle-v0-easy", json!({"max_turns": 1}), 42);
    let step = env.step("\\boxed{Up}", &mut rng).unwrap();
    assert!(step.terminated && step.truncated);
}

#[test]
fn huge_actions_are_handled() {
    let (mut env, mut rng, _) = start("game:FifteenPuzzle-v0-easy", json!({}), 42);
    let junk = "\\boxed{u".repeat(130_000);
    assert_eq!(env.step(&junk, &mut rng).unwrap().reward, -0.1);
    let (mut env, mut rng, _) = start("game:FifteenPuzzle-v0-easy", json!({}), 42);
    let padded = format!("{}\\boxed{{left}}", "x".repeat(1 << 20));
    let step = env.step(&padded, &mut rng).unwrap();
    assert_eq!(
        step.observation,
        "At turn 1, you made a valid move: left.\n"
    );
}

#[test]
fn random_actions_are_legal_moves() {
    let (mut env, mut rng, _) = start("game:FifteenPuzzle-v0-random", json!({}), 4);
    for _ in 0..60 {
        let action = env.sample_random_action(&mut rng);
        let step = env.step(&action, &mut rng).unwrap();
        assert!(
            step.observation.contains("valid move") || step.terminated,
            "{action}"
        );
        if step.terminated {
            break;
        }
    }
}

#[test]
fn one_square_board_has_no_moves() {
    let (mut env, mut rng, reset) = start("game:FifteenPuzzle-v0-easy", json!({"num_rows": 1}), 3);
    assert!(
        reset
            .observation
            .starts_with("You are playing the 0-Puzzle game.")
    );
    let action = env.sample_random_action(&mut rng);
    let step = env.step(&action, &mut rng).unwrap();
    assert_eq!(step.reward, 0.0);
    assert!(!step.terminated);
}

#[test]
fn bad_configs_are_refused() {
    let bad = [
        json!({"num_rows": 0}),
        json!({"num_rows": 101}),
        json!({"max_turns": 0}),
    ];
    testing::assert_bad_configs::<FifteenPuzzle>("game:FifteenPuzzle-v0-easy", &bad);
}

#[test]
fn state_round_trips() {
    let (mut env, mut rng, _) = start("game:FifteenPuzzle-v0-easy", json!({}), 7);
    env.step("\\boxed{up}", &mut rng).unwrap();
    let saved = serde_json::to_string(&env).unwrap();
    let mut copy: FifteenPuzzle = serde_json::from_str(&saved).unwrap();
    let step = copy.step("\\boxed{left}", &mut rng).unwrap();
    assert_eq!(step.reward, 1.0);
}
