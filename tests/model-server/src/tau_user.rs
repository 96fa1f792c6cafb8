//! The `tau-user` policy: a scripted customer for `tau:*` envs. Its prompt (the first user
//! message) holds `Your goal: ...` and the facts it knows (`- key: value` lines after `What you
//! know`). It opens with its goal, gives every fact when the assistant's last message asks
//! something (holds a `?`), and otherwise ends the conversation with `###STOP###`.

use crate::wire::ChatRequest;

/// The stop marker of the tau envs.
pub const STOP: &str = "###STOP###";

/// The customer's reply to `request`.
pub fn reply(request: &ChatRequest) -> String {
    let users = request.user_texts();
    let prompt = users.first().map_or("", String::as_str);
    let asked = request.messages.iter().any(|m| m.role == "assistant");
    if !asked {
        let goal = prompt
            .lines()
            .find_map(|l| l.strip_prefix("Your goal: "))
            .unwrap_or("I need help.");
        return format!("Hi. {goal}");
    }
    let last = users.last().map_or("", String::as_str);
    if !last.contains('?') {
        return STOP.to_owned();
    }
    let facts: Vec<&str> = prompt
        .lines()
        .skip_while(|l| !l.starts_with("What you know"))
        .skip(1)
        .take_while(|l| l.starts_with("- "))
        .map(|l| l.trim_start_matches("- "))
        .collect();
    if facts.is_empty() {
        return "I have nothing more to tell.".to_owned();
    }
    format!("Sure. {}.", facts.join("; "))
}
