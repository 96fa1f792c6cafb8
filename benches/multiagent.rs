//! Multi-agent self-play: a vector of two-player envs stepped with random legal moves (each
//! vector step asks every env for its active agents' random legal actions, then steps them;
//! finished games start over in the same step). Prints env steps per second and agent actions
//! per second for the turn-based `ma:TicTacToe-v0` and the parallel `ma:FactRelay-v0`.
//!
//! `cargo bench -p geode-benches --bench multiagent -- [--envs 64] [--seconds 3]`

use geode_runtime::{Limits, MultiAgentVec};
use std::time::{Duration, Instant};

fn main() {
    let mut envs = 64usize;
    let mut seconds = 3.0f64;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--envs" => envs = it.next().and_then(|s| s.parse().ok()).unwrap_or(envs),
            "--seconds" => seconds = it.next().and_then(|s| s.parse().ok()).unwrap_or(seconds),
            _ => {} // cargo bench passes --bench
        }
    }
    let registry = geode_benches::registry();
    println!("| env | envs | env steps/s | agent actions/s | episodes/s | of which sampling |");
    println!("|---|---|---|---|---|---|");
    for id in ["ma:TicTacToe-v0", "ma:FactRelay-v0"] {
        let first = registry
            .make_multiagent(id, &serde_json::json!({}), &Limits::default())
            .expect("make");
        let mut vec = MultiAgentVec::new(first, envs).expect("vector");
        vec.reset(Some(0)).expect("reset");
        let (mut steps, mut actions, mut episodes) = (0u64, 0u64, 0u64);
        let mut sampling = Duration::ZERO;
        let started = Instant::now();
        while started.elapsed().as_secs_f64() < seconds {
            let t = Instant::now();
            let moves = vec.sample_random_actions().expect("sample");
            sampling += t.elapsed();
            actions += moves.iter().map(|m| m.len() as u64).sum::<u64>();
            for step in vec.step(&moves).expect("step") {
                step.outputs.expect("a legal step");
                steps += 1;
                episodes += u64::from(step.reset.is_some());
            }
        }
        let elapsed = started.elapsed().as_secs_f64();
        println!(
            "| {id} | {envs} | {:.0} | {:.0} | {:.0} | {:.0}% |",
            steps as f64 / elapsed,
            actions as f64 / elapsed,
            episodes as f64 / elapsed,
            100.0 * sampling.as_secs_f64() / elapsed
        );
    }
}
