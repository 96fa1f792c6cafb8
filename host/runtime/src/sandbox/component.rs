//! The Python runner component compiled into this build (by `host/runtime/build.rs` running
//! `plugins/python-runner/build.sh`), or why it is missing.

include!(concat!(env!("OUT_DIR"), "/python_runner.rs"));

/// The embedded component, or the reason the build could not produce it.
pub fn embedded() -> Result<&'static [u8], String> {
    if PYTHON_RUNNER_WASM.is_empty() {
        return Err(format!(
            "the Python runner component was not built: {PYTHON_RUNNER_BUILD_ERROR}"
        ));
    }
    Ok(PYTHON_RUNNER_WASM)
}
