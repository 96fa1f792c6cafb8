//! Finding code in an LLM's answer, with GEM's rules: the code envs grade the last fenced block
//! of any language (`gem.utils.parsing.extract_code_from_model`); the Python tool runs the first
//! complete `<python>…</python>` or fenced python block (`PythonCodeTool._parse_action`).

/// The body of the last ```` ```lang\n…``` ```` block, stripped; `None` when there is none
/// (GEM's regex: ```` ```(?:\w+)?\n(.*?)``` ````, last match).
pub fn last_fenced_block(text: &str) -> Option<String> {
    let mut last = None;
    let mut from = 0;
    while let Some(at) = text[from..].find("```").map(|i| i + from) {
        let after = &text[at + 3..];
        let tag = after
            .char_indices()
            .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
            .map_or(after.len(), |(i, _)| i);
        if after[tag..].starts_with('\n') {
            let body_start = at + 3 + tag + 1;
            if let Some(end) = text[body_start..].find("```") {
                last = Some(&text[body_start..body_start + end]);
                from = body_start + end + 3;
                continue;
            }
        }
        from = at + 1;
    }
    last.map(|body| body.trim().to_owned())
}

/// A code block the Python tool found: the code, and the action up to the block's end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PythonCall {
    /// The code, stripped.
    pub code: String,
    /// The action up to and including the block.
    pub parsed_action: String,
}

/// The first complete `<python>…</python>` or ```` ```python…``` ```` block (the one that ends
/// first; on a tie the fenced one), as GEM's `PythonCodeTool` picks it.
pub fn first_python_block(action: &str) -> Option<PythonCall> {
    let tagged = tagged_block(action);
    let fenced = fenced_python_block(action);
    let best = match (tagged, fenced) {
        (Some(t), Some(f)) => Some(if f.1 <= t.1 { f } else { t }),
        (t, f) => t.or(f),
    };
    best.map(|(code, end)| PythonCall {
        code: code.trim().to_owned(),
        parsed_action: action[..end].to_owned(),
    })
}

/// `<python>(.*?)</python>`, first match: (body, end offset).
fn tagged_block(action: &str) -> Option<(&str, usize)> {
    let start = action.find("<python>")? + "<python>".len();
    let len = action[start..].find("</python>")?;
    Some((&action[start..start + len], start + len + "</python>".len()))
}

/// ```` ```\n?python(.*?)``` ````, leftmost match: (body, end offset).
fn fenced_python_block(action: &str) -> Option<(&str, usize)> {
    let mut from = 0;
    while let Some(at) = action[from..].find("```").map(|i| i + from) {
        let mut body = at + 3;
        if action[body..].starts_with("\npython") {
            body += 1;
        }
        if action[body..].starts_with("python") {
            body += "python".len();
            if let Some(len) = action[body..].find("```") {
                return Some((&action[body..body + len], body + len + 3));
            }
        }
        from = at + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_fenced_block_follows_gem() {
        let answer = "Try:\n```python\nprint(1)\n```\nbetter:\n```\nprint(2)\n```\n";
        assert_eq!(last_fenced_block(answer).as_deref(), Some("print(2)"));
        assert_eq!(last_fenced_block("no code"), None);
        assert_eq!(last_fenced_block("```py thon\nx\n```"), None);
        assert_eq!(
            last_fenced_block("```cpp\nint x;```").as_deref(),
            Some("int x;")
        );
    }

    #[test]
    fn first_python_block_prefers_the_earliest_end() {
        let call =
            first_python_block("a <python>print(1)</python> b ```python\nprint(2)\n```").unwrap();
        assert_eq!(call.code, "print(1)");
        assert_eq!(call.parsed_action, "a <python>print(1)</python>");
        let call = first_python_block("```python\nprint(2)\n``` then <python>x</python>").unwrap();
        assert_eq!(call.code, "print(2)");
        assert_eq!(
            first_python_block("```\npython\nprint(3)```").unwrap().code,
            "print(3)"
        );
        assert_eq!(first_python_block("<python>unclosed"), None);
    }
}
