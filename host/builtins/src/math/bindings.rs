//! Host-side bindings of the math grader's own world (`geode:math-grader@0.1.0`, in
//! `plugins/math-grader/wit`), separate from the `geode:env` contract.

wasmtime::component::bindgen!({
    path: "../../plugins/math-grader/wit",
    world: "math-grader",
});
