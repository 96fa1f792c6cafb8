//! [`EnvGroup`]: several envs of one id in one component instance, stepped and reset with one
//! call into the guest per batch (the plugin's optional `batch` export), and [`GroupMember`],
//! one of those envs seen as an ordinary [`Env`].
//!
//! The trade against one instance per env: a group's envs share a linear memory and a fate. A
//! trap, a limit hit or a contract violation in any of them discards the instance; every member
//! then reports an error and starts over on a fresh instance. Fuel and memory budgets scale
//! with the group's size. Use groups for plugins you trust not to misbehave.

use crate::batch_results::{BatchResults, Entry};
use crate::bindings::env_world::EnvPlugin;
use crate::env::{Env, Info, ResetOutput, StepOutput};
use crate::guard;
use crate::host_state::GuestState;
use crate::limits::Limits;
use crate::plugin::{Plugin, Template};
use crate::recipe::Recipe;
use crate::vector::{TextReset, TextStep};
use crate::{ComponentEnv, Error, Result};
use std::sync::{Arc, Mutex, PoisonError};
use wasmtime::Store;
use wasmtime::component::{Func, ResourceAny, TypedFunc};

/// The `batch` export's interface name.
const BATCH_EXPORT: &str = "geode:env/batch@0.1.0";

type EnrolArgs = (ResourceAny,);
type StepArgs<'a> = (&'a [u32], &'a str, &'a [u32]);
type ResetArgs<'a> = (&'a [u32], &'a [Option<u64>]);

/// A live group instance.
struct LiveGroup {
    store: Store<GuestState>,
    api: EnvPlugin,
    members: Vec<ResourceAny>,
    /// Each member's number in the guest's batch table.
    numbers: Vec<u32>,
    step_each: Func,
    reset_each: Func,
}

/// `size` envs of one id sharing one component instance.
pub struct EnvGroup {
    recipe: Recipe,
    /// A member's own limits (the recipe holds the whole group's).
    member_limits: Limits,
    size: usize,
    live: Option<LiveGroup>,
    /// Bumped at every new instance; a member whose episode began on an older one must reset.
    generation: u64,
    /// Per member: the generation its episode began on (`None`: not reset on this one yet).
    episode_generation: Vec<Option<u64>>,
    /// Per member: the last info that passed validation (see `ComponentEnv`).
    last_info: Vec<String>,
}

impl std::fmt::Debug for EnvGroup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EnvGroup")
            .field("id", &self.recipe.id)
            .field("size", &self.size)
            .field("live", &self.live.is_some())
            .finish()
    }
}

impl EnvGroup {
    /// A group of `size` envs of `id`; fails when the plugin has no `batch` export.
    pub fn new(
        plugin: Arc<Plugin>,
        id: &str,
        config_json: String,
        limits: Limits,
        size: usize,
    ) -> Result<Self> {
        let size = size.max(1);
        let scale = size as u64;
        let group_limits = Limits {
            fuel_per_call: limits.fuel_per_call.map(|f| f.saturating_mul(scale)),
            max_memory_bytes: limits.max_memory_bytes.saturating_mul(scale),
            max_resource_handles: limits.max_resource_handles.saturating_mul(size),
            max_table_elements: limits.max_table_elements.saturating_mul(size),
            ..limits.clone()
        };
        let mut group = EnvGroup {
            recipe: Recipe::new(plugin, id, config_json, group_limits),
            member_limits: limits,
            size,
            live: None,
            generation: 0,
            episode_generation: vec![None; size],
            last_info: vec![String::new(); size],
        };
        group.live = Some(group.instantiate()?);
        Ok(group)
    }

    /// Number of envs in the group.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The env id of every member.
    pub fn id(&self) -> &str {
        &self.recipe.id
    }

