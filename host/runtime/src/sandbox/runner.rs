//! [`Sandbox`]: runs programs in the Python runner component, one fresh instance per run, under
//! fuel, wall-clock, memory and output limits.

use super::bindings::{PythonRunner, PythonRunnerPre, RunResult};
use super::numpy::{NumpyRunner, missed_numpy, names_numpy};
use super::request::{RunOutcome, RunRequest, RunStatus, SandboxLimits};
use super::service::{ComponentService, Finished};
use super::state::RunState;
use super::stop::{Interrupted, StopSignal};
use crate::cache::CompileCache;
use crate::wasi_virtual::SleptPastDeadline;
use crate::workspace::lock;
use rayon::prelude::*;
use std::borrow::Cow;
use std::sync::Arc;
use std::time::Instant;
use wasmtime::{Engine, Trap};

/// A code sandbox. Cheap to clone; share it across threads: every run gets its own store and
/// instance, built from a pre-instantiated template over a copy-on-write memory image.
#[derive(Clone)]
pub struct Sandbox {
    inner: Arc<SandboxInner>,
}

struct SandboxInner {
    /// The runner's fresh instances (shared by every clone and variant).
    service: ComponentService<PythonRunnerPre<RunState>>,
    /// The runner with numpy, for programs that need it, or why there is none (they then fail
    /// to import it, and their stderr says why).
    numpy: Result<Arc<NumpyRunner>, String>,
    defaults: SandboxLimits,
    ceiling: SandboxLimits,
}

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("defaults", &self.inner.defaults)
            .field("ceiling", &self.inner.ceiling)
            .finish_non_exhaustive()
    }
}

impl Sandbox {
    /// Loads the Python runner component `wasm` on `engine` (compiled once, then from `cache`).
    /// The engine needs fuel and epoch interruption enabled and an epoch ticker running, as the
    /// runtime's engine has.
    pub fn new(engine: &Engine, cache: &CompileCache, wasm: &[u8]) -> wasmtime::Result<Self> {
        let service = ComponentService::load(engine, cache, wasm, PythonRunnerPre::new)?;
        Ok(Sandbox {
            inner: Arc::new(SandboxInner {
                service,
                numpy: Err("this sandbox was given no runner with numpy".into()),
                defaults: SandboxLimits::default_run(),
                ceiling: SandboxLimits::ceiling(),
            }),
        })
    }

    /// The same sandbox, running programs that need numpy in `wasm`, the runner component
    /// built with numpy (`plugins/python-runner/build.sh --with-numpy`). It is compiled the
    /// first time a program names numpy, or fails here for want of it.
    pub fn with_numpy_runner(
        &self,
        engine: &Engine,
        cache: &CompileCache,
        wasm: Cow<'static, [u8]>,
    ) -> Self {
        self.with_numpy(Ok(Arc::new(NumpyRunner::new(engine, cache, wasm))))
    }

    /// The same sandbox without a runner with numpy, for `reason` (which a program that fails
    /// to import numpy gets in its stderr).
    pub fn without_numpy_runner(&self, reason: String) -> Self {
        self.with_numpy(Err(reason))
    }

    fn with_numpy(&self, numpy: Result<Arc<NumpyRunner>, String>) -> Self {
        Sandbox {
            inner: Arc::new(SandboxInner {
                service: self.inner.service.clone(),
                numpy,
                defaults: self.inner.defaults.clone(),
                ceiling: self.inner.ceiling.clone(),
            }),
        }
    }

    /// The same sandbox with other default limits (for requests that leave a limit `None`).
    pub fn with_defaults(&self, defaults: SandboxLimits) -> Self {
        self.with_limits(defaults, self.inner.ceiling.clone())
    }

    /// The same sandbox with other default and ceiling limits.
    pub fn with_limits(&self, defaults: SandboxLimits, ceiling: SandboxLimits) -> Self {
        Sandbox {
            inner: Arc::new(SandboxInner {
                service: self.inner.service.clone(),
                numpy: self.inner.numpy.clone(),
                defaults,
                ceiling,
            }),
        }
    }

    /// The limits a request that sets none runs under.
    pub fn defaults(&self) -> &SandboxLimits {
        &self.inner.defaults
    }

    /// The limits of `request` after defaults and clamping.
    pub fn limits_for(&self, request: &RunRequest) -> SandboxLimits {
        self.inner.defaults.resolve(request, &self.inner.ceiling)
    }

    /// Runs `request` in a fresh instance. Never fails: every way a run can end is a
    /// [`RunStatus`].
    pub fn run(&self, request: &RunRequest) -> RunOutcome {
        self.run_with_stop(request, &StopSignal::new())
    }

