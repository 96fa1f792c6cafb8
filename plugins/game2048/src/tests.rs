//! Expected texts and numbers below were printed by GEM's `Game2048Env` (CPython 3.11).

use super::*;
use serde_json::{Map, Value};

fn make(id: &str, edit: impl FnOnce(&mut Map<String, Value>)) -> Game2048 {
    let spec = Game2048::specs().into_iter().find(|s| s.id == id).unwrap();
    let mut config = spec.default_config.as_object().unwrap().clone();
    edit(&mut config);
    Game2048::create(id, Config::new(config)).unwrap()
}

fn rules(target: i64, turns: i64, size: i64) -> impl FnOnce(&mut Map<String, Value>) {
    move |c| {
        c.insert("target_tile".into(), json!(target));
        c.insert("max_turns".into(), json!(turns));
        c.insert("board_size".into(), json!(size));
    }
}

fn suffix(info: &Info) -> String {
    info.get("suffix")
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap()
}

/// Plays random actions (drawn from the game's generator, as GEM's are) until the episode ends.
fn play_randomly(env: &mut Game2048, rng: &mut Rng) -> (Step, f64) {
    let mut total = 0.0;
    loop {
        let action = env.sample_random_action(rng);
        let step = env.step(&action, rng).unwrap();
        total += step.reward;
        if step.terminated {
            return (step, total);
        }
    }
}

