//! Native tests; expected texts and draws were printed by GEM's current `FifteenPuzzleEnv`
//! (axon-rl/gem at its latest commit, CPython 3.11).

use super::*;
use geode_sdk::testing;
use serde_json::Value;

/// A seeded env of `id`, reset, with its first observation.
fn start(id: &str, overrides: Value, seed: u64) -> (FifteenPuzzle, Rng, Reset) {
    testing::start(id, &overrides, seed)
}

/// A seeded `pure_random` start (GEM's shuffle) of the easy id with `overrides` merged in.
fn start_shuffled(overrides: Value, seed: u64) -> (FifteenPuzzle, Rng, Reset) {
    let mut config = json!({"init_algo": "pure_random"});
    for (key, value) in overrides.as_object().unwrap() {
        config[key] = value.clone();
    }
    start("game:FifteenPuzzle-v0-easy", config, seed)
}

/// The start board of a seeded reset, as its suffix shows it.
fn start_board(id: &str, overrides: Value, seed: u64) -> String {
    let (_, _, reset) = start(id, overrides, seed);
    reset.info.to_map()["suffix"].as_str().unwrap().to_owned()
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
    assert_eq!(reset.info.to_map()["suffix"], board(" 3  1\n 2 __\n"));
    let hard = "game:FifteenPuzzle-v0-hard";
    let cases = [
        (
            hard,
            json!({}),
            42,
            "11  8 __  4\n 9  6  5 12\n 1 15 10  3\n14 13  2  7\n",
        ),
        (
            hard,
            json!({"num_rows": 3}),
            7,
            "__  6  2\n 5  7  1\n 4  8  3\n",
        ),
        (
            hard,
            json!({"mc_rand_moves": 5}),
            9,
            " 1  2  3  4\n__  6  7  8\n 5 10 11 12\n 9 13 14 15\n",
        ),
    ];
    for (id, overrides, seed, rows) in cases {
        assert_eq!(start_board(id, overrides, seed), board(rows), "seed {seed}");
    }
    let (env, _, _) = start("game:FifteenPuzzle-v0-random", json!({}), 5);
    assert_eq!(env.size, RANDOM_SIZES[2]);
    let expected = [1, 3, 4, 14, 9, 5, 7, 12, 0, 13, 11, 10, 2, 6, 8, 15];
    let got: Vec<u32> = env.board.iter().map(|t| t.unwrap_or(0)).collect();
    assert_eq!(got, expected);
    let (env, _, reset) = start("game:FifteenPuzzle-v0-random", json!({}), 1);
    assert_eq!(env.size, RANDOM_SIZES[0]);
    assert_eq!(reset.info.to_map()["suffix"], board(" 3  1\n 2 __\n"));
}

#[test]
fn shuffled_starts_match_gem_and_can_be_solved() {
    // (rows, seed, board, whether GEM's shuffle needed the two-tile swap)
    let cases = [
        (2, 1, "__  1\n 3  2\n", false),
        (2, 42, " 1  2\n__  3\n", true),
        (3, 3, " 2  6  4\n 1 __  5\n 8  3  7\n", true),
        (3, 6, " 6 __  4\n 5  1  3\n 7  8  2\n", false),
        (
            4,
            42,
            " 8 10  6  7\n15 11 13  9\n 2  3 14 __\n 5 12  1  4\n",
            false,
        ),
        (
            4,
            7,
            " 4 15  8 10\n14 12 11  6\n13  9  2  1\n__  7  3  5\n",
            true,
        ),
        // 24 tiles: Python's sample switches to its set-based draw.
        (
            5,
            1,
            " 9 21 __ 22 24\n 6 23 14 17 10\n12 18  1  8  2\n 7 13 20 15 16\n 4 11  3 19  5\n",
            true,
        ),
        (
            5,
            4,
            "__ 11 14  7 12\n 2 18  6 24 15\n23 17 21 20  9\n22  1 19  3  5\n16 13  4 10  8\n",
            false,
        ),
    ];
    for (rows, seed, expected, _) in cases {
        let (env, _, reset) = start_shuffled(json!({"num_rows": rows}), seed);
        assert_eq!(
            reset.info.to_map()["suffix"],
            board(expected),
            "{rows} rows, seed {seed}"
        );
        assert!(solvable(&env.board, rows as usize));
    }
    for seed in 0..200 {
        for rows in 2..6 {
            let (env, _, _) = start_shuffled(json!({"num_rows": rows}), seed);
            assert!(
                solvable(&env.board, rows as usize),
                "{rows} rows, seed {seed}"
            );
        }
    }
}

