//! Native tests; expected texts and draws were printed by GEM's `MinesweeperEnv` (CPython 3.11).

use super::*;
use geode_sdk::testing;
use serde_json::Value;

/// The env for `id` with its default configuration merged with `overrides`.
fn make(id: &str, overrides: Value) -> Result<Minesweeper, Error> {
    testing::make(id, &overrides)
}

/// A seeded env of `id`, reset, with its first observation.
fn start(id: &str, overrides: Value, seed: u64) -> (Minesweeper, Rng, Reset) {
    testing::start(id, &overrides, seed)
}

/// Plays `script` of (action, observation, reward), expecting the episode to go on.
fn expect(env: &mut Minesweeper, rng: &mut Rng, script: &[(&str, &str, f64)]) {
    for &(action, obs, reward) in script {
        let step = env.step(action, rng).unwrap();
        assert_eq!((step.observation.as_str(), step.reward), (obs, reward));
        assert!(!step.terminated && !step.truncated, "{action}");
    }
}

fn suffix(step: &Step) -> String {
    step.info.to_map()["suffix"].as_str().unwrap().to_owned()
}

const EMPTY_5X5: &str = "Here is the current board layout:\n    0  1  2  3  4\n \
    0  .  .  .  .  . \n 1  .  .  .  .  . \n 2  .  .  .  .  . \n 3  .  .  .  .  . \n 4  .  .  .  .  . \n\n\
    Enter your guess.";

#[test]
fn seeded_start_matches_gem() {
    let (_, _, reset) = start("game:Minesweeper-v0-easy", json!({}), 42);
    assert_eq!(
        reset.observation,
        "You are playing the Minesweeper game.\n\
         The objective of the game is to reveal all cells that do not contain mines.\n\
         To make a move, you can either reveal a cell or place a flag on a suspected mine location using one of the following commands:\n\
         - 'reveal': Reveal the contents of a specific cell.\n\
         - 'flag': Place or remove a flag on a specific cell to mark it as a potential mine.\n\
         To submit your move, type the command followed by the row and column in \\boxed{}.\n\
         For example:\n\
         - \\boxed{reveal 0 0} to reveal the cell in Row 0, Column 0.\n\
         - \\boxed{flag 2 1} to place or remove a flag on the cell in Row 2, Column 1.\n\
         The current board layout is shown below. Cells that are unrevealed are represented by a dot ('.'), revealed numbers show the count of adjacent mines, and flagged cells are marked with an 'F'.\n\
         Use logic and deduction to avoid revealing cells with mines!\n\
         Be mindful not to choose revealed or flagged cells.\n"
    );
    assert_eq!(reset.info.to_map()["suffix"], EMPTY_5X5);
    let (mut env, mut rng, reset) = start("game:Minesweeper-v0-random", json!({}), 1);
    assert_eq!(
        env.layout,
        Layout {
            rows: 6,
            cols: 6,
            mines: 7,
            max_turns: 36
        }
    );
    assert!(reset.observation.contains(
        "- \\boxed{reveal 4 0} to reveal the cell in Row 4, Column 0.\n\
         - \\boxed{flag 2 0} to place or remove a flag on the cell in Row 2, Column 0.\n"
    ));
    let sampled: Vec<String> = (0..3).map(|_| env.sample_random_action(&mut rng)).collect();
    assert_eq!(
        sampled,
        [
            "\\boxed{reveal 3 3}",
            "\\boxed{reveal 1 0}",
            "\\boxed{reveal 0 3}"
        ]
    );
}

#[test]
fn same_seed_same_start() {
    let (mut a, mut ra, sa) = start("game:Minesweeper-v0-random", json!({}), 9);
    let (mut b, mut rb, sb) = start("game:Minesweeper-v0-random", json!({}), 9);
    assert_eq!(sa.observation, sb.observation);
    let (sa, sb) = (
        a.step("\\boxed{reveal 2 2}", &mut ra).unwrap(),
        b.step("\\boxed{reveal 2 2}", &mut rb).unwrap(),
    );
    assert_eq!(suffix(&sa), suffix(&sb));
}

