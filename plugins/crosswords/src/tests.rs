//! Native tests: hand-checked rules plus episodes recorded from GEM's own `CrosswordsEnv`
//! (on the same word table) that must replay identically; `tests/make_golden.py` records them.

use super::*;
use geode_sdk::testing;
use serde_json::Value;

/// A game for `id` with its default configuration, changed by `overrides`.
fn make(id: &str, overrides: &Value) -> Result<Crosswords, Error> {
    testing::make(id, overrides)
}

/// A game for `id` reset with `seed`, and its generator.
fn started(id: &str, seed: u64) -> (Crosswords, Rng) {
    let (env, rng, _) = testing::start(id, &json!({}), seed);
    (env, rng)
}

/// The move putting the right letter in open cell `(r, c)`.
fn right(env: &Crosswords, (r, c): (usize, usize)) -> String {
    format!("\\boxed{{{r} {c} {}}}", env.solution[r][c])
}

#[test]
fn replays_gem_episodes() {
    testing::replay_golden::<Crosswords>(include_str!("../tests/golden.json"));
}

#[test]
fn filling_every_cell_wins() {
    let mut env = make("game:Crosswords-v0-easy", &json!({ "max_turns": 100 })).unwrap();
    let mut rng = Rng::seeded(11);
    env.reset(&mut rng).unwrap();
    let open = env.open_cells();
    let share = 1.0 / open.len() as f64;
    for (k, &cell) in open.iter().enumerate() {
        let step = env.step(&right(&env, cell), &mut rng).unwrap();
        assert_eq!(step.reward, share);
        assert_eq!(step.terminated, k + 1 == open.len());
    }
    let done = env.step(&right(&env, open[0]), &mut rng).unwrap();
    assert_eq!(
        done.observation,
        "Congratulations! You completed the Crosswords puzzle!"
    );
    assert!(done.terminated && !done.truncated);
}

#[test]
fn invalid_and_wrong_moves_continue() {
    let (mut env, mut rng) = started("game:Crosswords-v0-easy", 4);
    let open = env.open_cells()[0];
    let blocked = (0..env.board.len())
        .flat_map(|r| (0..env.board.len()).map(move |c| (r, c)))
        .find(|&(r, c)| env.board[r][c] == EMPTY)
        .unwrap();
    let wrong = if env.solution[open.0][open.1].eq_ignore_ascii_case(&'q') {
        'Z'
    } else {
        'Q'
    };
    let cases = [
        (
            format!("\\boxed{{{} {} {wrong}}}", open.0, open.1),
            format!(
                "At turn 1, you tried to place {wrong} at ({}, {}), but it is incorrect.",
                open.0, open.1
            ),
        ),
        (
            format!("\\boxed{{{} {} a}}", blocked.0, blocked.1),
            format!(
                "At turn 2, you tried to place A at ({}, {}), which is a black dot and cannot be filled.",
                blocked.0, blocked.1
            ),
        ),
        (
            "\\boxed{40 0 a}".to_owned(),
            "At turn 3, you tried to place A at (40, 0), which is out of bounds.".to_owned(),
        ),
    ];
    for (action, expected) in cases {
        let step = env.step(&action, &mut rng).unwrap();
        assert_eq!(step.observation, expected);
        assert_eq!((step.reward, step.terminated), (0.0, false));
    }
}

#[test]
fn format_errors_end_the_episode() {
    let huge = "\\boxed{1 1 ".repeat(100_000);
    let long = "z".repeat(1 << 20);
    let actions = [
        "",
        "0 0 A",
        "\\boxed{[0 0 A]}",
        "\\boxed{0 0 AB}",
        "\\boxed{0 0 1}",
        &huge,
        &long,
    ];
    testing::assert_format_errors::<Crosswords>(
        "game:Crosswords-v0-hard",
        5,
        &actions,
        "At turn 1, you did not provide a valid guess in \\boxed{row column letter} format.",
    );
}

#[test]
fn turn_limit_truncates() {
    let (mut env, mut rng, _) =
        testing::start::<Crosswords>("game:Crosswords-v0-hard", &json!({ "max_turns": 2 }), 6);
    assert!(!env.step("\\boxed{99 0 A}", &mut rng).unwrap().terminated);
    let last = env.step("\\boxed{99 0 A}", &mut rng).unwrap();
    testing::assert_turn_limit(&last);
}

#[test]
fn same_seed_same_start_and_state_round_trips() {
    let (a, _) = started("game:Crosswords-v0-random", 7);
    let (b, _) = started("game:Crosswords-v0-random", 7);
    assert_eq!(
        (&a.solution, &a.placed, a.rules),
        (&b.solution, &b.placed, b.rules)
    );
    let state = serde_json::to_string(&a).unwrap();
    assert!(state.len() < 10_000);
    let restored: Crosswords = serde_json::from_str(&state).unwrap();
    assert_eq!(restored.suffix(), a.suffix());
}

#[test]
fn random_actions_are_accepted() {
    let (mut env, mut rng) = started("game:Crosswords-v0-easy", 8);
    for _ in 0..20 {
        let action = env.sample_random_action(&mut rng);
        let mv = parse_move(&action).unwrap();
        let (r, c) = (mv.row.value as usize, mv.col.value as usize);
        assert_eq!(env.board[r][c], '_', "{action}");
    }
}

#[test]
fn rejects_impossible_configs() {
    let bad = [
        json!({ "num_words": 0 }),
        json!({ "max_turns": 0 }),
        json!({ "hardcore": "yes" }),
    ];
    testing::assert_bad_configs::<Crosswords>("game:Crosswords-v0-easy", &bad);
}
