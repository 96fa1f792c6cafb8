//! Texts follow GEM's `SokobanEnv`; the draws from the episode's generator (the random variant's
//! settings, the example action) were printed by CPython 3.11 for the same seeds.

use super::*;
use geode_sdk::testing;
use room::Cell;
use serde_json::Value;
use std::collections::{HashSet, VecDeque};

fn make(id: &str, overrides: Value) -> Sokoban {
    testing::make(id, &overrides).unwrap()
}

fn start(id: &str, seed: u64) -> (Sokoban, Rng, Reset) {
    testing::start(id, &json!({}), seed)
}

fn start_turns(id: &str, seed: u64, max_turns: i64) -> (Sokoban, Rng, Reset) {
    testing::start(id, &json!({ "max_turns": max_turns }), seed)
}

fn room(env: &Sokoban) -> &Room {
    env.room.as_ref().unwrap()
}

fn suffix(info: &Info) -> String {
    info.get("suffix")
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap()
}

/// A shortest move sequence solving `room` (breadth-first over player cell and boxes).
fn solve(room: &Room) -> Option<Vec<Direction>> {
    let boxes = |r: &Room| -> u64 {
        (0..r.state.len())
            .filter(|&c| r.state[c].is_box())
            .fold(0, |mask, c| mask | 1 << c)
    };
    let goal = room.fixed.iter().filter(|&&c| c == Cell::Target).count();
    let mut seen = HashSet::from([(room.player, boxes(room))]);
    let mut queue = VecDeque::from([(room.clone(), Vec::new())]);
    while let Some((here, path)) = queue.pop_front() {
        if here.boxes_on_targets() == goal {
            return Some(path);
        }
        for dir in Direction::ALL {
            let mut next = here.clone();
            if next.move_player(dir) != Moved::Blocked && seen.insert((next.player, boxes(&next))) {
                let mut path = path.clone();
                path.push(dir);
                queue.push_back((next, path));
            }
        }
    }
    None
}

#[test]
fn same_seed_same_room() {
    for id in [
        "game:Sokoban-v0-easy",
        "game:Sokoban-v0-hard",
        "game:Sokoban-v0-random",
    ] {
        let (a, _, reset_a) = start(id, 7);
        let (b, _, reset_b) = start(id, 7);
        assert_eq!(room(&a), room(&b));
        assert_eq!(reset_a.observation, reset_b.observation);
        assert_eq!(reset_a.info, reset_b.info);
        let (c, _, _) = start(id, 8);
        assert_ne!(room(&a), room(&c));
    }
}

#[test]
fn reset_draws_like_gem() {
    // GEM: random.seed(42); random.choice(["up", "down", "left", "right"]) is "up".
    let (env, mut rng, reset) = start("game:Sokoban-v0-easy", 42);
    assert!(reset.observation.starts_with(
        "You are solving the Sokoban puzzle. You are the player and you need to push all boxes to targets.\n"
    ));
    assert!(
        reset
            .observation
            .contains("you have to complete the puzzle within 20 turns.\n")
    );
    assert!(reset.observation.ends_with(
        "For example: \\boxed{up} to move up.\nUse logic and deduction to push all boxes onto the target positions!"
    ));
    assert_eq!(rng.random(), 0.025010755222666936);
    // The board: rows of space-separated symbols, each ending with a newline.
    let board = &suffix(&reset.info);
    let rows: Vec<&str> = board
        .strip_prefix("Here is the current board layout:\n")
        .and_then(|b| b.strip_suffix("\n\nEnter your move."))
        .unwrap()
        .split('\n')
        .collect();
    assert_eq!(rows.len(), 6);
    assert_eq!(rows[0], "# # # # # #");
    assert_eq!(board.matches('P').count(), 1);
    assert_eq!(board.matches('X').count(), 2);
    assert_eq!(board.matches('O').count(), 2);
    assert_eq!(room(&env).boxes_on_targets(), 0);

    // The random variant: GEM's random.choice between (6x6, 2 boxes, 20) and (8x8, 5, 50).
    let mut env = make("game:Sokoban-v0-random", json!({}));
    let expected = [
        (0, 1, "right"),
        (1, 0, "up"),
        (3, 0, "down"),
        (5, 1, "left"),
    ];
    for (seed, pick, example) in expected {
        let reset = env.reset(&mut Rng::seeded(seed)).unwrap();
        assert_eq!(env.settings, RANDOM_SETTINGS[pick]);
        let size = env.settings.layout.rows;
        assert_eq!((room(&env).rows, room(&env).cols), (size, size));
        assert!(
            reset
                .observation
                .contains(&format!("\\boxed{{{example}}} to move {example}."))
        );
    }
}

