//! The `batch` export's own types: `episode-start`, which the host lowers, and `batch-results`,
//! what the export returns: one column per field for a whole batch of members, read back here
//! into one entry per member after checking that the columns agree with each other.

use crate::bindings::env_world::geode::env::types::EnvError;
use wasmtime::component::__internal::{
    CanonicalAbiInfo, InstanceType, InterfaceType, LowerContext,
};
use wasmtime::component::{ComponentType, Lift, Lower};

/// How a member's episode starts (the contract's `episode-start`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EpisodeStart {
    /// The user's seed.
    Seeded(u64),
    /// No user seed: the member's stream and its count of unseeded episodes before this one.
    Continued(Continuation),
}

/// An unseeded episode's identity (the contract's `continuation`).
#[derive(ComponentType, Lower, Clone, Copy, Debug, PartialEq, Eq)]
#[component(record)]
pub(crate) struct Continuation {
    pub stream: u64,
    pub number: u64,
}

/// [`EpisodeStart`] as the derived lowering sees it; [`EpisodeStart`] lowers through it, except
/// for whole lists (see its `Lower` impl).
#[derive(ComponentType, Lower, Clone, Copy)]
#[component(variant)]
pub(crate) enum DerivedStart {
    #[component(name = "seeded")]
    Seeded(u64),
    #[component(name = "continued")]
    Continued(Continuation),
}

impl From<EpisodeStart> for DerivedStart {
    fn from(start: EpisodeStart) -> Self {
        match start {
            EpisodeStart::Seeded(seed) => DerivedStart::Seeded(seed),
            EpisodeStart::Continued(c) => DerivedStart::Continued(c),
        }
    }
}

/// Bytes of one `episode-start` in guest memory: a one-byte case tag, then the payload at 8.
const START_SIZE: usize = 24;

// SAFETY: every item is `DerivedStart`'s, which the derive implements for this very type.
unsafe impl ComponentType for EpisodeStart {
    type Lower = <DerivedStart as ComponentType>::Lower;
    const ABI: CanonicalAbiInfo = DerivedStart::ABI;
    const MAY_REQUIRE_REALLOC: bool = DerivedStart::MAY_REQUIRE_REALLOC;

    fn typecheck(ty: &InterfaceType, types: &InstanceType<'_>) -> wasmtime::Result<()> {
        DerivedStart::typecheck(ty, types)
    }
}

// SAFETY: single values lower through the derived code; a list is written in the canonical
// ABI's layout of this variant (checked against `ABI` below), within the room the caller
// checked for `items.len()` elements.
unsafe impl Lower for EpisodeStart {
    fn linear_lower_to_flat<T>(
        &self,
        cx: &mut LowerContext<'_, T>,
        ty: InterfaceType,
        dst: &mut std::mem::MaybeUninit<Self::Lower>,
    ) -> wasmtime::Result<()> {
        DerivedStart::from(*self).linear_lower_to_flat(cx, ty, dst)
    }

    fn linear_lower_to_memory<T>(
        &self,
        cx: &mut LowerContext<'_, T>,
        ty: InterfaceType,
        offset: usize,
    ) -> wasmtime::Result<()> {
        DerivedStart::from(*self).linear_lower_to_memory(cx, ty, offset)
    }

    /// One pass over the list's bytes. The derived code stores element by element, each field
    /// looking the guest memory up again: for a step of 32 members, 7,000 instructions (a
    /// twentieth of the host's share of the step) where this takes a few hundred.
    fn linear_store_list_to_memory<T>(
        cx: &mut LowerContext<'_, T>,
        _ty: InterfaceType,
        offset: usize,
        items: &[Self],
    ) -> wasmtime::Result<()> {
        const { assert!(Self::ABI.size32 as usize == START_SIZE && Self::ABI.align32 == 8) };
        let memory = &mut cx.as_slice_mut()[offset..][..items.len() * START_SIZE];
        for (item, out) in items.iter().zip(memory.chunks_exact_mut(START_SIZE)) {
            let (tag, first, second) = match *item {
                EpisodeStart::Seeded(seed) => (0u8, seed, 0),
                EpisodeStart::Continued(c) => (1u8, c.stream, c.number),
            };
            out[..8].copy_from_slice(&[tag, 0, 0, 0, 0, 0, 0, 0]);
            out[8..16].copy_from_slice(&first.to_le_bytes());
            out[16..].copy_from_slice(&second.to_le_bytes());
        }
        Ok(())
    }
}

