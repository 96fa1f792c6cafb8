//! The guest calls of a [`ComponentUnit`](super::ComponentUnit): the bindings of its instance
//! ([`UnitApi`]: the `env` export, the typed `batch` exports checked once per instance, each
//! member's batch number), and the arguments each call passes.

use super::Request;
use crate::bindings::env_world::EnvPlugin;
use crate::bindings::env_world::geode::env::types::{EnvError, ResetResult, StepResult};
use crate::guest::{Live, World};
use crate::host_state::GuestState;
use crate::plugin::{Plugin, Template};
use crate::unit::columns::{BatchResults, Continuation, EpisodeStart};
use wasmtime::Store;
use wasmtime::component::{Func, ResourceAny, TypedFunc};

/// The `batch` export's interface name.
pub(super) const BATCH_EXPORT: &str = "geode:env/batch@0.1.0";

pub(super) type EnrolArgs = (ResourceAny,);
pub(super) type StepArgs<'a> = (&'a [u32], &'a str, &'a [u32]);
pub(super) type ResetArgs<'a> = (&'a [u32], &'a [EpisodeStart]);
pub(super) type StepThenResetArgs<'a> = (&'a [u32], &'a str, &'a [u32], &'a [EpisodeStart]);

/// The checked `enrol` export, the `step-each` and `reset-each` exports, and the optional
/// `step-each-then-reset`.
pub(super) type BatchExports = (TypedFunc<EnrolArgs, (u32,)>, Func, Func, Option<Func>);

/// The bindings of a unit's instance.
pub(super) struct UnitApi {
    pub env: EnvPlugin,
    /// The checked `enrol` export, when the plugin has the `batch` exports.
    enrol: Option<TypedFunc<EnrolArgs, (u32,)>>,
    /// Each member's number in the guest's batch table.
    pub numbers: Vec<u32>,
    /// The `step-each` and `reset-each` exports (checked), when the plugin has them.
    pub batch: Option<(Func, Func)>,
    /// The `step-each-then-reset` export (checked), when the plugin has it.
    pub step_then_reset: Option<Func>,
    /// The arguments of the last batch call (buffers reused from call to call).
    pub args: BatchArgs,
}

impl World for UnitApi {
    const KIND: &'static str = "an env plugin";

    fn instantiate(
        plugin: &Plugin,
        store: &mut Store<GuestState>,
    ) -> Option<wasmtime::Result<Self>> {
        let Template::Env(pre) = &plugin.template else {
            return None;
        };
        Some((|| {
            let instance = pre.instance_pre().instantiate(&mut *store)?;
            let env = EnvPlugin::new(&mut *store, &instance)?;
            let batch = batch_exports(store, &instance);
            Ok(UnitApi {
                env,
                enrol: batch.as_ref().map(|(enrol, _, _, _)| *enrol),
                numbers: Vec::new(),
                batch: batch.as_ref().map(|&(_, step, reset, _)| (step, reset)),
                step_then_reset: batch.and_then(|(_, _, _, both)| both),
                args: BatchArgs::default(),
            })
        })())
    }

    /// Creates the member, and numbers it for batch calls.
    fn create(
        &mut self,
        store: &mut Store<GuestState>,
        id: &str,
        config: &str,
    ) -> wasmtime::Result<std::result::Result<ResourceAny, EnvError>> {
        let handle = match self
            .env
            .geode_env_env()
            .call_create(&mut *store, id, config)?
        {
            Ok(handle) => handle,
            Err(refusal) => return Ok(Err(refusal)),
        };
        if let Some(enrol) = &self.enrol {
            let (number,) = enrol.call(&mut *store, (handle,))?;
            self.numbers.push(number);
        }
        Ok(Ok(handle))
    }
}

/// The arguments of a batch call.
#[derive(Default)]
pub(super) struct BatchArgs {
    pub numbers: Vec<u32>,
    pub actions: String,
    pub ends: Vec<u32>,
    pub starts: Vec<EpisodeStart>,
}

impl BatchArgs {
    /// Sets the actions: one text, and where each ends in it.
    pub fn set_actions<'a>(&mut self, actions: impl IntoIterator<Item = &'a str>) {
        self.actions.clear();
        self.ends.clear();
        for action in actions {
            self.actions.push_str(action);
            self.ends
                .push(u32::try_from(self.actions.len()).unwrap_or(u32::MAX));
        }
    }
}

