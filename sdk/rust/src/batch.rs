//! The optional `batch` export: a group of instances stepped or reset in one call, each exactly
//! as its own `step`/`reset` would.

use crate::Environment;
use crate::bindings::exports::geode::env::batch::{
    EnvError, Guest, InstanceBorrow, ResetResult, StepResult,
};
use crate::bindings::exports::geode::env::env::GuestInstance;
use crate::plugin::{Plugin, Slot};

impl<E: Environment> Guest for Plugin<E> {
    fn step_each(steps: Vec<(InstanceBorrow<'_>, String)>) -> Vec<Result<StepResult, EnvError>> {
        steps
            .into_iter()
            .map(|(instance, action)| instance.get::<Slot<E>>().step(action))
            .collect()
    }

    fn reset_each(
        resets: Vec<(InstanceBorrow<'_>, Option<u64>)>,
    ) -> Vec<Result<ResetResult, EnvError>> {
        resets
            .into_iter()
            .map(|(instance, seed)| instance.get::<Slot<E>>().reset(seed))
            .collect()
    }
}