    fn instantiate(&mut self) -> Result<LiveGroup> {
        let Template::Env(pre) = &self.recipe.plugin.template else {
            return Err(Error::InvalidArgument(format!(
                "`{}` is not provided by an env plugin",
                self.recipe.id
            )));
        };
        let pre = pre.clone();
        let mut store = self.recipe.new_store();
        let instance = pre
            .instance_pre()
            .instantiate(&mut store)
            .map_err(|e| self.recipe.classify(&store, "instantiate", e))?;
        let api = EnvPlugin::new(&mut store, &instance)
            .map_err(|e| self.recipe.classify(&store, "instantiate", e))?;
        let mut lookup = |name: &str| -> Result<Func> {
            instance
                .get_export_index(&mut store, None, BATCH_EXPORT)
                .and_then(|batch| instance.get_export_index(&mut store, Some(&batch), name))
                .and_then(|index| instance.get_func(&mut store, index))
                .ok_or_else(|| {
                    Error::InvalidArgument(format!(
                        "`{}` cannot run in env groups: its plugin has no `{BATCH_EXPORT}` export",
                        self.recipe.id
                    ))
                })
        };
        let enrol = lookup("enrol")?;
        let step_each = lookup("step-each")?;
        let reset_each = lookup("reset-each")?;
        // The signatures are checked once here; calls then skip the check.
        let mismatch = |e: wasmtime::Error| Error::Contract {
            env: self.recipe.id.clone(),
            call: "instantiate",
            message: format!("its `{BATCH_EXPORT}` export does not match the contract: {e:#}"),
        };
        let enrol = enrol.typed::<EnrolArgs, (u32,)>(&store).map_err(mismatch)?;
        step_each
            .typed::<StepArgs<'_>, (BatchResults,)>(&store)
            .map_err(mismatch)?;
        reset_each
            .typed::<ResetArgs<'_>, (BatchResults,)>(&store)
            .map_err(mismatch)?;
        let mut members = Vec::with_capacity(self.size);
        let mut numbers = Vec::with_capacity(self.size);
        for _ in 0..self.size {
            self.recipe.limits.arm(&mut store);
            let created = api.geode_env_env().call_create(
                &mut store,
                &self.recipe.id,
                &self.recipe.config_json,
            );
            let handle = match created {
                Ok(Ok(handle)) => handle,
                Ok(Err(refusal)) => return Err(guard::refused(&self.recipe.id, "create", refusal)),
                Err(e) => return Err(self.recipe.classify(&store, "create", e)),
            };
            let (number,) = enrol
                .call(&mut store, (handle,))
                .map_err(|e| self.recipe.classify(&store, "create", e))?;
            members.push(handle);
            numbers.push(number);
        }
        self.generation += 1;
        Ok(LiveGroup {
            store,
            api,
            members,
            numbers,
            step_each,
            reset_each,
        })
    }

    /// The live instance, built anew if the last one was discarded.
    fn live(&mut self) -> Result<&mut LiveGroup> {
        if self.live.is_none() {
            self.live = Some(self.instantiate()?);
        }
        Ok(self.live.as_mut().expect("live group"))
    }

    /// Resets members with their seeds, in one call. `Err` means the whole call failed: the
    /// instance was discarded, and no member has a running episode any more.
    pub fn reset_each(
        &mut self,
        resets: &[(usize, Option<u64>)],
    ) -> Result<Vec<Result<ResetOutput>>> {
        let mut text = String::new();
        let outputs = self.reset_each_into(resets, &mut text)?;
        Ok(outputs
            .into_iter()
            .map(|r| r.map(|first| first.to_owned(&text)))
            .collect())
    }