#[test]
fn solving_wins() {
    for seed in 0..20 {
        let (mut env, mut rng, _) = start("game:Sokoban-v0-easy", seed);
        let plan = solve(room(&env)).expect("generated rooms are solvable");
        assert!(!plan.is_empty());
        let mut before = room(&env).clone();
        for (i, dir) in plan.iter().enumerate() {
            let step = env.step(dir.boxed(), &mut rng).unwrap();
            let pushed = before.move_player(*dir) == Moved::Pushed;
            if i + 1 == plan.len() {
                assert_eq!(
                    step.observation,
                    "Congratulations! You have solved the Sokoban puzzle!"
                );
                assert_eq!(step.reward, 1.0);
                assert!(step.terminated && !step.truncated);
                assert!(suffix(&step.info).contains('√'));
                assert!(!suffix(&step.info).contains('X'));
            } else {
                let verb = if pushed {
                    "pushed a box while you moved"
                } else {
                    "moved"
                };
                let obs = format!("At turn {}, you {verb} {}.", i + 1, dir.name());
                assert_eq!(step.observation, obs);
                assert_eq!(step.reward, 0.0);
                assert!(!step.terminated && !step.truncated);
            }
        }
    }
}

/// Whether `room` (at most 64 cells) can be solved: breadth-first over box positions, with the
/// player's walks folded into the cells it can reach.
fn solvable(room: &Room) -> bool {
    let cells = room.state.len();
    let mask =
        |f: &dyn Fn(usize) -> bool| (0..cells).filter(|&c| f(c)).fold(0u64, |m, c| m | 1 << c);
    let walls = mask(&|c| room.fixed[c] == Cell::Wall);
    let targets = mask(&|c| room.fixed[c] == Cell::Target);
    let step = |c: usize, d: Direction| room::neighbor(room.rows, room.cols, c, d);
    let reach = |from: usize, boxes: u64| {
        let (mut seen, mut todo) = (1u64 << from, vec![from]);
        while let Some(c) = todo.pop() {
            for n in Direction::ALL.into_iter().filter_map(|d| step(c, d)) {
                if (walls | boxes | seen) & 1 << n == 0 {
                    seen |= 1 << n;
                    todo.push(n);
                }
            }
        }
        seen
    };
    let start = mask(&|c| room.state[c].is_box());
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([(start, room.player)]);
    while let Some((boxes, player)) = queue.pop_front() {
        if boxes == targets {
            return true;
        }
        let area = reach(player, boxes);
        if !seen.insert((boxes, area.trailing_zeros())) {
            continue;
        }
        for b in (0..cells).filter(|&c| boxes & 1 << c != 0) {
            for d in Direction::ALL {
                let (Some(from), Some(to)) = (step(b, d.opposite()), step(b, d)) else {
                    continue;
                };
                if area & 1 << from != 0 && (walls | boxes) & 1 << to == 0 {
                    queue.push_back((boxes & !(1 << b) | 1 << to, b));
                }
            }
        }
    }
    false
}

#[test]
fn generated_rooms_are_solvable() {
    for (id, seeds) in [
        ("game:Sokoban-v0-easy", 500),
        ("game:Sokoban-v0-hard", 30),
        ("game:Sokoban-v0-random", 30),
    ] {
        let mut env = make(id, json!({}));
        for seed in 0..seeds {
            env.reset(&mut Rng::seeded(seed)).unwrap();
            let room = room(&env);
            assert_eq!(room.boxes_on_targets(), 0);
            assert!(solvable(room), "{id} seed {seed}");
        }
    }
}

#[test]
fn generation_is_bounded_for_every_layout() {
    // Every registered layout, many seeds: generation always succeeds.
    let mut search = Search::default();
    for settings in RANDOM_SETTINGS {
        for seed in 1000..1040 {
            let room = settings
                .layout
                .generate(&mut Rng::seeded(seed), &mut search);
            assert!(room.is_some(), "{settings:?} seed {seed}");
        }
    }
    // A layout with too little floor gives up with an error instead of looping.
    let tiny = json!({ "dim_room": [3, 4], "num_boxes": 1 });
    let mut env = make("game:Sokoban-v0-easy", tiny);
    assert!(matches!(
        env.reset(&mut Rng::seeded(1)),
        Err(Error::Internal(_))
    ));
}

