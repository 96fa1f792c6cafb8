//! [`Columns`]: a vector step's result tuple, filled while the step runs. The stepping threads
//! hand each unit's results over as soon as it is stepped (see `VectorEnv::step_streamed`); the
//! calling thread takes the GIL for a moment and turns them into Python objects while the other
//! threads keep stepping.

use crate::batch::InfoCache;
use crate::convert::str_to_py;
use crate::errors::{self, IntoPyResult};
use geode_runtime::UnitStep;
use numpy::PyArray1;
use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use pyo3::{PyTraverseError, PyVisit};
use std::sync::{Mutex, PoisonError};

/// The raw tuple of a batch, under construction: `(indices, observations, rewards, terminated,
/// truncated, infos, final_observations, final_infos, errors)`, rewards and flags as numpy
/// arrays (float64, bool), the rest lists; `indices` is `None` for a step of every slot in
/// order, and the last three are `None` when no entry has one. Every Python object is made in [`Columns::take`], while other threads
/// still step: the lists when the first slot arrives (the rare ones when their first value
/// does), each entry as its slot arrives. [`Columns::finish`] only wraps the numeric columns
/// and builds the tuple, so little is left for the time when no env steps.
pub struct Columns {
    /// The slot index of each entry.
    indices: Vec<usize>,
    /// Each slot's entry (`u32::MAX` for slots not in this step).
    entry_of: Vec<u32>,
    /// Observations and infos, once the first slot arrived.
    lists: Option<(SlotList, SlotList)>,
    rewards: Vec<f64>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    /// Rare columns, `None` until some entry has a value.
    final_observations: Option<SlotList>,
    final_infos: Option<SlotList>,
    errors: Option<SlotList>,
    info_cache: InfoCache,
    /// Whether the step covers every slot in order (the tuple's indices are then `None`).
    all_slots: bool,
    /// The first conversion that failed; the step's result is this error.
    failure: Option<PyErr>,
    /// The vector env's previous result, released at the first take (see [`LastResult`]).
    previous: Option<Py<PyAny>>,
}

/// The last result tuple a vector env returned, kept alive until its next step. A training
/// loop drops a step's result just before it asks for the next one; freeing its few hundred
/// Python objects then is work that no env step runs beside. Kept here, they are freed by the
/// next step's first take of finished slots, while the other threads step.
#[derive(Default)]
pub struct LastResult(Mutex<Option<Py<PyAny>>>);

impl LastResult {
    /// Takes the kept result out, to pass to [`Columns::new`].
    pub fn take(&self) -> Option<Py<PyAny>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }

    /// Keeps `result` until the next step.
    pub fn keep(&self, result: &Bound<'_, PyTuple>) {
        let kept = Some(result.clone().into_any().unbind());
        // A result kept meanwhile by a step on another thread is released here.
        drop(std::mem::replace(
            &mut *self.0.lock().unwrap_or_else(PoisonError::into_inner),
            kept,
        ));
    }

    /// Shows the kept result to Python's cycle collector (its owner's `__traverse__`). While a
    /// step holds it, the collector does not see it, which only delays a collection.
    pub fn traverse(&self, visit: &PyVisit<'_>) -> Result<(), PyTraverseError> {
        if let Ok(kept) = self.0.try_lock()
            && let Some(result) = &*kept
        {
            visit.call(result)?;
        }
        Ok(())
    }
}

/// The actions of a whole-batch step, copied into one buffer while the GIL is held (so no
/// Python object needs to stay referenced while the envs step without it).
#[derive(Default)]
struct ActionTexts {
    text: String,
    ends: Vec<usize>,
}

impl ActionTexts {
    /// The strings of `actions`: a list (read by index, the common case) or any other sequence,
    /// each checked to be a `str`.
    fn read(actions: &Bound<'_, PyAny>) -> PyResult<Self> {
        let mut out = ActionTexts::default();
        match actions.cast::<PyList>() {
            Ok(list) => {
                // Room for typical short actions, so the text grows once or not at all.
                out.text.reserve(list.len() * 32);
                out.ends.reserve(list.len());
                for (k, action) in list.iter().enumerate() {
                    out.push(k, &action)?;
                }
            }
            Err(_) => {
                for (k, action) in actions.try_iter()?.enumerate() {
                    out.push(k, &action?)?;
                }
            }
        }
        Ok(out)
    }

