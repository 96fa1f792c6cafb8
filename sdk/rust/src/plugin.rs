//! The glue between an [`Environment`] and the generated component bindings.

use crate::bindings::exports::geode::env::env::{
    EnvError, Guest, GuestInstance, Instance, PluginSpec, ResetResult, StepResult,
};
use crate::members::Member;
use crate::{Config, Environment, EpisodeStart, Error, Rng, Spec};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::marker::PhantomData;
use std::rc::Rc;

/// The component's export type for environment `E` (named by [`export_env!`](crate::export_env)).
pub struct Plugin<E>(PhantomData<E>);

/// One live env: the author's state plus the randomness the SDK owns for it.
pub struct Slot<E> {
    /// Shared with the batch table once the instance is enrolled (see [`crate::batch`]).
    inner: Rc<RefCell<SlotState<E>>>,
}

impl<E: Environment> Slot<E> {
    /// The instance as batch calls reach it.
    pub(crate) fn member(&self) -> Rc<dyn Member> {
        self.inner.clone()
    }
}

#[derive(Serialize, Deserialize)]
struct SlotState<E> {
    env: E,
    /// Prepared by each reset from its [`EpisodeStart`]; an unseeded first reset seeds it from
    /// (host-virtualized) entropy.
    rng: Option<Rng>,
    started: bool,
}

/// The `plugin-spec` record of every world (the tool and wrapper bindings reuse it).
impl From<Spec> for PluginSpec {
    fn from(s: Spec) -> Self {
        PluginSpec {
            id: s.id,
            default_config: s.default_config.to_string(),
            description: s.description,
        }
    }
}

/// What every world's `describe` returns: the plugin's specs as records.
pub(crate) fn describe(specs: Vec<Spec>) -> Vec<PluginSpec> {
    specs.into_iter().map(PluginSpec::from).collect()
}

fn entropy_seed() -> u64 {
    // WASI randomness is virtualized and seeded by the host per instance, so this replays too.
    getrandom::u64().unwrap_or(0x9e37_79b9_7f4a_7c15)
}

impl<E: Environment> Guest for Plugin<E> {
    type Instance = Slot<E>;

    fn describe() -> Vec<PluginSpec> {
        describe(E::specs())
    }

    fn create(id: String, config: String) -> Result<Instance, EnvError> {
        // The host only creates ids this plugin described, so `id` needs no second check here.
        let config = Config::from_json(&config)?;
        let env = E::create(&id, config)?;
        let state = SlotState {
            env,
            rng: None,
            started: false,
        };
        Ok(Instance::new(Slot {
            inner: Rc::new(RefCell::new(state)),
        }))
    }
}

impl<E: Environment> Member for RefCell<SlotState<E>> {
    fn reset(&self, start: EpisodeStart) -> Result<ResetResult, EnvError> {
        let mut slot = self.borrow_mut();
        let slot = &mut *slot;
        let rng = match (start, slot.rng.as_mut()) {
            // CPython's `random.seed(seed)`: GEM's episode for that seed.
            (EpisodeStart::Seeded(seed), Some(rng)) => {
                rng.seed(seed);
                rng
            }
            (EpisodeStart::Seeded(seed), None) => slot.rng.insert(Rng::seeded(seed)),
            // A pure function of (stream, number), so the host can replay the episode.
            (EpisodeStart::Continued { stream, number }, _) => {
                slot.rng.insert(Rng::continued(stream, number))
            }
            // Goes on from where it was.
            (EpisodeStart::Unseeded, _) => {
                slot.rng.get_or_insert_with(|| Rng::seeded(entropy_seed()))
            }
        };
        slot.env.before_reset(&start);
        let reset = slot.env.reset(rng)?;
        slot.started = true;
        Ok(ResetResult {
            observation: reset.observation,
            info: reset.info.into_json(),
        })
    }

    fn step(&self, action: &str) -> Result<StepResult, EnvError> {
        let mut slot = self.borrow_mut();
        if !slot.started {
            return Err(Error::InvalidState("step called before reset".into()).into());
        }
        let slot = &mut *slot;
        let rng = slot.rng.get_or_insert_with(|| Rng::seeded(entropy_seed()));
        let step = slot.env.step(action, rng)?;
        Ok(StepResult {
            observation: step.observation,
            reward: step.reward,
            terminated: step.terminated,
            truncated: step.truncated,
            info: step.info.into_json(),
        })
    }
}

impl<E: Environment> GuestInstance for Slot<E> {
    /// The plain `reset`: a seed starts a [`EpisodeStart::Seeded`] episode, none an
    /// [`EpisodeStart::Unseeded`] one.
    fn reset(&self, seed: Option<u64>) -> Result<ResetResult, EnvError> {
        Member::reset(&*self.inner, EpisodeStart::from(seed))
    }

    fn step(&self, action: String) -> Result<StepResult, EnvError> {
        Member::step(&*self.inner, &action)
    }

    fn sample_random_action(&self) -> Result<String, EnvError> {
        let mut slot = self.inner.borrow_mut();
        let slot = &mut *slot;
        let rng = slot.rng.get_or_insert_with(|| Rng::seeded(entropy_seed()));
        Ok(slot.env.sample_random_action(rng))
    }

    fn get_state(&self) -> Result<Vec<u8>, EnvError> {
        serde_json::to_vec(&*self.inner.borrow())
            .map_err(|e| Error::Internal(format!("cannot encode state: {e}")).into())
    }

    fn set_state(&self, state: Vec<u8>) -> Result<(), EnvError> {
        let decoded: SlotState<E> = serde_json::from_slice(&state)
            .map_err(|e| EnvError::from(Error::BadState(e.to_string())))?;
        *self.inner.borrow_mut() = decoded;
        Ok(())
    }
}