#[test]
fn first_reveal_lays_mines_like_gem() {
    let (mut env, mut rng, _) = start("game:Minesweeper-v0-hard", json!({}), 7);
    let step = env.step("\\boxed{reveal 0 0}", &mut rng).unwrap();
    assert_eq!(
        step.observation,
        "At turn 1, you successfully revealed cell (0, 0)."
    );
    assert_eq!(step.reward, 4.0 / 52.0);
    let mines: Vec<usize> = (0..64).filter(|&i| env.cells[i].mine).collect();
    assert_eq!(
        mines,
        [2, 3, 6, 11, 14, 17, 24, 25, 38, 40, 48, 49],
        "GEM's grid for seed 7"
    );
}

#[test]
fn win_by_revealing_all_and_flagging_all_mines() {
    let (mut env, mut rng, _) = start("game:Minesweeper-v0-easy", json!({}), 42);
    let mut script = vec![(
        "\\boxed{reveal 2 2}",
        "At turn 1, you successfully revealed cell (2, 2).",
        0.75,
    )];
    let flags = [(0, 0), (0, 4), (1, 4), (3, 0), (4, 4)];
    let reveals = [(1, 0), (2, 0), (4, 0), (2, 4)];
    let texts: Vec<(String, String, f64)> = flags
        .iter()
        .enumerate()
        .map(|(i, (r, c))| {
            (
                format!("\\boxed{{flag {r} {c}}}"),
                format!("At turn {}, you added a flag on cell ({r}, {c}).", i + 2),
                0.0,
            )
        })
        .chain(reveals.iter().enumerate().map(|(i, (r, c))| {
            (
                format!("\\boxed{{reveal {r} {c}}}"),
                format!(
                    "At turn {}, you successfully revealed cell ({r}, {c}).",
                    i + 7
                ),
                0.05,
            )
        }))
        .collect();
    script.extend(texts.iter().map(|(a, o, r)| (a.as_str(), o.as_str(), *r)));
    expect(&mut env, &mut rng, &script);
    let step = env.step("\\boxed{reveal 3 4}", &mut rng).unwrap();
    assert_eq!(
        step.observation,
        "Congratulations! You have successfully cleared the Minesweeper board."
    );
    assert_eq!(step.reward, 0.05);
    assert!(step.terminated && !step.truncated);
    assert_eq!(
        suffix(&step),
        "Here is the current board layout:\n    0  1  2  3  4\n \
         0  F  1  0  2  F \n 1  1  1  0  2  F \n 2  1  1  0  1  1 \n 3  F  1  0  1  1 \n 4  1  1  0  1  F \n\n\
         Enter your guess."
    );
}

#[test]
fn hitting_a_mine_loses() {
    let (mut env, mut rng, _) = start("game:Minesweeper-v0-easy", json!({}), 42);
    env.step("\\boxed{reveal 2 2}", &mut rng).unwrap();
    let step = env.step("\\boxed{reveal 0 0}", &mut rng).unwrap();
    assert_eq!(step.observation, "Game over! You hit a mine at (0, 0)");
    assert_eq!(step.reward, 0.0);
    assert!(step.terminated && !step.truncated);
}

#[test]
fn invalid_moves_go_on() {
    let (mut env, mut rng, _) = start("game:Minesweeper-v0-easy", json!({}), 42);
    expect(
        &mut env,
        &mut rng,
        &[
            (
                "\\boxed{flag 0 0}",
                "At turn 1, you added a flag on cell (0, 0).",
                0.0,
            ),
            (
                "\\boxed{reveal 0 0}",
                "At turn 2, you chose to reveal cell (0, 0), which has already been revealed.",
                0.0,
            ),
            (
                "\\boxed{REVEAL 2 2}",
                "At turn 3, you successfully revealed cell (2, 2).",
                0.05,
            ),
            (
                "\\boxed{reveal 2 2}",
                "At turn 4, you chose to reveal cell (2, 2), which has already been revealed.",
                0.0,
            ),
            (
                "\\boxed{flag 2 2}",
                "At turn 5, you chose to flag cell (2, 2), which has already been revealed.",
                0.0,
            ),
            (
                "\\boxed{Dig 01 1}",
                "At turn 6, you chose an invalid action 'dig'. Valid actions are 'reveal' or 'flag'.",
                0.0,
            ),
            (
                "\\boxed{reveal 5 0}",
                "At turn 7, you chose cell (5, 0), which is outside the bounds of the grid.",
                0.0,
            ),
            (
                "\\boxed{foo 99999999999999999999 0}",
                "At turn 8, you chose cell (99999999999999999999, 0), which is outside the bounds of the grid.",
                0.0,
            ),
            (
                "\\boxed{flag 0 0}",
                "At turn 9, you removed a flag on cell (0, 0).",
                0.0,
            ),
        ],
    );
}

