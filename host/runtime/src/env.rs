//! The `Env` trait every environment implements (component envs now; native envs and wrappers
//! share it), and the values it returns.

use crate::Result;
use serde_json::{Map, Value};

/// Extra information returned with an observation: a JSON object, kept as validated text so the
/// hot path does not build maps nobody reads. Call [`InfoStr::to_map`] or [`InfoStr::get`] (through `Deref`) to read it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Info(String);

impl Info {
    /// Wraps `text` after checking it is a JSON object.
    pub fn from_json(text: String) -> std::result::Result<Self, String> {
        Self::check_json(&text)?;
        Ok(Info(text))
    }

    /// Checks that `text` is a JSON object; what is wrong with it if not.
    pub(crate) fn check_json(text: &str) -> std::result::Result<(), String> {
        if !text.trim_start().starts_with('{') {
            return Err(format!(
                "info must be a JSON object, got `{}`",
                preview(text)
            ));
        }
        match serde_json::from_str::<serde::de::IgnoredAny>(text) {
            Ok(_) => Ok(()),
            Err(e) => Err(format!("info is not valid JSON ({e}): `{}`", preview(text))),
        }
    }

    /// Wraps text that already passed [`Info::from_json`] (byte for byte the same).
    pub(crate) fn from_validated(text: String) -> Self {
        Info(text)
    }

    /// The JSON text, owned.
    pub fn into_json(self) -> String {
        self.0
    }

    /// An empty object.
    pub fn empty() -> Self {
        Info("{}".to_owned())
    }

    /// Builds an info from a map.
    pub fn from_map(map: &Map<String, Value>) -> Self {
        Info(serde_json::to_string(map).expect("a JSON map always serializes"))
    }

    /// The borrowed form.
    pub fn as_info_str(&self) -> &InfoStr {
        InfoStr::new(&self.0)
    }
}

impl std::ops::Deref for Info {
    type Target = InfoStr;

    fn deref(&self) -> &InfoStr {
        self.as_info_str()
    }
}

/// A borrowed [`Info`]: validated JSON object text, as `str` is to `String`. Vector steps hand
/// out infos this way, straight from the text they share.
#[derive(Debug, PartialEq, Eq)]
#[repr(transparent)]
pub struct InfoStr(str);

impl InfoStr {
    /// Wraps text that already passed [`Info::from_json`].
    pub(crate) fn new(json: &str) -> &InfoStr {
        // SAFETY: `InfoStr` is a `repr(transparent)` wrapper of `str`, so the two references
        // have the same layout and metadata.
        unsafe { &*(json as *const str as *const InfoStr) }
    }

    /// The JSON text.
    #[inline]
    pub fn as_json(&self) -> &str {
        &self.0
    }

    /// The info as a map.
    pub fn to_map(&self) -> Map<String, Value> {
        serde_json::from_str(&self.0).unwrap_or_default()
    }

    /// One entry of the info.
    pub fn get(&self, key: &str) -> Option<Value> {
        self.to_map().remove(key)
    }
}

impl ToOwned for InfoStr {
    type Owned = Info;

    fn to_owned(&self) -> Info {
        Info(self.0.to_owned())
    }
}

impl std::borrow::Borrow<InfoStr> for Info {
    fn borrow(&self) -> &InfoStr {
        self.as_info_str()
    }
}

fn preview(text: &str) -> String {
    let mut cut: String = text.chars().take(80).collect();
    if cut.len() < text.len() {
        cut.push('…');
    }
    cut
}

/// The start of an episode.
#[derive(Debug, Clone, PartialEq)]
pub struct ResetOutput {
    /// The observation text.
    pub observation: String,
    /// The info object (JSON).
    pub info: Info,
}

/// The outcome of one step.
#[derive(Debug, Clone, PartialEq)]
pub struct StepOutput {
    /// The observation text.
    pub observation: String,
    /// The reward of this step.
    pub reward: f64,
    /// The episode ended inside the task.
    pub terminated: bool,
    /// The episode was cut short from outside the task (a turn limit).
    pub truncated: bool,
    /// The info object (JSON).
    pub info: Info,
}

impl StepOutput {
    /// True when the episode is over, for either reason.
    pub fn done(&self) -> bool {
        self.terminated || self.truncated
    }
}

/// An environment: GEM's `Env` API in Rust.
pub trait Env: Send {
    /// The id this env was made from.
    fn id(&self) -> &str;

    /// Starts a new episode; `Some(seed)` makes it replayable, `None` continues the env's randomness.
    fn reset(&mut self, seed: Option<u64>) -> Result<ResetOutput>;

    /// Applies one action.
    fn step(&mut self, action: &str) -> Result<StepOutput>;

    /// A random action valid in the current state.
    fn sample_random_action(&mut self) -> Result<String>;

    /// A snapshot of the env's full state.
    fn get_state(&mut self) -> Result<Vec<u8>>;

    /// Restores a snapshot from [`Env::get_state`].
    fn set_state(&mut self, state: &[u8]) -> Result<()>;

    /// A new env of the same id and configuration; with `same_state`, in this env's state.
    fn spawn(&mut self, same_state: bool) -> Result<Box<dyn Env>>;

    /// Makes the next reset without a seed start episode `number` of the env's unseeded
    /// sequence, which then goes on from there: for dataset envs, row `number` of their walk
    /// (GEM's `reset(idx=number)`). Envs whose unseeded episodes the host cannot number refuse.
    fn seek_episode(&mut self, number: u64) -> Result<()> {
        let _ = number;
        Err(crate::Error::InvalidArgument(format!(
            "{} cannot start a chosen episode (reset idx)",
            self.id()
        )))
    }

    /// How many distinct episodes the unseeded sequence [`seek_episode`](Self::seek_episode)
    /// numbers has (a dataset env's rows), when the env knows; `None` otherwise.
    fn episode_count(&self) -> Option<u64> {
        None
    }
}

impl std::fmt::Debug for dyn Env + '_ {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Env").field("id", &self.id()).finish()
    }
}

/// A boxed env is an env, so `Registry::make`'s result goes wherever an `Env` is expected.
impl<E: Env + ?Sized> Env for Box<E> {
    fn id(&self) -> &str {
        (**self).id()
    }
    fn reset(&mut self, seed: Option<u64>) -> Result<ResetOutput> {
        (**self).reset(seed)
    }
    fn step(&mut self, action: &str) -> Result<StepOutput> {
        (**self).step(action)
    }
    fn sample_random_action(&mut self) -> Result<String> {
        (**self).sample_random_action()
    }
    fn get_state(&mut self) -> Result<Vec<u8>> {
        (**self).get_state()
    }
    fn set_state(&mut self, state: &[u8]) -> Result<()> {
        (**self).set_state(state)
    }
    fn spawn(&mut self, same_state: bool) -> Result<Box<dyn Env>> {
        (**self).spawn(same_state)
    }
    fn seek_episode(&mut self, number: u64) -> Result<()> {
        (**self).seek_episode(number)
    }

    fn episode_count(&self) -> Option<u64> {
        (**self).episode_count()
    }
}