    /// Runs `request` like [`run`](Self::run), stopping early when `stop` is raised or its
    /// budget (which runs down while this run goes on) runs out: the outcome is then [`RunStatus::Deadline`] (a run that `stop` prevented
    /// from starting has `elapsed` zero and `fuel_used` zero).
    pub fn run_with_stop(&self, request: &RunRequest, stop: &Arc<StopSignal>) -> RunOutcome {
        let plain = &self.inner.service;
        let numpy = match &self.inner.numpy {
            Ok(numpy) => numpy,
            Err(reason) => {
                let outcome = self.run_on(plain, request, stop);
                return match missed_numpy(&outcome) {
                    true => with_note(outcome, reason),
                    false => outcome,
                };
            }
        };
        if !names_numpy(&request.code) {
            let outcome = self.run_on(plain, request, stop);
            if !missed_numpy(&outcome) {
                return outcome;
            }
            // It imports numpy in a way its text does not show: again, with numpy.
            return match numpy.service() {
                Ok(service) => self.rerun_on(service, request, stop, &outcome),
                Err(reason) => with_note(outcome, reason),
            };
        }
        match numpy.service() {
            Ok(service) => self.run_on(service, request, stop),
            Err(reason) => with_note(self.run_on(plain, request, stop), reason),
        }
    }

    /// Runs `request` again in `service` after `first` (a run of it elsewhere) failed: on what
    /// `first` left of the request's fuel and time, so that both runs together stay within the
    /// request's limits; the outcome counts both runs' fuel and time.
    fn rerun_on(
        &self,
        service: &ComponentService<PythonRunnerPre<RunState>>,
        request: &RunRequest,
        stop: &Arc<StopSignal>,
        first: &RunOutcome,
    ) -> RunOutcome {
        let limits = self.limits_for(request);
        let mut rest = request.clone();
        rest.timeout = Some(limits.timeout.saturating_sub(first.elapsed));
        rest.fuel = limits.fuel.map(|fuel| fuel.saturating_sub(first.fuel_used));
        let mut outcome = self.run_on(service, &rest, stop);
        outcome.elapsed += first.elapsed;
        outcome.fuel_used = outcome.fuel_used.saturating_add(first.fuel_used);
        outcome
    }

    /// The runner `code` starts in: the one with numpy when the code names numpy and it loads.
    fn service_for(&self, code: &str) -> &ComponentService<PythonRunnerPre<RunState>> {
        match &self.inner.numpy {
            Ok(numpy) if names_numpy(code) => numpy.service().unwrap_or(&self.inner.service),
            _ => &self.inner.service,
        }
    }

    /// Runs `request` in a fresh instance of `service`.
    fn run_on(
        &self,
        service: &ComponentService<PythonRunnerPre<RunState>>,
        request: &RunRequest,
        stop: &Arc<StopSignal>,
    ) -> RunOutcome {
        if request.language != "python" {
            return RunOutcome::unsupported(format!(
                "language `{}` is not available; this sandbox runs `python`",
                request.language
            ));
        }
        let started = Instant::now();
        let mut limits = self.limits_for(request);
        let mut budget_bound = false;
        // Held until the run ends: the answer's budget runs down while it goes on.
        let (left, _running) = stop.start_run();
        if let Some(left) = left
            && left < limits.timeout
        {
            limits.timeout = left;
            budget_bound = true;
        }
        if stop.is_stopped() || limits.timeout.is_zero() {
            return stopped_before_start(stop, &limits);
        }
        let run = |pre: &PythonRunnerPre<RunState>, store: &mut _| {
            let runner: PythonRunner = pre.instantiate(&mut *store)?;
            runner.call_run(store, &request.code)
        };
        let finish = |done: Finished<'_, RunResult>| {
            let state = done.state;
            let exited = matches!(&done.result, Err(e) if e.downcast_ref::<wasmtime_wasi::I32Exit>().is_some());
            let (status, exit_code, note) = classify(done.result, state, &limits, budget_bound);
            let mut stderr = state.stderr();
            if let Some(note) = note {
                append_line(&mut stderr, &note);
            }
            for mount in &request.mounts {
                if let Some(note) = lock(&mount.tree).take_refusal() {
                    append_line(&mut stderr, &note);
                }
            }
            RunOutcome {
                status,
                exit_code,
                stdout: state.stdout(),
                stderr,
                fuel_used: done.fuel_used,
                elapsed: started.elapsed(),
                stopped: state.stopped(),
                exited,
            }
        };
        service.call(&request.inputs(), &limits, stop.clone(), run, finish)
    }

    /// Measures what one instance of the runner `request` starts in costs: instantiates
    /// `instances` fresh instances (kept alive together), runs `request` in each, and reports
    /// the median instantiation time and the resident memory the process gained per instance
    /// (Linux; zero elsewhere). For benchmarks.
    pub fn footprint(&self, request: &RunRequest, instances: usize) -> Footprint {
        let limits = self.limits_for(request);
        let service = self.service_for(&request.code);
        let before = resident_bytes();
        let mut stores = Vec::with_capacity(instances);
        let mut times = Vec::with_capacity(instances);
        for _ in 0..instances {
            let unlimited = SandboxLimits {
                fuel: None,
                ..limits.clone()
            };
            let mut store = service.store(&request.inputs(), &unlimited, StopSignal::new());
            let started = Instant::now();
            let Ok(runner) = service.template().instantiate(&mut store) else {
                break;
            };
            times.push(started.elapsed());
            let _ = runner.call_run(&mut store, &request.code);
            stores.push(store);
        }
        let after = resident_bytes();
        times.sort();
        let kept = stores.len().max(1) as u64;
        drop(stores);
        Footprint {
            instances: times.len(),
            instantiate: times.get(times.len() / 2).copied().unwrap_or_default(),
            resident_bytes_per_instance: after.saturating_sub(before) / kept,
        }
    }

    /// Runs every request, in parallel across the cores, and returns the outcomes in order.
    pub fn run_many(&self, requests: &[RunRequest]) -> Vec<RunOutcome> {
        requests.par_iter().map(|r| self.run(r)).collect()
    }
}

