//! The code sandbox's latency and throughput: a small stdin program per isolated run (p50,
//! p99), a CPU-bound program, runs per second on 1 and 2 threads, and (with `--solutions`) the
//! end-to-end reward time of the shipped code sample in `code:CodeContest`.
//!
//!     cargo bench -p geode-benches --bench sandbox            # a table
//!     cargo bench -p geode-benches --bench sandbox -- --json  # one JSON line (for scripts)
//!     cargo bench -p geode-benches --bench sandbox -- --solutions FILE
//!     cargo bench -p geode-benches --bench sandbox -- --wasm RUNNER.wasm  # another component
//!     cargo bench -p geode-benches --bench sandbox -- --programs DIR  # only the program set
//!
//! The same for numpy: the p50 of a small numpy program, and what one instance of the runner
//! with numpy costs (the built-in sandbox only; `--wasm` gives one runner).
//!
//! It also reports what one instance costs (median instantiation time, resident memory per
//! live instance after a small run, over 64 instances held at once) and the time to judge an
//! answer that loops forever in `code:CodeContest` (12 tests, per-test timeout `--loop-timeout`
//! seconds, default 10: GEM's).
//!
//! "1 thread" is one thread calling `run`; while the other core is idle, the sandbox resets
//! finished instances' memory there (see `sandbox/reaper.rs`), so one caller can use more than
//! one core. With as many callers as cores, every run resets its own instance. "1 core" is one
//! thread in a copy of this bench pinned to one CPU (`--one-core`, run by the main bench), so
//! nothing of a run happens elsewhere: runs/s on every core over runs/s on one core is how
//! runs scale with cores.
//!
//! FILE is a JSON list with one correct program per row of the shipped sample, in row order
//! (`benches/sandbox_vs_gem.py` writes it from the sample's reference solutions).

#[path = "sandbox/code_sample.rs"]
mod code_sample;
#[path = "sandbox/programs.rs"]
mod programs;

use geode_runtime::Runtime;
use geode_runtime::sandbox::{RunRequest, RunStatus, Sandbox};
use serde_json::json;
use std::time::{Duration, Instant};

/// The small program: read a line of integers, print their sum.
const SMALL: &str = "print(sum(map(int, input().split())))";
/// Its stdin.
const SMALL_STDIN: &str = "1 2 3 4 5 6 7 8 9 10\n";
/// The CPU-bound program: a loop of 2 million multiply-adds.
const CPU_BOUND: &str =
    "s = 0\nfor i in range(2_000_000):\n    s = (s + i * i) % 1_000_003\nprint(s)";

/// The small numpy program: the same sum, through an array.
const SMALL_NUMPY: &str = "import numpy as np\nprint(np.array(input().split(), dtype=int).sum())";

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn small() -> RunRequest {
    RunRequest::python(SMALL, SMALL_STDIN)
}

fn small_numpy() -> RunRequest {
    RunRequest::python(SMALL_NUMPY, SMALL_STDIN)
}

/// Per-run latencies of `n` sequential runs of `request` (which prints 55), sorted.
fn latencies(sandbox: &Sandbox, request: &RunRequest, n: usize) -> Vec<Duration> {
    let mut times: Vec<Duration> = (0..n)
        .map(|_| {
            let started = Instant::now();
            let outcome = sandbox.run(request);
            assert_eq!(outcome.stdout, "55\n", "{}", outcome.stderr);
            started.elapsed()
        })
        .collect();
    times.sort();
    times
}

/// Small runs per second over `seconds` on a pool of `threads` threads.
fn throughput(sandbox: &Sandbox, threads: usize, seconds: f64) -> f64 {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    let batch: Vec<RunRequest> = (0..64).map(|_| small()).collect();
    pool.install(|| {
        let started = Instant::now();
        let mut runs = 0usize;
        while started.elapsed().as_secs_f64() < seconds {
            let outcomes = sandbox.run_many(&batch);
            assert!(outcomes.iter().all(|o| o.status == RunStatus::Ok));
            runs += outcomes.len();
        }
        runs as f64 / started.elapsed().as_secs_f64()
    })
}

/// The value of argument `--name`, if given.
fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    let at = args.iter().position(|a| a == name)?;
    Some(
        args.get(at + 1)
            .unwrap_or_else(|| panic!("{name} needs a value"))
            .clone(),
    )
}

