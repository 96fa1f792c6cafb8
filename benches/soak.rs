//! Soak: 10 M steps over 256 GuessTheNumber envs with SameStep autoreset; resident memory is
//! printed before and after (it must stay flat).
//!
//! `cargo bench -p geode-benches --bench soak -- [--steps N] [--group K]` (`--group`: envs per
//! unit, `VecSpec::group_size`; 0, the default, picks it).

use geode_benches::rss_kib;
use geode_runtime::{Actions, VecSpec};
use std::time::Instant;

fn main() {
    let mut steps: usize = 10_000_000;
    let mut group_size = 0;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--steps" => steps = it.next().and_then(|s| s.parse().ok()).unwrap_or(steps),
            "--group" => group_size = it.next().and_then(|s| s.parse().ok()).unwrap_or(0),
            _ => {} // cargo bench passes --bench
        }
    }
    let n = 256;
    let registry = geode_benches::registry();
    let spec = VecSpec {
        group_size,
        ..VecSpec::uniform("game:GuessTheNumber-v0-hard", n, 0)
    };
    let mut vec = registry.make_vec(&spec).expect("make_vec");
    vec.reset(None).expect("reset");
    let actions: Vec<String> = (0..n)
        .map(|i| format!("\\boxed{{{}}}", 1 + (i * 17) % 50))
        .collect();
    // Warm up until every slot has been through a few episodes, then measure.
    for _ in 0..200 {
        vec.step(Actions::All(&actions)).expect("step");
    }
    let before = rss_kib();
    let started = Instant::now();
    let rounds = steps / n;
    let mut episodes = 0usize;
    for r in 0..rounds {
        let out = vec.step(Actions::All(&actions)).expect("step");
        episodes += out
            .terminated
            .iter()
            .zip(&out.truncated)
            .filter(|(a, b)| **a || **b)
            .count();
        if r % (rounds / 10).max(1) == 0 {
            println!("  {:>9} steps  rss {:>7} KiB", r * n, rss_kib());
        }
    }
    let after = rss_kib();
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "soak: {} steps, {episodes} episodes over {n} envs in {seconds:.1} s ({:.0} steps/s)",
        rounds * n,
        (rounds * n) as f64 / seconds
    );
    println!(
        "rss before {before} KiB, after {after} KiB, change {:+} KiB",
        after as i64 - before as i64
    );
}
