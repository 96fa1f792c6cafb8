//! GEM's `SearchTool` text conventions: which part of an action is the query, and how passages
//! are written back to the agent.

/// What the search tool reads from an action.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchCall {
    /// The query: the first `<search>…</search>` block's content, stripped of whitespace.
    pub query: String,
    /// The action up to the end of that block (the agent's thinking included), as GEM reports it.
    pub parsed_action: String,
}

const OPEN: &str = "<search>";
const CLOSE: &str = "</search>";

/// The first `<search>…</search>` block of `action` (GEM's `<search>(.*?)</search>` with
/// `re.DOTALL`, first match), or `None` when there is none.
pub fn parse_search(action: &str) -> Option<SearchCall> {
    let start = action.find(OPEN)? + OPEN.len();
    let end = start + action[start..].find(CLOSE)?;
    Some(SearchCall {
        query: py_strip(&action[start..end]).to_owned(),
        parsed_action: action[..end + CLOSE.len()].to_owned(),
    })
}

/// Python's `str.strip()`: Rust's whitespace plus the four separators Python also strips.
fn py_strip(text: &str) -> &str {
    text.trim_matches(|c: char| c.is_whitespace() || ('\x1c'..='\x1f').contains(&c))
}

/// GEM's `_passages2string`: `Doc {i}(Title: {first line}) {other lines}\n` per passage.
pub fn passages_to_string<'a>(contents: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for (index, content) in contents.into_iter().enumerate() {
        let (title, text) = content.split_once('\n').unwrap_or((content, ""));
        out.push_str(&format!("Doc {}(Title: {title}) {text}\n", index + 1));
    }
    out
}

/// The observation for a search result (passages or an error text), as GEM wraps it.
pub fn information(result: &str) -> String {
    format!("\n\n<information>{result}</information>\n\n")
}

/// An error as GEM's search tool reports it to the agent; the tool flags `has_error` on it.
pub fn error_text(message: &str) -> String {
    format!("{ERROR_PREFIX} {message}]")
}

/// What marks a search result as an error (GEM checks for this text).
pub const ERROR_PREFIX: &str = "[SearchTool Error:";

/// GEM's instructions for the search tool.
pub const INSTRUCTIONS: &str = "You have access to a search engine to help answer questions.\n\n\
Additional instructions:\n\
- If your initial reasoning in <think> shows you lack some knowledge, explain what you need to find next inside a new <think> block.\n\
- Then issue a search query using:\n  <search> your query here </search>\n\
- The search engine will provide results inside:\n  <information> ... </information>\n\
- You may repeat the <think> and <search> steps as many times as needed.\n\
- When you are ready, give your final answer in:\n  <answer> your answer here </answer>";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_block_and_the_text_before_it() {
        let call = parse_search("think <search>\n a b \n</search> <search>c</search>").unwrap();
        assert_eq!(call.query, "a b");
        assert_eq!(call.parsed_action, "think <search>\n a b \n</search>");
        assert_eq!(parse_search("<search>open only"), None);
        assert_eq!(
            parse_search("</search><search>x</search>").unwrap().query,
            "x"
        );
        assert_eq!(parse_search("<search></search>").unwrap().query, "");
    }

    #[test]
    fn passages_like_gem() {
        let text = passages_to_string(["Title\nline 1\nline 2", "Only title"]);
        assert_eq!(
            text,
            "Doc 1(Title: Title) line 1\nline 2\nDoc 2(Title: Only title) \n"
        );
        assert_eq!(information("x"), "\n\n<information>x</information>\n\n");
        assert_eq!(error_text("boom"), "[SearchTool Error: boom]");
    }
}