/// The checked `enrol`, `step-each` and `reset-each` exports, when the plugin has them (and
/// they match the contract; a plugin built for another shape of `batch` runs one env per unit).
fn batch_exports(
    store: &mut Store<GuestState>,
    instance: &wasmtime::component::Instance,
) -> Option<BatchExports> {
    let batch = instance.get_export_index(&mut *store, None, BATCH_EXPORT)?;
    let mut lookup = |name: &str| {
        instance
            .get_export_index(&mut *store, Some(&batch), name)
            .and_then(|index| instance.get_func(&mut *store, index))
    };
    let (Some(enrol), Some(step_each), Some(reset_each)) =
        (lookup("enrol"), lookup("step-each"), lookup("reset-each"))
    else {
        return None;
    };
    let both = lookup("step-each-then-reset");
    let checked = enrol.typed::<EnrolArgs, (u32,)>(&*store).and_then(|enrol| {
        step_each.typed::<StepArgs<'_>, (BatchResults,)>(&*store)?;
        reset_each.typed::<ResetArgs<'_>, (BatchResults,)>(&*store)?;
        Ok(enrol)
    });
    // Optional (plugins built before it lack it): without it, autoreset takes two calls.
    let step_then_reset = both.filter(|both| {
        both.typed::<StepThenResetArgs<'_>, (BatchResults,)>(&*store)
            .is_ok()
    });
    match checked {
        Ok(enrol) => Some((enrol, step_each, reset_each, step_then_reset)),
        Err(e) => {
            if std::env::var_os("GEODE_LOG").is_some() {
                let label = &store.data().label;
                eprintln!("[{label}] its `{BATCH_EXPORT}` export does not match this host: {e:#}");
            }
            None
        }
    }
}

/// One call of the `batch` export for the requests of `batch` at positions `todo` (all steps
/// or all resets), on an instance armed for it. Its arguments are written to buffers the
/// instance keeps between calls.
pub(super) fn call_batch(
    live: &mut Live<UnitApi>,
    batch: &[(usize, Request<'_>)],
    todo: &[usize],
) -> wasmtime::Result<BatchResults> {
    let Some((step_each, reset_each)) = live.api.batch else {
        unreachable!("called on a plugin with the batch export only");
    };
    let api = &mut live.api;
    let args = &mut api.args;
    args.numbers.clear();
    args.numbers
        .extend(todo.iter().map(|&p| api.numbers[batch[p].0]));
    match batch[todo[0]].1 {
        Request::Step(_) => {
            args.set_actions(todo.iter().map(|&p| match batch[p].1 {
                Request::Step(action) => action,
                Request::Reset(_) => unreachable!("a batch is all steps or all resets"),
            }));
            // SAFETY: the signature was checked when the instance was built.
            let func: TypedFunc<StepArgs<'_>, (BatchResults,)> =
                unsafe { TypedFunc::new_unchecked(step_each) };
            let call = (
                args.numbers.as_slice(),
                args.actions.as_str(),
                args.ends.as_slice(),
            );
            Ok(func.call(&mut live.store, call)?.0)
        }
        Request::Reset(first) => {
            args.starts.clear();
            args.starts.extend(todo.iter().map(|&p| match batch[p].1 {
                Request::Reset(start) => start,
                Request::Step(_) => unreachable!("a batch is all steps or all resets"),
            }));
            live.store.data_mut().reseed(wasi_seed(first));
            // SAFETY: the signature was checked when the instance was built.
            let func: TypedFunc<ResetArgs<'_>, (BatchResults,)> =
                unsafe { TypedFunc::new_unchecked(reset_each) };
            let call = (args.numbers.as_slice(), args.starts.as_slice());
            Ok(func.call(&mut live.store, call)?.0)
        }
    }
}

/// The seed of an instance's WASI randomness and clocks for a batch of resets.
fn wasi_seed(start: EpisodeStart) -> u64 {
    match start {
        EpisodeStart::Seeded(seed) => seed,
        EpisodeStart::Continued(Continuation { stream, number }) => {
            stream ^ number.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        }
    }
}

/// One call of the plain `env` export for a unit's only member, on an instance armed for it.
pub(super) fn call_plain(
    live: &mut Live<UnitApi>,
    member: usize,
    request: Request<'_>,
) -> wasmtime::Result<BatchResults> {
    let handle = live.handles[member];
    let instance = live.api.env.geode_env_env().instance();
    Ok(match request {
        Request::Step(action) => {
            let out: std::result::Result<StepResult, EnvError> =
                instance.call_step(&mut live.store, handle, action)?;
            BatchResults::from_step(out)
        }
        Request::Reset(start) => {
            if let EpisodeStart::Seeded(seed) = start {
                live.store.data_mut().reseed(seed);
            }
            let out: std::result::Result<ResetResult, EnvError> =
                instance.call_reset(&mut live.store, handle, start.plain_seed())?;
            BatchResults::from_reset(out)
        }
    })
}
