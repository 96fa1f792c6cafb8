//! The file editor tool (`str_replace_editor`), in the convention SWE-agent and OpenHands
//! agents are trained on: `view` a file with line numbers or a directory, `create` a file,
//! `str_replace` one unique occurrence, `insert` after a line, `undo_edit` the last edit of a
//! file. It edits the episode's tree directly, on the host.

use geode_runtime::workspace::{NodeKind, ROOT, Tree};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Where the workspace is in the guest; paths may be given under it or relative to it.
pub const WORKSPACE: &str = "/workspace";

/// Lines of context shown around an edit.
const SNIPPET_LINES: usize = 4;

/// Each file's contents before its edits, for `undo_edit` (`None`: it did not exist).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct History(BTreeMap<String, Vec<Option<Vec<u8>>>>);

/// A path of the workspace, relative to its root (`""` for the root itself).
pub fn relative(path: &str) -> Result<String, String> {
    let inside = match path.strip_prefix(WORKSPACE) {
        Some("") => "",
        Some(rest) if rest.starts_with('/') => rest,
        Some(_) | None if path.starts_with('/') => {
            return Err(format!(
                "`{path}` is outside the workspace; paths are under {WORKSPACE}"
            ));
        }
        _ => path,
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in inside.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts
                    .pop()
                    .ok_or_else(|| format!("`{path}` leads outside the workspace"))?;
            }
            name => parts.push(name),
        }
    }
    Ok(parts.join("/"))
}

fn shown(path: &str) -> String {
    if path.is_empty() {
        WORKSPACE.to_owned()
    } else {
        format!("{WORKSPACE}/{path}")
    }
}

fn read_text(tree: &Tree, path: &str) -> Result<String, String> {
    let ino = tree
        .lookup(ROOT, path)
        .map_err(|_| format!("The path {} does not exist.", shown(path)))?;
    let data = tree
        .file(ino)
        .map_err(|_| format!("{} is a directory.", shown(path)))?;
    String::from_utf8(data.to_vec()).map_err(|_| format!("{} is not UTF-8 text.", shown(path)))
}

/// Lines `from..` of `text` numbered from `first` as `cat -n` numbers them.
fn numbered(text: &str, first: usize) -> String {
    text.lines()
        .enumerate()
        .map(|(i, line)| format!("{:6}\t{line}\n", i + first))
        .collect()
}

impl History {
    fn remember(&mut self, tree: &Tree, path: &str) {
        let before = tree
            .lookup(ROOT, path)
            .ok()
            .and_then(|ino| tree.file(ino).ok())
            .map(|data| data.to_vec());
        self.0.entry(path.to_owned()).or_default().push(before);
    }

    fn write(&mut self, tree: &mut Tree, path: &str, text: String) -> Result<(), String> {
        self.remember(tree, path);
        tree.put(path, Arc::new(text.into_bytes()))
            .map(|_| ())
            .map_err(|e| format!("Cannot write {}: {e:?}", shown(path)))
    }