    /// [`EnvGroup::reset_each`] with the members' strings appended to `text`.
    pub(crate) fn reset_each_into(
        &mut self,
        resets: &[(usize, Option<u64>)],
        text: &mut String,
    ) -> Result<Vec<Result<TextReset>>> {
        self.check_members(resets.iter().map(|r| r.0))?;
        let limits = self.recipe.limits.clone();
        let live = self.live()?;
        if let Some(seed) = resets.iter().find_map(|r| r.1) {
            // The members' own randomness is seeded by the guest SDK from `seed`; WASI
            // randomness is per instance, so a group reseeds it from the first seed given.
            live.store.data_mut().reseed(seed);
        }
        let numbers: Vec<u32> = resets.iter().map(|&(i, _)| live.numbers[i]).collect();
        let seeds: Vec<Option<u64>> = resets.iter().map(|&(_, seed)| seed).collect();
        limits.arm(&mut live.store);
        live.store.data().stderr.clear();
        // SAFETY: the signature was checked when the instance was built.
        let func: TypedFunc<ResetArgs<'_>, (BatchResults,)> =
            unsafe { TypedFunc::new_unchecked(live.reset_each) };
        let mut results = match func.call(&mut live.store, (&numbers, &seeds)) {
            Ok((results,)) => results,
            Err(trap) => return Err(self.discard("reset", trap)),
        };
        let entries = match results.entries(resets.len()) {
            Ok(entries) => entries,
            Err(message) => return Err(self.violation("reset", message)),
        };
        let mut outputs = Vec::with_capacity(entries.len());
        for (&(i, _), entry) in resets.iter().zip(entries) {
            outputs.push(match entry {
                Entry::Done {
                    observation, info, ..
                } => {
                    self.check_len("reset", observation.len())?;
                    self.check_info(i, "reset", info)?;
                    self.episode_generation[i] = Some(self.generation);
                    Ok(TextReset {
                        observation: append(text, observation),
                        info: append(text, info),
                    })
                }
                Entry::Refused(refusal) => Err(guard::refused(&self.recipe.id, "reset", refusal)),
            });
        }
        Ok(outputs)
    }

    /// Steps members with their actions, in one call. A member whose episode did not begin on
    /// the current instance gets an error without reaching the guest. `Err` means the whole call
    /// failed: the instance was discarded.
    pub fn step_each(&mut self, steps: &[(usize, &str)]) -> Result<Vec<Result<StepOutput>>> {
        let mut text = String::new();
        let outputs = self.step_each_into(steps, &mut text)?;
        Ok(outputs
            .into_iter()
            .map(|r| r.map(|step| step.to_owned(&text)))
            .collect())
    }

    /// [`EnvGroup::step_each`] with the members' strings appended to `text`.
    pub(crate) fn step_each_into(
        &mut self,
        steps: &[(usize, &str)],
        text: &mut String,
    ) -> Result<Vec<Result<TextStep>>> {
        self.check_members(steps.iter().map(|s| s.0))?;
        let mut outputs: Vec<Option<Result<TextStep>>> = Vec::with_capacity(steps.len());
        let mut numbers: Vec<u32> = Vec::with_capacity(steps.len());
        let mut actions = String::with_capacity(steps.iter().map(|s| s.1.len()).sum());
        let mut ends: Vec<u32> = Vec::with_capacity(steps.len());
        for &(i, action) in steps {
            let refusal = self.refuse_step(i, action);
            if refusal.is_none() {
                let live = self.live.as_ref().expect("checked by refuse_step");
                numbers.push(live.numbers[i]);
                actions.push_str(action);
                ends.push(u32::try_from(actions.len()).map_err(|_| {
                    Error::InvalidArgument("a batch's actions exceed 4 GiB".into())
                })?);
            }
            outputs.push(refusal.map(Err));
        }
        if !numbers.is_empty() {
            let limits = self.recipe.limits.clone();
            let live = self.live.as_mut().expect("checked by refuse_step");
            limits.arm(&mut live.store);
            live.store.data().stderr.clear();
            // SAFETY: the signature was checked when the instance was built.
            let func: TypedFunc<StepArgs<'_>, (BatchResults,)> =
                unsafe { TypedFunc::new_unchecked(live.step_each) };
            let mut results = match func.call(&mut live.store, (&numbers, &actions, &ends)) {
                Ok((results,)) => results,
                Err(trap) => return Err(self.discard("step", trap)),
            };
            let entries = match results.entries(numbers.len()) {
                Ok(entries) => entries,
                Err(message) => return Err(self.violation("step", message)),
            };
            let mut entries = entries.into_iter();
            for (output, &(i, _)) in outputs.iter_mut().zip(steps) {
                if output.is_some() {
                    continue;
                }
                *output = Some(
                    match entries.next().expect("one entry per stepped member") {
                        Entry::Done {
                            observation,
                            info,
                            reward,
                            terminated,
                            truncated,
                        } => {
                            self.check_step(i, observation, info, reward)?;
                            Ok(TextStep {
                                observation: append(text, observation),
                                info: append(text, info),
                                reward,
                                terminated,
                                truncated,
                            })
                        }
                        Entry::Refused(refusal) => {
                            Err(guard::refused(&self.recipe.id, "step", refusal))
                        }
                    },
                );
            }
        }
        Ok(outputs
            .into_iter()
            .map(|o| o.expect("every member has a result"))
            .collect())
    }

