//! Vector stepping throughput on GuessTheNumber-hard: geode's sync vector env (rayon) and async
//! pool (send/recv), with pre-generated random actions and SameStep autoreset.
//!
//! `cargo bench -p geode-benches --bench vector_throughput -- [--envs 16,64,256] [--steps N]
//! [--threads 1,2] [--only sync|async] [--outside] [--group K] [--side-by-side K] [--json]`; `benches/gem_side_by_side.py` runs it next to GEM.
//!
//! `-- --ceiling ROUNDS [--envs 64,256]` measures one vector on every core against its ceiling,
//! one vector per core stepped side by side (work that shares nothing), in alternating rounds,
//! and prints each round's ratio and their median.

use geode_runtime::{Actions, AsyncPool, Registry, VecSpec, VectorEnv};
use std::time::{Duration, Instant};

const ID: &str = "game:GuessTheNumber-v0-hard";

struct Args {
    envs: Vec<usize>,
    threads: Vec<usize>,
    steps: usize,
    json: bool,
    /// Run only `sync` or `async` (both when empty), e.g. to profile one of them.
    only: String,
    /// Step the sync env from a thread outside any rayon pool, as a trainer's own thread (or
    /// Python) does: it then runs on the calling thread plus one helper per other core. Applies
    /// to the thread counts that use every core; fewer threads still run in a rayon pool.
    outside: bool,
    /// Envs per unit (`VecSpec::group_size`; 0 picks it from the slot count).
    group: usize,
    /// Instead of one vector on several threads, step this many independent vectors side by
    /// side in one process, one thread each (tells in-process contention from scheduling cost).
    side_by_side: usize,
    /// Rounds of one vector on every core against as many vectors side by side (0: off).
    ceiling: usize,
}

fn parse_list(text: &str) -> Vec<usize> {
    text.split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect()
}

fn args() -> Args {
    let mut args = Args {
        envs: vec![16, 64, 256],
        threads: vec![1, 2],
        steps: 1_000_000,
        json: false,
        only: String::new(),
        outside: false,
        group: 0,
        side_by_side: 0,
        ceiling: 0,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--envs" => args.envs = parse_list(&it.next().unwrap_or_default()),
            "--threads" => args.threads = parse_list(&it.next().unwrap_or_default()),
            "--steps" => args.steps = it.next().and_then(|s| s.parse().ok()).unwrap_or(args.steps),
            "--json" => args.json = true,
            "--only" => args.only = it.next().unwrap_or_default(),
            "--outside" => args.outside = true,
            "--group" => args.group = it.next().and_then(|s| s.parse().ok()).unwrap_or(0),
            "--ceiling" => args.ceiling = it.next().and_then(|s| s.parse().ok()).unwrap_or(5),
            "--side-by-side" => {
                args.side_by_side = it.next().and_then(|s| s.parse().ok()).unwrap_or(2)
            }
            _ => {} // cargo bench passes --bench
        }
    }
    args
}

/// `rounds` batches of `n` actions `\boxed{k}`, k uniform in 1..=50 (a fixed LCG: reproducible).
fn actions(n: usize, rounds: usize) -> Vec<Vec<String>> {
    let mut state = 0x1234_5678_u64;
    (0..rounds)
        .map(|_| {
            (0..n)
                .map(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    format!("\\boxed{{{}}}", 1 + (state >> 33) % 50)
                })
                .collect()
        })
        .collect()
}

/// Process CPU time (user + system), to tell contention from a scaling problem.
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes into the struct we pass.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// Steps per wall second and per CPU second.
struct Rate {
    wall: f64,
    cpu: f64,
}

/// `n` slots of GuessTheNumber-hard in groups of `group`.
fn spec(n: usize, group: usize) -> VecSpec {
    VecSpec {
        group_size: group,
        ..VecSpec::uniform(ID, n, 0)
    }
}

fn sync_rate(registry: &Registry, n: usize, group: usize, steps: usize) -> Rate {
    let mut vec: VectorEnv = registry.make_vec(&spec(n, group)).expect("make_vec");
    vec.reset(None).expect("reset");
    let rounds = (steps / n).max(1);
    let batches = actions(n, rounds.min(64));
    for batch in batches.iter().take(4) {
        vec.step(Actions::All(batch)).expect("warm-up step");
    }
    let started = Instant::now();
    let cpu = cpu_seconds();
    for r in 0..rounds {
        vec.step(Actions::All(&batches[r % batches.len()]))
            .expect("step");
    }
    let total = (rounds * n) as f64;
    Rate {
        wall: total / started.elapsed().as_secs_f64(),
        cpu: total / (cpu_seconds() - cpu),
    }
}

