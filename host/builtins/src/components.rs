//! The CPython components compiled into this build (by `build.rs` running their `build.sh`),
//! or why each is missing: the Python runners of the code sandbox (without and with numpy) and
//! the math grader.

include!(concat!(env!("OUT_DIR"), "/python_runner.rs"));
include!(concat!(env!("OUT_DIR"), "/python_runner_numpy.rs"));
include!(concat!(env!("OUT_DIR"), "/math_grader.rs"));

/// `wasm`, or `error` when the build left it empty.
fn embedded(what: &str, wasm: &'static [u8], error: &str) -> Result<&'static [u8], String> {
    if wasm.is_empty() {
        return Err(format!("the {what} component was not built: {error}"));
    }
    Ok(wasm)
}

/// geode's Python runner component (`plugins/python-runner`), or why the build could not
/// produce it.
pub fn python_runner_component() -> Result<&'static [u8], String> {
    embedded(
        "Python runner",
        python_runner_wasm(),
        PYTHON_RUNNER_BUILD_ERROR,
    )
}

/// geode's Python runner component with numpy (`plugins/python-runner/build.sh --with-numpy`),
/// or why the build could not produce it.
pub fn python_runner_numpy_component() -> Result<&'static [u8], String> {
    embedded(
        "Python runner with numpy",
        python_runner_numpy_wasm(),
        PYTHON_RUNNER_NUMPY_BUILD_ERROR,
    )
}

/// geode's math grader component (`plugins/math-grader`), or why the build could not produce
/// it.
pub fn math_grader_component() -> Result<&'static [u8], String> {
    embedded("math grader", math_grader_wasm(), MATH_GRADER_BUILD_ERROR)
}

/// Every component this build ships, named: the built-in plugins (by their file stem), then the
/// Python runners and the math grader (those the build produced).
pub fn shipped_components() -> Vec<(String, &'static [u8])> {
    let plugins = crate::plugins()
        .iter()
        .map(|(name, wasm)| ((*name).to_owned(), *wasm));
    let cpython = [
        ("python-runner", python_runner_component()),
        ("python-runner-numpy", python_runner_numpy_component()),
        ("math-grader", math_grader_component()),
    ]
    .into_iter()
    .filter_map(|(name, wasm)| Some((name.to_owned(), wasm.ok()?)));
    plugins.chain(cpython).collect()
}
