//! [`ComponentUnit`]: envs of one component plugin sharing one instance, stepped with one call
//! per batch through the plugin's `batch` export (a plugin without it is a unit of one, called
//! through its `env` export).
//!
//! Faults stay with their member. A call for one member runs under that member's own fuel,
//! deadline and memory growth; a call for several runs under no more than one member's (an
//! eighth of its fuel and time, see [`Limits::arm_batch`]), so a call that completes kept every
//! member within its own limits. When a call fails, the instance is discarded and a fresh one is
//! built; the healthy members' episodes are replayed into it from their [`Record`]s (start plus
//! logged calls, each checked against the digest of what it returned the first time). A failed
//! call of one member is that member's fault; a failed call of several runs again member by
//! member, each under its own limits. So exactly the members that fail alone get an error, and
//! every other result is the one a lone env would have given. A unit whose calls of several
//! members fail while every member passes alone (steps that need more than the shared budget)
//! calls its members one by one for a while ([`Splitting`]).
//!
//! Under SameStep autoreset, a plugin that exports `step-each-then-reset` steps its members and
//! resets those whose episode ended in one call ([`ComponentUnit::try_step_then_reset`]); the
//! host passes each member the unseeded start its next episode would get, and books the step
//! and the reset as if they had been two calls, so records and replays do not change. That call
//! is a shortcut only: when it fails, the batch is stepped and reset the usual way, with the
//! usual recovery.

use super::columns::{BatchResults, Continuation, Entry, EpisodeStart};
use super::record::{self, Call, Record, Start};
use super::{StepsAndResets, TextReset, TextStep, Unit, append};
use crate::bindings::env_world::EnvPlugin;
use crate::bindings::env_world::geode::env::types::{EnvError, ResetResult, StepResult};
use crate::env::Env;
use crate::guard;
use crate::host_state::GuestState;
use crate::limits::Limits;
use crate::plugin::{Plugin, Template};
use crate::{Error, Result};
use std::sync::Arc;
use wasmtime::Store;
use wasmtime::component::{Func, ResourceAny, TypedFunc};

/// Stands for a result until it is computed (never returned).
fn pending() -> Error {
    Error::Internal(String::new())
}

/// The `batch` export's interface name.
const BATCH_EXPORT: &str = "geode:env/batch@0.1.0";

type EnrolArgs = (ResourceAny,);
type StepArgs<'a> = (&'a [u32], &'a str, &'a [u32]);
type ResetArgs<'a> = (&'a [u32], &'a [EpisodeStart]);
type StepThenResetArgs<'a> = (&'a [u32], &'a str, &'a [u32], &'a [EpisodeStart]);

/// A member's logged calls with their actions and digests, copied out for a replay.
type Log = Vec<(Call, String, u64)>;

/// The checked `enrol` export, the `step-each` and `reset-each` exports, and the optional
/// `step-each-then-reset`.
type BatchExports = (TypedFunc<EnrolArgs, (u32,)>, Func, Func, Option<Func>);

/// What one member is asked to do in a batch call.
#[derive(Debug, Clone, Copy)]
enum Request<'a> {
    Step(&'a str),
    Reset(EpisodeStart),
}

impl Request<'_> {
    fn name(&self) -> &'static str {
        match self {
            Request::Step(_) => "step",
            Request::Reset(_) => "reset",
        }
    }

    /// Steps 0, resets 1 (an index into [`ComponentUnit::splitting`]; 2 counts the calls
    /// that step and reset at once).
    fn kind(&self) -> usize {
        match self {
            Request::Step(_) => 0,
            Request::Reset(_) => 1,
        }
    }
}

/// A member's checked output (its strings in the caller's text), and its digest.
type Output = (TextStep, u64);

/// A failed guest call.
enum Fault {
    /// A call for one member failed: that member's typed error.
    Member(usize, Error),
    /// A call for several members failed, or refused memory to one of them: each must run
    /// again alone to find out which fails under its own limits.
    Shared,
}

/// Whether a unit's batch calls of one kind (steps or resets) run member by member for now.
/// A call of several members that fails while each member then passes alone needed more than
/// the shared budget (not a fault of anyone): the next calls of that kind run member by member,
/// for 8 calls after the first such miss, doubling with every further miss up to 4,096.
#[derive(Debug, Default)]
struct Splitting {
    misses: u32,
    calls_left: u32,
}

impl Splitting {
    /// Whether calls run member by member for now (without counting a call).
    fn active(&self) -> bool {
        self.calls_left > 0
    }

