//! [`GuestInstance`]: the one lifecycle of a guest instance, shared by env units, tools,
//! wrappers and multi-agent envs: build it from its [`Recipe`] (a fresh store, the plugin's
//! pre-instantiated component, then each guest resource created under armed limits), arm each
//! call, classify a failure into a typed error, discard the instance after a trap, a limit or a
//! contract violation, and build a fresh one at the next call.

use super::recipe::Recipe;
use super::verdict;
use crate::bindings::env_world::geode::env::types::EnvError;
use crate::env::Env;
use crate::host_state::GuestState;
use crate::plugin::Plugin;
use crate::{Error, Result};
use wasmtime::Store;
use wasmtime::component::ResourceAny;

/// The bindings of one kind of plugin: how to instantiate its component and create a guest
/// resource in it.
pub(crate) trait World: Sized {
    /// The kind of plugin, for the error when a plugin is of another kind ("a tool plugin").
    const KIND: &'static str;

    /// The bindings of a new instance in `store`, or `None` when `plugin` is not of this kind.
    fn instantiate(
        plugin: &Plugin,
        store: &mut Store<GuestState>,
    ) -> Option<wasmtime::Result<Self>>;

    /// Creates the guest resource of `id` with its configuration.
    fn create(
        &mut self,
        store: &mut Store<GuestState>,
        id: &str,
        config: &str,
    ) -> wasmtime::Result<std::result::Result<ResourceAny, EnvError>>;
}

/// A live guest instance: its store, its bindings and the guest resources it created (one per
/// member of the recipe, in order).
pub(crate) struct Live<A> {
    pub store: Store<GuestState>,
    pub api: A,
    pub handles: Vec<ResourceAny>,
}

/// What a guarded call runs: the store, the bindings and the member's guest resource.
pub(crate) type GuestCall<'a, A, R> =
    &'a mut dyn FnMut(
        &mut Store<GuestState>,
        &A,
        ResourceAny,
    ) -> wasmtime::Result<std::result::Result<R, EnvError>>;

/// How a call is armed.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Budget {
    /// One member's own fuel, deadline and memory (a call on its own resource).
    Own,
    /// A batch call for this many members of a unit (see [`crate::Limits::arm_batch`]).
    Batch(usize),
}

/// A guest instance built from its recipe, rebuilt after each failure.
pub(crate) struct GuestInstance<A> {
    pub recipe: Recipe,
    live: Option<Live<A>>,
    /// Host state that outlives an instance (a wrapper's inner env) while no instance holds it.
    parked: Option<Box<dyn Env>>,
}

impl<A: World> GuestInstance<A> {
    /// An instance of `recipe`, not built yet. `inner` is the env a wrapper's instances wrap.
    pub fn new(recipe: Recipe, inner: Option<Box<dyn Env>>) -> Self {
        GuestInstance {
            recipe,
            live: None,
            parked: inner,
        }
    }

    /// Whether an instance is live (false after a failure, until the next call rebuilds it).
    pub fn is_live(&self) -> bool {
        self.live.is_some()
    }

    /// The live instance, when there is one.
    pub fn live(&mut self) -> Option<&mut Live<A>> {
        self.live.as_mut()
    }

    /// The live instance, built first when there is none: a fresh store, the component, then
    /// each member's resource created under its limits. A failure is the typed error of the
    /// member being created.
    pub fn ensure_live(&mut self) -> Result<&mut Live<A>> {
        if self.live.is_none() {
            self.live = Some(self.build()?);
        }
        Ok(self.live.as_mut().expect("built above"))
    }