    fn push(&mut self, k: usize, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let Ok(text) = action.cast::<PyString>() else {
            let kind = action.get_type().name()?;
            return Err(PyTypeError::new_err(format!(
                "actions[{k}] is {kind}, not str"
            )));
        };
        self.text.push_str(text.to_str()?);
        self.ends.push(self.text.len());
        Ok(())
    }

    /// Each action's text.
    fn texts(&self) -> Vec<&str> {
        let mut start = 0;
        self.ends
            .iter()
            .map(|&end| {
                let text = &self.text[start..end];
                start = end;
                text
            })
            .collect()
    }
}

/// A whole-batch step for Python: the actions copied out of the Python strings, `step` run with
/// the GIL released and given a `take` that converts finished slots (it takes the GIL for a
/// moment each time), the result tuple kept in `last` until the next step. The tuple's indices
/// are `None`: every slot, in order.
pub fn step_all<'py>(
    py: Python<'py>,
    actions: &Bound<'py, PyAny>,
    last: &LastResult,
    step: impl FnOnce(&[&str], &(dyn Fn(UnitStep) + Sync)) -> geode_runtime::Result<()> + Send,
) -> PyResult<Bound<'py, PyTuple>> {
    let actions = ActionTexts::read(actions)?;
    let texts = actions.texts();
    let columns = Columns::for_all_slots(texts.len(), last.take());
    let result = convert_streamed(py, columns, |take| step(&texts, take))?;
    last.keep(&result);
    Ok(result)
}

/// A partial step for Python: the slots of `pairs` (distinct), each with its action, stepped
/// with the GIL released by `step`, which hands each unit's results to the `take` it is given
/// (converted as they arrive, as in [`step_all`]); the result tuple lists the slots in order.
pub fn step_some<'py>(
    py: Python<'py>,
    pairs: &[(usize, &str)],
    step: impl FnOnce(&(dyn Fn(UnitStep) + Sync)) -> geode_runtime::Result<()> + Send,
) -> PyResult<Bound<'py, PyTuple>> {
    let columns = Columns::new(pairs.iter().map(|(i, _)| *i).collect(), None);
    convert_streamed(py, columns, step)
}

/// Runs `step` with the GIL released, converting each unit's results into `columns` as it
/// hands them over; then the finished tuple.
fn convert_streamed<'py>(
    py: Python<'py>,
    mut columns: Columns,
    step: impl FnOnce(&(dyn Fn(UnitStep) + Sync)) -> geode_runtime::Result<()> + Send,
) -> PyResult<Bound<'py, PyTuple>> {
    let handed = HandOver::new(&mut columns);
    py.detach(|| step(&|ready| handed.take(ready))).py_err(py)?;
    handed.finish();
    columns.finish(py)
}

/// Results handed over by the stepping threads (see `VectorEnv::step_streamed`), converted on
/// the calling thread only. Python objects made on two threads in turn would move between the
/// cores' caches with every handover of the GIL (their reference counts, the shared keys of
/// the info dicts, `None`), which measured slower than one thread converting everything. A
/// helper's results wait as the unit left them ([`UnitStep`]): copying them into columns on
/// the helper first made its next step slower by more than the copy (64 envs: 25.6 µs per
/// step through Python with the copy, 23.9 without).
struct HandOver<'a> {
    caller: std::thread::ThreadId,
    columns: Mutex<&'a mut Columns>,
    /// Results stepped on other threads, waiting for the caller.
    waiting: Mutex<Vec<UnitStep>>,
}

impl<'a> HandOver<'a> {
    fn new(columns: &'a mut Columns) -> Self {
        HandOver {
            caller: std::thread::current().id(),
            columns: Mutex::new(columns),
            waiting: Mutex::default(),
        }
    }