impl EpisodeStart {
    /// The seed a plugin without the `batch` export gets (`none` continues its randomness).
    pub fn plain_seed(self) -> Option<u64> {
        match self {
            EpisodeStart::Seeded(seed) => Some(seed),
            EpisodeStart::Continued(_) => None,
        }
    }
}

/// The `batch-results` record as the host lifts it.
#[derive(ComponentType, Lift)]
#[component(record)]
pub(crate) struct BatchResults {
    observations: String,
    #[component(name = "observation-ends")]
    observation_ends: Vec<u32>,
    infos: String,
    #[component(name = "info-ends")]
    info_ends: Vec<u32>,
    rewards: Vec<f64>,
    flags: Vec<u8>,
    errors: Vec<(u32, EnvError)>,
}

const TERMINATED: u8 = 1;
const TRUNCATED: u8 = 2;
const REFUSED: u8 = 4;

/// One member's part of a batch result.
pub(crate) enum Entry<'a> {
    /// The call went through.
    Done {
        observation: &'a str,
        info: &'a str,
        reward: f64,
        terminated: bool,
        truncated: bool,
    },
    /// The plugin refused the call for this member.
    Refused(EnvError),
}

impl BatchResults {
    /// The results of one plain `step` call, as a batch of one.
    pub(crate) fn from_step(
        result: Result<crate::bindings::env_world::geode::env::types::StepResult, EnvError>,
    ) -> Self {
        match result {
            Ok(step) => {
                let flags = (if step.terminated { TERMINATED } else { 0 })
                    | (if step.truncated { TRUNCATED } else { 0 });
                Self::one(step.observation, step.info, step.reward, flags)
            }
            Err(error) => Self::refused(error),
        }
    }

    /// The results of one plain `reset` call, as a batch of one.
    pub(crate) fn from_reset(
        result: Result<crate::bindings::env_world::geode::env::types::ResetResult, EnvError>,
    ) -> Self {
        match result {
            Ok(reset) => Self::one(reset.observation, reset.info, 0.0, 0),
            Err(error) => Self::refused(error),
        }
    }

    fn one(observation: String, info: String, reward: f64, flags: u8) -> Self {
        BatchResults {
            observation_ends: vec![observation.len() as u32],
            observations: observation,
            info_ends: vec![info.len() as u32],
            infos: info,
            rewards: vec![reward],
            flags: vec![flags],
            errors: Vec::new(),
        }
    }

    fn refused(error: EnvError) -> Self {
        BatchResults {
            errors: vec![(0, error)],
            ..Self::one(String::new(), String::new(), 0.0, REFUSED)
        }
    }

    /// The entries among the first `n` whose flags say the episode ended (terminated or
    /// truncated, not refused): the members a `step-each-then-reset` call reset after them.
    pub(crate) fn ended(&self, n: usize) -> Vec<usize> {
        let ended = |flags: u8| flags & REFUSED == 0 && flags & (TERMINATED | TRUNCATED) != 0;
        (0..n.min(self.flags.len()))
            .filter(|&k| ended(self.flags[k]))
            .collect()
    }

