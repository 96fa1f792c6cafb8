//! [`Tree`]: an in-memory file tree with copy-on-write file contents, a byte and a node quota,
//! and paths that cannot leave the directory they start from. No symlinks, no hard links:
//! nothing in a tree can point outside it.

use std::collections::BTreeMap;
use std::sync::Arc;
use wasmtime_wasi::p2::bindings::filesystem::types::ErrorCode;

/// A node's number in its tree (the root is 0).
pub type Ino = u32;

/// The root directory's number.
pub const ROOT: Ino = 0;

/// What a tree may hold: the sum of its files' sizes and how many files and directories.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quota {
    /// Most bytes of file contents.
    pub bytes: u64,
    /// Most files and directories (the root included).
    pub nodes: u64,
}

impl Quota {
    /// 64 MiB in at most 10,000 files and directories.
    pub const WORKSPACE: Quota = Quota {
        bytes: 64 << 20,
        nodes: 10_000,
    };
}

/// Whether a node is a file or a directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
}

#[derive(Debug, Clone)]
enum Body {
    /// Shared with every tree cloned from the one that wrote it, until one writes again.
    File(Arc<Vec<u8>>),
    Dir(BTreeMap<Arc<str>, Ino>),
}

#[derive(Debug, Clone)]
struct Node {
    body: Body,
    /// The directory holding it (the root is its own parent).
    parent: Ino,
    /// Logical modification time, in nanoseconds since the tree's epoch.
    mtime: u64,
    /// False once unlinked; the node lives on while a handle holds it.
    linked: bool,
    /// Open descriptors and streams on it.
    handles: u32,
}

/// A node's metadata, as `stat` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Meta {
    /// Its number.
    pub ino: Ino,
    /// File or directory.
    pub kind: NodeKind,
    /// Size in bytes (entries for a directory).
    pub size: u64,
    /// Logical modification time in nanoseconds.
    pub mtime: u64,
}

/// An in-memory file tree. Cloning it is cheap (file contents are shared and copied on the
/// first write), which is how every episode gets its task's files.
#[derive(Debug, Clone)]
pub struct Tree {
    nodes: Vec<Option<Node>>,
    free: Vec<Ino>,
    bytes: u64,
    count: u64,
    quota: Quota,
    /// The logical clock: every change moves it 1 ms, so times are the same on every run.
    clock: u64,
    /// Whether the quota refused something since [`take_refusal`](Tree::take_refusal) last
    /// looked.
    refused: bool,
}

/// One step of time per change to a tree.
const TICK_NS: u64 = 1_000_000;

impl Tree {
    /// An empty tree (a root directory) under `quota`.
    pub fn new(quota: Quota) -> Self {
        Tree {
            nodes: vec![Some(Node {
                body: Body::Dir(BTreeMap::new()),
                parent: ROOT,
                mtime: 0,
                linked: true,
                handles: 0,
            })],
            free: Vec::new(),
            bytes: 0,
            count: 1,
            quota,
            clock: 0,
            refused: false,
        }
    }

    /// The same tree under another quota (what it holds already is kept even when over it).
    pub fn with_quota(mut self, quota: Quota) -> Self {
        self.quota = quota;
        self
    }

    /// Its quota.
    pub fn quota(&self) -> Quota {
        self.quota
    }

    /// If the quota refused a change since the last call, what it allows (for a note to the
    /// guest's stderr: not every WASI path can carry the `quota` error code to the guest).
    pub fn take_refusal(&mut self) -> Option<String> {
        std::mem::take(&mut self.refused).then(|| {
            format!(
                "OSError: workspace quota exceeded (at most {} bytes in {} files and directories)",
                self.quota.bytes, self.quota.nodes
            )
        })
    }

    fn over_quota(&mut self) -> ErrorCode {
        self.refused = true;
        ErrorCode::Quota
    }

    /// Bytes of file contents and nodes it holds now.
    pub fn usage(&self) -> (u64, u64) {
        (self.bytes, self.count)
    }

