//! Escapes and abuse against the code sandbox: every attack ends in a typed outcome, within its
//! limit plus 10%, and the next run on the same sandbox is healthy.

use geode_runtime::sandbox::{RunOutcome, RunRequest, RunStatus, Sandbox};
use std::time::{Duration, Instant};

/// A bound for runs that should end at once (instantiation and a little interpreting, on a
/// machine busy with the other tests).
const QUICK: Duration = Duration::from_secs(3);

fn sandbox() -> Sandbox {
    geode_tests::runtime()
        .sandbox()
        .expect("the code sandbox loads")
}

/// Runs `request`, checks it ends with `status` within `bound`, then checks a healthy program
/// runs normally right after. Returns the outcome of the attack.
fn attack(request: RunRequest, status: RunStatus, bound: Duration) -> RunOutcome {
    let sandbox = sandbox();
    let started = Instant::now();
    let outcome = sandbox.run(&request);
    let elapsed = started.elapsed();
    assert_eq!(
        outcome.status, status,
        "{:?}: stdout {:?} stderr {:?}",
        request.code, outcome.stdout, outcome.stderr
    );
    assert!(
        elapsed <= bound,
        "{:?}: took {elapsed:?}, bound {bound:?}",
        request.code
    );
    let healthy = sandbox.run(&RunRequest::python("print(int(input()) + 1)", "41\n"));
    assert_eq!(healthy.status, RunStatus::Ok, "{}", healthy.stderr);
    assert_eq!(healthy.stdout, "42\n");
    outcome
}

fn python(code: &str) -> RunRequest {
    RunRequest::python(code, "").with_timeout(Duration::from_secs(5))
}

/// An attack that must end in an uncaught exception whose traceback names `error`.
fn refused(code: &str, error: &str) {
    let outcome = attack(python(code), RunStatus::RuntimeError, QUICK);
    assert!(
        outcome.stderr.contains(error),
        "{code:?}: {}",
        outcome.stderr
    );
    assert!(outcome.stderr.contains("Traceback"), "{}", outcome.stderr);
    assert_eq!(outcome.exit_code, 1);
}

/// A program that must run normally and print `expected`.
fn prints(code: &str, expected: &str) {
    let outcome = attack(python(code), RunStatus::Ok, QUICK);
    assert_eq!(
        outcome.stdout.trim(),
        expected,
        "{code:?}: {}",
        outcome.stderr
    );
}

#[test]
fn reading_host_files_fails() {
    refused("print(open('/etc/passwd').read())", "FileNotFoundError");
    refused("print(open('Cargo.toml').read())", "FileNotFoundError");
}

#[test]
fn writing_files_fails_and_leaves_nothing_behind() {
    let path = std::env::temp_dir().join("geode-sandbox-escape-probe");
    let _ = std::fs::remove_file(&path);
    let code = format!(
        "open({:?}, 'w').write('escaped')",
        path.display().to_string()
    );
    refused(&code, "Error");
    refused("open('probe.txt', 'w').write('escaped')", "Error");
    assert!(!path.exists());
    assert!(!std::path::Path::new("probe.txt").exists());
}

#[test]
fn listing_directories_fails() {
    refused("import os\nprint(os.listdir('/'))", "FileNotFoundError");
    refused("import os\nprint(os.listdir('.'))", "FileNotFoundError");
    prints("import os\nprint(list(os.walk('/')))", "[]");
}

#[test]
fn sockets_cannot_be_imported() {
    refused("import socket", "ImportError");
    refused("__import__('_socket')", "ImportError");
}

#[test]
fn subprocess_and_process_calls_are_absent() {
    refused("import subprocess", "ImportError");
    refused("import os\nos.system('ls /')", "AttributeError");
    refused("import os\nos.fork()", "AttributeError");
    prints(
        "import os\nprint(*[hasattr(os, f) for f in ('system', 'fork', 'execv', 'spawnv', 'kill')])",
        "False False False False False",
    );
    // `os.popen` is Python code that needs subprocess, which the component does not contain.
    refused("import os\nos.popen('ls /')", "ModuleNotFoundError");
}

#[test]
fn ctypes_cannot_be_imported() {
    refused("import ctypes", "ImportError");
    refused("__import__('ctypes').CDLL(None)", "ImportError");
}

#[test]
fn modules_outside_the_allow_list_stay_out_through_importlib() {
    refused(
        "import importlib\nimportlib.import_module('socket')",
        "ImportError",
    );
    // Reaching importlib through sys.modules gets past the import hook, but the module itself
    // is not in the component: nothing outside the build-time set exists at run time.
    refused(
        "import sys\nsys.modules['importlib'].import_module('socket')",
        "ModuleNotFoundError",
    );
    refused(
        "import sys\nsys.modules['app']._real_import('subprocess')",
        "ModuleNotFoundError",
    );
    prints(
        "import math, collections, heapq, re\nprint(math.isqrt(99))",
        "9",
    );
}

