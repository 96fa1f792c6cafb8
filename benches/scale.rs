//! Scale: vector envs of 1,024 to 16,384 Mastermind envs with default settings (units picked
//! from the slot count). Prints, per size, the units made, the resident memory each env adds
//! once made, reset and stepped, and the step rate.
//!
//! `cargo bench -p geode-benches --bench scale -- [--sizes 1024,4096,16384] [--group K]`

use geode_benches::rss_kib;
use geode_runtime::{Actions, VecSpec};
use std::time::Instant;

fn main() {
    let mut sizes = vec![1_024usize, 4_096, 16_384];
    let mut group_size = 0;
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--sizes" => {
                let list = it.next().unwrap_or_default();
                sizes = list.split(',').filter_map(|s| s.parse().ok()).collect();
            }
            "--group" => group_size = it.next().and_then(|s| s.parse().ok()).unwrap_or(0),
            _ => {} // cargo bench passes --bench
        }
    }
    let registry = geode_benches::registry();
    println!("| envs | units | KiB per env | steps/s |");
    println!("|---|---|---|---|");
    for n in sizes {
        let before = rss_kib();
        let spec = VecSpec {
            group_size,
            ..VecSpec::uniform("game:Mastermind-v0-easy", n, 0)
        };
        let mut vec = registry.make_vec(&spec).expect("make_vec");
        vec.reset(None).expect("reset");
        let actions: Vec<String> = (0..n)
            .map(|i| format!("\\boxed{{{} {} {} {}}}", i % 6 + 1, i % 5 + 1, 2, 3))
            .collect();
        let rounds = 20;
        let started = Instant::now();
        for _ in 0..rounds {
            vec.step(Actions::All(&actions)).expect("step");
        }
        let rate = (rounds * n) as f64 / started.elapsed().as_secs_f64();
        let added = rss_kib().saturating_sub(before);
        println!(
            "| {n} | {} | {:.1} | {rate:.0} |",
            vec.num_units(),
            added as f64 / n as f64
        );
        drop(vec);
    }
}
