//! The `search` tool: a regular expression over the files of the workspace (`path:line: text`
//! per match), or the files whose paths match a glob. Runs on the host over the episode's tree.

use super::editor::{WORKSPACE, relative};
use geode_runtime::workspace::Tree;

/// Most matches listed before the rest are counted only.
const MAX_MATCHES: usize = 200;

/// Searches `tree` under directory `under`: lines matching `pattern` in files matching `glob`
/// (every file when `None`), or, with no pattern, the files matching `glob`.
pub fn search(
    tree: &Tree,
    pattern: Option<&str>,
    glob: Option<&str>,
    under: Option<&str>,
) -> Result<String, String> {
    let under = relative(under.unwrap_or(WORKSPACE))?;
    let prefix = if under.is_empty() {
        String::new()
    } else {
        format!("{under}/")
    };
    let glob = glob
        .map(|g| {
            globset::GlobBuilder::new(g)
                .literal_separator(false)
                .build()
                .map(|g| g.compile_matcher())
                .map_err(|e| format!("invalid glob `{g}`: {e}"))
        })
        .transpose()?;
    let regex = pattern
        .map(|p| regex::Regex::new(p).map_err(|e| format!("invalid regular expression: {e}")))
        .transpose()?;
    if regex.is_none() && glob.is_none() {
        return Err("give a `pattern` to search for, a `glob` of files to find, or both".into());
    }
    let mut out = Vec::new();
    let mut more = 0usize;
    for (path, data) in tree.files() {
        let Some(rest) = path.strip_prefix(&prefix) else {
            continue;
        };
        let name = rest.rsplit('/').next().unwrap_or(rest);
        if let Some(glob) = &glob
            && !glob.is_match(rest)
            && !glob.is_match(name)
        {
            continue;
        }
        let Some(regex) = &regex else {
            out.push(format!("{WORKSPACE}/{path}"));
            continue;
        };
        let Ok(text) = std::str::from_utf8(&data) else {
            continue;
        };
        for (number, line) in text.lines().enumerate() {
            if regex.is_match(line) {
                if out.len() < MAX_MATCHES {
                    out.push(format!("{WORKSPACE}/{path}:{}: {line}", number + 1));
                } else {
                    more += 1;
                }
            }
        }
    }
    if out.is_empty() {
        return Ok("No matches found.".to_owned());
    }
    let mut text = out.join("\n");
    if more > 0 {
        text.push_str(&format!(
            "\n[{more} more matches not shown; narrow the search]"
        ));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use geode_runtime::workspace::Quota;
    use std::sync::Arc;

    #[test]
    fn grep_and_find() {
        let mut tree = Tree::new(Quota::WORKSPACE);
        tree.put("pkg/a.py", Arc::new(b"def f():\n    return 1\n".to_vec()))
            .unwrap();
        tree.put(
            "tests/test_a.py",
            Arc::new(b"def test_f():\n    pass\n".to_vec()),
        )
        .unwrap();
        let found = search(&tree, Some(r"def \w+"), None, None).unwrap();
        assert_eq!(
            found,
            "/workspace/pkg/a.py:1: def f():\n/workspace/tests/test_a.py:1: def test_f():"
        );
        let tests = search(&tree, None, Some("test_*.py"), None).unwrap();
        assert_eq!(tests, "/workspace/tests/test_a.py");
        let scoped = search(&tree, Some("return"), None, Some("/workspace/tests")).unwrap();
        assert_eq!(scoped, "No matches found.");
        assert!(search(&tree, Some("("), None, None).is_err());
    }
}