#[test]
fn environment_variables_are_empty() {
    prints(
        "import os\nprint(dict(os.environ), os.getenv('HOME'), os.getenv('PATH'))",
        "{} None None",
    );
}

#[test]
fn host_time_is_hidden() {
    // Wall-clock time starts at 2025-01-01 in every run, whatever the host's clock says.
    prints(
        "import time\nprint(1735689600 <= time.time() < 1735689601)",
        "True",
    );
}

#[test]
fn an_infinite_loop_runs_out_of_fuel() {
    let budget = 2_000_000_000;
    let request = python("while True:\n    pass").with_fuel(budget);
    let outcome = attack(request, RunStatus::OutOfFuel, Duration::from_secs(5));
    assert!(
        outcome.fuel_used <= budget + budget / 10,
        "{}",
        outcome.fuel_used
    );
    assert!(outcome.stderr.contains("fuel"), "{}", outcome.stderr);
}

#[test]
fn an_infinite_loop_without_fuel_hits_the_deadline_in_time() {
    let limit = Duration::from_millis(500);
    let request = RunRequest::python("while True:\n    pass", "")
        .with_fuel(u64::MAX)
        .with_timeout(limit);
    let outcome = attack(request, RunStatus::Deadline, limit.mul_f64(1.1));
    assert!(outcome.elapsed >= limit, "{:?}", outcome.elapsed);
}

#[test]
fn sleeping_past_the_deadline_is_stopped_at_once() {
    let limit = Duration::from_millis(500);
    let request =
        RunRequest::python("import time\ntime.sleep(60)\nprint('woke')", "").with_timeout(limit);
    let outcome = attack(request, RunStatus::Deadline, limit.mul_f64(1.1));
    assert_eq!(outcome.stdout, "");
    // Sleeping in a loop ends the same way.
    let request = RunRequest::python("import time\nwhile True:\n    time.sleep(0.01)", "")
        .with_timeout(limit);
    attack(request, RunStatus::Deadline, limit.mul_f64(1.1));
}

