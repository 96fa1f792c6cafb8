//! [`SharedMember`]: one member of a unit shared by several owners, as an [`Env`]. Wrapped envs
//! in a vector env are built on these: the wrappers step each env on its own (one member per
//! call), while the envs still share their unit's instance and its fault recovery.

use super::{ComponentUnit, MemberEnv, Unit};
use crate::Result;
use crate::env::{Env, ResetOutput, StepOutput};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Member `member` of a unit that other envs share.
pub(crate) struct SharedMember {
    unit: Arc<Mutex<ComponentUnit>>,
    member: usize,
    id: String,
}

impl SharedMember {
    /// Every member of `unit`, each as an env of its own.
    pub fn all(unit: ComponentUnit) -> Vec<SharedMember> {
        let ids: Vec<String> = (0..unit.len()).map(|m| unit.id(m).to_owned()).collect();
        let unit = Arc::new(Mutex::new(unit));
        ids.into_iter()
            .enumerate()
            .map(|(member, id)| SharedMember {
                unit: unit.clone(),
                member,
                id,
            })
            .collect()
    }

    fn with<R>(&self, f: impl FnOnce(&mut MemberEnv<'_>) -> R) -> R {
        let mut unit: MutexGuard<'_, ComponentUnit> =
            self.unit.lock().unwrap_or_else(PoisonError::into_inner);
        f(&mut MemberEnv::new(&mut *unit, self.member))
    }
}

impl Env for SharedMember {
    fn id(&self) -> &str {
        &self.id
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<ResetOutput> {
        self.with(|env| env.reset(seed))
    }

    fn step(&mut self, action: &str) -> Result<StepOutput> {
        self.with(|env| env.step(action))
    }

    fn sample_random_action(&mut self) -> Result<String> {
        self.with(|env| env.sample_random_action())
    }

    fn get_state(&mut self) -> Result<Vec<u8>> {
        self.with(|env| env.get_state())
    }

    fn set_state(&mut self, state: &[u8]) -> Result<()> {
        self.with(|env| env.set_state(state))
    }

    fn spawn(&mut self, same_state: bool) -> Result<Box<dyn Env>> {
        self.with(|env| env.spawn(same_state))
    }

    fn seek_episode(&mut self, number: u64) -> Result<()> {
        self.with(|env| env.seek_episode(number))
    }
}
