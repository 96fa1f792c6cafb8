//! Building wrapper stacks and vector envs from ids: GEM's `make(..., wrappers)` and `make_vec`.

use crate::env::Env;
use crate::limits::Limits;
use crate::options::MakeOptions;
use crate::registry::Registry;
use crate::unit::{BoxedUnit, ComponentUnit, SharedMember, Unit};
use crate::vector::{AutoresetMode, Units, VectorEnv};
use crate::wrapper_spec::WrapperSpec;
use crate::wrappers::{EpisodeTracking, ObservationHistory, ToolEnv};
use crate::{Error, Result};
use serde_json::Value;

/// The configuration key of an env's own seed (the order a dataset env walks its rows in).
const SEED_KEY: &str = "seed";

/// How to build a vector env.
#[derive(Debug, Clone)]
pub struct VecSpec {
    /// One env id per slot.
    pub ids: Vec<String>,
    /// Wrappers applied to every slot.
    pub wrappers: Vec<WrapperSpec>,
    /// Per-slot config overrides (empty: none; else one per slot).
    pub configs: Vec<Value>,
    /// Env i is first reset with `seed + i` (when the reset names no seed); an env whose
    /// configuration has a `seed` key (the dataset envs' shuffle seed) also gets `seed + i`
    /// there unless its overrides set one (GEM's rule, so the slots do not all walk the dataset
    /// in the same order).
    pub seed: Option<u64>,
    /// Each slot's own seed in place of `seed + i` (empty: none; else one per slot, `None`
    /// for a slot without a seed): GEM's `vec_kwargs[i]["seed"]`.
    pub seeds: Vec<Option<u64>>,
    /// What happens after an episode ends.
    pub autoreset: AutoresetMode,
    /// Limits of every guest call.
    pub limits: Limits,
    /// Envs per unit (component instance): 0 (the default) picks the size from the slot count
    /// and the cores ([`auto_group_size`]); 1 gives each env an instance of its own; K puts up to K consecutive slots
    /// of one plugin in a unit, stepped with one call into the guest per step. A fault inside a
    /// unit is recovered so that only the env that caused it sees an error (see
    /// [`crate::vector`]). Wrapped envs share instances too but step one by one; plugins without
    /// the `batch` export step alone.
    pub group_size: usize,
}

impl VecSpec {
    /// Each slot's seed: `seeds[i]`, or `seed + i`.
    fn slot_seeds(&self) -> Result<Vec<Option<u64>>> {
        match self.seeds.len() {
            0 => Ok((0..self.ids.len())
                .map(|i| self.seed.map(|s| s.wrapping_add(i as u64)))
                .collect()),
            n if n == self.ids.len() => Ok(self.seeds.clone()),
            n => Err(Error::InvalidArgument(format!(
                "{n} seeds for {} envs",
                self.ids.len()
            ))),
        }
    }

    /// This spec laid out for an [`AsyncPool`](crate::AsyncPool)
    /// (`registry.make_vec(&spec.for_pool())?.into_pool(threads)`): a group size of 0 picks one
    /// unit per core even for few slots, so that a slow step holds back fewer episodes (see
    /// [`auto_group_size`]).
    pub fn for_pool(mut self) -> Self {
        if self.group_size == 0 {
            self.group_size = auto_group_size(self.ids.len(), true);
        }
        self
    }

    /// `n` slots of `id`, SameStep autoreset, seeds from `seed`.
    pub fn uniform(id: &str, n: usize, seed: u64) -> Self {
        VecSpec {
            ids: vec![id.to_owned(); n],
            wrappers: Vec::new(),
            configs: Vec::new(),
            seed: Some(seed),
            seeds: Vec::new(),
            autoreset: AutoresetMode::SameStep,
            limits: Limits::default(),
            group_size: 0,
        }
    }
}

/// The most units one vector env makes by default: far below the pooling allocator's
/// instance limit, whatever the slot count.
const MAX_AUTO_UNITS: usize = 1024;

/// The fewest envs per unit a synchronous vector env spreads over several cores by default. A
/// unit's call has a fixed cost, and below this a second unit on another core costs more than
/// it saves (measured on two cores, default settings against one unit: 8 envs step 37% faster
/// as one unit than as two of 4, 16 envs 12% faster than as two of 8, 24 envs 3%; 32 envs 4%
/// slower than as two of 16; through Python 22%, 10%, 2% and even).
const MIN_SPREAD_UNIT: usize = 16;

/// The envs per unit [`VecSpec::group_size`] 0 picks for `n` slots: one unit per core (each
/// core steps its own unit with one call; measured at 64 envs on two cores, units of 32 stepped
/// 1.5x faster than units of 8), except that a synchronous vector env (`pooled` false) makes
/// no more units than it has 16s of envs (`MIN_SPREAD_UNIT`); at most 64 envs per unit (so several
/// units share a step as the slot count grows), and at most `MAX_AUTO_UNITS` (1,024) units. An
/// async pool keeps one unit per core even for few slots: its units move at their own pace, so
/// one slow step holds back fewer episodes (16 envs as one unit: 14% slower send/recv).
pub fn auto_group_size(n: usize, pooled: bool) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let units = match pooled {
        true => cores,
        false => (n / MIN_SPREAD_UNIT).clamp(1, cores),
    };
    n.div_ceil(units)
        .clamp(1, 64)
        .max(n.div_ceil(MAX_AUTO_UNITS))
}