#[test]
fn short_sleeps_cost_no_wall_clock_time() {
    let started = Instant::now();
    prints(
        "import time\nt = time.monotonic()\ntime.sleep(2)\nprint(round(time.monotonic() - t))",
        "2",
    );
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn a_recursion_bomb_is_a_recursion_error() {
    refused("def f(n):\n    return f(n + 1)\nf(0)", "RecursionError");
}

#[test]
fn a_deep_recursion_bomb_ends_in_a_typed_limit() {
    let limit = Duration::from_secs(2);
    let request = RunRequest::python(
        "import sys\nsys.setrecursionlimit(10**7)\ndef f(n):\n    return f(n + 1)\nf(0)",
        "",
    )
    .with_timeout(limit)
    .with_memory_bytes(64 << 20);
    let sandbox = sandbox();
    let outcome = sandbox.run(&request);
    assert!(
        matches!(
            outcome.status,
            RunStatus::Memory
                | RunStatus::RuntimeError
                | RunStatus::Deadline
                | RunStatus::OutOfFuel
        ),
        "{:?}",
        outcome.status
    );
    assert!(
        outcome.elapsed <= limit.mul_f64(1.1),
        "{:?}",
        outcome.elapsed
    );
    // C-level recursion (repr of a deeply nested list) is caught too.
    let nested = "import sys\nsys.setrecursionlimit(10**7)\na = []\nfor _ in range(10**6):\n    a = [a]\nprint(repr(a)[:10])";
    let outcome = sandbox.run(&python(nested).with_memory_bytes(256 << 20));
    assert!(
        matches!(outcome.status, RunStatus::RuntimeError | RunStatus::Memory),
        "{:?}: {}",
        outcome.status,
        outcome.stderr
    );
    attack(python("print(1)"), RunStatus::Ok, QUICK);
}

#[test]
fn a_memory_bomb_hits_the_memory_cap() {
    let request = python("chunks = []\nwhile True:\n    chunks.append(bytearray(10**6))")
        .with_memory_bytes(64 << 20);
    let outcome = attack(request, RunStatus::Memory, QUICK);
    assert!(outcome.stderr.contains("MemoryError"), "{}", outcome.stderr);
    let outcome = attack(python("x = bytearray(2**31 - 1)"), RunStatus::Memory, QUICK);
    assert!(outcome.stderr.contains("MemoryError"), "{}", outcome.stderr);
}

#[test]
fn a_hundred_megabytes_of_stdout_hits_the_output_cap() {
    let cap = 1 << 20;
    let code = "import sys\nline = 'x' * 999 + '\\n'\nfor _ in range(100_000):\n    sys.stdout.write(line)";
    let outcome = attack(
        python(code).with_output_bytes(cap),
        RunStatus::OutputLimit,
        QUICK,
    );
    assert!(outcome.stdout.len() <= cap as usize);
    assert!(outcome.stdout.len() >= cap as usize / 2);
    // Raw writes to the file descriptor and floods of stderr are capped the same way.
    let raw = "import os\nwhile True:\n    os.write(1, b'y' * 65536)";
    attack(
        python(raw).with_output_bytes(cap),
        RunStatus::OutputLimit,
        QUICK,
    );
    let errors = "import sys\nwhile True:\n    sys.stderr.write('e' * 4096)";
    let outcome = attack(
        python(errors).with_output_bytes(cap),
        RunStatus::OutputLimit,
        QUICK,
    );
    assert!(outcome.stderr.len() <= cap as usize + 200);
}

#[test]
fn exit_before_printing_the_answer_prints_nothing() {
    let outcome = attack(
        RunRequest::python("exit(0)\nprint(int(input()) * 2)", "21\n"),
        RunStatus::Ok,
        QUICK,
    );
    assert_eq!((outcome.exit_code, outcome.stdout.as_str()), (0, ""));
    let outcome = attack(python("import sys\nsys.exit(3)"), RunStatus::Ok, QUICK);
    assert_eq!(outcome.exit_code, 3);
    assert!(!outcome.success());
}

#[test]
fn globals_do_not_survive_a_run() {
    let sandbox = sandbox();
    let first = sandbox.run(&python(
        "import math, sys\n__builtins__.LEAK = 42\nmath.pi = 3\nsys.modules['leak'] = 1\nLEAK2 = 7\nprint('set')",
    ));
    assert_eq!(first.stdout, "set\n", "{}", first.stderr);
    prints(
        "import math, sys\nprint(getattr(__builtins__, 'LEAK', None), math.pi, 'leak' in sys.modules, 'LEAK2' in globals())",
        "None 3.141592653589793 False False",
    );
}

#[test]
fn a_run_never_sees_another_runs_input() {
    let sandbox = sandbox();
    let secret = sandbox.run(&RunRequest::python("print(len(input()))", "SECRET-123\n"));
    assert_eq!(secret.stdout, "10\n");
    prints("import sys\nprint(repr(sys.stdin.read()))", "''");
    // Runs in parallel each read exactly their own stdin.
    let requests: Vec<RunRequest> = (0..16)
        .map(|i| {
            RunRequest::python(
                "import sys\nprint(sys.stdin.read().strip())",
                format!("input-{i}\n"),
            )
        })
        .collect();
    for (i, outcome) in sandbox.run_many(&requests).iter().enumerate() {
        assert_eq!(outcome.stdout, format!("input-{i}\n"));
    }
}

#[test]
fn closing_stdout_or_breaking_builtins_only_hurts_that_run() {
    let outcome = attack(
        python("import os\nos.close(1)\nos.close(0)\nprint('gone')"),
        RunStatus::RuntimeError,
        QUICK,
    );
    assert_eq!(outcome.stdout, "");
    attack(
        python("__builtins__.print = None\n__builtins__.__import__ = None\nprint(1)"),
        RunStatus::RuntimeError,
        QUICK,
    );
}

#[test]
fn a_self_deadlock_ends_in_a_typed_outcome() {
    let limit = Duration::from_millis(800);
    let code = "import sys\nlock = sys.modules['_thread'].allocate_lock()\nlock.acquire()\nlock.acquire()\nprint('unreachable')";
    let outcome = sandbox().run(&RunRequest::python(code, "").with_timeout(limit));
    assert!(
        matches!(
            outcome.status,
            RunStatus::RuntimeError | RunStatus::Deadline | RunStatus::OutOfFuel
        ),
        "{:?}: {}",
        outcome.status,
        outcome.stderr
    );
    assert_eq!(outcome.stdout, "");
    assert!(
        outcome.elapsed <= limit.mul_f64(1.1),
        "{:?}",
        outcome.elapsed
    );
    attack(python("print(1)"), RunStatus::Ok, QUICK);
}

#[test]
fn requests_cannot_raise_limits_past_the_ceiling() {
    let sandbox = sandbox();
    let asked = RunRequest::python("", "")
        .with_timeout(Duration::from_secs(100_000))
        .with_memory_bytes(1 << 40);
    let limits = sandbox.limits_for(&asked);
    assert!(limits.timeout <= Duration::from_secs(600));
    assert!(limits.memory_bytes <= 1 << 30);
    let other = RunRequest {
        language: "bash".into(),
        ..python("ls")
    };
    assert_eq!(sandbox.run(&other).status, RunStatus::Unsupported);
}