/// Pins this process to the first CPU it may run on, so that `available_parallelism` (and with
/// it the runtime's threads) sees one core.
fn pin_to_one_cpu() {
    // SAFETY: `set` is a plain bit set owned by this frame; both calls only read or write it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        let size = std::mem::size_of::<libc::cpu_set_t>();
        assert_eq!(
            libc::sched_getaffinity(0, size, &mut set),
            0,
            "sched_getaffinity"
        );
        let first = (0..libc::CPU_SETSIZE as usize)
            .find(|&cpu| libc::CPU_ISSET(cpu, &set))
            .expect("a CPU to run on");
        libc::CPU_ZERO(&mut set);
        libc::CPU_SET(first, &mut set);
        assert_eq!(
            libc::sched_setaffinity(0, size, &set),
            0,
            "sched_setaffinity"
        );
    }
}

/// Runs/s of the small program on one thread in a copy of this bench pinned to one CPU (`None`
/// on a one-core machine, where that is the 1-thread figure).
fn one_core_rate() -> Option<f64> {
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        return None;
    }
    let mut command = std::process::Command::new(std::env::current_exe().expect("this bench"));
    command.args(["--one-core", "--json"]);
    if let Some(wasm) = arg("--wasm") {
        command.args(["--wasm", &wasm]);
    }
    let out = command.output().expect("the one-core run starts");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let line: serde_json::Value =
        serde_json::from_str(text.lines().last().expect("a line")).expect("JSON");
    line["runs_per_s_one_core"].as_f64()
}

/// The sandbox the bench measures: the built-in one, or a runner component given by `--wasm`.
fn sandbox(runtime: &Runtime) -> Sandbox {
    match arg("--wasm") {
        Some(path) => {
            let wasm = std::fs::read(&path).expect("read the component");
            Sandbox::new(runtime.engine(), runtime.cache(), &wasm).expect("the component loads")
        }
        None => {
            geode_builtins::install(runtime);
            runtime.sandbox().expect("the code sandbox loads")
        }
    }
}

