//! [`Run`]: consecutive slots of a vector stepped as one unit, by one thread: an env group's
//! members (one call into the guest), or a lone env.

use crate::env::Env;
use crate::group::EnvGroup;
use std::sync::{Arc, Mutex};

/// Consecutive slots stepped as one unit.
pub(crate) struct Run {
    pub len: usize,
    /// The env group whose members 0..len these slots are.
    pub group: Option<Arc<Mutex<EnvGroup>>>,
}

impl Run {
    /// The runs of `envs`: each stretch of one group's members in member order from 0 (as
    /// `Registry::make_vec` lays groups out), and every other env alone.
    pub fn find(envs: &[Box<dyn Env>]) -> Vec<Run> {
        let mut runs: Vec<Run> = Vec::new();
        for env in envs {
            let member = env.group_member();
            if let (Some(run), Some((group, index))) = (runs.last_mut(), member)
                && run.group.as_ref().is_some_and(|g| Arc::ptr_eq(g, group))
                && index == run.len
            {
                run.len += 1;
                continue;
            }
            runs.push(Run {
                len: 1,
                group: member
                    .filter(|(_, index)| *index == 0)
                    .map(|(group, _)| group.clone()),
            });
        }
        runs
    }

    /// The first slot of each of `runs`.
    pub fn starts(runs: &[Run]) -> Vec<usize> {
        runs.iter()
            .scan(0, |next, run| {
                let start = *next;
                *next += run.len;
                Some(start)
            })
            .collect()
    }
}