#[test]
fn same_seed_same_start_as_gem() {
    let mut env = make("game:Game2048-v0-easy", |_| {});
    let mut rng = Rng::seeded(42);
    let reset = env.reset(&mut rng).unwrap();
    assert_eq!(env.board, [0, 0, 0, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(rng.random(), 0.7364712141640124);
    assert!(reset.observation.starts_with(
        "You are playing 2048.\nYour goal is to reach the 64 tile by sliding and merging tiles.\nYou have 50 turns maximum.\n"
    ));
    assert!(
        reset
            .observation
            .ends_with("For example: \\boxed{down}\n\n")
    );
    assert_eq!(
        suffix(&reset.info),
        "Current board:\n   .    .    .    2\n   .    2    .    .\n   .    .    .    .\n   .    .    .    .\nEnter your move."
    );
    let again = env.reset(&mut Rng::seeded(42)).unwrap();
    assert_eq!(again.observation, reset.observation);
    assert_eq!(again.info, reset.info);
}

#[test]
fn random_variant_draws_settings_like_gem() {
    let mut env = make("game:Game2048-v0-random", |_| {});
    let drawn: Vec<Rules> = (0..4)
        .map(|seed| {
            env.reset(&mut Rng::seeded(seed)).unwrap();
            env.rules
        })
        .collect();
    assert_eq!(drawn[0], RANDOM_RULES[1]);
    assert!(drawn[1..].iter().all(|&r| r == RANDOM_RULES[0]));
    assert_eq!(env.board, [0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0]);
}

#[test]
fn moves_invalid_moves_and_format_errors_match_gem() {
    let mut env = make("game:Game2048-v0-easy", |_| {});
    let mut rng = Rng::seeded(42);
    env.reset(&mut rng).unwrap();
    let expected = [
        (
            "\\boxed{left}",
            "At turn 1, you moved left",
            0.0,
            "   2    .    .    .\n   2    .    .    .\n   .    .    .    .\n   .    2    .    .",
        ),
        (
            "\\boxed{LEFT}",
            "At turn 2, you moved left",
            0.0,
            "   2    .    .    .\n   2    .    .    .\n   .    .    .    .\n   2    .    2    .",
        ),
        (
            "go \\boxed{up}",
            "At turn 3, you moved up",
            0.2,
            "   4    .    2    2\n   2    .    .    .\n   .    .    .    .\n   .    .    .    .",
        ),
        (
            "\\boxed{r\u{131}ght}",
            "At turn 4, you chose move 'r\u{131}ght' which doesn't change the board state. Try a different direction.",
            0.0,
            "   4    .    2    2\n   2    .    .    .\n   .    .    .    .\n   .    .    .    .",
        ),
        (
            "\\boxed{down}",
            "At turn 5, you moved down",
            0.0,
            "   2    .    .    .\n   .    .    .    .\n   4    .    .    .\n   2    .    2    2",
        ),
    ];
    for (action, obs, reward, board) in expected {
        let step = env.step(action, &mut rng).unwrap();
        assert_eq!(step.observation, obs);
        assert_eq!(step.reward, reward);
        assert!(!step.terminated && !step.truncated);
        assert_eq!(
            suffix(&step.info),
            format!("Current board:\n{board}\nEnter your move.")
        );
    }
    let step = env.step("junk", &mut rng).unwrap();
    assert_eq!(
        step.observation,
        "At turn 6, you did not provide a valid move. Please use \\boxed{direction} format."
    );
    assert_eq!(step.reward, -0.1);
    assert!(step.terminated && !step.truncated);
}

#[test]
fn unchanged_board_and_turn_limit_match_gem() {
    let mut rng = Rng::seeded(1);
    let mut env = make("game:Game2048-v0-easy", rules(2048, 5, 4));
    env.reset(&mut rng).unwrap();
    rng.seed(9);
    let expected = [
        ("At turn 1, you moved right", 0.0),
        ("At turn 2, you moved down", 0.1),
        ("At turn 3, you moved up", 0.0),
        (
            "At turn 4, you chose move 'up' which doesn't change the board state. Try a different direction.",
            0.0,
        ),
    ];
    for (obs, reward) in expected {
        let action = env.sample_random_action(&mut rng);
        let step = env.step(&action, &mut rng).unwrap();
        assert_eq!((step.observation.as_str(), step.reward), (obs, reward));
        assert!(!step.terminated && !step.truncated);
    }
    // The turn limit: truncated, with the last move's own reward.
    let action = env.sample_random_action(&mut rng);
    let step = env.step(&action, &mut rng).unwrap();
    assert_eq!(
        step.observation,
        "You have reached the maximum number of turns (5)."
    );
    assert_eq!(step.reward, 0.1);
    assert!(step.terminated && step.truncated);
}

#[test]
fn random_play_wins_like_gem() {
    let mut env = make("game:Game2048-v0-easy", rules(64, 1000, 4));
    for (seed, turns) in [(0, 63), (1, 71), (2, 67)] {
        let mut rng = Rng::seeded(seed);
        env.reset(&mut rng).unwrap();
        rng.seed(1000 + seed);
        let (last, total) = play_randomly(&mut env, &mut rng);
        let won = format!("Congratulations! You reached the 64 tile in {turns} turns!");
        assert_eq!(last.observation, won);
        assert_eq!((last.reward, total), (0.2, 1.0));
        assert!(!last.truncated);
    }
}

#[test]
fn random_play_loses_like_gem() {
    let mut env = make("game:Game2048-v0-easy", rules(2048, 100, 2));
    let cases = [
        (0, 13, 0.30000000000000004, "   2    8\n  16    2"),
        (1, 12, 0.2, "   8    4\n   4    2"),
        (2, 18, 0.30000000000000004, "   2   16\n   8    2"),
    ];
    for (seed, turns, return_, board) in cases {
        let mut rng = Rng::seeded(seed);
        env.reset(&mut rng).unwrap();
        rng.seed(50 + seed);
        let (last, total) = play_randomly(&mut env, &mut rng);
        assert_eq!(last.observation, "Game over! No more moves possible.");
        assert_eq!((env.turn, last.reward, total), (turns, 0.0, return_));
        assert!(!last.truncated);
        assert_eq!(
            suffix(&last.info),
            format!("Current board:\n{board}\nEnter your move.")
        );
    }
}

#[test]
fn format_errors_end_the_episode() {
    let hostile = [
        String::new(),
        "left".into(),
        "\\boxed{ left}".into(),
        "\\boxed{leftt}".into(),
        "\\boxed{\u{212a}eft}".into(),
        "\\boxed{".repeat(150_000),
        "x".repeat(1 << 20),
    ];
    for action in &hostile {
        let mut env = make("game:Game2048-v0-hard", |_| {});
        let mut rng = Rng::seeded(5);
        env.reset(&mut rng).unwrap();
        let step = env.step(action, &mut rng).unwrap();
        assert!(
            step.observation
                .ends_with("Please use \\boxed{direction} format.")
        );
        assert_eq!(step.reward, -0.1);
        assert!(step.terminated && !step.truncated);
    }
    // A format error on the last turn is also truncated.
    let mut env = make("game:Game2048-v0-hard", rules(512, 1, 4));
    let mut rng = Rng::seeded(5);
    env.reset(&mut rng).unwrap();
    let step = env.step("", &mut rng).unwrap();
    assert!(step.terminated && step.truncated);
}

#[test]
fn random_actions_are_accepted_and_state_round_trips() {
    let mut env = make("game:Game2048-v0-extreme-hard", |_| {});
    assert_eq!(env.rules.target_tile, 2048);
    let mut rng = Rng::seeded(11);
    env.reset(&mut rng).unwrap();
    for _ in 0..30 {
        let action = env.sample_random_action(&mut rng);
        assert!(matches!(last_boxed_direction(&action), Some(Ok(_))));
        let step = env.step(&action, &mut rng).unwrap();
        assert_ne!(step.reward, -0.1);
    }
    let state = serde_json::to_string(&env).unwrap();
    let mut restored: Game2048 = serde_json::from_str(&state).unwrap();
    assert_eq!(restored.board, env.board);
    let (a, b) = (
        env.step("\\boxed{left}", &mut rng.clone()).unwrap(),
        restored.step("\\boxed{left}", &mut rng.clone()).unwrap(),
    );
    assert_eq!((a.observation, a.info), (b.observation, b.info));
}

#[test]
fn merging_follows_2048_rules() {
    let cases: [([u64; 4], [u64; 4]); 5] = [
        ([2, 2, 2, 2], [4, 4, 0, 0]),
        ([4, 2, 2, 0], [4, 4, 0, 0]),
        ([0, 2, 0, 2], [4, 0, 0, 0]),
        ([2, 4, 8, 16], [2, 4, 8, 16]),
        ([8, 8, 0, 16], [16, 16, 0, 0]),
    ];
    for (mut line, merged) in cases {
        merge_line(&mut line);
        assert_eq!(line, merged);
    }
}

#[test]
fn bad_configs_are_refused() {
    let id = "game:Game2048-v0-easy";
    let spec = Game2048::specs().into_iter().find(|s| s.id == id).unwrap();
    for (key, value) in [("board_size", 0), ("board_size", 17), ("target_tile", 0)] {
        let mut config = spec.default_config.as_object().unwrap().clone();
        config.insert(key.into(), json!(value));
        assert!(Game2048::create(id, Config::new(config)).is_err(), "{key}");
    }
}
