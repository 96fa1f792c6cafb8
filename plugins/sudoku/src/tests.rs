//! Expected texts and numbers below were printed by GEM's `SudokuEnv` (CPython 3.11).

use super::*;

fn make(id: &str) -> Sudoku {
    make_with(id, |_| {})
}

fn make_with(
    id: &str,
    edit: impl FnOnce(&mut serde_json::Map<String, serde_json::Value>),
) -> Sudoku {
    let spec = Sudoku::specs().into_iter().find(|s| s.id == id).unwrap();
    let mut config = spec.default_config.as_object().unwrap().clone();
    edit(&mut config);
    Sudoku::create(id, Config::new(config)).unwrap()
}

fn start(id: &str, seed: u64) -> (Sudoku, Rng, Reset) {
    let mut env = make(id);
    let mut rng = Rng::seeded(seed);
    let reset = env.reset(&mut rng).unwrap();
    (env, rng, reset)
}

fn suffix(info: &Info) -> String {
    info.get("suffix")
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap()
}

const EASY_42: &str = "Here is the current board layout:\n   C1 C2   C3 C4  \nR1  3  . |  .  .\nR2  .  1 |  .  4\n   - - - - - - \nR3  1  3 |  .  2\nR4  .  . |  .  .\nEnter your move.";

#[test]
fn same_seed_same_start_as_gem() {
    let (env, mut rng, reset) = start("game:Sudoku-v0-easy", 42);
    assert_eq!(suffix(&reset.info), EASY_42);
    assert_eq!(
        env.solution,
        [3, 4, 2, 1, 2, 1, 3, 4, 1, 3, 4, 2, 4, 2, 1, 3]
    );
    assert!(
        reset
            .observation
            .starts_with("You are playing A simple version of Sudoku.\n")
    );
    assert!(reset.observation.ends_with("Good luck!\n\n"));
    // The generator consumed exactly the draws GEM's did.
    assert_eq!(rng.random(), 0.2095070307714877);
    let (again, _, reset2) = start("game:Sudoku-v0-easy", 42);
    assert_eq!(reset2.observation, reset.observation);
    assert_eq!(again.board, env.board);

    let (hard, _, reset) = start("game:Sudoku-v0-hard", 7);
    assert!(reset.observation.starts_with("You are playing  Sudoku.\n"));
    let expected = "Here is the current board layout:\n   C1 C2 C3   C4 C5 C6   C7 C8 C9  \n\
        R1  2  .  9 |  .  6  . |  7  1  .\nR2  .  5  . |  .  .  1 |  .  .  .\nR3  7  8  . |  .  4  . |  .  3  .\n\
        \x20  - - - - - - - - - - - - - - - - \n\
        R4  .  .  2 |  .  8  . |  .  9  .\nR5  .  .  . |  6  2  9 |  .  .  3\nR6  6  9  3 |  .  5  . |  .  7  .\n\
        \x20  - - - - - - - - - - - - - - - - \n\
        R7  9  .  . |  .  .  5 |  3  .  2\nR8  .  .  . |  8  .  . |  9  .  .\nR9  .  3  . |  2  9  6 |  5  .  7\nEnter your move.";
    assert_eq!(suffix(&reset.info), expected);
    assert_eq!(hard.empty_at_start, 46);
}

#[test]
fn random_variant_draws_settings_like_gem() {
    let mut env = make("game:Sudoku-v0-random");
    let drawn: Vec<(usize, usize)> = (0..4)
        .map(|seed| {
            env.reset(&mut Rng::seeded(seed)).unwrap();
            (env.params.scale, env.empty_at_start)
        })
        .collect();
    assert_eq!(drawn[0].0, 9);
    assert_eq!(drawn[1..], [(4, 10), (4, 10), (4, 10)]);
    assert_eq!(
        &env.board,
        &[1, 0, 0, 0, 3, 0, 2, 1, 0, 0, 0, 0, 2, 0, 4, 0]
    );
}

#[test]
fn win_pays_one_over_empty_cells_per_digit() {
    let (mut env, mut rng, _) = start("game:Sudoku-v0-easy", 42);
    let moves: Vec<String> = (0..16)
        .filter(|&c| env.board[c] == 0)
        .map(|c| format!("\\boxed{{{} {} {}}}", c / 4 + 1, c % 4 + 1, env.solution[c]))
        .collect();
    assert_eq!(moves.len(), 10);
    for (i, action) in moves.iter().enumerate() {
        let step = env.step(action, &mut rng).unwrap();
        assert_eq!(step.reward, 0.1);
        assert!(!step.truncated);
        if i + 1 < moves.len() {
            assert!(!step.terminated);
        } else {
            assert_eq!(
                step.observation,
                "Congratulations! You have completed the Sudoku puzzle!"
            );
            assert!(step.terminated);
        }
    }
    let first = "At turn 1, you placed 4 at R1 C2, which is correct.";
    let (mut env, mut rng, _) = start("game:Sudoku-v0-easy", 42);
    assert_eq!(env.step(&moves[0], &mut rng).unwrap().observation, first);
}