    /// Whether the next call runs member by member (and counts it).
    fn next_call_alone(&mut self) -> bool {
        let alone = self.calls_left > 0;
        self.calls_left = self.calls_left.saturating_sub(1);
        alone
    }

    /// A call of several failed, and every member passed alone.
    fn missed(&mut self) {
        self.calls_left = 8 << self.misses.min(9);
        self.misses = self.misses.saturating_add(1);
    }
}

/// What came of trying a step-and-reset call (`ComponentUnit::try_step_then_reset`).
enum Combined {
    Done(StepsAndResets),
    /// Not made: the batch goes to the usual calls.
    NotTried,
    /// Made, and it failed; its instance is gone.
    Failed,
}

/// A live instance.
struct Live {
    store: Store<GuestState>,
    api: EnvPlugin,
    handles: Vec<ResourceAny>,
    /// Each member's number in the guest's batch table.
    numbers: Vec<u32>,
    /// The `step-each` and `reset-each` exports (checked), when the plugin has them.
    batch: Option<(Func, Func)>,
    /// The `step-each-then-reset` export (checked), when the plugin has it.
    step_then_reset: Option<Func>,
    /// The arguments of the last batch call (buffers reused from call to call).
    args: BatchArgs,
}

/// The arguments of a batch call.
#[derive(Default)]
struct BatchArgs {
    numbers: Vec<u32>,
    actions: String,
    ends: Vec<u32>,
    starts: Vec<EpisodeStart>,
}

impl BatchArgs {
    /// Sets the actions: one text, and where each ends in it.
    fn set_actions<'a>(&mut self, actions: impl IntoIterator<Item = &'a str>) {
        self.actions.clear();
        self.ends.clear();
        for action in actions {
            self.actions.push_str(action);
            self.ends
                .push(u32::try_from(self.actions.len()).unwrap_or(u32::MAX));
        }
    }
}

/// One env of the unit.
struct Member {
    id: String,
    config: String,
    record: Record,
    /// An episode runs (on the live instance, or in the record, to be replayed into the next).
    running: bool,
    /// Why the member's episode was lost while rebuilding the unit: reported at its next step.
    lost: Option<Error>,
    /// The last info that passed validation: most envs repeat it, and comparing bytes costs far
    /// less than parsing JSON again.
    last_info: String,
}

/// Envs of one plugin in one component instance (see the module documentation).
pub struct ComponentUnit {
    plugin: Arc<Plugin>,
    /// One member's limits.
    limits: Limits,
    members: Vec<Member>,
    live: Option<Live>,
    entropy: u64,
    /// For steps, for resets, and for calls that step and reset at once: whether calls run
    /// member by member (or, for the last, as a step call and a reset call) for now.
    splitting: [Splitting; 3],
    /// Faults booked on members since the unit was made (to tell a miss from a fault).
    faults: u64,
}

impl std::fmt::Debug for ComponentUnit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComponentUnit")
            .field(
                "ids",
                &self.members.iter().map(|m| &m.id).collect::<Vec<_>>(),
            )
            .field("live", &self.live.is_some())
            .finish()
    }
}

impl ComponentUnit {
    /// A unit of `plugin`'s envs, one per `(id, merged configuration)`, each under `limits`.
    /// Several members need the plugin's `batch` export.
    pub fn new(
        plugin: Arc<Plugin>,
        members: Vec<(String, String)>,
        limits: Limits,
    ) -> Result<Self> {
        if members.is_empty() {
            return Err(Error::InvalidArgument(
                "a unit needs at least one env".into(),
            ));
        }
        let logging = members.len() > 1;
        let mut entropy = getrandom::u64().unwrap_or(0x2545_f491_4f6c_dd1d);
        let members = members
            .into_iter()
            .map(|(id, config)| Member {
                id,
                config,
                record: Record::new(next_entropy(&mut entropy), logging),
                running: false,
                lost: None,
                last_info: String::new(),
            })
            .collect();
        let mut unit = ComponentUnit {
            plugin,
            limits,
            members,
            live: None,
            entropy,
            splitting: Default::default(),
            faults: 0,
        };
        unit.live = Some(unit.instantiate()?);
        if unit.members.len() > 1 && unit.live.as_ref().is_some_and(|l| l.batch.is_none()) {
            return Err(Error::InvalidArgument(format!(
                "`{}` cannot share an instance: its plugin has no `{BATCH_EXPORT}` export",
                unit.members[0].id
            )));
        }
        Ok(unit)
    }

