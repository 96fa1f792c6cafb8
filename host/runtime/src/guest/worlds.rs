//! The [`World`] of each plugin kind whose instance holds one guest resource: tools, wrapper
//! plugins and multi-agent envs (env units have their own, `UnitApi`, which also numbers
//! members for batch calls).

use super::World;
use crate::bindings::env_world::geode::env::types::EnvError;
use crate::bindings::multiagent_world::MultiagentPlugin;
use crate::bindings::tool_world::ToolPlugin;
use crate::bindings::wrapper_world::WrapperPlugin;
use crate::host_state::GuestState;
use crate::plugin::{Plugin, Template};
use wasmtime::Store;
use wasmtime::component::ResourceAny;

/// Implements [`World`] for the bindings `$api` of plugins whose template is `$template` and
/// whose export is reached by `$export`.
macro_rules! world {
    ($api:ty, $kind:literal, $template:path, $export:ident) => {
        impl World for $api {
            const KIND: &'static str = $kind;

            fn instantiate(
                plugin: &Plugin,
                store: &mut Store<GuestState>,
            ) -> Option<wasmtime::Result<Self>> {
                match &plugin.template {
                    $template(pre) => Some(pre.instantiate(store)),
                    _ => None,
                }
            }

            fn create(
                &mut self,
                store: &mut Store<GuestState>,
                id: &str,
                config: &str,
            ) -> wasmtime::Result<std::result::Result<ResourceAny, EnvError>> {
                self.$export().call_create(store, id, config)
            }
        }
    };
}

world!(ToolPlugin, "a tool plugin", Template::Tool, geode_env_tool);
world!(
    WrapperPlugin,
    "a wrapper plugin",
    Template::Wrapper,
    geode_env_wrapper
);
world!(
    MultiagentPlugin,
    "a multi-agent plugin",
    Template::MultiAgent,
    geode_env_multiagent
);
