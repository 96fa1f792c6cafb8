//! What each seat reads first: the assistant its policy and tools, the customer their goal
//! and the facts they may give.

use crate::domain::{Kind, Task};
use crate::tools;
use serde_json::Value;

/// The text that ends a conversation when the customer writes it.
pub const STOP: &str = "###STOP###";

/// The assistant's opening: the policy, the tools, and how to call them.
pub fn assistant_intro(policy: &str, kind: Kind) -> String {
    let mut text = String::from(policy.trim_end());
    text.push_str(
        "\n\n## Tools\n\nCall one tool per turn by writing\n\
         <tool_call><tool_name>NAME</tool_name><arguments>{JSON arguments}</arguments></tool_call>\n\
         (a chat-completions function call as JSON works too). Anything else you write is sent \
         to the customer.\n\n",
    );
    for spec in tools::function_specs(kind) {
        let f = &spec["function"];
        text.push_str(&format!(
            "- {}: {}\n  arguments: {}\n",
            f["name"].as_str().unwrap_or_default(),
            f["description"].as_str().unwrap_or_default(),
            f["parameters"]["properties"]
        ));
    }
    text
}

fn fact_line(key: &str, value: &Value) -> String {
    let shown = match value {
        Value::String(s) => s.clone(),
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| {
                format!(
                    "{k}: {}",
                    v.as_str().map_or_else(|| v.to_string(), str::to_owned)
                )
            })
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    };
    format!("- {}: {shown}\n", key.replace('_', " "))
}

/// The customer's opening: who they are, what they want, what they know.
pub fn user_prompt(task: &Task, kind: Kind) -> String {
    let mut text = format!(
        "You are a customer of {}, chatting with its customer-service assistant.\n\
         Your goal: {}\n",
        kind.business(),
        task.instruction
    );
    if !task.facts.is_empty() {
        text.push_str("What you know (give it when the assistant asks for it):\n");
        for (key, value) in &task.facts {
            text.push_str(&fact_line(key, value));
        }
    }
    text.push_str(&format!(
        "Write only what you say to the assistant, one message at a time, and never invent \
         facts you were not given. Start by saying what you want. When your goal is reached, \
         or cannot be reached, write {STOP} alone."
    ));
    text
}
