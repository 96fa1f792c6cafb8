//! [`PackedRun`]: the results of a unit's members stepped together, their text in one buffer. It is built on the thread that stepped the run and read on the thread
//! that asked for the step. Handing over each slot's strings instead costs an allocation per
//! string on one core and a free on the other: on two cores that cross-thread traffic made each
//! group step about a third slower than on one.

use crate::Error;
use crate::env::{Info, ResetOutput, StepOutput};
use crate::vector::SlotStep;
use std::ops::Range;

/// A member's step outcome (or a reset's, of which only the first observation and info are
/// read), its strings ranges of a shared text buffer.
#[derive(Debug, Clone)]
pub(crate) struct TextStep {
    pub observation: Range<usize>,
    pub info: Range<usize>,
    pub reward: f64,
    pub terminated: bool,
    pub truncated: bool,
}

impl TextStep {
    /// A reset's outcome: the episode's first observation and info.
    pub fn first(observation: Range<usize>, info: Range<usize>) -> Self {
        TextStep {
            observation,
            info,
            reward: 0.0,
            terminated: false,
            truncated: false,
        }
    }

    /// True when the episode is over, for either reason.
    pub fn done(&self) -> bool {
        self.terminated || self.truncated
    }

    /// A reset's outcome with its own strings, cut from `text` (whose info passed validation).
    pub fn to_reset(&self, text: &str) -> ResetOutput {
        ResetOutput {
            observation: text[self.observation.clone()].to_owned(),
            info: Info::from_validated(text[self.info.clone()].to_owned()),
        }
    }

    /// The outcome with its own strings, cut from `text` (whose info passed validation).
    pub fn to_owned(&self, text: &str) -> StepOutput {
        StepOutput {
            observation: text[self.observation.clone()].to_owned(),
            reward: self.reward,
            terminated: self.terminated,
            truncated: self.truncated,
            info: Info::from_validated(text[self.info.clone()].to_owned()),
        }
    }
}

/// One slot's entry: its numbers, and where its strings lie in [`PackedRun::text`].
#[derive(Debug, Clone, Default)]
pub(crate) struct PackedEntry {
    pub observation: Range<usize>,
    pub info: Range<usize>,
    /// Under SameStep, when the step ended an episode: its last observation and info.
    pub finals: Option<(Range<usize>, Range<usize>)>,
    pub reward: f64,
    pub terminated: bool,
    pub truncated: bool,
}

impl PackedEntry {
    /// A step that did not end its episode (or, with reward 0 and no flags, a reset).
    pub fn plain(observation: Range<usize>, info: Range<usize>) -> Self {
        PackedEntry {
            observation,
            info,
            ..PackedEntry::default()
        }
    }

    /// SameStep: the step `last` ended its episode, and the next one began with `first`.
    pub fn ended(last: TextStep, first: TextStep) -> Self {
        PackedEntry {
            observation: first.observation,
            info: first.info,
            finals: Some((last.observation, last.info)),
            reward: last.reward,
            terminated: last.terminated,
            truncated: last.truncated,
        }
    }
}

/// The results of a run of consecutive slots, in slot order.
#[derive(Debug, Default)]
pub(crate) struct PackedRun {
    pub text: String,
    pub entries: Vec<PackedEntry>,
    /// `(entry, error)` for the entries whose env failed or refused (rare), in any order.
    pub errors: Vec<(usize, Error)>,
}

impl PackedRun {
    /// The text at `range`.
    #[inline]
    pub fn text(&self, range: &Range<usize>) -> &str {
        &self.text[range.clone()]
    }

    /// Appends `piece` to the text; where it lies there.
    pub fn append(&mut self, piece: &str) -> Range<usize> {
        let start = self.text.len();
        self.text.push_str(piece);
        start..self.text.len()
    }

    /// Entry `k`'s step was refused with `error` before it reached the env: an empty
    /// observation and info, nothing changed.
    pub fn refused(&mut self, k: usize, error: Error) -> PackedEntry {
        self.errors.push((k, error));
        let info = self.append("{}");
        PackedEntry::plain(0..0, info)
    }

    /// Entry `k`'s env failed with `error`; its slot restarted with `first` (an empty
    /// observation and info when the restart failed too), and the step counts as truncated.
    pub fn failed(&mut self, k: usize, error: Error, first: Option<TextStep>) -> PackedEntry {
        self.errors.push((k, error));
        let first = first.unwrap_or_else(|| TextStep::first(0..0, self.append("{}")));
        PackedEntry {
            truncated: true,
            ..PackedEntry::plain(first.observation, first.info)
        }
    }

    /// One result per entry, with strings of their own (for callers that hand slots out one
    /// by one).
    pub fn unpack(self) -> Vec<SlotStep> {
        let text = &self.text;
        let owned = |range: &Range<usize>| text[range.clone()].to_owned();
        let info = |range: &Range<usize>| Info::from_validated(owned(range));
        let mut steps: Vec<SlotStep> = self
            .entries
            .iter()
            .map(|e| SlotStep {
                observation: owned(&e.observation),
                reward: e.reward,
                terminated: e.terminated,
                truncated: e.truncated,
                info: info(&e.info),
                final_observation: e.finals.as_ref().map(|(o, _)| owned(o)),
                final_info: e.finals.as_ref().map(|(_, i)| info(i)),
                error: None,
            })
            .collect();
        for (k, error) in self.errors {
            steps[k].error = Some(error);
        }
        steps
    }
}