    /// `view`: a file's lines (all, or `range` [first, last], last -1 for the end) or a
    /// directory's entries two levels deep.
    pub fn view(
        &self,
        tree: &Tree,
        path: &str,
        range: Option<(i64, i64)>,
    ) -> Result<String, String> {
        let path = relative(path)?;
        let ino = tree
            .lookup(ROOT, &path)
            .map_err(|_| format!("The path {} does not exist.", shown(&path)))?;
        if tree.meta(ino).map_err(|e| format!("{e:?}"))?.kind == NodeKind::Dir {
            if range.is_some() {
                return Err("`view_range` is not allowed when `path` is a directory.".into());
            }
            let prefix = if path.is_empty() {
                String::new()
            } else {
                format!("{path}/")
            };
            let mut out = format!(
                "Here are the files and directories up to 2 levels deep in {}, excluding hidden items:\n{}\n",
                shown(&path),
                shown(&path)
            );
            for entry in tree.paths() {
                let Some(rest) = entry.strip_prefix(&prefix) else {
                    continue;
                };
                let depth = rest.trim_end_matches('/').matches('/').count();
                let hidden = rest.split('/').any(|p| p.starts_with('.'));
                if depth < 2 && !hidden && !rest.is_empty() {
                    out.push_str(&format!("{}\n", shown(&format!("{prefix}{rest}"))));
                }
            }
            return Ok(out);
        }
        let text = read_text(tree, &path)?;
        let lines: Vec<&str> = text.lines().collect();
        let (first, last) = match range {
            None => (1, lines.len()),
            Some((first, last)) => {
                let count = lines.len() as i64;
                if first < 1 || first > count.max(1) {
                    return Err(format!(
                        "Invalid `view_range`: [{first}, {last}]. Its first element `{first}` should be within the range of lines of the file: [1, {count}]"
                    ));
                }
                let last = if last == -1 { count } else { last };
                if last < first || last > count {
                    return Err(format!(
                        "Invalid `view_range`: [{first}, {last}]. Its second element should be -1 or within [{first}, {count}]"
                    ));
                }
                (first as usize, last as usize)
            }
        };
        let body = lines
            .get(first.saturating_sub(1)..last)
            .unwrap_or(&[])
            .join("\n");
        Ok(format!(
            "Here's the result of running `cat -n` on {}:\n{}",
            shown(&path),
            numbered(&body, first)
        ))
    }

    /// `create`: a new file with `text` (refused over an existing file).
    pub fn create(&mut self, tree: &mut Tree, path: &str, text: &str) -> Result<String, String> {
        let path = relative(path)?;
        if tree.lookup(ROOT, &path).is_ok() {
            return Err(format!(
                "File already exists at: {}. Cannot overwrite files using command `create`.",
                shown(&path)
            ));
        }
        self.write(tree, &path, text.to_owned())?;
        Ok(format!("File created successfully at: {}", shown(&path)))
    }

    /// `str_replace`: replaces the one occurrence of `old` with `new`.
    pub fn str_replace(
        &mut self,
        tree: &mut Tree,
        path: &str,
        old: &str,
        new: &str,
    ) -> Result<String, String> {
        let path = relative(path)?;
        let text = read_text(tree, &path)?;
        if old.is_empty() {
            return Err("`old_str` must not be empty.".into());
        }
        let found: Vec<usize> = text.match_indices(old).map(|(at, _)| at).collect();
        match found.as_slice() {
            [] => Err(format!(
                "No replacement was performed, old_str `{old}` did not appear verbatim in {}.",
                shown(&path)
            )),
            [at] => {
                let line = text[..*at].matches('\n').count();
                let edited = format!("{}{new}{}", &text[..*at], &text[at + old.len()..]);
                self.write(tree, &path, edited.clone())?;
                Ok(format!(
                    "The file {} has been edited. {}Review the changes and make sure they are as expected. Edit the file again if necessary.",
                    shown(&path),
                    snippet(&edited, line, new.matches('\n').count(), &path)
                ))
            }
            many => {
                let lines: Vec<String> = many
                    .iter()
                    .map(|at| (text[..*at].matches('\n').count() + 1).to_string())
                    .collect();
                Err(format!(
                    "No replacement was performed. Multiple occurrences of old_str `{old}` in lines [{}]. Please ensure it is unique.",
                    lines.join(", ")
                ))
            }
        }
    }

    /// `insert`: `new` after line `after` (0: at the top).
    pub fn insert(
        &mut self,
        tree: &mut Tree,
        path: &str,
        after: i64,
        new: &str,
    ) -> Result<String, String> {
        let path = relative(path)?;
        let text = read_text(tree, &path)?;
        let mut lines: Vec<&str> = text.lines().collect();
        let count = lines.len() as i64;
        if after < 0 || after > count {
            return Err(format!(
                "Invalid `insert_line` parameter: {after}. It should be within the range of lines of the file: [0, {count}]"
            ));
        }
        let added: Vec<&str> = new.lines().collect();
        let at = after as usize;
        lines.splice(at..at, added.iter().copied());
        let mut edited = lines.join("\n");
        if text.ends_with('\n') || text.is_empty() {
            edited.push('\n');
        }
        self.write(tree, &path, edited.clone())?;
        Ok(format!(
            "The file {} has been edited. {}Review the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary.",
            shown(&path),
            snippet(&edited, at, added.len(), &path)
        ))
    }