    fn build(&mut self) -> Result<Live<A>> {
        let mut store = self.recipe.new_store();
        store.data_mut().inner = self.parked.take();
        let Some(api) = A::instantiate(&self.recipe.plugin, &mut store) else {
            self.parked = store.into_data().inner;
            return Err(Error::InvalidArgument(format!(
                "`{}` is not provided by {}",
                self.recipe.id(),
                A::KIND
            )));
        };
        let mut api = match api {
            Ok(api) => api,
            Err(e) => return Err(self.salvage(store, 0, "instantiate", e)),
        };
        let mut handles = Vec::with_capacity(self.recipe.members.len());
        for m in 0..self.recipe.members.len() {
            self.recipe.limits.arm(&mut store);
            let (id, config) = &self.recipe.members[m];
            match api.create(&mut store, id, config) {
                Ok(Ok(handle)) => handles.push(handle),
                Ok(Err(refusal)) => {
                    let error = verdict::refused(id, "create", refusal);
                    self.parked = store.into_data().inner;
                    return Err(error);
                }
                Err(e) => return Err(self.salvage(store, m, "create", e)),
            }
        }
        Ok(Live {
            store,
            api,
            handles,
        })
    }

    /// Takes the parked state back from a failed store and explains the failure of `call`.
    fn salvage(
        &mut self,
        store: Store<GuestState>,
        member: usize,
        call: &'static str,
        error: wasmtime::Error,
    ) -> Error {
        let (id, _) = &self.recipe.members[member];
        let error = verdict::classify(id, &self.recipe.limits, store.data(), call, error);
        let mut data = store.into_data();
        self.parked = data.inner.take();
        // A wrapper's inner env's own typed error says more than the wrapper's report of it.
        data.inner_error.unwrap_or(error)
    }

    /// The live instance armed for a call under `budget`, with the guest's stderr cleared
    /// (what a caller that calls the guest itself starts with); `None` when there is none.
    pub fn enter(&mut self, budget: Budget) -> Option<&mut Live<A>> {
        let live = self.live.as_mut()?;
        match budget {
            Budget::Own => self.recipe.limits.arm(&mut live.store),
            Budget::Batch(members) => self.recipe.limits.arm_batch(&mut live.store, members),
        }
        let data = live.store.data_mut();
        data.stderr.clear();
        data.inner_error = None;
        Some(live)
    }

    /// The typed error of a failed call `call` of `member` (on the live instance), which is
    /// discarded.
    pub fn fail(&mut self, member: usize, call: &'static str, error: wasmtime::Error) -> Error {
        match self.live.take() {
            Some(live) => self.salvage(live.store, member, call, error),
            None => Error::Internal(format!("{call} failed with no live instance: {error}")),
        }
    }

    /// Discards the live instance (keeping what outlives it).
    pub fn discard(&mut self) {
        if let Some(live) = self.live.take() {
            self.parked = live.store.into_data().inner;
        }
    }

    /// One call on `member`'s resource under its own limits, on the live instance or a fresh
    /// one: a refusal is the typed refusal (the instance lives on); a trap or a limit discards
    /// the instance.
    pub fn call<R>(
        &mut self,
        member: usize,
        name: &'static str,
        f: GuestCall<'_, A, R>,
    ) -> Result<R> {
        self.ensure_live()?;
        self.call_live(member, name, f)
    }

    /// [`GuestInstance::call`] on the live instance only: after a failure, the call is refused
    /// until something (a reset) builds a fresh instance.
    pub fn call_live<R>(
        &mut self,
        member: usize,
        name: &'static str,
        f: GuestCall<'_, A, R>,
    ) -> Result<R> {
        let Some(live) = self.enter(Budget::Own) else {
            return Err(Error::InvalidState {
                env: self.recipe.members[member].0.clone(),
                message: format!(
                    "{name} called on an instance discarded after a failure; call reset to start a fresh one"
                ),
            });
        };
        let handle = live.handles[member];
        match f(&mut live.store, &live.api, handle) {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(refusal)) => {
                let inner_error = live.store.data_mut().inner_error.take();
                let id = &self.recipe.members[member].0;
                Err(inner_error.unwrap_or_else(|| verdict::refused(id, name, refusal)))
            }
            Err(trap) => Err(self.fail(member, name, trap)),
        }
    }

    /// The env the instance wraps (a wrapper's inner env), wherever it is.
    pub fn inner(&mut self) -> Option<&mut Box<dyn Env>> {
        match self.live.as_mut() {
            Some(live) => live.store.data_mut().inner.as_mut(),
            None => self.parked.as_mut(),
        }
    }
}
