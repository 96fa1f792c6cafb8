//! numpy in the code sandbox: programs that name numpy run in the runner built with it and get
//! the same results as CPython with numpy on a machine; programs that do not name it run in the
//! plain runner, and one that imports it in a way its text does not show is run again with it.

use geode_runtime::sandbox::{RunRequest, RunStatus, Sandbox};
use std::time::Duration;

fn sandbox() -> Sandbox {
    geode_tests::numpy_ready();
    geode_tests::runtime()
        .sandbox()
        .expect("the code sandbox loads")
}

fn stdout_of(code: &str) -> String {
    let outcome =
        sandbox().run(&RunRequest::python(code, "").with_timeout(Duration::from_secs(20)));
    assert_eq!(outcome.status, RunStatus::Ok, "{code}: {}", outcome.stderr);
    outcome.stdout
}

#[test]
fn numpy_computes_what_it_computes_natively() {
    // Expected values printed by CPython 3.11 with numpy 2.x on x86_64.
    let out = stdout_of(
        "import numpy as np\n\
         a = np.arange(12, dtype=np.float64).reshape(3, 4)\n\
         print(a.sum(), a.mean(axis=0).tolist(), (a.T @ a)[0].tolist())\n\
         print(np.round(np.linalg.inv(np.array([[2.0, 1.0], [1.0, 3.0]])), 6).tolist())\n\
         print(np.round(np.linalg.eigvalsh(np.array([[2.0, 0.0], [0.0, 3.0]])), 6).tolist())\n\
         print(np.round(np.abs(np.fft.fft([1.0, 2.0, 3.0, 4.0])), 6).tolist())\n\
         print(np.random.default_rng(0).integers(0, 10, 5).tolist())\n\
         print(np.round(np.random.RandomState(1).rand(2), 6).tolist())\n\
         print(np.unique([3, 3, 1, 2]).tolist(), np.sort(np.array([3.5, -1.0, 2.0])).tolist())\n\
         print(np.char.upper(np.array(['ab', 'c'])).tolist(), np.int64(2) ** 62)",
    );
    assert_eq!(
        out,
        "66.0 [4.0, 5.0, 6.0, 7.0] [80.0, 92.0, 104.0, 116.0]\n\
         [[0.6, -0.2], [-0.2, 0.4]]\n\
         [2.0, 3.0]\n\
         [10.0, 2.828427, 2.0, 2.828427]\n\
         [8, 6, 5, 2, 3]\n\
         [0.417022, 0.720324]\n\
         [1, 2, 3] [-1.0, 2.0, 3.5]\n\
         ['AB', 'C'] 4611686018427387904\n"
    );
}

#[test]
fn the_default_integer_is_64_bit_as_on_a_64_bit_machine() {
    // wasm32's pointers are 32-bit; numpy's default integer must not be, or sums wrap around.
    let out = stdout_of(
        "import numpy as np\n\
         print(np.arange(10**5).sum(), (np.array([2**31 - 1]) + 1).tolist())\n\
         print(np.array([1, 2]).dtype, np.zeros(2, dtype=int).dtype, np.dtype('int'), np.int_.__name__)\n\
         print(np.cumsum([2**30] * 4).tolist(), np.ones(3, bool).sum().dtype, np.array([10**12]).dtype)\n\
         print(np.prod(np.arange(1, 21)), np.array([7], dtype=np.int8).sum().dtype, np.arange(3.0).dtype)",
    );
    assert_eq!(
        out,
        "4999950000 [2147483648]\n\
         int64 int64 int64 int64\n\
         [1073741824, 2147483648, 3221225472, 4294967296] int64 int64\n\
         2432902008176640000 int64 float64\n"
    );
}

#[test]
fn only_programs_that_need_numpy_run_with_it() {
    // The plain runner has no numpy; the numpy runner has it loaded.
    let probe = "import sys\nprint(('nu' + 'mpy') in sys.modules)";
    assert_eq!(stdout_of(probe), "False\n");
    assert_eq!(stdout_of(&format!("import numpy\n{probe}")), "True\n");
    // An import the text does not show fails in the plain runner and runs again with numpy.
    assert_eq!(
        stdout_of("np = __import__('nu' + 'mpy')\nprint(np.arange(5).sum())"),
        "10\n"
    );
}