    /// Why member `i` may not step now, if it may not.
    fn refuse_step(&self, i: usize, action: &str) -> Option<Error> {
        let limit = self.member_limits.max_action_bytes;
        if action.len() > limit {
            return Some(Error::InputTooLarge {
                env: self.recipe.id.clone(),
                what: "action",
                len: action.len(),
                limit,
            });
        }
        let current = self.live.is_some() && self.episode_generation[i] == Some(self.generation);
        (!current).then(|| Error::InvalidState {
            env: self.recipe.id.clone(),
            message: "no episode is running in this slot (never reset, or its env group was \
                      rebuilt after a failure); reset it"
                .into(),
        })
    }

    /// Checks member `i`'s step outcome against its limits and the contract.
    fn check_step(&mut self, i: usize, observation: &str, info: &str, reward: f64) -> Result<()> {
        self.check_len("step", observation.len())?;
        if !reward.is_finite() {
            return Err(self.violation(
                "step",
                format!("reward must be a finite number, got {reward}"),
            ));
        }
        self.check_info(i, "step", info)
    }

    fn check_members(&self, mut indices: impl Iterator<Item = usize>) -> Result<()> {
        match indices.find(|&i| i >= self.size) {
            Some(i) => Err(Error::InvalidArgument(format!(
                "member {i} is out of range (group size {})",
                self.size
            ))),
            None => Ok(()),
        }
    }

    fn check_len(&mut self, call: &'static str, len: usize) -> Result<()> {
        let limit = self.member_limits.max_observation_bytes;
        match self.recipe.oversize(call, "observation", len, limit) {
            Some(error) => {
                self.live = None;
                Err(error)
            }
            None => Ok(()),
        }
    }

    /// Checks member `i`'s info: within its size limit and a JSON object (unless it repeats
    /// the member's last one, which passed).
    fn check_info(&mut self, i: usize, call: &'static str, info: &str) -> Result<()> {
        if !info.is_empty() && info == self.last_info[i] {
            return Ok(());
        }
        let limit = self.member_limits.max_info_bytes;
        if let Some(error) = self.recipe.oversize(call, "info", info.len(), limit) {
            self.live = None;
            return Err(error);
        }
        Info::check_json(info).map_err(|message| self.violation(call, message))?;
        self.last_info[i].clear();
        self.last_info[i].push_str(info);
        Ok(())
    }

    fn violation(&mut self, call: &'static str, message: String) -> Error {
        self.live = None;
        Error::Contract {
            env: self.recipe.id.clone(),
            call,
            message,
        }
    }

    fn discard(&mut self, call: &'static str, trap: wasmtime::Error) -> Error {
        let live = self.live.take().expect("live group");
        guard::classify(
            &self.recipe.id,
            &self.recipe.limits,
            live.store.data(),
            call,
            trap,
        )
    }