#[test]
fn solvability_follows_the_parity_rule() {
    let board = |tiles: &[u32]| -> Vec<Option<u32>> {
        tiles.iter().map(|&t| (t > 0).then_some(t)).collect()
    };
    assert!(solvable(&board(&[1, 2, 3, 0]), 2));
    assert!(solvable(&board(&[1, 2, 0, 3]), 2));
    assert!(!solvable(&board(&[2, 1, 3, 0]), 2));
    assert!(!solvable(&board(&[1, 2, 3, 4, 5, 6, 8, 7, 0]), 3));
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
    let (mut env, mut rng, _) = start_shuffled(json!({}), 7);
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
fn monte_carlo_start_is_won_by_undoing_it() {
    let (mut env, mut rng, _) = start("game:FifteenPuzzle-v0-easy", json!({}), 7);
    for action in ["down", "right", "up"] {
        let step = env.step(&text!("\\boxed{", action, "}"), &mut rng).unwrap();
        assert_eq!(
            step.observation,
            text!(
                "At turn ",
                env.turn,
                ", you made a valid move: ",
                action,
                ".\n"
            )
        );
    }
    let step = env.step("\\boxed{left}", &mut rng).unwrap();
    assert_eq!(
        (step.reward, step.terminated, step.truncated),
        (1.0, true, false)
    );
}

#[test]
fn turn_limit_gives_partial_credit() {
    let (mut env, mut rng, _) = start("game:FifteenPuzzle-v0-easy", json!({}), 42);
    let mut actions = vec!["\\boxed{down}"];
    actions.extend(["\\boxed{up}"; 8]);
    for action in actions {
        let step = env.step(action, &mut rng).unwrap();
        assert!(!step.terminated, "{action}");
    }
    let step = env
        .step("\\boxed{right} then \\boxed{up}", &mut rng)
        .unwrap();
    testing::assert_turn_limit(&step);
    assert_eq!(step.reward, 0.25);
    assert_eq!(step.info.to_map()["suffix"], board(" 3  1\n 2 __\n"));

    let (mut env, mut rng, _) = start(
        "game:FifteenPuzzle-v0-hard",
        json!({"num_rows": 3, "max_turns": 2, "init_algo": "pure_random"}),
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
        assert_eq!(step.info.to_map()["suffix"], board(" 3  1\n 2 __\n"));
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
    let padded = format!("{}\\boxed{{right}}", "x".repeat(1 << 20));
    let step = env.step(&padded, &mut rng).unwrap();
    assert_eq!(
        step.observation,
        "At turn 1, you made a valid move: right.\n"
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
        json!({"init_algo": "spiral"}),
        json!({"init_algo": 3}),
        json!({"mc_rand_moves": 0}),
        json!({"mc_rand_moves": 1_000_001}),
    ];
    testing::assert_bad_configs::<FifteenPuzzle>("game:FifteenPuzzle-v0-easy", &bad);
}

#[test]
fn state_round_trips() {
    let (mut env, mut rng, _) = start_shuffled(json!({}), 7);
    env.step("\\boxed{up}", &mut rng).unwrap();
    let saved = serde_json::to_string(&env).unwrap();
    let mut copy: FifteenPuzzle = serde_json::from_str(&saved).unwrap();
    let step = copy.step("\\boxed{left}", &mut rng).unwrap();
    assert_eq!(step.reward, 1.0);
}