#[test]
fn format_errors_end_the_episode() {
    let actions = [
        "",
        "reveal 1 1",
        "\\boxed{reveal 1  1}",
        "\\boxed{reveal 1,1}",
        "\\boxed{reveal (1, 1)}",
        "\\boxed{reveal1 1}",
        "\\boxed{révéler 1 1}",
        "\\boxed{reveal -1 1}",
        "\\boxed{reveal 1 1",
        "\u{0}\u{ffff}garbage",
    ];
    let id = "game:Minesweeper-v0-easy";
    let obs = "At turn 1, you did not provide a valid guess.";
    for step in testing::assert_format_errors::<Minesweeper>(id, 42, &actions, obs) {
        assert_eq!(suffix(&step), EMPTY_5X5);
    }
    let (mut env, mut rng, _) = start("game:Minesweeper-v0-easy", json!({}), 42);
    let huge = format!("\\boxed{{reveal 1 {}}}", "0".repeat(4301));
    assert_eq!(env.step(&huge, &mut rng).unwrap().reward, -0.1);
    let tabbed = env.step("\\boxed{flag\t1\u{3000}1}", &mut rng).unwrap();
    assert_eq!(
        tabbed.observation,
        "At turn 2, you added a flag on cell (1, 1)."
    );
}

#[test]
fn turn_limit_truncates_with_the_step_reward() {
    let (mut env, mut rng, _) = start("game:Minesweeper-v0-easy", json!({"max_turns": 3}), 42);
    expect(
        &mut env,
        &mut rng,
        &[
            (
                "\\boxed{flag 1 1}",
                "At turn 1, you added a flag on cell (1, 1).",
                0.0,
            ),
            (
                "\\boxed{reveal 2 2}",
                "At turn 2, you successfully revealed cell (2, 2).",
                0.7,
            ),
        ],
    );
    let step = env.step("\\boxed{reveal 1 0}", &mut rng).unwrap();
    testing::assert_turn_limit(&step);
    assert_eq!(step.reward, 0.05);
    assert!(suffix(&step).contains("\n 1  1  F  0  2  . \n"));
}

#[test]
fn huge_actions_are_handled() {
    let (mut env, mut rng, _) = start("game:Minesweeper-v0-easy", json!({}), 42);
    let word = format!("\\boxed{{{} 1 1}}", "a".repeat((1 << 20) - 20));
    let step = env.step(&word, &mut rng).unwrap();
    assert!(
        step.observation
            .ends_with("...'. Valid actions are 'reveal' or 'flag'.")
    );
    assert!(step.observation.len() < 2000);
    let junk = "\\boxed{reveal 1 ".repeat(60_000);
    assert_eq!(env.step(&junk, &mut rng).unwrap().reward, -0.1);
}

#[test]
fn random_actions_are_well_formed() {
    let (mut env, mut rng, _) = start("game:Minesweeper-v0-random", json!({}), 3);
    for _ in 0..30 {
        let action = env.sample_random_action(&mut rng);
        let step = env.step(&action, &mut rng).unwrap();
        assert_ne!(step.reward, -0.1, "{action}");
        if step.terminated {
            break;
        }
    }
}

#[test]
fn bad_configs_are_refused() {
    let bad = [
        json!({"rows": 0}),
        json!({"cols": 101}),
        json!({"rows": 3, "cols": 3, "num_mines": 1}),
        json!({"num_mines": -1}),
        json!({"max_turns": 0}),
    ];
    testing::assert_bad_configs::<Minesweeper>("game:Minesweeper-v0-easy", &bad);
    assert!(
        make(
            "game:Minesweeper-v0-easy",
            json!({"rows": 3, "cols": 4, "num_mines": 3})
        )
        .is_ok()
    );
}

#[test]
fn state_round_trips() {
    let (mut env, mut rng, _) = start("game:Minesweeper-v0-easy", json!({}), 42);
    env.step("\\boxed{reveal 2 2}", &mut rng).unwrap();
    let saved = serde_json::to_string(&env).unwrap();
    let mut copy: Minesweeper = serde_json::from_str(&saved).unwrap();
    let step = copy.step("\\boxed{reveal 0 0}", &mut rng).unwrap();
    assert_eq!(step.observation, "Game over! You hit a mine at (0, 0)");
}
