//! A multi-agent env seen from one seat: the model plays `seat`, a named policy or a second
//! model plays every other agent, and the episode is a single-agent [`Env`] from the seat's side
//! (its observations, its rewards, its end), so `geode eval` runs multi-agent ids like any other.

use crate::client::{ChatClient, ChatOptions, Failure};
use geode_runtime::multiagent::AgentOutput;
use geode_runtime::{Env, Error, Info, MultiAgentEnv, ResetOutput, Result, StepOutput};
use serde_json::{Value, json};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex};

/// How the agents the model does not play choose their actions.
#[derive(Debug, Clone)]
pub enum Opponent {
    /// The env's own `sample_random_action` (seeded by the episode's seed).
    Random,
    /// A model (`--user-model`): each other agent chats with it, its observations as the
    /// user's messages and its actions as the replies.
    Model(Arc<ModelPlayer>),
    /// The actions a model opponent took in a recorded episode, in order (`geode reverify`).
    Replay(Arc<Mutex<VecDeque<String>>>),
}

/// The info key under which an episode records what a model opponent did at each reset and
/// step (`[[agent, action], ...]`), so `geode reverify` replays it without the model.
pub const OPPONENT_ACTIONS: &str = "opponent_actions";

/// A model that plays the agents the evaluated model does not: a chat client and the runtime
/// its requests run on. Env calls run on worker threads outside that runtime, which wait for
/// each reply there.
#[derive(Debug)]
pub struct ModelPlayer {
    /// The client of the model's server.
    pub client: ChatClient,
    /// Its model name and sampling.
    pub options: ChatOptions,
    /// The runtime the requests run on.
    pub runtime: tokio::runtime::Handle,
    /// Env calls then run on a thread per episode in flight (each may wait for this model), but
    /// only as many at once run guest code as there are cores, so a call's wall-clock deadline
    /// measures its own work, not its wait for a core.
    pub guest_permits: Permits,
}

/// A counting semaphore for threads: at most `n` holders at once.
#[derive(Debug)]
pub struct Permits {
    free: Mutex<usize>,
    freed: Condvar,
}

impl Permits {
    /// `n` permits (at least one).
    pub fn new(n: usize) -> Self {
        Permits {
            free: Mutex::new(n.max(1)),
            freed: Condvar::new(),
        }
    }

