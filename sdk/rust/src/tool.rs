//! Tool plugins: implement [`ToolPlugin`] and call [`export_tool!`](crate::export_tool).

use crate::{Config, Error, Spec};
use std::cell::RefCell;
use std::marker::PhantomData;

#[doc(hidden)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../../wit/v0.1.0",
        world: "tool-plugin",
        pub_export_macro: true,
        export_macro_name: "export_tool_plugin",
        default_bindings_module: "geode_sdk::tool::bindings",
        // One `env-error` and `plugin-spec` for every world, so one conversion serves them all.
        with: { "geode:env/types@0.1.0": crate::bindings::geode::env::types },
        generate_all,
    });
}

use bindings::exports::geode::env::tool::{
    EnvError, Guest, GuestInstance, Instance, PluginSpec, ToolResult,
};

/// What a tool returns when an action is addressed to it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    /// The text for the agent.
    pub observation: String,
    /// The tool ran but the call failed (bad input, runtime error).
    pub has_error: bool,
    /// The part of the action the tool acted on.
    pub parsed_action: String,
}

/// A tool an agent can call mid-episode.
pub trait ToolPlugin: Sized + 'static {
    /// Every tool id this plugin provides, with its default configuration.
    fn specs() -> Vec<Spec>;
    /// Builds tool `id` from its configuration.
    fn create(id: &str, config: Config) -> Result<Self, Error>;
    /// How to call the tool, for the agent's prompt.
    fn instructions(&self) -> String;
    /// Runs the tool; `None` when the action is not addressed to it.
    fn execute(&mut self, action: &str) -> Result<Option<ToolOutput>, Error>;
}

/// Exports a [`ToolPlugin`]. Call it once per plugin crate.
#[macro_export]
macro_rules! export_tool {
    ($tool:ty) => {
        #[cfg(target_arch = "wasm32")]
        #[doc(hidden)]
        type __GeodeToolPlugin = $crate::tool::Exports<$tool>;
        #[cfg(target_arch = "wasm32")]
        $crate::tool::bindings::export_tool_plugin!(__GeodeToolPlugin with_types_in $crate::tool::bindings);
        #[cfg(not(target_arch = "wasm32"))]
        const _: () = {
            let _ = <$tool as $crate::tool::ToolPlugin>::specs;
            let _ = <$tool as $crate::tool::ToolPlugin>::create;
            let _ = <$tool as $crate::tool::ToolPlugin>::instructions;
            let _ = <$tool as $crate::tool::ToolPlugin>::execute;
        };
    };
}

#[doc(hidden)]
pub struct Exports<T>(PhantomData<T>);

#[doc(hidden)]
pub struct Held<T>(RefCell<T>);

impl<T: ToolPlugin> Guest for Exports<T> {
    type Instance = Held<T>;

    fn describe() -> Vec<PluginSpec> {
        crate::plugin::describe(T::specs())
    }

    fn create(id: String, config: String) -> Result<Instance, EnvError> {
        let config = Config::from_json(&config)?;
        Ok(Instance::new(Held(RefCell::new(T::create(&id, config)?))))
    }
}

impl<T: ToolPlugin> GuestInstance for Held<T> {
    fn instructions(&self) -> String {
        self.0.borrow().instructions()
    }

    fn execute(&self, action: String) -> Result<Option<ToolResult>, EnvError> {
        let out = self.0.borrow_mut().execute(&action)?;
        Ok(out.map(|o| ToolResult {
            observation: o.observation,
            has_error: o.has_error,
            parsed_action: o.parsed_action,
        }))
    }
}