    /// The `n` entries, or what is wrong with the columns (a contract violation).
    pub(crate) fn entries(&mut self, n: usize) -> Result<Vec<Entry<'_>>, String> {
        for (column, len) in [
            ("observation-ends", self.observation_ends.len()),
            ("info-ends", self.info_ends.len()),
            ("rewards", self.rewards.len()),
            ("flags", self.flags.len()),
        ] {
            if len != n {
                return Err(format!("`{column}` has {len} entries for {n} members"));
            }
        }
        let mut errors = std::mem::take(&mut self.errors).into_iter().peekable();
        let (mut observation_start, mut info_start) = (0usize, 0usize);
        let mut entries = Vec::with_capacity(n);
        let stray = |entry: u32| {
            format!("`errors` names entry {entry}, which is not a refused entry (or out of order)")
        };
        for k in 0..n {
            if let Some(&(entry, _)) = errors.peek()
                && (entry as usize) < k
            {
                return Err(stray(entry));
            }
            let flags = self.flags[k];
            if flags & !(TERMINATED | TRUNCATED | REFUSED) != 0 {
                return Err(format!("entry {k} has unknown flags {flags:#x}"));
            }
            let observation = slice(
                &self.observations,
                &mut observation_start,
                self.observation_ends[k],
            )
            .ok_or_else(|| format!("entry {k}: bad bounds in `observation-ends`"))?;
            let info = slice(&self.infos, &mut info_start, self.info_ends[k])
                .ok_or_else(|| format!("entry {k}: bad bounds in `info-ends`"))?;
            if flags & REFUSED == 0 {
                entries.push(Entry::Done {
                    observation,
                    info,
                    reward: self.rewards[k],
                    terminated: flags & TERMINATED != 0,
                    truncated: flags & TRUNCATED != 0,
                });
                continue;
            }
            match errors.next_if(|(entry, _)| *entry as usize == k) {
                Some((_, error)) => entries.push(Entry::Refused(error)),
                None => return Err(format!("entry {k} is marked refused but has no error")),
            }
        }
        match errors.next() {
            Some((entry, _)) => Err(stray(entry)),
            None => Ok(entries),
        }
    }
}

/// `text[*start..end]` when that is a valid range of whole characters; advances `start`.
fn slice<'a>(text: &'a str, start: &mut usize, end: u32) -> Option<&'a str> {
    let part = text.get(*start..end as usize)?;
    *start = end as usize;
    Some(part)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two entries: a step that ended the episode, and a refusal.
    fn columns() -> BatchResults {
        BatchResults {
            observations: "héllo".into(),
            observation_ends: vec![6, 6],
            infos: "{}".into(),
            info_ends: vec![2, 2],
            rewards: vec![1.5, 0.0],
            flags: vec![TERMINATED, REFUSED],
            errors: vec![(1, EnvError::InvalidState("not now".into()))],
        }
    }

    #[test]
    fn well_formed_columns_give_one_entry_per_member() {
        let mut results = columns();
        let entries = results.entries(2).unwrap();
        match &entries[0] {
            Entry::Done {
                observation,
                info,
                reward,
                terminated,
                truncated,
            } => {
                assert_eq!((*observation, *info, *reward), ("héllo", "{}", 1.5));
                assert!(*terminated && !*truncated);
            }
            Entry::Refused(_) => panic!("entry 0 went through"),
        }
        assert!(matches!(&entries[1], Entry::Refused(EnvError::InvalidState(m)) if m == "not now"));
    }

    #[test]
    fn columns_that_disagree_are_named() {
        type Spoil = fn(&mut BatchResults);
        let cases: [(&str, Spoil); 6] = [
            ("`rewards` has 1 entries", |r| {
                r.rewards.pop();
            }),
            ("bad bounds in `observation-ends`", |r| {
                r.observation_ends[0] = 2
            }), // inside 'é'
            ("bad bounds in `info-ends`", |r| r.info_ends[1] = 1), // goes back
            ("unknown flags", |r| r.flags[0] = 8),
            ("marked refused but has no error", |r| r.errors.clear()),
            ("names entry 0", |r| {
                r.errors.insert(0, (0, EnvError::Internal("x".into())));
            }),
        ];
        for (expected, spoil) in cases {
            let mut results = columns();
            spoil(&mut results);
            let error = results.entries(2).err().expect("refused");
            assert!(error.contains(expected), "{error} (expected {expected})");
        }
    }
}
