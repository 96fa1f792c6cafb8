//! [`PyTool`]: one tool (the host's `tool:python`, or a tool plugin's) as a Python object, for
//! the Python tool wrapper (`geode.tools`). Every call runs with the GIL released.

use crate::convert;
use crate::errors::IntoPyResult;
use crate::registry;
use geode_runtime::Limits;
use geode_runtime::tool::Tool;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Mutex, PoisonError};

/// A tool made by id, with config overrides.
#[pyclass(name = "Tool", module = "geode._geode")]
pub struct PyTool {
    id: String,
    tool_type: String,
    tool: Mutex<Box<dyn Tool>>,
}

/// Makes tool `tool_id` (`tool:python`, or a tool plugin's id) with config overrides `config`.
#[pyfunction]
#[pyo3(signature = (tool_id, config=None))]
pub fn make_tool(
    py: Python<'_>,
    tool_id: &str,
    config: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyTool> {
    let overrides = convert::overrides(config)?;
    let tool = py
        .detach(|| registry::current()?.make_tool(tool_id, &overrides, &Limits::default()))
        .py_err(py)?;
    Ok(PyTool {
        id: tool_id.to_owned(),
        tool_type: tool.tool_type().to_owned(),
        tool: Mutex::new(tool),
    })
}

impl PyTool {
    fn with_tool<R: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut dyn Tool) -> geode_runtime::Result<R> + Send,
    ) -> PyResult<R> {
        py.detach(|| f(&mut **self.tool.lock().unwrap_or_else(PoisonError::into_inner)))
            .py_err(py)
    }
}

#[pymethods]
impl PyTool {
    /// The tool's id.
    #[getter]
    fn id(&self) -> &str {
        &self.id
    }

    /// GEM's kind of tool (`python_code` for `tool:python`; the id for plugin tools).
    #[getter]
    fn tool_type(&self) -> &str {
        &self.tool_type
    }

    /// How to call the tool, for the agent's prompt.
    fn instructions(&self, py: Python<'_>) -> PyResult<String> {
        self.with_tool(py, |tool| tool.instructions())
    }

    /// Runs the tool on `action`: `None` when the action is not addressed to it, else
    /// `(observation, has_error, parsed_action)`.
    fn execute(&self, py: Python<'_>, action: &str) -> PyResult<Option<(String, bool, String)>> {
        let out = self.with_tool(py, |tool| tool.execute(action))?;
        Ok(out.map(|o| (o.observation, o.has_error, o.parsed_action)))
    }

    fn __repr__(&self) -> String {
        format!("Tool({:?})", self.id)
    }
}