    /// Whether `plugin` exports `batch`, so several of its envs can share a unit.
    pub fn can_batch(plugin: &Plugin) -> bool {
        let Template::Env(pre) = &plugin.template else {
            return false;
        };
        let component = pre.instance_pre().component();
        component.get_export_index(None, BATCH_EXPORT).is_some()
    }

    /// The limits of each member.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The plugin that provides the members.
    pub fn plugin(&self) -> &Arc<Plugin> {
        &self.plugin
    }

    /// Member `member`'s configuration (a JSON object).
    pub fn config_json(&self, member: usize) -> &str {
        &self.members[member].config
    }

    /// Whether an instance is live (false after a fault, until the next call rebuilds it).
    pub fn is_live(&self) -> bool {
        self.live.is_some()
    }

    /// The limits of the whole instance: a member's, times the members for memory and handles.
    fn unit_limits(&self) -> Limits {
        let n = self.members.len();
        Limits {
            max_memory_bytes: self.limits.max_memory_bytes.saturating_mul(n as u64),
            max_resource_handles: self.limits.max_resource_handles.saturating_mul(n),
            max_table_elements: self.limits.max_table_elements.saturating_mul(n),
            ..self.limits.clone()
        }
    }

    fn instantiate(&mut self) -> Result<Live> {
        let id = self.members[0].id.clone();
        let Template::Env(pre) = &self.plugin.template else {
            return Err(Error::InvalidArgument(format!(
                "`{id}` is not provided by an env plugin"
            )));
        };
        let pre = pre.clone();
        let limits = self.unit_limits();
        let mut store = self
            .plugin
            .new_store(&id, &limits, next_entropy(&mut self.entropy));
        let classify = |store: &Store<GuestState>, call, e| {
            guard::classify(&id, &self.limits, store.data(), call, e)
        };
        let instance = pre
            .instance_pre()
            .instantiate(&mut store)
            .map_err(|e| classify(&store, "instantiate", e))?;
        let api = EnvPlugin::new(&mut store, &instance)
            .map_err(|e| classify(&store, "instantiate", e))?;
        let batch = batch_exports(&mut store, &instance, &id);
        let mut handles = Vec::with_capacity(self.members.len());
        let mut numbers = Vec::with_capacity(self.members.len());
        for member in &self.members {
            self.limits.arm(&mut store);
            let created = api
                .geode_env_env()
                .call_create(&mut store, &member.id, &member.config);
            let handle = match created {
                Ok(Ok(handle)) => handle,
                Ok(Err(refusal)) => return Err(guard::refused(&member.id, "create", refusal)),
                Err(e) => return Err(classify(&store, "create", e)),
            };
            if let Some((enrol, _, _, _)) = &batch {
                let (number,) = enrol
                    .call(&mut store, (handle,))
                    .map_err(|e| classify(&store, "create", e))?;
                numbers.push(number);
            }
            handles.push(handle);
        }
        Ok(Live {
            store,
            api,
            handles,
            numbers,
            batch: batch.map(|(_, step, reset, _)| (step, reset)),
            step_then_reset: batch.and_then(|(_, _, _, both)| both),
            args: BatchArgs::default(),
        })
    }

    /// The live instance; after a fault, a fresh one with every running episode replayed into
    /// it (a member whose replay fails or diverges loses its episode, and is told at its next
    /// step).
    fn ensure_live(&mut self) -> Result<()> {
        let mut alone = false;
        while self.live.is_none() {
            self.live = Some(self.instantiate()?);
            match self.replay(alone) {
                Ok(()) => {}
                // A replay call for several members failed: replay again, member by member.
                Err(Fault::Shared) => {
                    self.live = None;
                    alone = true;
                }
                Err(Fault::Member(member, error)) => {
                    self.live = None;
                    let member = &mut self.members[member];
                    member.running = false;
                    member.record.end();
                    member.lost = Some(error);
                }
            }
        }
        Ok(())
    }