#[test]
fn walls_block_without_ending_the_episode() {
    let (mut env, mut rng, r, dir) = (0..)
        .find_map(|seed| {
            let (env, rng, _) = start("game:Sokoban-v0-hard", seed);
            let r = room(&env).clone();
            let dir = Direction::ALL.into_iter().find(|&d| {
                let next = room::neighbor(r.rows, r.cols, r.player, d).unwrap();
                r.state[next] == Cell::Wall
            })?;
            Some((env, rng, r, dir))
        })
        .unwrap();
    let step = env
        .step(&format!("I go {}", dir.boxed()), &mut rng)
        .unwrap();
    assert_eq!(
        step.observation,
        format!(
            "At turn 1, you cannot move {} - you would collide with wall or other boxes!",
            dir.name()
        )
    );
    assert_eq!(step.reward, 0.0);
    assert!(!step.terminated && !step.truncated);
    assert_eq!(room(&env), &r);
}

#[test]
fn format_errors_end_the_episode() {
    let (long_open, long_junk) = ("\\boxed{".repeat(150_000), "z".repeat(1 << 20));
    let hostile = [
        "",
        "up",
        "\\boxed{ up}",
        "\\boxed{north}",
        "\\boxed{r\u{131}ght}",
        &long_open,
        &long_junk,
    ];
    let (_, _, reset) = start("game:Sokoban-v0-easy", 9);
    let observation = "At turn 1, your submitted action is not valid.";
    for step in
        testing::assert_format_errors::<Sokoban>("game:Sokoban-v0-easy", 9, &hostile, observation)
    {
        assert_eq!(step.info, reset.info);
    }
    // On the last turn a format error is also truncated.
    let (mut env, mut rng, _) = start_turns("game:Sokoban-v0-easy", 9, 1);
    let step = env.step("", &mut rng).unwrap();
    assert!(step.terminated && step.truncated);
    // Case does not matter, as in GEM.
    let (mut env, mut rng, _) = start("game:Sokoban-v0-easy", 9);
    assert_ne!(env.step("\\boxed{LEFT}", &mut rng).unwrap().reward, -0.1);
}

#[test]
fn turn_limit_pays_the_share_of_boxes_on_targets() {
    // Find a solution that puts the first box on a target before the last move.
    for seed in 0..50 {
        let (env, _, _) = start("game:Sokoban-v0-easy", seed);
        let plan = solve(room(&env)).unwrap();
        let mut probe = room(&env).clone();
        let first_on_target = plan.iter().position(|&d| {
            probe.move_player(d);
            probe.boxes_on_targets() == 1
        });
        let Some(k) = first_on_target.filter(|&k| k + 1 < plan.len()) else {
            continue;
        };
        let limit = k as i64 + 1;
        let (mut env, mut rng, reset) = start_turns("game:Sokoban-v0-easy", seed, limit);
        assert!(
            reset
                .observation
                .contains(&format!("within {limit} turns."))
        );
        for (i, dir) in plan[..=k].iter().enumerate() {
            let step = env.step(dir.boxed(), &mut rng).unwrap();
            if i == k {
                assert_eq!(
                    step.observation,
                    "You have reached the maximum number of turns."
                );
                assert_eq!(step.reward, 0.5);
                assert!(step.terminated && step.truncated);
            } else {
                assert!(!step.terminated);
            }
        }
        return;
    }
    panic!("no suitable room found");
}

#[test]
fn turn_limit_without_progress_pays_nothing() {
    let (mut env, mut rng, _) = start_turns("game:Sokoban-v0-hard", 4, 2);
    let first = env.sample_random_action(&mut rng);
    assert!(!env.step(&first, &mut rng).unwrap().terminated);
    let step = env.step(&first, &mut rng).unwrap();
    assert_eq!(
        step.observation,
        "You have reached the maximum number of turns."
    );
    assert_eq!(step.reward, room(&env).boxes_on_targets() as f64 / 4.0);
    assert!(step.terminated && step.truncated);
}