    fn node(&self, ino: Ino) -> Result<&Node, ErrorCode> {
        self.nodes
            .get(ino as usize)
            .and_then(Option::as_ref)
            .ok_or(ErrorCode::BadDescriptor)
    }

    fn node_mut(&mut self, ino: Ino) -> Result<&mut Node, ErrorCode> {
        self.nodes
            .get_mut(ino as usize)
            .and_then(Option::as_mut)
            .ok_or(ErrorCode::BadDescriptor)
    }

    fn entries(&self, dir: Ino) -> Result<&BTreeMap<Arc<str>, Ino>, ErrorCode> {
        match &self.node(dir)?.body {
            Body::Dir(entries) => Ok(entries),
            Body::File(_) => Err(ErrorCode::NotDirectory),
        }
    }

    fn entries_mut(&mut self, dir: Ino) -> Result<&mut BTreeMap<Arc<str>, Ino>, ErrorCode> {
        match &mut self.node_mut(dir)?.body {
            Body::Dir(entries) => Ok(entries),
            Body::File(_) => Err(ErrorCode::NotDirectory),
        }
    }

    fn tick(&mut self) -> u64 {
        self.clock += TICK_NS;
        self.clock
    }

    /// The metadata of `ino`.
    pub fn meta(&self, ino: Ino) -> Result<Meta, ErrorCode> {
        let node = self.node(ino)?;
        let (kind, size) = match &node.body {
            Body::File(data) => (NodeKind::File, data.len() as u64),
            Body::Dir(entries) => (NodeKind::Dir, entries.len() as u64),
        };
        Ok(Meta {
            ino,
            kind,
            size,
            mtime: node.mtime,
        })
    }

    /// Follows `path` from directory `start`: relative, `/`-separated, `.` and `..` allowed
    /// as long as it never climbs above `start`. An absolute path is refused.
    pub fn lookup(&self, start: Ino, path: &str) -> Result<Ino, ErrorCode> {
        let (dir, last) = self.parent_of(start, path)?;
        match last {
            None => Ok(dir),
            Some(name) => self
                .entries(dir)?
                .get(name)
                .copied()
                .ok_or(ErrorCode::NoEntry),
        }
    }

