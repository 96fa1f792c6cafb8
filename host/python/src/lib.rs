//! # geode-python
//!
//! The native half of the `geode` Python package (`import geode as gem`): envs, vector envs and
//! the async pool of `geode-runtime`, with every env call made with the GIL released. The
//! Python half (`python/geode`) adds GEM's module layout, return types and the wrappers that
//! need Python objects (chat templates).

/// Results are allocated on the threads that step the envs and freed wherever the caller drops
/// them; mimalloc handles that cross-thread traffic far better than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod batch;
mod bridge;
mod columns;
mod convert;
mod env;
mod errors;
mod eval;
mod math;
mod multiagent;
mod precompile;
mod registry;
mod sandbox;
mod seed;
mod slot_env;
mod tool;
mod vector;

use pyo3::prelude::*;

/// The `geode._geode` extension module.
#[pymodule]
fn _geode(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<env::PyEnv>()?;
    m.add_class::<vector::PyVectorEnv>()?;
    m.add_class::<slot_env::PySlotEnv>()?;
    m.add_class::<tool::PyTool>()?;
    m.add_class::<multiagent::PyMultiAgentEnv>()?;
    m.add_class::<multiagent::PyMultiAgentVec>()?;
    m.add_function(wrap_pyfunction!(multiagent::make_multiagent, m)?)?;
    m.add_function(wrap_pyfunction!(env::make, m)?)?;
    m.add_function(wrap_pyfunction!(vector::make_vec, m)?)?;
    m.add_function(wrap_pyfunction!(tool::make_tool, m)?)?;
    m.add(
        "MAX_TOOL_USE_MESSAGE",
        geode_runtime::wrappers::MAX_TOOL_USE_MESSAGE,
    )?;
    m.add_function(wrap_pyfunction!(math::grade_math, m)?)?;
    m.add_function(wrap_pyfunction!(registry::list_envs, m)?)?;
    m.add_function(wrap_pyfunction!(registry::load_plugin, m)?)?;
    m.add_function(wrap_pyfunction!(registry::add_data_dir, m)?)?;
    m.add_function(wrap_pyfunction!(registry::contract_version, m)?)?;
    m.add_function(wrap_pyfunction!(registry::wrapper_tools, m)?)?;
    m.add_function(wrap_pyfunction!(seed::reduce_seed, m)?)?;
    m.add_function(wrap_pyfunction!(eval::eval_json, m)?)?;
    m.add_function(wrap_pyfunction!(precompile::precompile, m)?)?;
    sandbox::register(m)?;
    Ok(())
}
