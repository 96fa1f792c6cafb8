//! [`SharedMember`]: one member of a unit shared by several owners, as an [`Env`]. Wrapped envs
//! in a vector env are built on these: the wrappers step each env on its own (one member per
//! call), while the envs still share their unit's instance and its fault recovery. Lent envs
//! ([`crate::EnvLender`]) are too: dropped, they vacate their member and give it back.

use super::{ComponentUnit, MemberEnv, Unit};
use crate::Result;
use crate::env::{Env, ResetOutput, StepOutput};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Called with a lent member's index once it has been vacated (see [`SharedMember::lent`]).
pub(crate) type GiveBack = Box<dyn FnOnce(usize) + Send>;

/// Member `member` of a unit that other envs share.
pub(crate) struct SharedMember {
    unit: Arc<Mutex<ComponentUnit>>,
    member: usize,
    id: String,
    give_back: Option<GiveBack>,
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
                give_back: None,
            })
            .collect()
    }

    /// Member `member` of `unit`, lent: when dropped, the member is vacated (new to its next
    /// holder, see `ComponentUnit::vacate`) and `give_back` is called with it.
    pub fn lent(unit: Arc<Mutex<ComponentUnit>>, member: usize, give_back: GiveBack) -> Self {
        let id = lock(&unit).id(member).to_owned();
        SharedMember {
            unit,
            member,
            id,
            give_back: Some(give_back),
        }
    }

    fn with<R>(&self, f: impl FnOnce(&mut MemberEnv<'_>) -> R) -> R {
        f(&mut MemberEnv::new(&mut *lock(&self.unit), self.member))
    }
}

/// Locks a shared unit; a call that panicked leaves it usable (its members report their state).
fn lock(unit: &Mutex<ComponentUnit>) -> MutexGuard<'_, ComponentUnit> {
    unit.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Drop for SharedMember {
    fn drop(&mut self) {
        if let Some(give_back) = self.give_back.take() {
            lock(&self.unit).vacate(self.member);
            give_back(self.member);
        }
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