    /// The directory holding the last component of `path` (from `start`), and that component
    /// (`None` when the path names a directory reached by `.`/`..` or is empty).
    fn parent_of<'p>(
        &self,
        start: Ino,
        path: &'p str,
    ) -> Result<(Ino, Option<&'p str>), ErrorCode> {
        if path.starts_with('/') {
            return Err(ErrorCode::NotPermitted);
        }
        if path.contains('\0') {
            return Err(ErrorCode::Invalid);
        }
        let dir_only = path.ends_with('/');
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        let mut at = start;
        let mut depth = 0usize;
        self.entries(at)?;
        for (i, part) in parts.iter().enumerate() {
            let last = i + 1 == parts.len();
            match *part {
                "." => {}
                ".." => {
                    if depth == 0 {
                        return Err(ErrorCode::NotPermitted);
                    }
                    depth -= 1;
                    at = self.node(at)?.parent;
                }
                name if last && !dir_only => return Ok((at, Some(name))),
                name => {
                    at = *self.entries(at)?.get(name).ok_or(ErrorCode::NoEntry)?;
                    self.entries(at)?;
                    depth += 1;
                }
            }
        }
        Ok((at, None))
    }

    fn allocate(&mut self, node: Node, bytes: u64) -> Result<Ino, ErrorCode> {
        if self.count + 1 > self.quota.nodes || self.bytes + bytes > self.quota.bytes {
            return Err(self.over_quota());
        }
        self.count += 1;
        self.bytes += bytes;
        Ok(match self.free.pop() {
            Some(ino) => {
                self.nodes[ino as usize] = Some(node);
                ino
            }
            None => {
                self.nodes.push(Some(node));
                (self.nodes.len() - 1) as Ino
            }
        })
    }

    fn add(&mut self, dir: Ino, name: &str, body: Body) -> Result<Ino, ErrorCode> {
        check_name(name)?;
        if self.entries(dir)?.contains_key(name) {
            return Err(ErrorCode::Exist);
        }
        let bytes = match &body {
            Body::File(data) => data.len() as u64,
            Body::Dir(_) => 0,
        };
        let mtime = self.tick();
        let ino = self.allocate(
            Node {
                body,
                parent: dir,
                mtime,
                linked: true,
                handles: 0,
            },
            bytes,
        )?;
        self.entries_mut(dir)?.insert(name.into(), ino);
        self.node_mut(dir)?.mtime = mtime;
        Ok(ino)
    }

    /// Creates an empty file `path` (from `start`); `Exist` if something is there.
    pub fn create_file(&mut self, start: Ino, path: &str) -> Result<Ino, ErrorCode> {
        let (dir, name) = self.parent_of(start, path)?;
        let name = name.ok_or(ErrorCode::IsDirectory)?;
        self.add(dir, name, Body::File(Arc::default()))
    }

    /// Creates directory `path` (from `start`); `Exist` if something is there.
    pub fn create_dir(&mut self, start: Ino, path: &str) -> Result<Ino, ErrorCode> {
        let (dir, name) = self.parent_of(start, path)?;
        let name = name.ok_or(ErrorCode::Exist)?;
        self.add(dir, name, Body::Dir(BTreeMap::new()))
    }

    /// Writes file `path` (relative to the root), making its directories: how a task's files
    /// are laid down. `data` is shared, not copied.
    pub fn put(&mut self, path: &str, data: Arc<Vec<u8>>) -> Result<Ino, ErrorCode> {
        let mut dir = ROOT;
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        let Some((name, dirs)) = parts.split_last() else {
            return Err(ErrorCode::Invalid);
        };
        for part in dirs {
            dir = match self.entries(dir)?.get(*part) {
                Some(&ino) => ino,
                None => self.add(dir, part, Body::Dir(BTreeMap::new()))?,
            };
        }
        match self.entries(dir)?.get(*name).copied() {
            Some(ino) => {
                self.replace(ino, data)?;
                Ok(ino)
            }
            None => self.add(dir, name, Body::File(data)),
        }
    }

    /// Replaces file `ino`'s contents with `data` (shared).
    pub fn replace(&mut self, ino: Ino, data: Arc<Vec<u8>>) -> Result<(), ErrorCode> {
        let old = self.file(ino)?.len() as u64;
        let new = data.len() as u64;
        if new > old && self.bytes + (new - old) > self.quota.bytes {
            return Err(self.over_quota());
        }
        self.bytes = self.bytes - old + new;
        let mtime = self.tick();
        let node = self.node_mut(ino)?;
        node.body = Body::File(data);
        node.mtime = mtime;
        Ok(())
    }

    /// File `ino`'s contents.
    pub fn file(&self, ino: Ino) -> Result<&Arc<Vec<u8>>, ErrorCode> {
        match &self.node(ino)?.body {
            Body::File(data) => Ok(data),
            Body::Dir(_) => Err(ErrorCode::IsDirectory),
        }
    }

    /// Reads up to `len` bytes of file `ino` from `offset`.
    pub fn read(&self, ino: Ino, offset: u64, len: usize) -> Result<&[u8], ErrorCode> {
        let data = self.file(ino)?;
        let start = (offset as usize).min(data.len());
        let end = start.saturating_add(len).min(data.len());
        Ok(&data[start..end])
    }

    /// Writes `bytes` into file `ino` at `offset` (the end when `None`), growing it (with
    /// zeros past its end) within the quota; returns where the write ended.
    pub fn write(&mut self, ino: Ino, offset: Option<u64>, bytes: &[u8]) -> Result<u64, ErrorCode> {
        let len = self.file(ino)?.len() as u64;
        let at = offset.unwrap_or(len);
        let end = at
            .checked_add(bytes.len() as u64)
            .ok_or(ErrorCode::Overflow)?;
        if end > len && self.bytes + (end - len) > self.quota.bytes {
            return Err(self.over_quota());
        }
        self.bytes += end.saturating_sub(len);
        let mtime = self.tick();
        let node = self.node_mut(ino)?;
        node.mtime = mtime;
        let Body::File(data) = &mut node.body else {
            return Err(ErrorCode::IsDirectory);
        };
        let data = Arc::make_mut(data);
        if end as usize > data.len() {
            data.resize(end as usize, 0);
        }
        data[at as usize..end as usize].copy_from_slice(bytes);
        Ok(end)
    }

    /// Truncates or extends (with zeros) file `ino` to `size`, within the quota.
    pub fn set_size(&mut self, ino: Ino, size: u64) -> Result<(), ErrorCode> {
        let len = self.file(ino)?.len() as u64;
        if size > len && self.bytes + (size - len) > self.quota.bytes {
            return Err(self.over_quota());
        }
        self.bytes = self.bytes - len + size;
        let mtime = self.tick();
        let node = self.node_mut(ino)?;
        node.mtime = mtime;
        if let Body::File(data) = &mut node.body {
            Arc::make_mut(data).resize(size as usize, 0);
        }
        Ok(())
    }

    /// Sets the modification time of `ino` (`None`: now on the tree's clock).
    pub fn touch(&mut self, ino: Ino, mtime: Option<u64>) -> Result<(), ErrorCode> {
        let now = self.tick();
        self.node_mut(ino)?.mtime = mtime.unwrap_or(now);
        Ok(())
    }

    /// The names and kinds in directory `ino`, in name order.
    pub fn list(&self, ino: Ino) -> Result<Vec<(Arc<str>, NodeKind)>, ErrorCode> {
        self.entries(ino)?
            .iter()
            .map(|(name, &child)| Ok((name.clone(), self.meta(child)?.kind)))
            .collect()
    }

    /// Removes file `path` (from `start`).
    pub fn unlink(&mut self, start: Ino, path: &str) -> Result<(), ErrorCode> {
        let (dir, name) = self.parent_of(start, path)?;
        let name = name.ok_or(ErrorCode::IsDirectory)?;
        let ino = *self.entries(dir)?.get(name).ok_or(ErrorCode::NoEntry)?;
        if self.meta(ino)?.kind == NodeKind::Dir {
            return Err(ErrorCode::IsDirectory);
        }
        self.detach(dir, name, ino)
    }

    /// Removes empty directory `path` (from `start`).
    pub fn remove_dir(&mut self, start: Ino, path: &str) -> Result<(), ErrorCode> {
        let (dir, name) = self.parent_of(start, path)?;
        let name = name.ok_or(ErrorCode::Busy)?;
        let ino = *self.entries(dir)?.get(name).ok_or(ErrorCode::NoEntry)?;
        if !self.entries(ino)?.is_empty() {
            return Err(ErrorCode::NotEmpty);
        }
        self.detach(dir, name, ino)
    }

    fn detach(&mut self, dir: Ino, name: &str, ino: Ino) -> Result<(), ErrorCode> {
        self.entries_mut(dir)?.remove(name);
        let mtime = self.tick();
        self.node_mut(dir)?.mtime = mtime;
        let node = self.node_mut(ino)?;
        node.linked = false;
        if node.handles == 0 {
            self.free_node(ino);
        }
        Ok(())
    }

    fn free_node(&mut self, ino: Ino) {
        if let Some(node) = self.nodes[ino as usize].take() {
            if let Body::File(data) = &node.body {
                self.bytes -= data.len() as u64;
            }
            self.count -= 1;
            self.free.push(ino);
        }
    }

    /// Moves `from` (from `from_start`) to `to` (from `to_start`), replacing a file there or
    /// an empty directory, as POSIX `rename` does.
    pub fn rename(
        &mut self,
        from_start: Ino,
        from: &str,
        to_start: Ino,
        to: &str,
    ) -> Result<(), ErrorCode> {
        let (from_dir, from_name) = self.parent_of(from_start, from)?;
        let from_name = from_name.ok_or(ErrorCode::Busy)?;
        let ino = *self
            .entries(from_dir)?
            .get(from_name)
            .ok_or(ErrorCode::NoEntry)?;
        let (to_dir, to_name) = self.parent_of(to_start, to)?;
        let to_name = to_name.ok_or(ErrorCode::Busy)?;
        check_name(to_name)?;
        let moving_dir = self.meta(ino)?.kind == NodeKind::Dir;
        if moving_dir {
            // A directory cannot move into itself.
            let mut at = to_dir;
            loop {
                if at == ino {
                    return Err(ErrorCode::Invalid);
                }
                if at == ROOT {
                    break;
                }
                at = self.node(at)?.parent;
            }
        }
        if let Some(&there) = self.entries(to_dir)?.get(to_name) {
            if there == ino {
                return Ok(());
            }
            match (moving_dir, self.meta(there)?.kind) {
                (true, NodeKind::File) => return Err(ErrorCode::NotDirectory),
                (false, NodeKind::Dir) => return Err(ErrorCode::IsDirectory),
                (true, NodeKind::Dir) if !self.entries(there)?.is_empty() => {
                    return Err(ErrorCode::NotEmpty);
                }
                _ => {}
            }
            let to_name = to_name.to_owned();
            self.detach(to_dir, &to_name, there)?;
        }
        self.entries_mut(from_dir)?.remove(from_name);
        self.entries_mut(to_dir)?.insert(to_name.into(), ino);
        let mtime = self.tick();
        self.node_mut(ino)?.parent = to_dir;
        self.node_mut(from_dir)?.mtime = mtime;
        self.node_mut(to_dir)?.mtime = mtime;
        Ok(())
    }

    /// Counts a handle (descriptor or stream) on `ino`: an unlinked node lives while one does.
    pub fn hold(&mut self, ino: Ino) -> Result<(), ErrorCode> {
        self.node_mut(ino)?.handles += 1;
        Ok(())
    }

    /// Lets go of a handle on `ino`, freeing it if it was unlinked and this was the last one.
    pub fn release(&mut self, ino: Ino) {
        if let Ok(node) = self.node_mut(ino) {
            node.handles = node.handles.saturating_sub(1);
            if node.handles == 0 && !node.linked {
                self.free_node(ino);
            }
        }
    }

    /// Every file under the root, as (path, contents), in path order.
    pub fn files(&self) -> Vec<(String, Arc<Vec<u8>>)> {
        let mut out = Vec::new();
        self.walk(ROOT, String::new(), &mut |path, data| {
            out.push((path, data.clone()))
        });
        out
    }

    /// Every path under the root, directories with a trailing `/`, in path order.
    pub fn paths(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.walk_all(ROOT, String::new(), &mut out);
        out
    }

    fn walk(&self, dir: Ino, prefix: String, visit: &mut dyn FnMut(String, &Arc<Vec<u8>>)) {
        let Ok(entries) = self.entries(dir) else {
            return;
        };
        for (name, &ino) in entries {
            let path = format!("{prefix}{name}");
            match self.node(ino).map(|n| &n.body) {
                Ok(Body::File(data)) => visit(path, data),
                Ok(Body::Dir(_)) => self.walk(ino, format!("{path}/"), visit),
                Err(_) => {}
            }
        }
    }

    fn walk_all(&self, dir: Ino, prefix: String, out: &mut Vec<String>) {
        let Ok(entries) = self.entries(dir) else {
            return;
        };
        for (name, &ino) in entries {
            let path = format!("{prefix}{name}");
            if self.meta(ino).is_ok_and(|m| m.kind == NodeKind::Dir) {
                out.push(format!("{path}/"));
                self.walk_all(ino, format!("{path}/"), out);
            } else {
                out.push(path);
            }
        }
    }
}

