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

mod calls;
mod splitting;
mod step_then_reset;

use super::columns::{Entry, EpisodeStart};
use super::record::{self, Call, Record, Start};
use super::{StepsAndResets, TextStep, Unit, append};
use crate::env::Env;
use crate::guest::{Budget, GuestCall, GuestInstance, Recipe, verdict};
use crate::limits::Limits;
use crate::plugin::{Plugin, Template};
use crate::{Error, Result};
use calls::{BATCH_EXPORT, UnitApi, call_batch, call_plain};
use splitting::Splitting;
use std::sync::Arc;

/// Stands for a result until it is computed (never returned).
fn pending() -> Error {
    Error::Internal(String::new())
}

/// A member's logged calls with their actions and digests, copied out for a replay.
type Log = Vec<(Call, String, u64)>;

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

/// One env of the unit.
struct Member {
    id: String,
    record: Record,
    /// An episode runs (on the live instance, or in the record, to be replayed into the next).
    running: bool,
    /// Why the member's episode was lost while rebuilding the unit: reported at its next step.
    lost: Option<Error>,
    /// Handed to a new holder ([`ComponentUnit::vacate`]) and not reset or restored since: the
    /// guest still holds the last holder's state, which no call may read.
    vacated: bool,
    /// The last info that passed validation: most envs repeat it, and comparing bytes costs far
    /// less than parsing JSON again.
    last_info: String,
}