#[test]
fn a_rerun_with_numpy_gets_only_what_the_first_run_left() {
    // The rerun after a hidden import must not double the request's budget: the program's
    // work before the import is done twice, and the fuel for 1.5 times it runs out.
    let sandbox = sandbox();
    let work = "s = 0\nfor i in range(300_000):\n    s += i * i\n";
    let alone = sandbox.run(&RunRequest::python(work, ""));
    assert_eq!(alone.status, RunStatus::Ok, "{}", alone.stderr);
    let budget = alone.fuel_used * 3 / 2;
    let hidden = format!("{work}np = __import__('nu' + 'mpy')\nprint(np.int64(s))");
    let limited = RunRequest::python(hidden.as_str(), "").with_fuel(budget);
    let outcome = sandbox.run(&limited);
    assert_eq!(outcome.status, RunStatus::OutOfFuel, "{}", outcome.stderr);
    assert!(
        outcome.fuel_used >= alone.fuel_used && outcome.fuel_used <= budget,
        "both runs used {} of {budget}",
        outcome.fuel_used
    );
    // With room for both runs, the answer comes back, and both runs are counted: the failed
    // first run (measured on a sandbox without numpy) and the work again in the numpy runner
    // (measured by a program that names numpy in a comment, so it starts there).
    let roomy = RunRequest::python(hidden.as_str(), "").with_fuel(alone.fuel_used * 4);
    let outcome = sandbox.run(&roomy);
    assert_eq!(
        (outcome.status, outcome.stdout.as_str()),
        (RunStatus::Ok, "8999955000050000\n"),
        "{}",
        outcome.stderr
    );
    let first = plain_only().run(&RunRequest::python(hidden.as_str(), ""));
    assert!(
        first.stderr.contains("No module named 'numpy'"),
        "{}",
        first.stderr
    );
    let again = sandbox.run(&RunRequest::python(format!("# numpy\n{work}"), ""));
    assert_eq!(again.status, RunStatus::Ok, "{}", again.stderr);
    assert!(
        outcome.fuel_used > first.fuel_used + again.fuel_used,
        "both runs used {}; the first alone {}, the work in the numpy runner {}",
        outcome.fuel_used,
        first.fuel_used,
        again.fuel_used
    );
}

/// A sandbox with the plain runner only.
fn plain_only() -> Sandbox {
    let runtime = geode_tests::runtime();
    let plain = geode_builtins::python_runner_component().expect("the runner was built");
    Sandbox::new(runtime.engine(), runtime.cache(), plain).expect("the runner loads")
}

#[test]
fn a_numpy_runner_that_does_not_load_is_named_in_the_error() {
    // A broken numpy runner leaves plain programs alone and tells numpy programs why.
    let runtime = geode_tests::runtime();
    let sandbox = plain_only().with_numpy_runner(
        runtime.engine(),
        runtime.cache(),
        b"not a component".into(),
    );
    let plain_run = sandbox.run(&RunRequest::python("print(6 * 7)", ""));
    assert_eq!(
        (plain_run.status, plain_run.stdout.as_str()),
        (RunStatus::Ok, "42\n")
    );
    let numpy_run = sandbox.run(&RunRequest::python("import numpy", ""));
    assert_eq!(numpy_run.status, RunStatus::RuntimeError);
    assert!(
        numpy_run.stderr.contains("ModuleNotFoundError")
            && numpy_run.stderr.contains("the numpy runner does not load"),
        "{}",
        numpy_run.stderr
    );
}

#[test]
fn a_build_without_numpy_says_so_to_programs_that_import_it() {
    // What a `geode` built without the `numpy` feature does: plain programs run, and a program
    // that imports numpy (however it names it) fails with the reason in its stderr.
    let sandbox = plain_only().without_numpy_runner("numpy left out on purpose".into());
    let plain_run = sandbox.run(&RunRequest::python("print(6 * 7)", ""));
    assert_eq!(plain_run.stdout, "42\n", "{}", plain_run.stderr);
    for code in ["import numpy", "__import__('nu' + 'mpy')"] {
        let run = sandbox.run(&RunRequest::python(code, ""));
        assert_eq!(run.status, RunStatus::RuntimeError, "{code}");
        assert!(
            run.stderr.contains("ModuleNotFoundError")
                && run.stderr.contains("numpy left out on purpose"),
            "{code}: {}",
            run.stderr
        );
    }
}
