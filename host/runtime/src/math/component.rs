//! The math grader component compiled into this build (by `host/runtime/build.rs` running
//! `plugins/math-grader/build.sh`), or why it is missing.

include!(concat!(env!("OUT_DIR"), "/math_grader.rs"));

/// The embedded component, or the reason the build could not produce it.
pub fn embedded() -> Result<&'static [u8], String> {
    if MATH_GRADER_WASM.is_empty() {
        return Err(format!(
            "the math grader component was not built: {MATH_GRADER_BUILD_ERROR}"
        ));
    }
    Ok(MATH_GRADER_WASM)
}