    /// Converts `ready` and whatever waits when called on the calling thread (which holds no
    /// GIL); leaves `ready` waiting otherwise.
    fn take(&self, ready: UnitStep) {
        if std::thread::current().id() != self.caller {
            lock(&self.waiting).push(ready);
            return;
        }
        let mut columns = lock(&self.columns);
        Python::attach(|py| {
            columns.take(py, &ready);
            let waiting = std::mem::take(&mut *lock(&self.waiting));
            for batch in &waiting {
                columns.take(py, batch);
            }
        });
    }

    /// Converts the results still waiting, once the step is over (with the GIL).
    fn finish(self) {
        let waiting = self
            .waiting
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let columns = self
            .columns
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        Python::attach(|py| {
            for batch in &waiting {
                columns.take(py, batch);
            }
        });
    }
}

fn lock<T>(value: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    value.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Columns {
    /// Columns for a step of the slots `indices` (distinct), in that order, every entry still
    /// unset. `previous` is released at the first take.
    pub fn new(indices: Vec<usize>, previous: Option<Py<PyAny>>) -> Self {
        let n = indices.len();
        let slots = indices.iter().max().map_or(0, |&i| i + 1);
        let mut entry_of = vec![u32::MAX; slots];
        for (entry, &index) in indices.iter().enumerate() {
            entry_of[index] = entry as u32;
        }
        Columns {
            indices,
            entry_of,
            lists: None,
            rewards: vec![0.0; n],
            terminated: vec![false; n],
            truncated: vec![false; n],
            final_observations: None,
            final_infos: None,
            errors: None,
            info_cache: InfoCache::default(),
            all_slots: false,
            failure: None,
            previous,
        }
    }

    /// Columns for a step of every slot `0..n`, in order: the tuple's indices are `None`.
    pub fn for_all_slots(n: usize, previous: Option<Py<PyAny>>) -> Self {
        Columns {
            all_slots: true,
            ..Self::new((0..n).collect(), previous)
        }
    }

    /// Fills in the entries of finished slots (`ready.indices` says which).
    pub fn take(&mut self, py: Python<'_>, ready: &UnitStep) {
        drop(self.previous.take());
        for k in 0..ready.len() {
            if self.failure.is_none()
                && let Err(e) = self.put(py, ready, k)
            {
                self.failure = Some(e);
            }
        }
    }

    fn put(&mut self, py: Python<'_>, ready: &UnitStep, k: usize) -> PyResult<()> {
        let n = self.rewards.len();
        let slot = ready.index(k);
        let entry = match self.entry_of.get(slot) {
            Some(&entry) if entry != u32::MAX => entry as usize,
            _ => {
                return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                    "a result for slot {slot}, which this step did not include"
                )));
            }
        };
        let (observations, infos) = match &self.lists {
            Some(lists) => lists,
            None => self
                .lists
                .insert((SlotList::new(py, n)?, SlotList::new(py, n)?)),
        };
        observations.set(entry, str_to_py(py, ready.observation(k))?);
        infos.set(entry, self.info_cache.get(py, ready.info(k))?.into_any());
        self.rewards[entry] = ready.reward(k);
        self.terminated[entry] = ready.terminated(k);
        self.truncated[entry] = ready.truncated(k);
        if let Some(observation) = ready.final_observation(k) {
            let observation = str_to_py(py, observation)?;
            set_rare(py, &mut self.final_observations, n, entry, observation)?;
        }
        if let Some(info) = ready.final_info(k) {
            let dict = self.info_cache.get(py, info)?;
            set_rare(py, &mut self.final_infos, n, entry, dict.into_any())?;
        }
        if let Some(error) = ready.error(k) {
            set_rare(py, &mut self.errors, n, entry, errors::exception(py, error))?;
        }
        Ok(())
    }

    /// The finished tuple, or the first conversion error.
    pub fn finish(mut self, py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
        drop(self.previous.take());
        if let Some(e) = self.failure {
            return Err(e);
        }
        let n = self.rewards.len();
        let (observations, infos) = match self.lists {
            Some((observations, infos)) => (observations.finish(py), infos.finish(py)),
            None => (
                SlotList::new(py, n)?.finish(py),
                SlotList::new(py, n)?.finish(py),
            ),
        };
        let rare = |list: Option<SlotList>| match list {
            Some(list) => list.finish(py).into_any(),
            None => py.None().into_bound(py),
        };
        let indices = match self.all_slots {
            true => py.None().into_bound(py),
            false => PyList::new(py, self.indices)?.into_any(),
        };
        PyTuple::new(
            py,
            [
                indices,
                observations.into_any(),
                PyArray1::from_slice(py, &self.rewards).into_any(),
                PyArray1::from_slice(py, &self.terminated).into_any(),
                PyArray1::from_slice(py, &self.truncated).into_any(),
                infos.into_any(),
                rare(self.final_observations),
                rare(self.final_infos),
                rare(self.errors),
            ],
        )
    }
}

