//! Unified diffs (`git diff` output, several files in one) applied to a [`Tree`]: gold patches,
//! SWE-bench test patches, SWE-smith bug patches. Hunks are applied with `diffy`; a file
//! created from or deleted to `/dev/null` is created or removed.

use geode_runtime::workspace::{ROOT, Tree};
use std::sync::Arc;

/// One file's part of a diff.
struct FilePatch<'a> {
    /// The file before (`None`: created).
    old: Option<String>,
    /// The file after (`None`: deleted).
    new: Option<String>,
    /// Its `---`/`+++` header and hunks.
    text: &'a str,
}

/// The path a `---`/`+++` header names, without its `a/`/`b/` prefix; `None` for `/dev/null`.
fn header_path(line: &str, marker: &str) -> Option<String> {
    let path = line.strip_prefix(marker)?.trim_end();
    let path = path.split('\t').next().unwrap_or(path);
    if path == "/dev/null" {
        return None;
    }
    let path = path
        .strip_prefix("a/")
        .or_else(|| path.strip_prefix("b/"))
        .unwrap_or(path);
    Some(path.to_owned())
}

/// Splits `diff` into its files' patches.
fn split(diff: &str) -> Result<Vec<FilePatch<'_>>, String> {
    let mut starts = Vec::new();
    let mut offset = 0;
    let lines: Vec<&str> = diff.split_inclusive('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("--- ") && lines.get(i + 1).is_some_and(|l| l.starts_with("+++ ")) {
            starts.push((offset, i));
        }
        offset += line.len();
    }
    if starts.is_empty() {
        return Err("no `---`/`+++` file headers in the patch".to_owned());
    }
    let mut patches = Vec::with_capacity(starts.len());
    for (n, &(at, line)) in starts.iter().enumerate() {
        let end = starts.get(n + 1).map_or(diff.len(), |&(next, _)| next);
        let mut text = &diff[at..end];
        // Drop the next file's `diff --git`/`index` preamble from this one's tail.
        if let Some(cut) = text.find("\ndiff --git ") {
            text = &text[..=cut];
        }
        patches.push(FilePatch {
            old: header_path(lines[line], "--- "),
            new: header_path(lines[line + 1], "+++ "),
            text,
        });
    }
    Ok(patches)
}

/// Applies `diff` to `tree`; `reverse` undoes it instead (what turns a bug-introducing
/// patch into its fix). Either every file applies or the tree is left unchanged.
pub fn apply(tree: &mut Tree, diff: &str, reverse: bool) -> Result<(), String> {
    let mut next = tree.clone();
    for file in split(diff)? {
        let patch =
            diffy::Patch::from_str(file.text).map_err(|e| format!("unreadable patch: {e}"))?;
        let patch = if reverse { patch.reverse() } else { patch };
        let (old, new) = match reverse {
            false => (file.old, file.new),
            true => (file.new, file.old),
        };
        let base = match &old {
            None => String::new(),
            Some(path) => {
                let ino = next
                    .lookup(ROOT, path)
                    .map_err(|_| format!("the patch changes `{path}`, which does not exist"))?;
                let data = next.file(ino).map_err(|e| format!("`{path}`: {e:?}"))?;
                String::from_utf8(data.to_vec())
                    .map_err(|_| format!("`{path}` is not UTF-8 text"))?
            }
        };
        let patched = diffy::apply(&base, &patch).map_err(|e| {
            let name = new.as_deref().or(old.as_deref()).unwrap_or("?");
            format!("the patch does not apply to `{name}`: {e}")
        })?;
        match (&old, &new) {
            (Some(old), None) => next
                .unlink(ROOT, old)
                .map_err(|e| format!("cannot delete `{old}`: {e:?}"))?,
            (old, Some(new)) => {
                if let Some(old) = old.as_ref().filter(|old| *old != new) {
                    next.unlink(ROOT, old)
                        .map_err(|e| format!("cannot move `{old}`: {e:?}"))?;
                }
                next.put(new, Arc::new(patched.into_bytes()))
                    .map_err(|e| format!("cannot write `{new}`: {e:?}"))?;
            }
            (None, None) => return Err("a patch from /dev/null to /dev/null".to_owned()),
        }
    }
    *tree = next;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use geode_runtime::workspace::Quota;

    const DIFF: &str = "diff --git a/pkg/m.py b/pkg/m.py\nindex 1..2 100644\n--- a/pkg/m.py\n+++ b/pkg/m.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\ndiff --git a/new.py b/new.py\nnew file mode 100644\n--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+x = 1\n";

    fn text(tree: &Tree, path: &str) -> String {
        let ino = tree.lookup(ROOT, path).unwrap();
        String::from_utf8(tree.file(ino).unwrap().to_vec()).unwrap()
    }

    #[test]
    fn a_git_diff_applies_and_reverses() {
        let mut tree = Tree::new(Quota::WORKSPACE);
        tree.put("pkg/m.py", Arc::new(b"def f():\n    return 1\n".to_vec()))
            .unwrap();
        apply(&mut tree, DIFF, false).unwrap();
        assert_eq!(text(&tree, "pkg/m.py"), "def f():\n    return 2\n");
        assert_eq!(text(&tree, "new.py"), "x = 1\n");
        apply(&mut tree, DIFF, true).unwrap();
        assert_eq!(text(&tree, "pkg/m.py"), "def f():\n    return 1\n");
        assert!(tree.lookup(ROOT, "new.py").is_err());
    }

    #[test]
    fn a_patch_that_does_not_apply_changes_nothing() {
        let mut tree = Tree::new(Quota::WORKSPACE);
        tree.put("pkg/m.py", Arc::new(b"def f():\n    return 3\n".to_vec()))
            .unwrap();
        let error = apply(&mut tree, DIFF, false).unwrap_err();
        assert!(error.contains("pkg/m.py"), "{error}");
        assert_eq!(text(&tree, "pkg/m.py"), "def f():\n    return 3\n");
        assert!(tree.lookup(ROOT, "new.py").is_err());
    }
}