    /// Replays every running episode into the live instance: the starts in one call, then the
    /// logged calls round by round (or each member's separately, `alone`). `Err` names a member
    /// whose replay failed or diverged, or says that a call for several members failed.
    fn replay(&mut self, alone: bool) -> std::result::Result<(), Fault> {
        let running: Vec<usize> = (0..self.members.len())
            .filter(|&m| self.members[m].running)
            .collect();
        let mut scratch = String::new();
        let mut resets: Vec<(usize, Request<'static>)> = Vec::new();
        for &m in &running {
            let Some((start, digest)) = self.members[m].record.start() else {
                continue;
            };
            match start.clone() {
                Start::Reset(start) => resets.push((m, Request::Reset(start))),
                Start::State(state) => {
                    self.guest_set_state(m, &state)
                        .map_err(|e| Fault::Member(m, e))?;
                    debug_assert_eq!(digest, 0);
                }
            }
        }
        let starts: Vec<(usize, u64)> = resets
            .iter()
            .map(|&(m, _)| (m, self.members[m].record.start().expect("running").1))
            .collect();
        self.replay_round(&resets, &starts, alone, &mut scratch)?;
        let logs: Vec<(usize, Log)> = running
            .iter()
            .map(|&m| {
                let calls = self.members[m].record.calls();
                (m, calls.map(|(c, a, d)| (c, a.to_owned(), d)).collect())
            })
            .collect();
        let rounds = logs.iter().map(|(_, log)| log.len()).max().unwrap_or(0);
        for round in 0..rounds {
            let mut steps: Vec<(usize, Request<'_>)> = Vec::new();
            let mut digests: Vec<(usize, u64)> = Vec::new();
            for (m, log) in &logs {
                match log.get(round) {
                    Some((Call::Step { .. }, action, digest)) => {
                        steps.push((*m, Request::Step(action)));
                        digests.push((*m, *digest));
                    }
                    Some((Call::Sample, _, digest)) => {
                        let action = self.guest_sample(*m).map_err(|e| Fault::Member(*m, e))?;
                        if record::digest(&action, "", 0.0, 0) != *digest {
                            return Err(Fault::Member(
                                *m,
                                self.diverged(*m, "sample_random_action"),
                            ));
                        }
                    }
                    None => {}
                }
            }
            self.replay_round(&steps, &digests, alone, &mut scratch)?;
        }
        Ok(())
    }

    /// One replay call (or one per member, `alone`): each request's output must have the
    /// digest it had the first time.
    fn replay_round(
        &mut self,
        batch: &[(usize, Request<'_>)],
        digests: &[(usize, u64)],
        alone: bool,
        scratch: &mut String,
    ) -> std::result::Result<(), Fault> {
        let calls: Vec<Vec<usize>> = match alone {
            true => (0..batch.len()).map(|p| vec![p]).collect(),
            false if batch.is_empty() => Vec::new(),
            false => vec![(0..batch.len()).collect()],
        };
        for todo in calls {
            scratch.clear();
            self.guest_call(batch, &todo, scratch, |unit, p, output| {
                let (m, digest) = digests[p];
                match output.is_ok_and(|(_, d)| d == digest) {
                    true => Ok(()),
                    false => Err(Fault::Member(m, unit.diverged(m, batch[0].1.name()))),
                }
            })?;
        }
        Ok(())
    }

    fn diverged(&self, member: usize, call: &str) -> Error {
        Error::NonDeterministic {
            env: self.members[member].id.clone(),
            message: format!(
                "replaying its episode after a fault in its unit, {call} returned something else \
                 than the first time (its envs share state, or depend on more than their seed and \
                 actions)"
            ),
        }
    }

    /// Runs the requests of `batch` (distinct members) at positions `todo`, recovering from
    /// faults (see the module documentation); each result goes to `results` at its position.
    fn run(
        &mut self,
        batch: &[(usize, Request<'_>)],
        mut todo: Vec<usize>,
        results: &mut [Result<TextStep>],
        text: &mut String,
    ) {
        if todo.is_empty() {
            return;
        }
        if let Err(error) = self.ensure_live() {
            let shared = error.to_string();
            for p in todo {
                let member = batch[p].0;
                self.members[member].running = false;
                results[p] = Err(Error::GuestTrap {
                    env: self.members[member].id.clone(),
                    call: "instantiate",
                    message: shared.clone(),
                });
            }
            return;
        }
        // Members whose episode was lost, or that have none to step, answer without the guest.
        todo.retain(|&p| match self.refuse(batch[p]) {
            Some(error) => {
                results[p] = Err(error);
                false
            }
            None => true,
        });
        if todo.is_empty() {
            return;
        }
        let kind = batch[todo[0]].1.kind();
        if todo.len() > 1 && self.splitting[kind].next_call_alone() {
            for p in todo {
                self.run(batch, vec![p], results, text);
            }
            return;
        }
        let mark = text.len();
        let booked = self.guest_call(batch, &todo, text, |unit, p, output| {
            results[p] = unit.book(batch[p], output);
            Ok(())
        });
        match booked {
            Ok(()) => {}
            Err(fault) => {
                text.truncate(mark);
                self.live = None;
                match fault {
                    Fault::Member(member, error) => {
                        self.faults += 1;
                        results[todo[0]] = Err(self.fail(member, error));
                    }
                    Fault::Shared => {
                        let faults = self.faults;
                        for p in todo {
                            self.run(batch, vec![p], results, text);
                        }
                        if self.faults == faults {
                            self.splitting[kind].missed();
                        }
                    }
                }
            }
        }
    }

    /// Steps `steps` and resets each member whose step ended its episode in one guest call
    /// (`step-each-then-reset`), when that can be done: a live instance with that export, two
    /// or more members, each with an episode to step and an action within limits, and steps
    /// not running member by member. Otherwise the whole batch is left to the usual step and
    /// reset calls, and so it is after a failed call: its instance is dropped, and the step call
    /// that follows rebuilds it and recovers as after any fault.
    fn try_step_then_reset(&mut self, steps: &[(usize, &str)], text: &mut String) -> Combined {
        let Some(both) = self.live.as_ref().and_then(|live| live.step_then_reset) else {
            return Combined::NotTried;
        };
        if steps.len() < 2 || self.splitting[0].active() || self.splitting[2].next_call_alone() {
            return Combined::NotTried;
        }
        let ready = steps.iter().all(|&(m, action)| {
            let member = &self.members[m];
            member.running && member.lost.is_none() && self.check_action(m, action).is_ok()
        });
        if !ready {
            return Combined::NotTried;
        }
        let starts: Vec<EpisodeStart> = steps
            .iter()
            .map(|&(m, _)| self.members[m].record.peek_unseeded())
            .collect();
        let live = self.live.as_mut().expect("a live instance");
        let args = &mut live.args;
        args.numbers.clear();
        args.numbers
            .extend(steps.iter().map(|&(m, _)| live.numbers[m]));
        args.set_actions(steps.iter().map(|&(_, action)| action));
        self.limits.arm_batch(&mut live.store, steps.len());
        live.store.data().stderr.clear();
        // SAFETY: the signature was checked when the instance was built.
        let func: TypedFunc<StepThenResetArgs<'_>, (BatchResults,)> =
            unsafe { TypedFunc::new_unchecked(both) };
        let call = (
            args.numbers.as_slice(),
            args.actions.as_str(),
            args.ends.as_slice(),
            starts.as_slice(),
        );
        let returned = func.call(&mut live.store, call);
        let mut returned = match returned {
            Ok((returned,)) if !live.store.data().limiter.memory_denied => returned,
            _ => return self.failed_step_then_reset(),
        };
        let ended = returned.ended(steps.len());
        let Ok(entries) = returned.entries(steps.len() + ended.len()) else {
            return self.failed_step_then_reset();
        };
        let mut entries = entries.into_iter();
        let outputs: Vec<Result<TextStep>> = steps
            .iter()
            .zip(entries.by_ref())
            .map(|(&(m, action), entry)| {
                let output = self.check(m, "step", entry, text);
                self.book((m, Request::Step(action)), output)
            })
            .collect();
        let mut resets: Vec<Option<Result<TextReset>>> = steps.iter().map(|_| None).collect();
        for (k, entry) in ended.into_iter().zip(entries) {
            // A step that broke the contract failed its member: that reset is not taken.
            if !outputs[k].as_ref().is_ok_and(TextStep::done) {
                continue;
            }
            let m = steps[k].0;
            let start = self.members[m].record.next_start(None);
            debug_assert_eq!(start, starts[k]);
            let output = self.check(m, "reset", entry, text);
            let first = self.book((m, Request::Reset(start)), output);
            resets[k] = Some(first.map(|step| TextReset {
                observation: step.observation,
                info: step.info,
            }));
        }
        Combined::Done((outputs, resets))
    }

    /// A `step-each-then-reset` call failed: its instance goes (the usual calls that follow
    /// rebuild it).
    fn failed_step_then_reset(&mut self) -> Combined {
        self.live = None;
        Combined::Failed
    }

    /// Why `member` may not run `request` now, if it may not.
    fn refuse(&mut self, (member, request): (usize, Request<'_>)) -> Option<Error> {
        let m = &mut self.members[member];
        match request {
            Request::Reset(_) => {
                m.lost = None;
                None
            }
            Request::Step(_) if m.lost.is_some() => m.lost.take(),
            Request::Step(_) if !m.running => Some(Error::InvalidState {
                env: m.id.clone(),
                message: "step called before reset, or after the env failed; call reset".into(),
            }),
            Request::Step(_) => None,
        }
    }

    /// `member` failed with `error`: its episode is over.
    fn fail(&mut self, member: usize, error: Error) -> Error {
        let m = &mut self.members[member];
        m.running = false;
        m.record.end();
        error
    }

    /// Books a guest output of `member`: checks it against the member's limits and the
    /// contract, and logs it. A violation discards the instance (the other members' outputs of
    /// the same call stand; they are replayed into the next instance).
    fn book(
        &mut self,
        (member, request): (usize, Request<'_>),
        outcome: std::result::Result<Output, Error>,
    ) -> Result<TextStep> {
        let m = &mut self.members[member];
        match (&outcome, request) {
            (Ok((_, digest)), Request::Step(action)) => m.record.step(action, *digest),
            (Ok((_, digest)), Request::Reset(start)) => {
                m.record.begin(Start::Reset(start), *digest);
                m.running = true;
            }
            (Err(Error::Refused { message, .. }), Request::Step(action)) => m
                .record
                .step(action, record::digest(message, "", 0.0, 0xfe)),
            (Err(error), _) => {
                if matches!(error, Error::Contract { .. }) {
                    self.live = None;
                }
                let m = &mut self.members[member];
                m.running = false;
                m.record.end();
            }
        }
        outcome.map(|(step, _)| step)
    }

    /// One call into the guest for the requests of `batch` at positions `todo` (distinct
    /// members): hands each member's checked output and its digest, or its refusal or contract
    /// violation, to `each` with its position, in order (the first `Err` of `each` ends the
    /// call); `Err` when the call itself failed (the instance is then unusable).
    fn guest_call(
        &mut self,
        batch: &[(usize, Request<'_>)],
        todo: &[usize],
        text: &mut String,
        mut each: impl FnMut(
            &mut Self,
            usize,
            std::result::Result<Output, Error>,
        ) -> std::result::Result<(), Fault>,
    ) -> std::result::Result<(), Fault> {
        let (first, request) = batch[todo[0]];
        let call = request.name();
        let live = self.live.as_mut().expect("a live instance");
        let returned = match live.batch {
            Some(_) => call_batch(live, batch, todo, &self.limits),
            None => call_plain(live, first, request, &self.limits),
        };
        let shared = todo.len() > 1;
        let state = self.live.as_ref().expect("a live instance").store.data();
        // A refused growth may have changed what a member returned (a guest can handle it):
        // in a call of several, the refusal is not the member's own limit.
        if shared && (returned.is_err() || state.limiter.memory_denied) {
            return Err(Fault::Shared);
        }
        let mut returned = match returned {
            Ok(returned) => returned,
            Err(trap) => {
                let env = &self.members[first].id;
                let error = guard::classify(env, &self.limits, state, call, trap);
                return Err(Fault::Member(first, error));
            }
        };
        let results = match returned.entries(todo.len()) {
            Ok(entries) => entries,
            Err(_) if shared => return Err(Fault::Shared),
            Err(message) => {
                let env = self.members[first].id.clone();
                return Err(Fault::Member(first, Error::Contract { env, call, message }));
            }
        };
        for (&p, entry) in todo.iter().zip(results) {
            let output = self.check(batch[p].0, call, entry, text);
            each(self, p, output)?;
        }
        Ok(())
    }

    /// Checks one entry of a call's results against `member`'s limits and the contract, and
    /// copies its strings to `text`.
    fn check(
        &mut self,
        member: usize,
        call: &'static str,
        entry: Entry<'_>,
        text: &mut String,
    ) -> std::result::Result<Output, Error> {
        let m = &mut self.members[member];
        let (observation, info, reward, terminated, truncated) = match entry {
            Entry::Refused(refusal) => return Err(guard::refused(&m.id, call, refusal)),
            Entry::Done {
                observation,
                info,
                reward,
                terminated,
                truncated,
            } => (observation, info, reward, terminated, truncated),
        };
        let fresh_info = info.is_empty() || info != m.last_info;
        guard::check_result(
            &self.limits,
            &m.id,
            call,
            observation,
            reward,
            fresh_info.then_some(info),
        )?;
        if fresh_info {
            m.last_info.clear();
            m.last_info.push_str(info);
        }
        let flags = u8::from(terminated) | (u8::from(truncated) << 1);
        let digest = match self.members.len() {
            1 => 0,
            _ => record::digest(observation, info, reward, flags),
        };
        Ok((
            TextStep {
                observation: append(text, observation),
                info: append(text, info),
                reward,
                terminated,
                truncated,
            },
            digest,
        ))
    }

    /// One call on `member`'s own resource, under its limits. A trap discards the instance
    /// (the member's episode is over; the others are replayed into the next instance).
    fn call_member<R>(
        &mut self,
        member: usize,
        name: &'static str,
        f: guard::GuestCall<'_, EnvPlugin, R>,
    ) -> Result<R> {
        if let Some(error) = self.members[member].lost.take() {
            return Err(error);
        }
        self.ensure_live()?;
        let live = self.live.as_mut().expect("a live instance");
        self.limits.arm(&mut live.store);
        live.store.data().stderr.clear();
        let handle = live.handles[member];
        match f(&mut live.store, &live.api, handle) {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(refusal)) => Err(guard::refused(&self.members[member].id, name, refusal)),
            Err(trap) => {
                let live = self.live.take().expect("a live instance");
                let error = guard::classify(
                    &self.members[member].id,
                    &self.limits,
                    live.store.data(),
                    name,
                    trap,
                );
                Err(self.fail(member, error))
            }
        }
    }

    fn guest_sample(&mut self, member: usize) -> Result<String> {
        self.call_member(member, "sample_random_action", &mut |s, api, h| {
            api.geode_env_env()
                .instance()
                .call_sample_random_action(s, h)
        })
    }

    fn guest_set_state(&mut self, member: usize, state: &[u8]) -> Result<()> {
        self.call_member(member, "set_state", &mut |s, api, h| {
            api.geode_env_env().instance().call_set_state(s, h, state)
        })
    }

    /// Refuses an action over the action size limit before it reaches the guest.
    fn check_action(&self, member: usize, action: &str) -> Result<()> {
        let limit = self.limits.max_action_bytes;
        if action.len() > limit {
            return Err(Error::InputTooLarge {
                env: self.members[member].id.clone(),
                what: "action",
                len: action.len(),
                limit,
            });
        }
        Ok(())
    }
}

/// The checked `enrol`, `step-each` and `reset-each` exports, when the plugin has them (and
/// they match the contract; a plugin built for another shape of `batch` runs one env per unit).
fn batch_exports(
    store: &mut Store<GuestState>,
    instance: &wasmtime::component::Instance,
    id: &str,
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
                eprintln!("[{id}] its `{BATCH_EXPORT}` export does not match this host: {e:#}");
            }
            None
        }
    }
}

/// One call of the `batch` export for the requests of `batch` at positions `todo` (all steps
/// or all resets). Its arguments are written to buffers the instance keeps between calls.
fn call_batch(
    live: &mut Live,
    batch: &[(usize, Request<'_>)],
    todo: &[usize],
    limits: &Limits,
) -> wasmtime::Result<BatchResults> {
    let Some((step_each, reset_each)) = live.batch else {
        unreachable!("called on a plugin with the batch export only");
    };
    let args = &mut live.args;
    args.numbers.clear();
    args.numbers
        .extend(todo.iter().map(|&p| live.numbers[batch[p].0]));
    limits.arm_batch(&mut live.store, todo.len());
    live.store.data().stderr.clear();
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

/// One call of the plain `env` export for a unit's only member.
fn call_plain(
    live: &mut Live,
    member: usize,
    request: Request<'_>,
    limits: &Limits,
) -> wasmtime::Result<BatchResults> {
    limits.arm(&mut live.store);
    live.store.data().stderr.clear();
    let handle = live.handles[member];
    let instance = live.api.geode_env_env().instance();
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

/// The next value of an entropy stream (an LCG step plus a xorshift).
fn next_entropy(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *state ^ (*state >> 29)
}

impl Unit for ComponentUnit {
    fn len(&self) -> usize {
        self.members.len()
    }

    fn id(&self, member: usize) -> &str {
        &self.members[member].id
    }

    fn step_each(&mut self, steps: &[(usize, &str)], text: &mut String) -> Vec<Result<TextStep>> {
        let mut results = Vec::with_capacity(steps.len());
        let mut todo = Vec::with_capacity(steps.len());
        for (p, &(member, action)) in steps.iter().enumerate() {
            results.push(self.check_action(member, action).and_then(|()| {
                todo.push(p);
                Err(pending())
            }));
        }
        let batch: Vec<(usize, Request<'_>)> =
            steps.iter().map(|&(m, a)| (m, Request::Step(a))).collect();
        self.run(&batch, todo, &mut results, text);
        results
    }

    fn reset_each(
        &mut self,
        resets: &[(usize, Option<u64>)],
        text: &mut String,
    ) -> Vec<Result<TextReset>> {
        let batch: Vec<(usize, Request<'_>)> = resets
            .iter()
            .map(|&(m, seed)| (m, Request::Reset(self.members[m].record.next_start(seed))))
            .collect();
        let mut results: Vec<Result<TextStep>> = batch.iter().map(|_| Err(pending())).collect();
        self.run(&batch, (0..batch.len()).collect(), &mut results, text);
        let first = |step: TextStep| TextReset {
            observation: step.observation,
            info: step.info,
        };
        results.into_iter().map(|r| r.map(first)).collect()
    }

    fn step_each_then_reset(
        &mut self,
        steps: &[(usize, &str)],
        text: &mut String,
    ) -> StepsAndResets {
        match self.try_step_then_reset(steps, text) {
            Combined::Done(both) => both,
            Combined::NotTried => super::without_resets(self.step_each(steps, text)),
            Combined::Failed => {
                let faults = self.faults;
                let outputs = self.step_each(steps, text);
                // No member faulted in the step call: the combined call needed more than the
                // batch's shared budget, and such calls pause for a while.
                if self.faults == faults {
                    self.splitting[2].missed();
                }
                super::without_resets(outputs)
            }
        }
    }

    fn sample_random_action(&mut self, member: usize) -> Result<String> {
        let action = self.guest_sample(member)?;
        let limit = self.limits.max_action_bytes;
        if action.len() > limit {
            self.live = None;
            return Err(self.fail(
                member,
                Error::Contract {
                    env: self.members[member].id.clone(),
                    call: "sample_random_action",
                    message: format!(
                        "action is {} bytes, over the limit of {limit}",
                        action.len()
                    ),
                },
            ));
        }
        let digest = record::digest(&action, "", 0.0, 0);
        self.members[member].record.sample(digest);
        Ok(action)
    }

    fn get_state(&mut self, member: usize) -> Result<Vec<u8>> {
        let guest = self.call_member(member, "get_state", &mut |s, api, h| {
            api.geode_env_env().instance().call_get_state(s, h)
        })?;
        let state = record::wrap_state(self.members[member].record.stream(), &guest);
        let limit = self.limits.max_state_bytes;
        if state.len() > limit {
            self.live = None;
            return Err(self.fail(
                member,
                Error::Contract {
                    env: self.members[member].id.clone(),
                    call: "get_state",
                    message: format!("state is {} bytes, over the limit of {limit}", state.len()),
                },
            ));
        }
        Ok(state)
    }

    fn set_state(&mut self, member: usize, state: &[u8]) -> Result<()> {
        let limit = self.limits.max_state_bytes;
        if state.len() > limit {
            return Err(Error::InputTooLarge {
                env: self.members[member].id.clone(),
                what: "state",
                len: state.len(),
                limit,
            });
        }
        self.members[member].lost = None;
        let (stream, guest) = record::unwrap_state(state);
        self.guest_set_state(member, &guest)?;
        let m = &mut self.members[member];
        if let Some(stream) = stream {
            m.record.set_stream(stream);
        }
        m.record.begin(Start::State(guest.as_ref().into()), 0);
        m.running = true;
        Ok(())
    }

    fn spawn(&mut self, member: usize, same_state: bool) -> Result<Box<dyn Env>> {
        let m = &self.members[member];
        let members = vec![(m.id.clone(), m.config.clone())];
        let mut twin = crate::ComponentEnv::from_unit(ComponentUnit::new(
            self.plugin.clone(),
            members,
            self.limits.clone(),
        )?);
        if same_state && self.members[member].running {
            let state = self.get_state(member)?;
            twin.set_state(&state)?;
        }
        Ok(Box::new(twin))
    }

    fn seek_episode(&mut self, member: usize, number: u64) -> Result<()> {
        if !Self::can_batch(&self.plugin) {
            // The plain `env` export's reset cannot be told which episode to start.
            return Err(Error::InvalidArgument(format!(
                "{} cannot start a chosen episode (reset idx): its plugin has no `{BATCH_EXPORT}` export",
                self.members[member].id
            )));
        }
        let record = &mut self.members[member].record;
        let (stream, _) = record.stream();
        record.set_stream((stream, number));
        Ok(())
    }
}