    /// One call on member `i`'s own resource (sampling, state), under a member's budgets.
    fn call_member<R>(
        &mut self,
        i: usize,
        name: &'static str,
        f: guard::GuestCall<'_, EnvPlugin, R>,
    ) -> Result<R> {
        let limits = self.member_limits.clone();
        let live = self.live()?;
        limits.arm(&mut live.store);
        live.store.data().stderr.clear();
        let handle = live.members[i];
        match f(&mut live.store, &live.api, handle) {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(refusal)) => Err(guard::refused(&self.recipe.id, name, refusal)),
            Err(trap) => Err(self.discard(name, trap)),
        }
    }
}

/// One env of an [`EnvGroup`], usable wherever an [`Env`] is. Vector envs step whole groups in
/// one call instead (see `VectorEnv`); these single calls serve everything else.
pub struct GroupMember {
    group: Arc<Mutex<EnvGroup>>,
    index: usize,
    id: String,
}

impl GroupMember {
    /// Member `index` of `group`.
    pub fn new(group: Arc<Mutex<EnvGroup>>, index: usize) -> Self {
        let id = lock(&group).recipe.id.clone();
        GroupMember { group, index, id }
    }

    /// The group this env belongs to.
    pub fn group(&self) -> &Arc<Mutex<EnvGroup>> {
        &self.group
    }

    /// This env's place in its group.
    pub fn index(&self) -> usize {
        self.index
    }
}

/// Appends `piece` to `text`; where it lies there.
fn append(text: &mut String, piece: &str) -> std::ops::Range<usize> {
    let start = text.len();
    text.push_str(piece);
    start..text.len()
}

/// Locks a group; a panic while it was held leaves it usable (its instance is checked anyway).
pub(crate) fn lock(group: &Mutex<EnvGroup>) -> std::sync::MutexGuard<'_, EnvGroup> {
    group.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Env for GroupMember {
    fn id(&self) -> &str {
        &self.id
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<ResetOutput> {
        let mut out = lock(&self.group).reset_each(&[(self.index, seed)])?;
        out.pop().expect("one result")
    }

    fn step(&mut self, action: &str) -> Result<StepOutput> {
        let mut out = lock(&self.group).step_each(&[(self.index, action)])?;
        out.pop().expect("one result")
    }

    fn sample_random_action(&mut self) -> Result<String> {
        lock(&self.group).call_member(self.index, "sample_random_action", &mut |s, api, h| {
            api.geode_env_env()
                .instance()
                .call_sample_random_action(s, h)
        })
    }

    fn get_state(&mut self) -> Result<Vec<u8>> {
        lock(&self.group).call_member(self.index, "get_state", &mut |s, api, h| {
            api.geode_env_env().instance().call_get_state(s, h)
        })
    }

    fn set_state(&mut self, state: &[u8]) -> Result<()> {
        let mut group = lock(&self.group);
        group.call_member(self.index, "set_state", &mut |s, api, h| {
            api.geode_env_env().instance().call_set_state(s, h, state)
        })?;
        group.episode_generation[self.index] = Some(group.generation);
        Ok(())
    }

    fn group_member(&self) -> Option<(&Arc<Mutex<EnvGroup>>, usize)> {
        Some((&self.group, self.index))
    }

    /// A twin outside the group, with an instance of its own.
    fn spawn(&mut self, same_state: bool) -> Result<Box<dyn Env>> {
        let (plugin, config, limits) = {
            let group = lock(&self.group);
            let recipe = &group.recipe;
            (
                recipe.plugin.clone(),
                recipe.config_json.clone(),
                group.member_limits.clone(),
            )
        };
        let mut twin = ComponentEnv::new(plugin, &self.id, config, limits)?;
        if same_state {
            let state = self.get_state()?;
            twin.set_state(&state)?;
        }
        Ok(Box::new(twin))
    }
}