fn async_rate(registry: &Registry, n: usize, group: usize, steps: usize, threads: usize) -> f64 {
    let pool: AsyncPool = registry
        .make_vec(&spec(n, group).for_pool())
        .expect("make_vec")
        .into_pool(threads);
    pool.send_reset((0..n).map(|i| (i, Some(i as u64))).collect())
        .expect("reset");
    assert_eq!(pool.recv(n, Some(Duration::from_secs(30))).len(), n);
    let batches = actions(n, 64);
    let batch = (n / 2).max(1);
    let started = Instant::now();
    pool.send(batches[0].iter().cloned().enumerate().collect())
        .expect("send");
    let mut done = 0usize;
    let mut round = 1usize;
    while done < steps {
        let ready = pool.recv(batch, None);
        done += ready.len();
        let actions = &batches[round % batches.len()];
        round += 1;
        pool.send(
            ready
                .iter()
                .map(|c| (c.index, actions[c.index].clone()))
                .collect(),
        )
        .expect("send");
    }
    let rate = done as f64 / started.elapsed().as_secs_f64();
    pool.recv(n, Some(Duration::from_secs(30)));
    rate
}

/// `copies` vectors of `n` slots, each stepped by its own single-thread pool at once: their
/// rates.
fn side_by_side_rates(
    registry: &Registry,
    copies: usize,
    (n, group, steps): (usize, usize, usize),
) -> Vec<Rate> {
    std::thread::scope(|scope| {
        let runs: Vec<_> = (0..copies)
            .map(|_| {
                scope.spawn(|| {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(1)
                        .build()
                        .expect("rayon pool");
                    pool.install(|| sync_rate(registry, n, group, steps))
                })
            })
            .collect();
        runs.into_iter()
            .map(|run| run.join().expect("side-by-side run"))
            .collect()
    })
}

/// Prints [`side_by_side_rates`]: their sum and each one's (one JSON line with `json`).
fn side_by_side(registry: &Registry, copies: usize, shape: (usize, usize, usize), json: bool) {
    let n = shape.0;
    let rates = side_by_side_rates(registry, copies, shape);
    let each: Vec<String> = rates.iter().map(|r| format!("{:.0}", r.wall)).collect();
    let total: f64 = rates.iter().map(|r| r.wall).sum();
    if json {
        println!(
            "{{\"envs\": {n}, \"copies\": {copies}, \"total\": {total:.0}, \"each\": [{}]}}",
            each.join(", ")
        );
        return;
    }
    println!(
        "envs {n:4}  {copies} vectors side by side, 1 thread each  total {total:>10.0} steps/s  (each: {})",
        each.join(", ")
    );
}

/// One vector of `n` slots stepped on every core, against one vector per core side by side,
/// alternating for `rounds` rounds: each round's ratio and the median.
fn ceiling(registry: &Registry, args: &Args, n: usize, cores: usize) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cores)
        .build()
        .expect("rayon pool");
    let mut ratios = Vec::new();
    for round in 1..=args.ceiling {
        let one = if args.outside {
            sync_rate(registry, n, args.group, args.steps)
        } else {
            pool.install(|| sync_rate(registry, n, args.group, args.steps))
        };
        let apart: f64 = side_by_side_rates(registry, cores, (n, args.group, args.steps))
            .iter()
            .map(|r| r.wall)
            .sum();
        let ratio = one.wall / apart;
        ratios.push(ratio);
        println!(
            "envs {n:4}  round {round}  one vector on {cores} threads {:>10.0} steps/s  {cores} vectors side by side {apart:>10.0}  ratio {ratio:.3}",
            one.wall
        );
    }
    ratios.sort_by(f64::total_cmp);
    let median = ratios[ratios.len() / 2];
    println!(
        "envs {n:4}  median ratio {median:.3} (min {:.3}, max {:.3}, {} rounds)",
        ratios[0],
        ratios[ratios.len() - 1],
        ratios.len()
    );
}

fn main() {
    let args = args();
    let registry = geode_benches::registry();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if args.ceiling > 0 {
        for &n in &args.envs {
            ceiling(&registry, &args, n, cores);
        }
        return;
    }
    if args.side_by_side > 0 {
        for &n in &args.envs {
            let shape = (n, args.group, args.steps);
            side_by_side(&registry, args.side_by_side, shape, args.json);
        }
        return;
    }
    for &threads in &args.threads {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("rayon pool");
        for &n in &args.envs {
            let sync = if args.only == "async" {
                Rate {
                    wall: 0.0,
                    cpu: 0.0,
                }
            } else {
                if args.outside && threads >= cores {
                    sync_rate(&registry, n, args.group, args.steps)
                } else {
                    pool.install(|| sync_rate(&registry, n, args.group, args.steps))
                }
            };
            let asynchronous = if args.only == "sync" {
                0.0
            } else {
                async_rate(&registry, n, args.group, args.steps, threads)
            };
            let (wall, cpu) = (sync.wall, sync.cpu);
            if args.json {
                println!(
                    "{{\"envs\": {n}, \"threads\": {threads}, \"sync\": {wall:.0}, \"sync_per_cpu_s\": {cpu:.0}, \"async\": {asynchronous:.0}}}"
                );
            } else {
                println!(
                    "envs {n:4}  threads {threads}  geode sync {wall:>10.0} steps/s ({cpu:>9.0} per CPU-second)  geode async {asynchronous:>10.0} steps/s"
                );
            }
        }
    }
}
