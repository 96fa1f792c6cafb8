//! Tools: things an agent can call mid-episode (a calculator, a python runner, a search client).
//! [`Tool`] is the Rust trait; [`ComponentTool`] runs a tool plugin under limits.

use crate::Result;
use crate::bindings::tool_world::ToolPlugin;
use crate::guest::{GuestInstance, Recipe};
use crate::limits::Limits;
use crate::plugin::Plugin;
use std::sync::Arc;

/// What a tool did with an action addressed to it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    /// The text returned to the agent.
    pub observation: String,
    /// The tool ran but the call failed.
    pub has_error: bool,
    /// The part of the action the tool acted on.
    pub parsed_action: String,
}

/// A tool an agent can call.
pub trait Tool: Send {
    /// The tool's id, e.g. `tool:calculator`.
    fn id(&self) -> &str;
    /// What the tool wrapper reports as `tool_type` in the info of a tool turn (GEM's name for
    /// the kind of tool, `python_code` for the Python tool); the id unless a tool says otherwise.
    fn tool_type(&self) -> &str {
        self.id()
    }
    /// How to call the tool, for the agent's prompt.
    fn instructions(&mut self) -> Result<String>;
    /// Runs the tool; `None` when the action is not addressed to it.
    fn execute(&mut self, action: &str) -> Result<Option<ToolOutput>>;
    /// A fresh tool of the same id and configuration.
    fn spawn(&self) -> Result<Box<dyn Tool>>;
}

/// A tool provided by a tool plugin. A trap discards the instance; the next call rebuilds it.
pub struct ComponentTool {
    guest: GuestInstance<ToolPlugin>,
}

impl std::fmt::Debug for ComponentTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComponentTool")
            .field("id", &self.guest.recipe.id())
            .field("live", &self.guest.is_live())
            .finish()
    }
}

impl ComponentTool {
    /// Instantiates tool `id` of `plugin` with a merged configuration.
    pub fn new(plugin: Arc<Plugin>, id: &str, config_json: String, limits: Limits) -> Result<Self> {
        Self::from_recipe(Recipe::new(plugin, id, config_json, limits))
    }

    fn from_recipe(recipe: Recipe) -> Result<Self> {
        let mut tool = ComponentTool {
            guest: GuestInstance::new(recipe, None),
        };
        tool.guest.ensure_live()?;
        Ok(tool)
    }

    fn check(&mut self, call: &'static str, text: &str) -> Result<()> {
        let recipe = &self.guest.recipe;
        let limit = recipe.limits.max_observation_bytes;
        match recipe.oversize(call, "output", text.len(), limit) {
            Some(error) => {
                self.guest.discard();
                Err(error)
            }
            None => Ok(()),
        }
    }
}

impl Tool for ComponentTool {
    fn id(&self) -> &str {
        self.guest.recipe.id()
    }

    fn instructions(&mut self) -> Result<String> {
        let text = self.guest.call(0, "instructions", &mut |store, api, h| {
            api.geode_env_tool()
                .instance()
                .call_instructions(store, h)
                .map(Ok)
        })?;
        self.check("instructions", &text)?;
        Ok(text)
    }

    fn execute(&mut self, action: &str) -> Result<Option<ToolOutput>> {
        self.guest.recipe.check_action(0, action)?;
        let out = self.guest.call(0, "execute", &mut |store, api, h| {
            api.geode_env_tool()
                .instance()
                .call_execute(store, h, action)
        })?;
        let Some(out) = out else { return Ok(None) };
        self.check("execute", &out.observation)?;
        Ok(Some(ToolOutput {
            observation: out.observation,
            has_error: out.has_error,
            parsed_action: out.parsed_action,
        }))
    }

    fn spawn(&self) -> Result<Box<dyn Tool>> {
        Ok(Box::new(Self::from_recipe(self.guest.recipe.twin())?))
    }
}
