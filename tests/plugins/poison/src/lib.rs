//! A test plugin for fault isolation and replay: `poison:Counter-v0` is a small guessing game
//! written with the SDK that draws from its generator on every reset and every step, so a
//! member's outputs depend on its episode start and actions alone. Any member can be poisoned
//! by one of these exact actions, each breaking the host's limits or the contract in one way:
//!
//! - `poison:loop`: loops forever (burns fuel);
//! - `poison:alloc`: allocates and touches memory until the allocator fails;
//! - `poison:panic`: panics with "poisoned on purpose";
//! - `poison:stack`: recurses without end;
//! - `poison:huge`: returns a 100 MB observation;
//! - `poison:bad-info`: returns an info that is not JSON;
//! - `poison:nan`: returns a NaN reward.
//!
//! Two more actions are legitimate but heavy, for budgets: `work:N` runs N rounds of
//! arithmetic (about 5 fuel each) and `hold:N` allocates N MiB and keeps it; both answer
//! with a step that does not count as a turn. So does `info:nested`, whose info holds a list
//! and an object (every member returns the same one: the host must not share them).
//!
//! With `"leak": true` every member bumps one counter shared by all instances of the component
//! and shows it in each observation: members leak state into each other, which the host's
//! replay must detect as non-determinism.

use geode_sdk::config::at_least;
use geode_sdk::prelude::*;
use std::cell::Cell;
use std::hint::black_box;

const ID: &str = "poison:Counter-v0";

