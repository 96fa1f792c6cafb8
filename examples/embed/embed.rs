//! Embedding geode in a Rust trainer: make an env, play episodes with a simple policy, and
//! handle a limit error.
//!
//! `cargo run --release -p geode-examples --example embed`

use geode_runtime::{Env, Error, Limits, MakeOptions, Runtime};
use serde_json::json;

/// A bisection policy for GuessTheNumber: reads the hint in the last observation.
struct Bisect {
    low: i64,
    high: i64,
    last: i64,
}

impl Bisect {
    fn act(&mut self, observation: &str) -> String {
        if observation.contains("higher than") {
            self.low = self.last + 1;
        } else if observation.contains("lower than") {
            self.high = self.last - 1;
        }
        self.last = (self.low + self.high) / 2;
        format!("My guess is \\boxed{{{}}}", self.last)
    }
}

fn main() -> Result<(), Error> {
    let runtime = Runtime::new().map_err(|e| Error::Internal(e.to_string()))?;
    let registry = geode_builtins::standard(runtime)?;
    let limits = Limits {
        fuel_per_call: Some(10_000_000),
        ..Limits::default()
    };
    let mut env = registry.make(
        "game:GuessTheNumber-v0-hard",
        MakeOptions::default().with_limits(limits),
    )?;

    let mut wins = 0;
    for episode in 0..100 {
        let mut observation = env.reset(Some(episode))?.observation;
        let mut policy = Bisect {
            low: 1,
            high: 50,
            last: 0,
        };
        loop {
            let step = env.step(&policy.act(&observation))?;
            if step.done() {
                wins += usize::from(step.reward == 1.0);
                break;
            }
            observation = step.observation;
        }
    }
    println!("bisection won {wins}/100 episodes of game:GuessTheNumber-v0-hard");

    // Errors are typed: a bad config key is named, and nothing was instantiated.
    match registry.make("game:GuessTheNumber-v0-hard", json!({"max_turn": 3})) {
        Err(error @ Error::BadConfig { .. }) => println!("as expected: {error}"),
        other => println!("unexpected: {other:?}"),
    }
    Ok(())
}