/// What [`Sandbox::footprint`] measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Footprint {
    /// Instances measured.
    pub instances: usize,
    /// Median time to instantiate one (a fresh store and instance, before the program runs).
    pub instantiate: std::time::Duration,
    /// Resident memory per live instance after its run.
    pub resident_bytes_per_instance: u64,
}

/// This process's resident memory, from `/proc/self/statm` (0 where that does not exist).
fn resident_bytes() -> u64 {
    let pages = std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .unwrap_or(0);
    pages * 4096
}

/// `outcome` with `note` appended to its stderr.
fn with_note(mut outcome: RunOutcome, note: &str) -> RunOutcome {
    append_line(&mut outcome.stderr, note);
    outcome
}

/// Appends `line` to `text`, on a line of its own.
fn append_line(text: &mut String, line: &str) {
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(line);
}

/// The note of a run its stop signal ended.
const STOPPED_NOTE: &str = "Stopped: another run of the same answer failed";

fn budget_note(limits: &SandboxLimits) -> String {
    format!(
        "TimeoutError: the answer's wall-clock budget ran out ({:?} were left for this run)",
        limits.timeout
    )
}

/// The outcome of a run `stop` kept from starting.
fn stopped_before_start(stop: &StopSignal, limits: &SandboxLimits) -> RunOutcome {
    let note = if stop.is_stopped() {
        STOPPED_NOTE.to_owned()
    } else {
        budget_note(limits)
    };
    RunOutcome {
        status: RunStatus::Deadline,
        exit_code: -1,
        stdout: String::new(),
        stderr: note,
        fuel_used: 0,
        elapsed: std::time::Duration::ZERO,
        stopped: stop.is_stopped(),
        exited: false,
    }
}

/// The status, exit code and an explanation to append to stderr for a finished call.
fn classify(
    result: wasmtime::Result<RunResult>,
    state: &RunState,
    limits: &SandboxLimits,
    budget_bound: bool,
) -> (RunStatus, i32, Option<String>) {
    let output_note = || {
        Some(format!(
            "OutputLimitError: output over the limit of {} bytes",
            limits.output_bytes
        ))
    };
    let memory_note = || {
        Some(format!(
            "MemoryError: memory limit of {} bytes exceeded",
            limits.memory_bytes
        ))
    };
    match result {
        Ok(done) => match done.exception.as_deref() {
            None => (RunStatus::Ok, done.exit_code, None),
            // An allocation over the cap, or one no 32-bit heap can hold.
            Some("MemoryError") => (RunStatus::Memory, done.exit_code, None),
            Some(_) => (RunStatus::RuntimeError, done.exit_code, None),
        },
        Err(_) if state.output_overflowed() => (RunStatus::OutputLimit, -1, output_note()),
        // `os._exit(n)`: the process ends with that code (unflushed output is lost, as natively).
        Err(error) if error.downcast_ref::<wasmtime_wasi::I32Exit>().is_some() => {
            let code = error
                .downcast_ref::<wasmtime_wasi::I32Exit>()
                .map_or(1, |e| e.0);
            (RunStatus::Ok, code, None)
        }
        Err(error) if error.downcast_ref::<SleptPastDeadline>().is_some() => (
            RunStatus::Deadline,
            -1,
            Some(format!(
                "TimeoutError: slept past the wall-clock limit of {:?}",
                limits.timeout
            )),
        ),
        Err(error) => match error.downcast_ref::<Trap>() {
            Some(Trap::OutOfFuel) => (
                RunStatus::OutOfFuel,
                -1,
                Some(format!(
                    "TimeoutError: CPU budget of {} fuel units exhausted",
                    limits.fuel.unwrap_or(u64::MAX)
                )),
            ),
            Some(Trap::Interrupt) => (
                RunStatus::Deadline,
                -1,
                Some(match state.interrupted {
                    Some(Interrupted::Stopped) => STOPPED_NOTE.to_owned(),
                    _ if budget_bound => budget_note(limits),
                    _ => format!(
                        "TimeoutError: wall-clock limit of {:?} exceeded",
                        limits.timeout
                    ),
                }),
            ),
            _ if state.memory_denied() => (RunStatus::Memory, -1, memory_note()),
            Some(Trap::StackOverflow) => (
                RunStatus::RuntimeError,
                -1,
                Some("RecursionError: the interpreter's stack overflowed".to_owned()),
            ),
            _ => (
                RunStatus::RuntimeError,
                -1,
                Some(format!("the interpreter crashed: {error:#}")),
            ),
        },
    }
}