#[test]
fn invalid_moves_cost_nothing_and_keep_going() {
    let (mut env, mut rng, _) = start("game:Sudoku-v0-easy", 42);
    let mut play = |action: &str| {
        let step = env.step(action, &mut rng).unwrap();
        assert_eq!(
            step.reward,
            if step.observation.ends_with("correct.") {
                0.1
            } else {
                0.0
            }
        );
        assert!(!step.terminated && !step.truncated);
        step
    };
    play("\\boxed{1 2 4}");
    let step = play("I'll go with \\boxed{1 2 4}");
    assert_eq!(
        step.observation,
        "At turn 2, you tried to place 4 at R1 C2, which is already filled. You cannot overwrite pre-filled cells."
    );
    let step = play("\\boxed{1 3 3}");
    assert_eq!(
        step.observation,
        "At turn 3, you tried to place 3 at R1 C3, which violates Sudoku rules."
    );
    assert_eq!(
        play("\\boxed{5 1 1}").observation,
        "At turn 4, you tried to place 1 at R5 C1, which is out of bounds."
    );
    let step = play("\\boxed{0001 00 0099999999999999999999999999}");
    assert_eq!(
        step.observation,
        "At turn 5, you tried to place 99999999999999999999999999 at R1 C0, which is out of bounds."
    );
    assert!(suffix(&step.info).contains("R1  3  4 |  .  ."));
    // Python's `\d` and `\s` are Unicode-aware: Arabic-Indic digits and an ideographic space count.
    let step = play("\\boxed{\u{661}\u{3000}\u{663} 2}");
    assert_eq!(
        step.observation,
        "At turn 6, you placed 2 at R1 C3, which is correct."
    );
}

#[test]
fn format_errors_end_the_episode() {
    let hostile = [
        String::new(),
        "nothing".into(),
        "\\boxed{1 2}".into(),
        "\\boxed{1  2 4}".into(),
        "\\boxed{1 2 4 }".into(),
        "\\boxed{-1 2 4}".into(),
        "\\boxed{".repeat(150_000),
        "9".repeat(1 << 20),
        format!("\\boxed{{1 1 {}}}", "1".repeat(4301)),
        format!("\\boxed{{1 2 4}} \\boxed{{{} 1 1}}", "0".repeat(1 << 20)),
    ];
    for action in &hostile {
        let (mut env, mut rng, _) = start("game:Sudoku-v0-easy", 42);
        let step = env.step(action, &mut rng).unwrap();
        assert_eq!(step.observation, "You did not provide a valid guess.");
        assert_eq!(step.reward, -0.1);
        assert!(step.terminated && !step.truncated);
        assert_eq!(suffix(&step.info), EASY_42);
    }
    // 4300 digits are still a number for Python's int().
    let (mut env, mut rng, _) = start("game:Sudoku-v0-easy", 42);
    let step = env
        .step(&format!("\\boxed{{1 1 {}}}", "1".repeat(4300)), &mut rng)
        .unwrap();
    assert!(step.observation.ends_with("which is out of bounds."));
}

#[test]
fn turn_limit_truncates() {
    let three_turns = |c: &mut serde_json::Map<String, serde_json::Value>| {
        c.insert("max_turns".into(), json!(3));
    };
    let mut env = make_with("game:Sudoku-v0-easy", three_turns);
    let mut rng = Rng::seeded(42);
    env.reset(&mut rng).unwrap();
    env.step("\\boxed{1 1 3}", &mut rng).unwrap();
    assert_eq!(env.step("\\boxed{1 2 4}", &mut rng).unwrap().reward, 0.1);
    let step = env.step("\\boxed{1 3 1}", &mut rng).unwrap();
    assert_eq!(
        step.observation,
        "You have reached the maximum number of turns."
    );
    assert_eq!(step.reward, 0.0);
    assert!(step.terminated && step.truncated);

    env.reset(&mut Rng::seeded(42)).unwrap();
    env.step("x", &mut rng).unwrap();
    env.step("x", &mut rng).unwrap();
    let step = env.step("x", &mut rng).unwrap();
    assert_eq!(
        (step.reward, step.terminated, step.truncated),
        (-0.1, true, true)
    );
}

#[test]
fn random_actions_are_accepted_and_state_round_trips() {
    for id in ["game:Sudoku-v0-easy", "game:Sudoku-v0-hard"] {
        let (mut env, mut rng, _) = start(id, 3);
        for _ in 0..40 {
            let action = env.sample_random_action(&mut rng);
            let step = env.step(&action, &mut rng).unwrap();
            assert_ne!(step.reward, -0.1, "{action}");
            assert!(!step.observation.ends_with("out of bounds."), "{action}");
        }
        let state = serde_json::to_string(&env).unwrap();
        let restored: Sudoku = serde_json::from_str(&state).unwrap();
        assert_eq!(restored.board, env.board);
        assert_eq!(restored.turn, env.turn);
    }
}

#[test]
fn every_puzzle_has_one_solution() {
    for seed in 0..30 {
        let (env, _, _) = start("game:Sudoku-v0-hard", seed);
        let mut grid = Grid::empty(9);
        for (cell, &d) in env.board.iter().enumerate() {
            if d != 0 {
                grid.place(cell, d);
            }
        }
        assert_eq!(grid.solutions(3), 1, "seed {seed}");
        assert!(
            env.board
                .iter()
                .zip(&env.solution)
                .all(|(&b, &s)| b == 0 || b == s)
        );
    }
}

#[test]
fn bad_configs_are_refused() {
    let scale = |c: &mut serde_json::Map<String, serde_json::Value>| {
        c.insert("scale".into(), json!(5));
    };
    let spec = Sudoku::specs().into_iter().next().unwrap();
    let mut config = spec.default_config.as_object().unwrap().clone();
    scale(&mut config);
    assert!(Sudoku::create(&spec.id, Config::new(config)).is_err());
    let mut config = spec.default_config.as_object().unwrap().clone();
    config.insert("clues".into(), json!(17));
    assert!(Sudoku::create(&spec.id, Config::new(config)).is_err());
}
