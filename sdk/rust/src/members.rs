//! The instances a component serves, numbered for batch calls: [`enrol`] numbers one, and a
//! batch call names its members by number. A number dies with its instance and may be reused.

use crate::EpisodeStart;
use crate::bindings::exports::geode::env::batch::EnvError;
use crate::bindings::exports::geode::env::env::{ResetResult, StepResult};
use std::cell::RefCell;
use std::rc::{Rc, Weak};

/// An instance as batch calls see it.
pub trait Member {
    /// What the instance's own `step` returns for `action`.
    fn step(&self, action: &str) -> Result<StepResult, EnvError>;
    /// What the instance's own `reset` returns for an episode that starts as `start`.
    fn reset(&self, start: EpisodeStart) -> Result<ResetResult, EnvError>;
}

thread_local! {
    /// Enrolled instances by number. An entry dies with its instance and may be reused.
    static MEMBERS: RefCell<Vec<Weak<dyn Member>>> = const { RefCell::new(Vec::new()) };
}

/// Numbers `member` for batch calls (the `enrol` export).
pub fn enrol(member: &Rc<dyn Member>) -> u32 {
    MEMBERS.with_borrow_mut(|members| {
        let weak = Rc::downgrade(member);
        let free = members.iter().position(|m| m.strong_count() == 0);
        let number = match free {
            Some(n) => {
                members[n] = weak;
                n
            }
            None => {
                members.push(weak);
                members.len() - 1
            }
        };
        u32::try_from(number).expect("fewer than 2^32 instances")
    })
}

/// The live instances numbered `numbers` (`None` for a number no live instance has).
pub(crate) fn members(numbers: &[u32]) -> Vec<Option<Rc<dyn Member>>> {
    MEMBERS.with_borrow(|members| {
        numbers
            .iter()
            .map(|&n| members.get(n as usize).and_then(Weak::upgrade))
            .collect()
    })
}
