//! The policies that write replies: deterministic functions of the request.

use crate::bisect;
use crate::math::MathPolicy;
use crate::script::Scripts;
use crate::wire::ChatRequest;

/// The reply of `tool-math` before any tool result: a call of geode's python tool.
pub const TOOL_CALL: &str = "<python>print(6 * 7)</python>";
/// What marks a python tool result (see `host/builtins/src/gem/python_tool.rs`).
pub const TOOL_RESULT: &str = "Code execution result:";

/// A reply policy.
#[derive(Debug, Clone)]
pub enum Policy {
    /// Always the same text.
    Constant(String),
    /// Answers looked up in a table, right with some probability.
    Math(MathPolicy),
    /// GuessTheNumber by bisection.
    Bisect,
    /// A python tool call, then (once a tool result is in the conversation) as `Math`.
    ToolMath(MathPolicy),
    /// Turns read from a file, by the first user message and the turn number.
    Script(Scripts),
    /// The customer of a `tau:*` env.
    TauUser,
}

impl Policy {
    /// The reply to `request`.
    pub fn reply(&self, request: &ChatRequest) -> String {
        match self {
            Policy::Constant(text) => text.clone(),
            Policy::Bisect => bisect::reply(&request.user_texts()),
            Policy::TauUser => crate::tau_user::reply(request),
            Policy::Math(math) => math_reply(math, request),
            Policy::Script(scripts) => {
                let users = request.user_texts();
                let turns = request
                    .messages
                    .iter()
                    .filter(|m| m.role == "assistant")
                    .count();
                scripts.reply(users.first().map_or("", String::as_str), turns)
            }
            Policy::ToolMath(math) => {
                if has_tool_result(request) {
                    math_reply(math, request)
                } else {
                    TOOL_CALL.to_owned()
                }
            }
        }
    }
}

fn math_reply(math: &MathPolicy, request: &ChatRequest) -> String {
    let users = request.user_texts();
    let first = users.first().map_or("", String::as_str);
    math.reply(first, &request.seed_text())
}

/// Whether a user message after the first (or a `tool` message) holds a tool result.
fn has_tool_result(request: &ChatRequest) -> bool {
    let later_user = request.user_texts().into_iter().skip(1);
    let tool = request
        .messages
        .iter()
        .filter(|m| m.role == "tool")
        .map(|m| m.text());
    later_user.chain(tool).any(|t| t.contains(TOOL_RESULT))
}
