//! Host-side bindings of the Python runner's own world (`geode:python-runner@0.1.0`, in
//! `plugins/python-runner/wit`), separate from the `geode:env` contract.

wasmtime::component::bindgen!({
    path: "../../plugins/python-runner/wit",
    world: "python-runner",
});