#[test]
fn random_actions_are_accepted_and_state_round_trips() {
    let (mut env, mut rng, _) = start("game:Sokoban-v0-hard", 12);
    for _ in 0..30 {
        let action = env.sample_random_action(&mut rng);
        let step = env.step(&action, &mut rng).unwrap();
        assert_ne!(step.reward, -0.1, "{action}");
    }
    let state = serde_json::to_string(&env).unwrap();
    let mut restored: Sokoban = serde_json::from_str(&state).unwrap();
    assert_eq!(room(&restored), room(&env));
    let a = env.step("\\boxed{left}", &mut rng.clone()).unwrap();
    let b = restored.step("\\boxed{left}", &mut rng.clone()).unwrap();
    assert_eq!((a.observation, a.info), (b.observation, b.info));
    // A restored env generates the next room exactly like the original.
    let next_a = env.reset(&mut rng.clone()).unwrap();
    let next_b = restored.reset(&mut rng.clone()).unwrap();
    assert_eq!(next_a.info, next_b.info);
}

#[test]
fn pushing_and_rendering() {
    use Cell::*;
    let fixed = vec![
        Wall, Wall, Wall, Wall, Wall, Wall, //
        Wall, Floor, Floor, Floor, Target, Wall, //
        Wall, Target, Floor, Floor, Floor, Wall, //
        Wall, Wall, Wall, Wall, Wall, Wall,
    ];
    let mut state = fixed.clone();
    state[7] = Player;
    state[8] = Box;
    state[9] = Box;
    let mut r = Room {
        rows: 4,
        cols: 6,
        fixed,
        state,
        player: 7,
    };
    let mut out = String::new();
    r.render(&mut out);
    assert_eq!(out, "# # # # # #\n# P X X O #\n# O _ _ _ #\n# # # # # #\n");
    assert_eq!(r.move_player(Direction::Right), Moved::Blocked);
    assert_eq!(r.move_player(Direction::Up), Moved::Blocked);
    assert_eq!(r.move_player(Direction::Left), Moved::Blocked);
    r.state[9] = Floor;
    assert_eq!(r.move_player(Direction::Right), Moved::Pushed);
    assert_eq!(r.move_player(Direction::Right), Moved::Pushed);
    assert_eq!(r.boxes_on_targets(), 1);
    let mut out = String::new();
    r.render(&mut out);
    assert_eq!(out, "# # # # # #\n# _ _ P √ #\n# O _ _ _ #\n# # # # # #\n");
    assert_eq!(r.move_player(Direction::Down), Moved::Walked);
    assert_eq!(r.move_player(Direction::Left), Moved::Walked);
    assert_eq!(r.move_player(Direction::Left), Moved::Walked);
    assert_eq!(r.move_player(Direction::Left), Moved::Blocked);
    let mut out = String::new();
    r.render(&mut out);
    assert_eq!(out, "# # # # # #\n# _ _ _ √ #\n# P _ _ _ #\n# # # # # #\n");
    assert_eq!(r.move_player(Direction::Right), Moved::Walked);
    assert_eq!(r.state[13], Target);
}

#[test]
fn bad_configs_are_refused() {
    let bad = [
        json!({ "dim_room": [2, 6] }),
        json!({ "dim_room": [10, 10] }),
        json!({ "dim_room": "6x6" }),
        json!({ "dim_room": [6] }),
        json!({ "num_boxes": 0 }),
        json!({ "num_boxes": 17 }),
        json!({ "dim_room": [9, 9], "num_boxes": 16 }),
    ];
    testing::assert_bad_configs::<Sokoban>("game:Sokoban-v0-easy", &bad);
    // A null setting makes the id draw its settings per episode, as in GEM.
    let env = make("game:Sokoban-v0-easy", json!({ "num_boxes": null }));
    assert!(env.fixed.is_none());
}

#[test]
#[ignore]
fn generation_stats() {
    use std::time::Instant;
    for settings in RANDOM_SETTINGS {
        let layout = settings.layout;
        let mut search = Search::default();
        let n = 3000;
        let (mut times, mut tries) = (Vec::new(), Vec::new());
        for seed in 0..n {
            let mut rng = Rng::seeded(seed);
            let t = Instant::now();
            let mut count = 0;
            while layout.try_room(&mut rng, &mut search).is_none() {
                count += 1;
            }
            times.push(t.elapsed().as_secs_f64() * 1e3);
            tries.push(count as f64 + 1.0);
        }
        for (what, v) in [("ms", &mut times), ("tries", &mut tries)] {
            v.sort_by(f64::total_cmp);
            let mean = v.iter().sum::<f64>() / v.len() as f64;
            let (p99, max) = (v[v.len() * 99 / 100], v[v.len() - 1]);
            println!("{layout:?} {what}: mean {mean:.2} p99 {p99:.2} max {max:.2}");
        }
    }
}
