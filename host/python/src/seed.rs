//! [`Seed`]: a seed from Python. Python code seeds with any `int` (`time.time_ns() * i`, a
//! negative number, a hash), as `random.seed` allows; the runtime's seeds are 64 bits. Ints that
//! fit are used as they are. Any other int is reduced the way `random.seed` reads an int: its
//! absolute value, all of its bits, so two different big seeds still give different episodes.

use pyo3::prelude::*;
use pyo3::types::PyInt;

/// A seed given from Python, reduced to 64 bits (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seed(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(seed) = obj.extract::<u64>() {
            return Ok(Seed(seed));
        }
        // `__index__` accepts numpy integers as well as Python ints.
        let int = obj
            .call_method0("__index__")
            .map_err(|_| {
                let type_name = obj
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".to_owned(), |n| n.to_string());
                pyo3::exceptions::PyTypeError::new_err(format!(
                    "a seed must be an int or None, got `{type_name}`"
                ))
            })?
            .cast_into::<PyInt>()?;
        let magnitude = int.call_method0("__abs__")?;
        match magnitude.extract::<u64>() {
            Ok(seed) => Ok(Seed(seed)),
            Err(_) => fold(&magnitude).map(Seed),
        }
    }
}

/// Folds a non-negative int wider than 64 bits into 64 bits, limb by limb from the lowest.
fn fold(int: &Bound<'_, PyAny>) -> PyResult<u64> {
    let mut rest = int.clone();
    let mut state = 0u64;
    while rest.is_truthy()? {
        let limb: u64 = rest.bitand(u64::MAX)?.extract()?;
        state = mix(state ^ limb);
        rest = rest.rshift(64)?;
    }
    Ok(state)
}

/// SplitMix64's finalizer: every input bit affects every output bit.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `geode._geode.reduce_seed(seed)`: the 64-bit seed the runtime uses for Python int `seed`
/// (for seeds that travel inside a config, such as a dataset env's `seed` key).
#[pyfunction]
pub fn reduce_seed(seed: Seed) -> u64 {
    seed.0
}

/// The runtime seeds of optional Python seeds.
pub fn unwrap_all(seeds: Vec<Option<Seed>>) -> Vec<Option<u64>> {
    seeds.into_iter().map(|s| s.map(|s| s.0)).collect()
}