    /// `undo_edit`: the file as it was before its last edit.
    pub fn undo(&mut self, tree: &mut Tree, path: &str) -> Result<String, String> {
        let path = relative(path)?;
        let before = self
            .0
            .get_mut(&path)
            .and_then(Vec::pop)
            .ok_or_else(|| format!("No edit history found for {}.", shown(&path)))?;
        match before {
            Some(data) => tree
                .put(&path, Arc::new(data))
                .map_err(|e| format!("Cannot write {}: {e:?}", shown(&path)))?,
            None => {
                tree.unlink(ROOT, &path)
                    .map_err(|e| format!("Cannot remove {}: {e:?}", shown(&path)))?;
                return Ok(format!(
                    "Last edit to {} undone: the file is removed.",
                    shown(&path)
                ));
            }
        };
        let text = read_text(tree, &path)?;
        Ok(format!(
            "Last edit to {} undone successfully. Here's the result of running `cat -n` on {}:\n{}",
            shown(&path),
            shown(&path),
            numbered(&text, 1)
        ))
    }
}

/// The edited region of `text` (lines `line..line + added`) with context, numbered.
fn snippet(text: &str, line: usize, added: usize, path: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let first = line.saturating_sub(SNIPPET_LINES);
    let last = (line + added + SNIPPET_LINES + 1).min(lines.len());
    let body = lines.get(first..last).unwrap_or(&[]).join("\n");
    format!(
        "Here's the result of running `cat -n` on a snippet of {}:\n{}",
        shown(path),
        numbered(&body, first + 1)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use geode_runtime::workspace::Quota;

    fn tree() -> Tree {
        let mut tree = Tree::new(Quota::WORKSPACE);
        tree.put("pkg/m.py", Arc::new(b"a = 1\nb = 2\na = 1\n".to_vec()))
            .unwrap();
        tree
    }

    #[test]
    fn str_replace_needs_one_unique_match_and_undo_restores() {
        let mut tree = tree();
        let mut history = History::default();
        let many = history.str_replace(&mut tree, "/workspace/pkg/m.py", "a = 1", "a = 3");
        assert!(many.unwrap_err().contains("lines [1, 3]"));
        let none = history.str_replace(&mut tree, "pkg/m.py", "c = 1", "");
        assert!(none.unwrap_err().contains("did not appear verbatim"));
        history
            .str_replace(&mut tree, "pkg/m.py", "b = 2", "b = 5")
            .unwrap();
        assert_eq!(
            read_text(&tree, "pkg/m.py").unwrap(),
            "a = 1\nb = 5\na = 1\n"
        );
        history.undo(&mut tree, "pkg/m.py").unwrap();
        assert_eq!(
            read_text(&tree, "pkg/m.py").unwrap(),
            "a = 1\nb = 2\na = 1\n"
        );
        assert!(history.undo(&mut tree, "pkg/m.py").is_err());
    }

    #[test]
    fn view_insert_create_and_paths_outside_are_refused() {
        let mut tree = tree();
        let mut history = History::default();
        history.insert(&mut tree, "pkg/m.py", 0, "# top").unwrap();
        let view = history.view(&tree, "pkg/m.py", Some((1, 2))).unwrap();
        assert!(view.contains("     1\t# top\n     2\ta = 1\n"), "{view}");
        assert!(history.create(&mut tree, "pkg/m.py", "x").is_err());
        history.create(&mut tree, "new/n.py", "x = 1\n").unwrap();
        let listing = history.view(&tree, "/workspace", None).unwrap();
        assert!(listing.contains("/workspace/new/n.py"), "{listing}");
        assert!(relative("/etc/passwd").is_err());
        assert!(relative("../x").is_err());
        assert!(relative("/workspace/../etc").is_err());
        history.undo(&mut tree, "new/n.py").unwrap();
        assert!(tree.lookup(ROOT, "new/n.py").is_err());
    }
}