thread_local! {
    /// The state `"leak": true` members share (the component's single thread owns it).
    static SHARED: Cell<u64> = const { Cell::new(0) };
    /// What `hold:N` actions keep.
    static HELD: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// One episode: guess the target in `1..=20` within `max_turns` turns.
#[derive(Serialize, Deserialize)]
struct Counter {
    max_turns: u32,
    leak: bool,
    target: i64,
    turn: u32,
}

impl Counter {
    /// `text`, with the shared counter bumped and appended when this member leaks.
    fn leaked(&self, mut text: String) -> String {
        if self.leak {
            let shared = SHARED.get() + 1;
            SHARED.set(shared);
            text.push_str(&format!("; shared {shared}"));
        }
        text
    }
}

/// The first integer in `action`, if any.
fn first_integer(action: &str) -> Option<i64> {
    let start = action.find(|c: char| c.is_ascii_digit())?;
    let digits: String = action[start..]
        .chars()
        .take_while(char::is_ascii_digit)
        .take(18)
        .collect();
    let value: i64 = digits.parse().ok()?;
    let negative = action[..start].ends_with('-');
    Some(if negative { -value } else { value })
}

/// Recurses until the stack runs out: the point of `poison:stack`.
#[inline(never)]
#[allow(unconditional_recursion, clippy::only_used_in_recursion)]
fn recurse(depth: u64) -> u64 {
    let local = black_box([depth; 16]);
    recurse(depth + 1) + local[3]
}

/// Runs the poison named `action`, if it is one: `None` for a normal action.
fn poison(action: &str) -> Option<Step> {
    Some(match action {
        "poison:loop" => {
            let mut x = 0u64;
            loop {
                x = black_box(x.wrapping_mul(31).wrapping_add(7));
            }
        }
        "poison:alloc" => {
            let mut hoard: Vec<Vec<u8>> = Vec::new();
            loop {
                let mut block = vec![0u8; 1 << 20];
                for byte in block.iter_mut().step_by(4096) {
                    *byte = 1;
                }
                hoard.push(black_box(block));
            }
        }
        "poison:panic" => panic!("poisoned on purpose"),
        "poison:stack" => Step::new(recurse(0).to_string(), 0.0),
        "poison:huge" => Step::new("x".repeat(100 << 20), 0.0),
        "poison:bad-info" => {
            let mut step = Step::new("bad info", 0.0);
            // Passes the SDK's "looks like an object" check but is not JSON.
            step.info = Info::from_json("{this is not json".into());
            step
        }
        "poison:nan" => Step::new("nan reward", f64::NAN),
        _ => return heavy(action),
    })
}

/// Runs `work:N` or `hold:N` (see the module documentation), if `action` is one.
fn heavy(action: &str) -> Option<Step> {
    if let Some(rounds) = action.strip_prefix("work:") {
        let mut x = 0u64;
        for i in 0..rounds.parse::<u64>().ok()? {
            x = black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        return Some(Step::new(format!("worked {x}"), 0.0));
    }
    if action == "info:nested" {
        let step = Step::new("nested info", 0.0)
            .info("tags", ["a", "b"])
            .info("meta", json!({"depth": 1}));
        return Some(step);
    }
    let mib: usize = action.strip_prefix("hold:")?.parse().ok()?;
    let mut block = vec![0u8; mib << 20];
    for byte in block.iter_mut().step_by(4096) {
        *byte = 1;
    }
    HELD.with_borrow_mut(|held| held.push(block));
    Some(Step::new(format!("holding {mib} MiB more"), 0.0))
}

impl Environment for Counter {
    fn specs() -> Vec<Spec> {
        vec![Spec::new(
            ID,
            "Guess a number in 1..20; actions named poison:* break the host's limits or the contract",
            json!({"max_turns": 8, "leak": false}),
        )]
    }

    fn create(_id: &str, config: Config) -> Result<Self, Error> {
        Ok(Counter {
            max_turns: at_least("max_turns", config.int("max_turns")?, 1)?,
            leak: config.bool_or("leak", false)?,
            target: 0,
            turn: 0,
        })
    }

    fn reset(&mut self, rng: &mut Rng) -> Result<Reset, Error> {
        self.turn = 0;
        self.target = rng.randint(1, 20);
        let draw = rng.below(1_000_000);
        let observation = self.leaked(format!("episode start; guess 1..20 {draw}"));
        let hint = if self.target <= 10 { "low" } else { "high" };
        Ok(Reset::new(observation).info("target_hint", hint))
    }

    fn step(&mut self, action: &str, rng: &mut Rng) -> Result<Step, Error> {
        if let Some(step) = poison(action) {
            return Ok(step);
        }
        self.turn += 1;
        let draw = rng.below(1_000_000);
        let guess = first_integer(action);
        let said = guess.map_or_else(|| "nothing".to_owned(), |n| n.to_string());
        let hit = guess == Some(self.target);
        let observation = self.leaked(format!(
            "turn {}: you said {said}; {}; draw {draw}",
            self.turn,
            if hit { "right" } else { "wrong" }
        ));
        let mut step = Step::new(observation, if hit { 1.0 } else { 0.0 })
            .truncated_if(self.turn >= self.max_turns)
            .info("turn", self.turn);
        if hit {
            step = step.terminated();
        }
        Ok(step)
    }

    fn sample_random_action(&mut self, rng: &mut Rng) -> String {
        rng.randint(1, 20).to_string()
    }
}

export_env!(Counter);

#[cfg(test)]
mod tests {
    use super::*;
    use geode_sdk::testing::{start, start_as};
    use serde_json::Value;

    fn defaults() -> Value {
        json!({})
    }

    /// Plays 1, 2, ... 20 (or until the turn limit): the observations and the end.
    fn play(env: &mut Counter, rng: &mut Rng) -> (Vec<String>, Option<i64>) {
        let mut seen = Vec::new();
        for n in 1..=20 {
            let step = env.step(&format!("I guess {n}"), rng).unwrap();
            seen.push(step.observation.clone());
            assert_eq!(step.info.get("turn"), Some(json!(seen.len())));
            if step.terminated {
                assert_eq!(step.reward, 1.0);
                return (seen, Some(n));
            }
            assert_eq!(step.reward, 0.0);
            if step.truncated {
                return (seen, None);
            }
        }
        (seen, None)
    }

    #[test]
    fn a_normal_episode_finds_the_target() {
        let overrides = json!({"max_turns": 20});
        let (mut env, mut rng, reset) = start::<Counter>(ID, &overrides, 7);
        assert!(reset.observation.starts_with("episode start; guess 1..20 "));
        assert!(reset.info.get("target_hint").is_some());
        let target = env.target;
        let (seen, found) = play(&mut env, &mut rng);
        assert_eq!(found, Some(target));
        assert_eq!(seen.len(), target as usize);
        assert!(seen[0].starts_with("turn 1: you said 1; "));
    }

    #[test]
    fn episodes_replay_from_their_start() {
        for start in [
            EpisodeStart::Seeded(3),
            EpisodeStart::Continued {
                stream: 3,
                number: 5,
            },
        ] {
            let (mut a, mut rng_a, reset_a) = start_as::<Counter>(ID, &defaults(), start);
            let (mut b, mut rng_b, reset_b) = start_as::<Counter>(ID, &defaults(), start);
            assert_eq!(reset_a.observation, reset_b.observation);
            assert_eq!(play(&mut a, &mut rng_a), play(&mut b, &mut rng_b));
        }
        let first = |number| {
            start_as::<Counter>(
                ID,
                &defaults(),
                EpisodeStart::Continued { stream: 1, number },
            )
            .2
            .observation
        };
        assert_ne!(first(0), first(1), "each episode draws anew");
    }

    #[test]
    fn the_turn_limit_truncates() {
        let (mut env, mut rng, _) = start::<Counter>(ID, &defaults(), 1);
        for turn in 1..=8 {
            let step = env.step("no number", &mut rng).unwrap();
            assert_eq!(step.truncated, turn == 8, "turn {turn}");
            assert!(!step.terminated);
        }
    }

    #[test]
    fn cheap_poisons_break_the_contract() {
        let (mut env, mut rng, _) = start::<Counter>(ID, &defaults(), 1);
        assert!(env.step("poison:nan", &mut rng).unwrap().reward.is_nan());
        let bad = env.step("poison:bad-info", &mut rng).unwrap();
        assert!(serde_json::from_str::<Value>(bad.info.as_json()).is_err());
    }

    #[test]
    fn leaking_members_share_a_counter() {
        let leaky = json!({"leak": true});
        let (_, _, first) = start::<Counter>(ID, &leaky, 1);
        let (_, _, second) = start::<Counter>(ID, &leaky, 1);
        assert_ne!(first.observation, second.observation);
        assert!(second.observation.contains("; shared "));
        let (_, _, quiet) = start::<Counter>(ID, &defaults(), 1);
        assert!(!quiet.observation.contains("shared"));
    }

    #[test]
    fn integers_are_read_from_the_text() {
        assert_eq!(first_integer("I guess 12!"), Some(12));
        assert_eq!(first_integer("-3"), Some(-3));
        assert_eq!(first_integer("none"), None);
    }
}