impl Registry {
    /// Wraps `env` in one layer.
    pub fn wrap(
        &self,
        env: Box<dyn Env>,
        spec: &WrapperSpec,
        limits: &Limits,
    ) -> Result<Box<dyn Env>> {
        Ok(match spec {
            WrapperSpec::Tools { tools, rewards } => {
                let tools = tools
                    .iter()
                    .map(|(id, config)| self.make_tool(id, config, limits))
                    .collect::<Result<Vec<_>>>()?;
                Box::new(ToolEnv::new(env, tools, rewards.clone()))
            }
            WrapperSpec::Observation { mode, max_history } => {
                Box::new(ObservationHistory::new(env, *mode, *max_history))
            }
            WrapperSpec::EpisodeTracking => Box::new(EpisodeTracking::new(env)),
            WrapperSpec::Plugin { id, config } => {
                Box::new(self.make_wrapper(id, config, limits.clone(), env)?)
            }
        })
    }

    /// A vector env (GEM's `make_vec`); [`VectorEnv::into_pool`] gives its slots `send`/`recv`
    /// (lay them out with [`VecSpec::for_pool`] first).
    pub fn make_vec(&self, spec: &VecSpec) -> Result<VectorEnv> {
        if !spec.configs.is_empty() && spec.configs.len() != spec.ids.len() {
            return Err(Error::InvalidArgument(format!(
                "{} configs for {} envs",
                spec.configs.len(),
                spec.ids.len()
            )));
        }
        let mut configs: Vec<Value> = match spec.configs.is_empty() {
            true => vec![Value::Null; spec.ids.len()],
            false => spec.configs.clone(),
        };
        let seeds = spec.slot_seeds()?;
        for ((id, config), seed) in spec.ids.iter().zip(&mut configs).zip(&seeds) {
            if let Some(seed) = seed {
                self.seed_config(id, config, *seed);
            }
        }
        let units = self.make_units(
            &spec.ids,
            &configs,
            &spec.wrappers,
            &spec.limits,
            spec.group_size,
        )?;
        Ok(VectorEnv::new(
            units.with_first_seeds(&seeds),
            spec.autoreset,
        ))
    }

    /// Sets the `seed` key of `overrides` to `seed` when env `id` has that key and the
    /// overrides do not set it (an unknown id is left for `make` to report).
    fn seed_config(&self, id: &str, overrides: &mut Value, seed: u64) {
        let has_seed_key = self
            .lookup(id)
            .is_ok_and(|entry| entry.spec.default_config.contains_key(SEED_KEY));
        if !has_seed_key {
            return;
        }
        if overrides.is_null() {
            *overrides = Value::Object(Default::default());
        }
        if let Value::Object(map) = overrides {
            map.entry(SEED_KEY).or_insert(Value::from(seed));
        }
    }

    /// The slots of a vector env: env i of `ids[i]` with overrides
    /// `configs[i]`, wrapped in `wrappers`, cut into units of up to `group_size` envs (0:
    /// [`auto_group_size`]).
    /// Consecutive envs of one plugin that exports `batch` share a unit (their ids and
    /// configurations may differ); wrapped, each steps on its own over its shared member. Every
    /// other env is a unit of its own.
    fn make_units(
        &self,
        ids: &[String],
        configs: &[Value],
        wrappers: &[WrapperSpec],
        limits: &Limits,
        group_size: usize,
    ) -> Result<Units> {
        if ids.is_empty() {
            return Err(Error::InvalidArgument(
                "a vector env needs at least one env id".into(),
            ));
        }
        let size = match group_size {
            0 => auto_group_size(ids.len(), false),
            size => size,
        };
        let mut units: Vec<Box<dyn Unit>> = Vec::with_capacity(ids.len().div_ceil(size));
        let mut members: Vec<(String, String)> = Vec::new();
        let mut plugin: Option<std::sync::Arc<crate::Plugin>> = None;
        // A run of members becomes a unit; wrapped, each member is an env of its own over it.
        let flush = |plugin: &mut Option<std::sync::Arc<crate::Plugin>>,
                     members: &mut Vec<(String, String)>,
                     units: &mut Vec<Box<dyn Unit>>|
         -> Result<()> {
            let Some(plugin) = plugin.take() else {
                return Ok(());
            };
            let unit = ComponentUnit::new(plugin, std::mem::take(members), limits.clone())?;
            if wrappers.is_empty() {
                units.push(Box::new(unit));
                return Ok(());
            }
            for member in SharedMember::all(unit) {
                let mut env: Box<dyn Env> = Box::new(member);
                for spec in wrappers {
                    env = self.wrap(env, spec, limits)?;
                }
                units.push(Box::new(BoxedUnit(env)));
            }
            Ok(())
        };
        for (id, config) in ids.iter().zip(configs) {
            let batchable = match self.lookup(id).map(|entry| entry.provider.plugin()) {
                Ok(Some(found)) if size > 1 => {
                    ComponentUnit::can_batch(found).then(|| found.clone())
                }
                _ => None,
            };
            let Some(found) = batchable else {
                flush(&mut plugin, &mut members, &mut units)?;
                let options = MakeOptions {
                    overrides: config.clone(),
                    limits: limits.clone(),
                    wrappers: wrappers.to_vec(),
                    data_dirs: Vec::new(),
                };
                let env = self.make(id, options)?;
                units.push(Box::new(BoxedUnit(env)));
                continue;
            };
            let same = plugin
                .as_ref()
                .is_some_and(|p| std::sync::Arc::ptr_eq(p, &found) && members.len() < size);
            if !same {
                flush(&mut plugin, &mut members, &mut units)?;
            }
            let (found, merged) = self.resolve(id, crate::PluginKind::Env, config)?;
            plugin = Some(found);
            members.push((id.clone(), merged));
        }
        flush(&mut plugin, &mut members, &mut units)?;
        Ok(Units::from_units(units))
    }
}