    /// Runs `call` holding a permit (waiting for one first).
    pub fn hold<T>(&self, call: impl FnOnce() -> T) -> T {
        struct Held<'a>(&'a Permits);
        impl Drop for Held<'_> {
            fn drop(&mut self) {
                *self.0.lock() += 1;
                self.0.freed.notify_one();
            }
        }
        let mut free = self.lock();
        while *free == 0 {
            free = self
                .freed
                .wait(free)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        *free -= 1;
        drop(free);
        let _held = Held(self);
        call()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, usize> {
        self.free
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl ModelPlayer {
    /// The model's reply to `messages`; any failure (after the client's retries) is an error
    /// of the episode.
    fn reply(&self, messages: &[Value]) -> Result<String> {
        let exchange = self
            .runtime
            .block_on(self.client.chat(messages, &self.options, None));
        match exchange.result {
            Ok(reply) => Ok(reply.content),
            Err(
                Failure::Fatal(m) | Failure::ContextLength(m) | Failure::GaveUp { message: m, .. },
            ) => Err(Error::Internal(format!("the user model failed: {m}"))),
        }
    }
}

impl Opponent {
    /// The policy by name (`random`).
    pub fn by_name(name: &str) -> anyhow::Result<Self> {
        match name {
            "random" => Ok(Opponent::Random),
            other => anyhow::bail!("unknown opponent policy `{other}`; the policies are: random"),
        }
    }
}

/// One seat of a multi-agent env, as an env.
pub struct SeatEnv {
    inner: Box<dyn MultiAgentEnv>,
    id: String,
    seat: String,
    opponent: Opponent,
    /// Each other agent's chat with the opponent model this episode.
    chats: HashMap<String, Vec<Value>>,
    /// What a model opponent did since the last reset or step (recorded in its info).
    played: Vec<(String, String)>,
}

impl SeatEnv {
    /// `inner` played from `seat` (`None`: the first agent in turn order).
    pub fn new(
        inner: Box<dyn MultiAgentEnv>,
        seat: Option<&str>,
        opponent: Opponent,
    ) -> Result<Self> {
        let seat =
            match seat {
                Some(seat) => seat.to_owned(),
                None => inner.possible_agents().first().cloned().ok_or_else(|| {
                    Error::InvalidArgument(format!("{} has no agents", inner.id()))
                })?,
            };
        if !inner.possible_agents().contains(&seat) {
            return Err(Error::InvalidArgument(format!(
                "{} has no agent `{seat}`; its agents are {:?}",
                inner.id(),
                inner.possible_agents()
            )));
        }
        Ok(SeatEnv {
            id: inner.id().to_owned(),
            inner,
            seat,
            opponent,
            chats: HashMap::new(),
            played: Vec::new(),
        })
    }

    /// Runs `call` on the inner env; with a model opponent, under one of its guest permits.
    fn guest<T>(&mut self, call: impl FnOnce(&mut dyn MultiAgentEnv) -> T) -> T {
        match &self.opponent {
            Opponent::Model(player) => {
                let player = Arc::clone(player);
                player.guest_permits.hold(|| call(self.inner.as_mut()))
            }
            _ => call(self.inner.as_mut()),
        }
    }

    fn seat_output(&self, outputs: Vec<AgentOutput>) -> Option<AgentOutput> {
        outputs.into_iter().find(|o| o.agent == self.seat)
    }

    fn others_action(&mut self, agent: &str) -> Result<String> {
        match &self.opponent {
            Opponent::Random => self.inner.sample_random_action(agent),
            Opponent::Model(player) => {
                let player = Arc::clone(player);
                let seen = self.guest(|inner| inner.observe(agent))?;
                let chat = self.chats.entry(agent.to_owned()).or_default();
                if !seen.is_empty() {
                    chat.push(json!({"role": "user", "content": seen}));
                }
                let reply = player.reply(chat)?;
                chat.push(json!({"role": "assistant", "content": reply}));
                self.played.push((agent.to_owned(), reply.clone()));
                Ok(reply)
            }
            Opponent::Replay(recorded) => recorded
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .pop_front()
                .ok_or_else(|| Error::InvalidState {
                    env: self.id.clone(),
                    message: "the recorded actions of the other agents ran out".into(),
                }),
        }
    }

    /// `info` with what a model opponent did since the last call, when it did anything.
    fn with_played(&mut self, info: Info) -> Info {
        if self.played.is_empty() {
            return info;
        }
        let mut map = info.to_map();
        map.insert(
            OPPONENT_ACTIONS.to_owned(),
            json!(std::mem::take(&mut self.played)),
        );
        Info::from_map(&map)
    }

    /// Steps the other agents until the seat acts again or its episode ends; the seat's
    /// rewards on the way are summed into `step`.
    fn advance_others(&mut self, step: &mut StepOutput) -> Result<()> {
        while !step.terminated && !step.truncated {
            if !self.inner.agents().contains(&self.seat) {
                step.terminated = true;
                break;
            }
            if self.inner.active_agents().contains(&self.seat)
                || self.inner.active_agents().is_empty()
            {
                break;
            }
            let active = self.inner.active_agents().to_vec();
            let mut actions = Vec::with_capacity(active.len());
            for agent in active {
                let action = self.others_action(&agent)?;
                actions.push((agent, action));
            }
            let outputs = self.guest(|inner| inner.step(&actions))?;
            if let Some(out) = self.seat_output(outputs) {
                step.reward += out.reward;
                step.terminated |= out.terminated;
                step.truncated |= out.truncated;
                step.observation = out.observation;
                step.info = out.info;
            }
        }
        if !step.terminated && !step.truncated {
            let seat = self.seat.clone();
            step.observation = self.guest(|inner| inner.observe(&seat))?;
        }
        Ok(())
    }
}

impl Env for SeatEnv {
    fn id(&self) -> &str {
        &self.id
    }

    fn reset(&mut self, seed: Option<u64>) -> Result<ResetOutput> {
        self.chats.clear();
        self.played.clear();
        let outputs = self.guest(|inner| inner.reset(seed))?;
        let first = self.seat_output(outputs);
        let mut step = StepOutput {
            observation: first
                .as_ref()
                .map(|o| o.observation.clone())
                .unwrap_or_default(),
            reward: 0.0,
            terminated: false,
            truncated: false,
            info: first.map_or_else(Info::empty, |o| o.info),
        };
        self.advance_others(&mut step)?;
        Ok(ResetOutput {
            observation: step.observation,
            info: self.with_played(step.info),
        })
    }

    fn step(&mut self, action: &str) -> Result<StepOutput> {
        let active = self.inner.active_agents().to_vec();
        let mut actions = Vec::with_capacity(active.len());
        for agent in active {
            let chosen = if agent == self.seat {
                action.to_owned()
            } else {
                self.others_action(&agent)?
            };
            actions.push((agent, chosen));
        }
        let outputs = self.guest(|inner| inner.step(&actions))?;
        let out = self.seat_output(outputs).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "{}: `{}` is not in the episode",
                self.id, self.seat
            ))
        })?;
        let mut step = StepOutput {
            observation: out.observation,
            reward: out.reward,
            terminated: out.terminated,
            truncated: out.truncated,
            info: out.info,
        };
        self.advance_others(&mut step)?;
        step.info = self.with_played(step.info);
        Ok(step)
    }

    fn sample_random_action(&mut self) -> Result<String> {
        self.inner.sample_random_action(&self.seat)
    }

    fn get_state(&mut self) -> Result<Vec<u8>> {
        self.inner.get_state()
    }

    fn set_state(&mut self, state: &[u8]) -> Result<()> {
        self.inner.set_state(state)
    }

    fn spawn(&mut self, same_state: bool) -> Result<Box<dyn Env>> {
        let mut inner = self.inner.spawn()?;
        if same_state {
            inner.set_state(&self.inner.get_state()?)?;
        }
        Ok(Box::new(SeatEnv {
            inner,
            id: self.id.clone(),
            seat: self.seat.clone(),
            opponent: self.opponent.clone(),
            chats: HashMap::new(),
            played: Vec::new(),
        }))
    }
}