/// Refuses names no file system allows.
fn check_name(name: &str) -> Result<(), ErrorCode> {
    match name {
        "" | "." | ".." => Err(ErrorCode::Invalid),
        _ if name.len() > 255 => Err(ErrorCode::NameTooLong),
        _ if name.contains(['/', '\0']) => Err(ErrorCode::Invalid),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> Tree {
        let mut tree = Tree::new(Quota::WORKSPACE);
        tree.put("pkg/__init__.py", Arc::new(b"x = 1\n".to_vec()))
            .unwrap();
        tree.put("tests/test_a.py", Arc::new(b"def test(): pass\n".to_vec()))
            .unwrap();
        tree
    }

    #[test]
    fn paths_never_climb_above_their_start() {
        let tree = tree();
        let pkg = tree.lookup(ROOT, "pkg").unwrap();
        assert_eq!(
            tree.lookup(ROOT, "..").unwrap_err(),
            ErrorCode::NotPermitted
        );
        assert_eq!(
            tree.lookup(ROOT, "pkg/../../etc").unwrap_err(),
            ErrorCode::NotPermitted
        );
        assert_eq!(tree.lookup(pkg, "..").unwrap_err(), ErrorCode::NotPermitted);
        assert_eq!(
            tree.lookup(ROOT, "/etc").unwrap_err(),
            ErrorCode::NotPermitted
        );
        assert_eq!(
            tree.lookup(ROOT, "pkg/../tests/test_a.py").unwrap(),
            tree.lookup(ROOT, "tests/test_a.py").unwrap()
        );
    }

    #[test]
    fn a_clone_shares_contents_until_it_writes() {
        let base = tree();
        let mut episode = base.clone();
        let ino = episode.lookup(ROOT, "pkg/__init__.py").unwrap();
        assert!(Arc::ptr_eq(
            base.file(ino).unwrap(),
            episode.file(ino).unwrap()
        ));
        episode.write(ino, Some(0), b"y").unwrap();
        assert_eq!(base.file(ino).unwrap().as_slice(), b"x = 1\n");
        assert_eq!(episode.file(ino).unwrap().as_slice(), b"y = 1\n");
    }

    #[test]
    fn the_quota_refuses_bytes_and_nodes_past_it() {
        let mut tree = Tree::new(Quota {
            bytes: 10,
            nodes: 3,
        });
        let a = tree.create_file(ROOT, "a").unwrap();
        assert_eq!(tree.write(a, None, &[0; 11]).unwrap_err(), ErrorCode::Quota);
        tree.write(a, None, &[0; 10]).unwrap();
        assert_eq!(tree.set_size(a, 11).unwrap_err(), ErrorCode::Quota);
        tree.create_dir(ROOT, "d").unwrap();
        assert_eq!(tree.create_file(ROOT, "b").unwrap_err(), ErrorCode::Quota);
        tree.unlink(ROOT, "a").unwrap();
        assert_eq!(tree.usage(), (0, 2));
        tree.create_file(ROOT, "b").unwrap();
    }

    #[test]
    fn an_unlinked_file_lives_while_held() {
        let mut tree = tree();
        let ino = tree.lookup(ROOT, "pkg/__init__.py").unwrap();
        tree.hold(ino).unwrap();
        tree.unlink(ROOT, "pkg/__init__.py").unwrap();
        assert_eq!(tree.read(ino, 0, 100).unwrap(), b"x = 1\n");
        tree.release(ino);
        assert!(tree.read(ino, 0, 100).is_err());
    }

    #[test]
    fn rename_follows_posix() {
        let mut tree = tree();
        tree.rename(ROOT, "pkg", ROOT, "lib").unwrap();
        assert!(tree.lookup(ROOT, "lib/__init__.py").is_ok());
        assert_eq!(
            tree.rename(ROOT, "lib", ROOT, "lib/inner").unwrap_err(),
            ErrorCode::Invalid
        );
        assert_eq!(
            tree.rename(ROOT, "lib", ROOT, "tests").unwrap_err(),
            ErrorCode::NotEmpty
        );
        tree.rename(ROOT, "lib/__init__.py", ROOT, "tests/test_a.py")
            .unwrap();
        assert_eq!(tree.paths(), vec!["lib/", "tests/", "tests/test_a.py"]);
        assert_eq!(tree.usage().1, 4);
    }
}