/// A list of `n` entries filled in any order, made without `None`s to overwrite: CPython's
/// `PyList_New` leaves the entries empty (NULL), which its list code and the cycle collector
/// accept, and [`SlotList::finish`] gives the list to Python only once every entry is set
/// (entries left empty become `None`). At 64 envs, two lists set this way instead of through
/// `list[i] = x` on lists of `None` save about 1 µs per step.
struct SlotList(Py<PyList>);

impl SlotList {
    fn new(py: Python<'_>, n: usize) -> PyResult<Self> {
        let len = ffi::Py_ssize_t::try_from(n)
            .map_err(|_| pyo3::exceptions::PyOverflowError::new_err("too many entries"))?;
        // SAFETY: `PyList_New` returns a new reference, or NULL with an exception set.
        let list = unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyList_New(len))? };
        // SAFETY: `PyList_New` made a list.
        Ok(SlotList(
            unsafe { list.cast_into_unchecked::<PyList>() }.unbind(),
        ))
    }

    /// Sets entry `index` (below the length) to `value`, releasing what it held.
    fn set(&self, index: usize, value: Bound<'_, PyAny>) {
        let list = self.0.as_ptr();
        assert!(index < self.len(), "entry {index} is out of range");
        // SAFETY: the GIL is held (`value` is bound to it), `index` is in range, and the list
        // takes over `value`'s reference; the entry's previous value (or NULL) is released.
        unsafe {
            let previous = ffi::PyList_GET_ITEM(list, index as ffi::Py_ssize_t);
            ffi::PyList_SET_ITEM(list, index as ffi::Py_ssize_t, value.into_ptr());
            ffi::Py_XDECREF(previous);
        }
    }

    fn len(&self) -> usize {
        // SAFETY: a list object's size, read without the GIL-bound API (it never changes).
        unsafe { ffi::Py_SIZE(self.0.as_ptr()) as usize }
    }

    /// The list, every entry still empty set to `None`.
    fn finish(self, py: Python<'_>) -> Bound<'_, PyList> {
        let list = self.0.as_ptr();
        for index in 0..self.len() {
            // SAFETY: in range; an empty entry takes a new reference to `None`.
            unsafe {
                if ffi::PyList_GET_ITEM(list, index as ffi::Py_ssize_t).is_null() {
                    ffi::PyList_SET_ITEM(list, index as ffi::Py_ssize_t, py.None().into_ptr());
                }
            }
        }
        self.0.into_bound(py)
    }
}

/// Sets entry `index` of a rare column, making it at its first value.
fn set_rare<'py>(
    py: Python<'py>,
    column: &mut Option<SlotList>,
    n: usize,
    index: usize,
    value: Bound<'py, PyAny>,
) -> PyResult<()> {
    let list = match column {
        Some(list) => list,
        None => column.insert(SlotList::new(py, n)?),
    };
    list.set(index, value);
    Ok(())
}
