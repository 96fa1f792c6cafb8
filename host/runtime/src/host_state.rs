//! The per-store state of a guest instance and the host imports it may call.

use crate::Error;
use crate::bindings::env_world::geode::env::types::{EnvError, ResetResult, StepResult};
use crate::bindings::env_world::geode::env::{dataset, log, sandbox, types};
use crate::bindings::wrapper_world::geode::env::inner;
use crate::dataset::Datasets;
use crate::env::Env;
use crate::limits::{Limits, StoreLimiter};
use crate::wasi_virtual::{
    CapturePipe, HasVirtualClock, Overflow, SeededRandom, VirtualClock, sealed_wasi,
};
use wasmtime::component::ResourceTable;
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

/// How many bytes of guest stderr are kept to explain a trap.
const STDERR_TAIL_BYTES: usize = 8 << 10;

/// Everything one guest instance's store owns.
pub struct GuestState {
    wasi: WasiCtx,
    table: ResourceTable,
    /// Memory/table limits, and whether a growth was refused.
    pub limiter: StoreLimiter,
    /// The guest's randomness; reseeded on seeded resets.
    pub random: SeededRandom,
    /// The guest's clocks; rewound on seeded resets.
    pub clock: VirtualClock,
    /// Guest stderr (its tail explains panics).
    pub stderr: CapturePipe,
    /// The env id, for log lines.
    pub label: String,
    /// For wrapper plugins: the env the `inner` import drives.
    pub inner: Option<Box<dyn Env>>,
    /// The datasets this runtime shares with its instances.
    pub datasets: Datasets,
    /// The typed error of the inner env's last failed call, reported in place of the
    /// wrapper's own (less precise) error when the wrapper passes the failure on.
    pub inner_error: Option<Error>,
    /// The code sandbox the `sandbox` import runs on (`None`: the import answers unsupported).
    pub sandbox: Option<crate::sandbox::SharedSandbox>,
    /// When the running call must end; checked by the epoch callback.
    pub(crate) deadline: Option<std::time::Duration>,
}

impl GuestState {
    /// A state that grants nothing: no files, no network, no environment, no arguments.
    pub fn new(label: &str, limits: &Limits, entropy: u64, datasets: Datasets) -> Self {
        let random = SeededRandom::new(entropy);
        let clock = VirtualClock::new();
        let stderr = CapturePipe::new(STDERR_TAIL_BYTES, Overflow::KeepTail);
        let stdout = CapturePipe::new(STDERR_TAIL_BYTES, Overflow::KeepTail);
        let wasi = sealed_wasi(stdout, stderr.clone(), random.clone(), 0, clock.clone()).build();
        let mut table = ResourceTable::new();
        table.set_max_capacity(limits.max_resource_handles);
        GuestState {
            wasi,
            table,
            limiter: StoreLimiter::new(limits),
            random,
            clock,
            stderr,
            label: label.to_owned(),
            inner: None,
            datasets,
            inner_error: None,
            sandbox: None,
            deadline: None,
        }
    }

    /// Makes the guest's randomness and time depend only on `seed` from here on.
    pub fn reseed(&mut self, seed: u64) {
        self.random.reseed(seed);
        self.clock.rewind();
    }
}

impl HasVirtualClock for GuestState {
    fn virtual_clock(&self) -> &VirtualClock {
        &self.clock
    }
}

impl WasiView for GuestState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl types::Host for GuestState {}

impl log::Host for GuestState {
    fn log(&mut self, level: log::Level, message: String) {
        let verbose = std::env::var_os("GEODE_LOG").is_some();
        if verbose || matches!(level, log::Level::Warn | log::Level::Error) {
            let message: String = message.chars().take(2_000).collect();
            eprintln!("[{} {level:?}] {message}", self.label);
        }
    }
}

impl dataset::Host for GuestState {
    fn len(&mut self, name: String) -> Result<u64, String> {
        let dataset = self
            .datasets
            .get(&name)
            .ok_or_else(|| format!("dataset `{name}` is not loaded on this host"))?;
        Ok(dataset.len() as u64)
    }

    fn row(&mut self, name: String, index: u64) -> Result<String, String> {
        let dataset = self
            .datasets
            .get(&name)
            .ok_or_else(|| format!("dataset `{name}` is not loaded on this host"))?;
        let row = usize::try_from(index).ok().and_then(|i| dataset.row(i));
        row.map(str::to_owned).ok_or_else(|| {
            format!(
                "dataset `{name}` has {} rows; row {index} does not exist",
                dataset.len()
            )
        })
    }
}

impl sandbox::Host for GuestState {
    fn run(&mut self, request: sandbox::RunRequest) -> sandbox::RunOutcome {
        let sandbox = match &self.sandbox {
            Some(shared) => shared.get(),
            None => Err("no code sandbox is configured on this host".to_owned()),
        };
        match sandbox {
            Ok(sandbox) => sandbox.run(&request.into()).into(),
            Err(reason) => crate::sandbox::RunOutcome::unsupported(reason).into(),
        }
    }
}

impl GuestState {
    fn inner_env(&mut self) -> Result<&mut Box<dyn Env>, EnvError> {
        self.inner
            .as_mut()
            .ok_or_else(|| EnvError::InvalidState("this instance wraps no env".into()))
    }

    fn inner_failed(&mut self, error: Error) -> EnvError {
        let message = error.to_string();
        self.inner_error = Some(error);
        EnvError::Internal(message)
    }
}

impl inner::Host for GuestState {
    fn reset(&mut self, seed: Option<u64>) -> Result<ResetResult, EnvError> {
        match self.inner_env()?.reset(seed) {
            Ok(out) => Ok(ResetResult {
                observation: out.observation,
                info: out.info.as_json().to_owned(),
            }),
            Err(error) => Err(self.inner_failed(error)),
        }
    }

    fn step(&mut self, action: String) -> Result<StepResult, EnvError> {
        match self.inner_env()?.step(&action) {
            Ok(out) => Ok(StepResult {
                observation: out.observation,
                reward: out.reward,
                terminated: out.terminated,
                truncated: out.truncated,
                info: out.info.as_json().to_owned(),
            }),
            Err(error) => Err(self.inner_failed(error)),
        }
    }

    fn sample_random_action(&mut self) -> Result<String, EnvError> {
        match self.inner_env()?.sample_random_action() {
            Ok(action) => Ok(action),
            Err(error) => Err(self.inner_failed(error)),
        }
    }
}
