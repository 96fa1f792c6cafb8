//! Wrapper plugins: implement [`WrapperPlugin`] and call [`export_wrapper!`](crate::export_wrapper).
//! The wrapped env is reached through [`Inner`], which the host links to whatever it wraps.

use crate::{Config, Error, Info, Reset, Spec, Step};
use std::cell::RefCell;
use std::marker::PhantomData;

#[doc(hidden)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../../wit/v0.1.0",
        world: "wrapper-plugin",
        pub_export_macro: true,
        export_macro_name: "export_wrapper_plugin",
        default_bindings_module: "geode_sdk::wrapper::bindings",
        // One `env-error` and `plugin-spec` for every world, so one conversion serves them all.
        with: { "geode:env/types@0.1.0": crate::bindings::geode::env::types },
        generate_all,
    });
}

use bindings::exports::geode::env::wrapper::{
    EnvError, Guest, GuestInstance, Instance, PluginSpec, ResetResult, StepResult,
};
use bindings::geode::env::inner;

/// The wrapped env.
pub struct Inner(());

fn parse_info(text: &str) -> Info {
    Info::from_json(text.to_owned())
}

impl Inner {
    /// Resets the wrapped env.
    pub fn reset(&mut self, seed: Option<u64>) -> Result<Reset, Error> {
        let out = inner::reset(seed)?;
        Ok(Reset {
            info: parse_info(&out.info),
            observation: out.observation,
        })
    }

    /// Steps the wrapped env.
    pub fn step(&mut self, action: &str) -> Result<Step, Error> {
        let out = inner::step(action)?;
        Ok(Step {
            info: parse_info(&out.info),
            observation: out.observation,
            reward: out.reward,
            terminated: out.terminated,
            truncated: out.truncated,
        })
    }

    /// A random action of the wrapped env.
    pub fn sample_random_action(&mut self) -> Result<String, Error> {
        inner::sample_random_action().map_err(Error::from)
    }
}

/// A wrapper over another env. `reset` and `sample_random_action` pass through by default.
pub trait WrapperPlugin: Sized + 'static {
    /// Every wrapper id this plugin provides, with its default configuration.
    fn specs() -> Vec<Spec>;
    /// Builds wrapper `id` from its configuration.
    fn create(id: &str, config: Config) -> Result<Self, Error>;
    /// Starts an episode of the wrapped env.
    fn reset(&mut self, inner: &mut Inner, seed: Option<u64>) -> Result<Reset, Error> {
        inner.reset(seed)
    }
    /// One step: usually steps `inner` and rewrites the result.
    fn step(&mut self, inner: &mut Inner, action: &str) -> Result<Step, Error>;
    /// A random action.
    fn sample_random_action(&mut self, inner: &mut Inner) -> Result<String, Error> {
        inner.sample_random_action()
    }
}

/// Exports a [`WrapperPlugin`]. Call it once per plugin crate.
#[macro_export]
macro_rules! export_wrapper {
    ($wrapper:ty) => {
        #[cfg(target_arch = "wasm32")]
        #[doc(hidden)]
        type __GeodeWrapperPlugin = $crate::wrapper::Exports<$wrapper>;
        #[cfg(target_arch = "wasm32")]
        $crate::wrapper::bindings::export_wrapper_plugin!(__GeodeWrapperPlugin with_types_in $crate::wrapper::bindings);
        #[cfg(not(target_arch = "wasm32"))]
        const _: () = {
            let _ = <$wrapper as $crate::wrapper::WrapperPlugin>::specs;
            let _ = <$wrapper as $crate::wrapper::WrapperPlugin>::create;
            let _ = <$wrapper as $crate::wrapper::WrapperPlugin>::step;
        };
    };
}

#[doc(hidden)]
pub struct Exports<W>(PhantomData<W>);

#[doc(hidden)]
pub struct Held<W>(RefCell<W>);

impl<W: WrapperPlugin> Guest for Exports<W> {
    type Instance = Held<W>;

    fn describe() -> Vec<PluginSpec> {
        crate::plugin::describe(W::specs())
    }

    fn create(id: String, config: String) -> Result<Instance, EnvError> {
        let config = Config::from_json(&config)?;
        Ok(Instance::new(Held(RefCell::new(W::create(&id, config)?))))
    }
}

impl<W: WrapperPlugin> GuestInstance for Held<W> {
    fn reset(&self, seed: Option<u64>) -> Result<ResetResult, EnvError> {
        let out = self.0.borrow_mut().reset(&mut Inner(()), seed)?;
        Ok(ResetResult {
            info: out.info.into_json(),
            observation: out.observation,
        })
    }

    fn step(&self, action: String) -> Result<StepResult, EnvError> {
        let out = self.0.borrow_mut().step(&mut Inner(()), &action)?;
        Ok(StepResult {
            info: out.info.into_json(),
            observation: out.observation,
            reward: out.reward,
            terminated: out.terminated,
            truncated: out.truncated,
        })
    }

    fn sample_random_action(&self) -> Result<String, EnvError> {
        self.0
            .borrow_mut()
            .sample_random_action(&mut Inner(()))
            .map_err(EnvError::from)
    }
}