fn main() {
    let json_output = std::env::args().any(|a| a == "--json");
    if std::env::args().any(|a| a == "--one-core") {
        pin_to_one_cpu();
        let runtime = Runtime::new().expect("runtime");
        let sandbox = sandbox(&runtime);
        latencies(&sandbox, &small(), 50);
        let rate = throughput(&sandbox, 1, 3.0);
        match json_output {
            true => println!("{}", json!({ "runs_per_s_one_core": rate })),
            false => println!("runs/s, 1 core                      {rate:>8.0}"),
        }
        return;
    }
    if let Some(dir) = arg("--programs") {
        let runtime = Runtime::new().expect("runtime");
        let sandbox = sandbox(&runtime);
        let times = programs::run_all(&sandbox, std::path::Path::new(&dir));
        match json_output {
            true => println!("{}", programs::to_json(&times)),
            false => {
                for t in &times {
                    let ms = t.best.as_secs_f64() * 1e3;
                    println!(
                        "{:<20}{ms:>9.1} ms {:>8} M fuel",
                        t.name,
                        t.fuel / 1_000_000
                    );
                }
            }
        }
        return;
    }
    let runtime = Runtime::new().expect("runtime");
    let started = Instant::now();
    let sandbox = sandbox(&runtime);
    let load = started.elapsed();
    let footprint = sandbox.footprint(&small(), 64);
    latencies(&sandbox, &small(), 50);
    let times = latencies(&sandbox, &small(), 2_000);
    let (p50, p99) = (percentile(&times, 0.5), percentile(&times, 0.99));
    // The runner with numpy (absent with `--wasm`: the program then fails and is skipped).
    let numpy = (sandbox.run(&small_numpy()).stdout == "55\n").then(|| {
        let footprint = sandbox.footprint(&small_numpy(), 64);
        latencies(&sandbox, &small_numpy(), 50);
        let times = latencies(&sandbox, &small_numpy(), 500);
        (percentile(&times, 0.5), footprint)
    });
    let cpu_runs: Vec<Duration> = (0..5)
        .map(|_| sandbox.run(&RunRequest::python(CPU_BOUND, "")))
        .map(|o| {
            assert_eq!(o.status, RunStatus::Ok, "{}", o.stderr);
            o.elapsed
        })
        .collect();
    let cpu = *cpu_runs.iter().min().expect("runs");
    let one = throughput(&sandbox, 1, 3.0);
    let two = throughput(&sandbox, 2, 3.0);
    let one_core = one_core_rate().unwrap_or(one);
    let sample = arg("--solutions")
        .map(|path| code_sample::reward_time(&runtime, &sandbox, std::path::Path::new(&path)));
    let loop_timeout: f64 = arg("--loop-timeout").map_or(10.0, |t| t.parse().expect("seconds"));
    let looping = code_sample::loop_judge_time(&runtime, &sandbox, loop_timeout, 3);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    if json_output {
        let mut line = json!({
            "load_ms": ms(load),
            "small_p50_ms": ms(p50),
            "small_p99_ms": ms(p99),
            "cpu_bound_ms": ms(cpu),
            "runs_per_s_1_thread": one,
            "runs_per_s_2_threads": two,
            "runs_per_s_one_core": one_core,
            "instantiate_ms": ms(footprint.instantiate),
            "resident_mb_per_instance": footprint.resident_bytes_per_instance as f64 / 1048576.0,
            "loop_judge_ms": ms(looping),
            "loop_timeout_s": loop_timeout,
        });
        if let Some((numpy_p50, numpy_footprint)) = &numpy {
            line["numpy_p50_ms"] = json!(ms(*numpy_p50));
            line["numpy_instantiate_ms"] = json!(ms(numpy_footprint.instantiate));
            line["numpy_resident_mb_per_instance"] =
                json!(numpy_footprint.resident_bytes_per_instance as f64 / 1048576.0);
        }
        if let Some(sample) = &sample {
            line["code_sample_ms"] = json!(ms(sample.median));
            line["code_sample_problems"] = json!(sample.problems);
            line["code_sample_tests"] = json!(sample.tests);
            let per_problem: serde_json::Map<String, serde_json::Value> = sample
                .per_problem
                .iter()
                .map(|(id, time)| (id.clone(), json!(ms(*time))))
                .collect();
            line["code_sample_per_problem_ms"] = per_problem.into();
        }
        println!("{line}");
    } else {
        println!("sandbox load (cached machine code)  {:>8.1} ms", ms(load));
        println!("small stdin program, p50            {:>8.3} ms", ms(p50));
        println!("small stdin program, p99            {:>8.3} ms", ms(p99));
        println!("CPU-bound program (best of 5)       {:>8.1} ms", ms(cpu));
        println!("runs/s, 1 thread                    {one:>8.0}");
        println!("runs/s, 2 threads                   {two:>8.0}");
        println!("runs/s, 1 core (pinned)             {one_core:>8.0}");
        println!(
            "runs/s, 2 threads / 1 core          {:>8.2}x",
            two / one_core
        );
        println!(
            "instantiate (median of {})           {:>8.3} ms",
            footprint.instances,
            ms(footprint.instantiate)
        );
        println!(
            "resident memory per live instance   {:>8.2} MiB",
            footprint.resident_bytes_per_instance as f64 / 1048576.0
        );
        if let Some((numpy_p50, numpy_footprint)) = &numpy {
            println!(
                "small numpy program, p50            {:>8.3} ms",
                ms(*numpy_p50)
            );
            println!(
                "numpy runner: instantiate           {:>8.3} ms",
                ms(numpy_footprint.instantiate)
            );
            println!(
                "numpy runner: memory per instance   {:>8.2} MiB",
                numpy_footprint.resident_bytes_per_instance as f64 / 1048576.0
            );
        }
        println!(
            "judge a looping answer (12 tests, {loop_timeout} s timeout) {:>8.0} ms",
            ms(looping)
        );
        if let Some(sample) = &sample {
            println!(
                "code sample, {} problems / {} tests  {:>8.1} ms (median of {} rounds)",
                sample.problems,
                sample.tests,
                ms(sample.median),
                code_sample::ROUNDS
            );
            for (id, time) in &sample.per_problem {
                println!("  {id:<34}{:>8.1} ms", ms(*time));
            }
        }
    }
}
