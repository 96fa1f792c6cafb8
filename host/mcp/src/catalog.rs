//! The tools the servers offer, under the names the agent calls them by (`{server}_{tool}` when
//! several servers are configured, as FastMCP names them for GEM), each with its input schema
//! compiled once to check a call's arguments before the call is made.

use serde_json::Value;
use std::fmt::Write;

/// One tool of one server.
pub struct CatalogEntry {
    /// The name the agent calls it by.
    pub name: String,
    /// The name its server knows it by.
    pub remote_name: String,
    /// The index of its server in the configuration.
    pub server: usize,
    /// Its server's name.
    pub server_name: String,
    /// What it does (may be empty).
    pub description: String,
    /// The JSON schema of its arguments.
    pub input_schema: Value,
    /// The JSON schema of its structured result, if it has one.
    pub output_schema: Option<Value>,
    /// The compiled input schema; `None` when the server's schema does not compile (the server
    /// then judges the arguments itself).
    validator: Option<jsonschema::Validator>,
}

impl std::fmt::Debug for CatalogEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CatalogEntry")
            .field("name", &self.name)
            .field("server", &self.server_name)
            .finish_non_exhaustive()
    }
}

impl CatalogEntry {
    /// The entry of `tool` (an MCP `Tool` as JSON) of server `server` named `server_name`;
    /// `prefixed` names it `{server_name}_{name}`.
    pub fn from_listing(tool: &Value, server: usize, server_name: &str, prefixed: bool) -> Self {
        let remote_name = tool["name"].as_str().unwrap_or_default().to_owned();
        let input_schema = match &tool["inputSchema"] {
            Value::Null => serde_json::json!({"type": "object", "properties": {}}),
            schema => schema.clone(),
        };
        let validator = jsonschema::validator_for(&input_schema).ok();
        CatalogEntry {
            name: if prefixed {
                format!("{server_name}_{remote_name}")
            } else {
                remote_name.clone()
            },
            remote_name,
            server,
            server_name: server_name.to_owned(),
            description: tool["description"].as_str().unwrap_or_default().to_owned(),
            output_schema: tool.get("outputSchema").filter(|s| !s.is_null()).cloned(),
            input_schema,
            validator,
        }
    }

    /// Checks a call's arguments: they must be a JSON object that satisfies the input schema.
    /// The error lists every violation with where it is.
    pub fn check_arguments(&self, arguments: &Value) -> Result<(), String> {
        if !arguments.is_object() {
            return Err(format!(
                "the arguments of '{}' must be a JSON object, got {arguments}",
                self.name
            ));
        }
        let Some(validator) = &self.validator else {
            return Ok(());
        };
        let mut problems = String::new();
        for error in validator.iter_errors(arguments) {
            let at = error.instance_path().to_string();
            let at = if at.is_empty() { "/".to_owned() } else { at };
            let _ = write!(problems, "; {error} (at {at})");
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "the arguments of '{}' do not match its input schema{}",
                self.name,
                problems.replacen(';', ":", 1)
            ))
        }
    }
}

/// The names of `entries`, comma-separated, in listing order.
pub fn names(entries: &[CatalogEntry]) -> String {
    let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn add() -> CatalogEntry {
        let tool = json!({"name": "add", "description": "Adds.", "inputSchema": {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
        }});
        CatalogEntry::from_listing(&tool, 0, "calc", true)
    }

    #[test]
    fn arguments_are_checked_against_the_schema() {
        let entry = add();
        assert_eq!(entry.name, "calc_add");
        assert_eq!(entry.remote_name, "add");
        assert!(entry.check_arguments(&json!({"a": 1, "b": 2})).is_ok());
        let error = entry.check_arguments(&json!({"a": "1"})).unwrap_err();
        assert!(
            error.starts_with("the arguments of 'calc_add' do not match its input schema: "),
            "{error}"
        );
        assert!(
            error.contains("\"1\" is not of type \"integer\" (at /a)"),
            "{error}"
        );
        assert!(
            error.contains("\"b\" is a required property (at /)"),
            "{error}"
        );
        let error = entry.check_arguments(&json!([1, 2])).unwrap_err();
        assert!(error.contains("must be a JSON object"), "{error}");
    }
}