/// Envs of one plugin in one component instance (see the module documentation).
pub struct ComponentUnit {
    /// The instance the members share (its recipe holds one member's limits).
    guest: GuestInstance<UnitApi>,
    members: Vec<Member>,
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
            .field("live", &self.guest.is_live())
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
        let mut recipe = Recipe::of_members(plugin, members, limits);
        let members = (0..recipe.members.len())
            .map(|m| Member {
                id: recipe.members[m].0.clone(),
                record: Record::new(recipe.next_entropy(), logging),
                running: false,
                lost: None,
                vacated: false,
                last_info: String::new(),
            })
            .collect();
        let mut unit = ComponentUnit {
            guest: GuestInstance::new(recipe, None),
            members,
            splitting: Default::default(),
            faults: 0,
        };
        let live = unit.guest.ensure_live()?;
        if unit.members.len() > 1 && live.api.batch.is_none() {
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

    /// Frees `member` for a new holder, as if it were a new env: its episode ends, its seed
    /// stream starts afresh, and until its next reset or `set_state` it refuses every call
    /// that would read the state the last holder left in the guest (step, sample, get_state).
    pub(crate) fn vacate(&mut self, member: usize) {
        let stream = self.guest.recipe.next_entropy();
        let logging = self.members.len() > 1;
        let m = &mut self.members[member];
        m.record = Record::new(stream, logging);
        m.running = false;
        m.lost = None;
        m.vacated = true;
        m.last_info.clear();
    }

    /// Refuses a call that reads `member`'s state while it is vacated.
    fn check_occupied(&self, member: usize) -> Result<()> {
        if self.members[member].vacated {
            return Err(Error::InvalidState {
                env: self.members[member].id.clone(),
                message: "no episode yet: call reset first".into(),
            });
        }
        Ok(())
    }

    /// The limits of each member.
    pub fn limits(&self) -> &Limits {
        &self.guest.recipe.limits
    }

    /// The plugin that provides the members.
    pub fn plugin(&self) -> &Arc<Plugin> {
        &self.guest.recipe.plugin
    }

    /// Member `member`'s configuration (a JSON object).
    pub fn config_json(&self, member: usize) -> &str {
        &self.guest.recipe.members[member].1
    }

    /// Whether an instance is live (false after a fault, until the next call rebuilds it).
    pub fn is_live(&self) -> bool {
        self.guest.is_live()
    }

    /// The live instance; after a fault, a fresh one with every running episode replayed into
    /// it (a member whose replay fails or diverges loses its episode, and is told at its next
    /// step).
    fn ensure_live(&mut self) -> Result<()> {
        let mut alone = false;
        while !self.guest.is_live() {
            self.guest.ensure_live()?;
            match self.replay(alone) {
                Ok(()) => {}
                // A replay call for several members failed: replay again, member by member.
                Err(Fault::Shared) => {
                    self.guest.discard();
                    alone = true;
                }
                Err(Fault::Member(member, error)) => {
                    self.guest.discard();
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
                self.guest.discard();
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

    /// `member`'s call returned something the contract forbids: the instance goes (its state
    /// may be anything now), and the member fails with `message`.
    fn broke_contract(&mut self, member: usize, call: &'static str, message: String) -> Error {
        self.guest.discard();
        let env = self.members[member].id.clone();
        self.fail(member, Error::Contract { env, call, message })
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
                m.vacated = false;
            }
            (Err(Error::Refused { message, .. }), Request::Step(action)) => m
                .record
                .step(action, record::digest(message, "", 0.0, 0xfe)),
            (Err(error), _) => {
                if matches!(error, Error::Contract { .. }) {
                    self.guest.discard();
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
        // A lone member's step goes through the plain `env` export: a step carries no episode
        // start, so both exports give the same result, and a batch call costs more in guests
        // whose SDK runs the batch loop in an interpreter (Python, JavaScript). Resets keep the
        // batch export, whose `episode-start` the host needs to replay and seek episodes.
        let lone_step = self.members.len() == 1 && matches!(request, Request::Step(_));
        let batched = !lone_step
            && self
                .guest
                .live()
                .is_some_and(|live| live.api.batch.is_some());
        let budget = match batched {
            true => Budget::Batch(todo.len()),
            false => Budget::Own,
        };
        let live = self.guest.enter(budget).expect("a live instance");
        let returned = match batched {
            true => call_batch(live, batch, todo),
            false => call_plain(live, first, request),
        };
        let shared = todo.len() > 1;
        let live = self.guest.live().expect("a live instance");
        let state = live.store.data();
        // A refused growth may have changed what a member returned (a guest can handle it):
        // in a call of several, the refusal is not the member's own limit.
        if shared && (returned.is_err() || state.limiter.memory_denied) {
            return Err(Fault::Shared);
        }
        let mut returned = match returned {
            Ok(returned) => returned,
            Err(trap) => {
                return Err(Fault::Member(first, self.guest.fail(first, call, trap)));
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
            Entry::Refused(refusal) => return Err(verdict::refused(&m.id, call, refusal)),
            Entry::Done {
                observation,
                info,
                reward,
                terminated,
                truncated,
            } => (observation, info, reward, terminated, truncated),
        };
        let fresh_info = info.is_empty() || info != m.last_info;
        verdict::check_result(
            &self.guest.recipe.limits,
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
        f: GuestCall<'_, UnitApi, R>,
    ) -> Result<R> {
        if let Some(error) = self.members[member].lost.take() {
            return Err(error);
        }
        self.ensure_live()?;
        let result = self.guest.call_live(member, name, f);
        match result {
            Err(error) if !self.guest.is_live() => Err(self.fail(member, error)),
            other => other,
        }
    }

    fn guest_sample(&mut self, member: usize) -> Result<String> {
        self.call_member(member, "sample_random_action", &mut |s, api, h| {
            api.env
                .geode_env_env()
                .instance()
                .call_sample_random_action(s, h)
        })
    }

    fn guest_set_state(&mut self, member: usize, state: &[u8]) -> Result<()> {
        self.call_member(member, "set_state", &mut |s, api, h| {
            api.env
                .geode_env_env()
                .instance()
                .call_set_state(s, h, state)
        })
    }

    /// Refuses an action over the action size limit before it reaches the guest.
    fn check_action(&self, member: usize, action: &str) -> Result<()> {
        self.guest.recipe.check_action(member, action)
    }

    fn limit(&self) -> &Limits {
        &self.guest.recipe.limits
    }
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
    ) -> Vec<Result<TextStep>> {
        let batch: Vec<(usize, Request<'_>)> = resets
            .iter()
            .map(|&(m, seed)| (m, Request::Reset(self.members[m].record.next_start(seed))))
            .collect();
        let mut results: Vec<Result<TextStep>> = batch.iter().map(|_| Err(pending())).collect();
        self.run(&batch, (0..batch.len()).collect(), &mut results, text);
        results
    }

    fn step_each_then_reset(
        &mut self,
        steps: &[(usize, &str)],
        text: &mut String,
    ) -> StepsAndResets {
        self.step_then_reset(steps, text)
    }

    fn sample_random_action(&mut self, member: usize) -> Result<String> {
        self.check_occupied(member)?;
        let action = self.guest_sample(member)?;
        let limit = self.limit().max_action_bytes;
        if action.len() > limit {
            let message = format!(
                "action is {} bytes, over the limit of {limit}",
                action.len()
            );
            return Err(self.broke_contract(member, "sample_random_action", message));
        }
        let digest = record::digest(&action, "", 0.0, 0);
        self.members[member].record.sample(digest);
        Ok(action)
    }

    fn get_state(&mut self, member: usize) -> Result<Vec<u8>> {
        self.check_occupied(member)?;
        let guest = self.call_member(member, "get_state", &mut |s, api, h| {
            api.env.geode_env_env().instance().call_get_state(s, h)
        })?;
        let state = record::wrap_state(self.members[member].record.stream(), &guest);
        let limit = self.limit().max_state_bytes;
        if state.len() > limit {
            let message = format!("state is {} bytes, over the limit of {limit}", state.len());
            return Err(self.broke_contract(member, "get_state", message));
        }
        Ok(state)
    }

    fn set_state(&mut self, member: usize, state: &[u8]) -> Result<()> {
        let limit = self.limit().max_state_bytes;
        self.guest
            .recipe
            .check_input(member, "state", state.len(), limit)?;
        self.members[member].lost = None;
        let (stream, guest) = record::unwrap_state(state);
        self.guest_set_state(member, &guest)?;
        let m = &mut self.members[member];
        if let Some(stream) = stream {
            m.record.set_stream(stream);
        }
        m.record.begin(Start::State(guest.as_ref().into()), 0);
        m.running = true;
        m.vacated = false;
        Ok(())
    }

    fn spawn(&mut self, member: usize, same_state: bool) -> Result<Box<dyn Env>> {
        let recipe = &self.guest.recipe;
        let members = vec![recipe.members[member].clone()];
        let mut twin = crate::ComponentEnv::from_unit(ComponentUnit::new(
            recipe.plugin.clone(),
            members,
            recipe.limits.clone(),
        )?);
        if same_state && self.members[member].running {
            let state = self.get_state(member)?;
            twin.set_state(&state)?;
        }
        Ok(Box::new(twin))
    }

    fn seek_episode(&mut self, member: usize, number: u64) -> Result<()> {
        if !Self::can_batch(&self.guest.recipe.plugin) {
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
