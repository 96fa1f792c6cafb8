//! The domains' tools: what each takes (JSON-schema functions, shown to the assistant and
//! given to chat-completions function calling), and how a call runs against an episode's
//! database. Their rules follow TAU-bench's tools of the same domain; a call that breaks one,
//! or arguments of the wrong shape, give a typed [`ToolError`], never a fault.

mod airline;
pub mod args;
mod calculate;
mod retail;

use crate::db::Db;
use crate::domain::Kind;
pub use args::Args;
use serde_json::{Value, json};

/// The tool that hands the conversation to a person; it ends the episode.
pub const TRANSFER: &str = "transfer_to_human_agents";

/// Why a tool call failed, by kind (the kind goes into the step's info).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolError {
    /// No tool of that name.
    UnknownTool(String),
    /// An argument is missing or has the wrong type or form.
    BadArguments(String),
    /// A user, order, product, item or payment method that does not exist.
    NotFound(String),
    /// The records forbid it (an order's status, a gift card's balance...).
    NotAllowed(String),
}

impl ToolError {
    /// The kind's name: `unknown_tool`, `bad_arguments`, `not_found` or `not_allowed`.
    pub fn kind(&self) -> &'static str {
        match self {
            ToolError::UnknownTool(_) => "unknown_tool",
            ToolError::BadArguments(_) => "bad_arguments",
            ToolError::NotFound(_) => "not_found",
            ToolError::NotAllowed(_) => "not_allowed",
        }
    }

    /// What the assistant reads: `Error: ...`.
    pub fn message(&self) -> String {
        let (ToolError::UnknownTool(m)
        | ToolError::BadArguments(m)
        | ToolError::NotFound(m)
        | ToolError::NotAllowed(m)) = self;
        format!("Error: {m}")
    }
}

/// A tool's outcome: its output text, or why it failed.
pub type ToolResult = Result<String, ToolError>;

/// Runs tool `name` of a `kind` domain with `arguments` on `db`.
pub fn run(kind: Kind, db: &mut Db, name: &str, arguments: &Value) -> ToolResult {
    let args = Args::new(arguments)?;
    match name {
        "calculate" => return calculate::run(&args),
        "think" => {
            args.text("thought")?;
            return Ok(String::new());
        }
        TRANSFER => {
            args.text("summary")?;
            return Ok("Transfer successful".to_owned());
        }
        _ => {}
    }
    let found = match kind {
        Kind::Retail => retail::run(db, name, &args),
        Kind::Airline => airline::run(db, name, &args),
    };
    found.unwrap_or_else(|| {
        Err(ToolError::UnknownTool(format!(
            "unknown tool `{}`",
            args::clip(name)
        )))
    })
}

/// A tool as the assistant is shown it: name, description, JSON-schema properties of its
/// arguments, and the required ones.
type ToolDef = (&'static str, &'static str, Value, Vec<&'static str>);

/// Every tool of a `kind` domain as a chat-completions function spec.
pub fn function_specs(kind: Kind) -> Vec<Value> {
    let s = text;
    let mut tools: Vec<ToolDef> = vec![
        (
            "calculate",
            "Evaluate an arithmetic expression (numbers, + - * / and parentheses); the result is rounded to 2 decimals.",
            json!({"expression": s("The expression, such as '2 * (3 + 4.5)'.")}),
            vec!["expression"],
        ),
        (
            "think",
            "Think about something without changing anything; the thought is only recorded.",
            json!({"thought": s("The thought.")}),
            vec!["thought"],
        ),
        (
            TRANSFER,
            "Hand the customer to a human agent, with a summary of the issue. Only when the request cannot be handled under the policy and with the tools.",
            json!({"summary": s("A summary of the customer's issue.")}),
            vec!["summary"],
        ),
    ];
    tools.extend(match kind {
        Kind::Retail => retail::tools(),
        Kind::Airline => airline::tools(),
    });
    tools
        .into_iter()
        .map(|(name, description, properties, required)| {
            json!({"type": "function", "function": {
                "name": name,
                "description": description,
                "parameters": {"type": "object", "properties": properties, "required": required},
            }})
        })
        .collect()
}

/// A string property with a description.
fn text(description: &str) -> Value {
    json!({"type": "string", "description": description})
}
