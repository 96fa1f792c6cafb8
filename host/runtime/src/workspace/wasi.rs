//! `wasi:filesystem` over [`Tree`]s: a guest's preopens are its [`Mount`]s, and every
//! descriptor, stream and directory listing it opens reaches only the trees mounted. The host's
//! own files are never reachable: this replaces wasmtime-wasi's filesystem, which serves host
//! directories.

use super::streams::{TreeReader, TreeWriter};
use super::tree::{Ino, Meta, NodeKind, Tree};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use wasmtime::component::{HasData, Linker, Resource, ResourceTable};
use wasmtime_wasi::p2::bindings::filesystem::types::ErrorCode;
use wasmtime_wasi::p2::bindings::sync::filesystem::{preopens, types};
use wasmtime_wasi::p2::{DynInputStream, DynOutputStream, FsError, FsResult};

/// A tree shared by a run's descriptors and streams (and, between runs, by its owner).
pub type SharedTree = Arc<Mutex<Tree>>;

/// Locks `tree`. A poisoned lock is taken over: the tree's state is valid after every call.
pub fn lock(tree: &SharedTree) -> MutexGuard<'_, Tree> {
    tree.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A tree a run sees at `guest_path` (a preopened directory).
#[derive(Clone)]
pub struct Mount {
    /// Where the guest sees it (`/workspace`).
    pub guest_path: String,
    /// The tree.
    pub tree: SharedTree,
    /// Whether the guest may change it.
    pub writable: bool,
}

impl Mount {
    /// `tree` at `guest_path`, writable.
    pub fn new(guest_path: impl Into<String>, tree: SharedTree) -> Self {
        Mount {
            guest_path: guest_path.into(),
            tree,
            writable: true,
        }
    }

    /// The same mount, read-only.
    pub fn read_only(mut self) -> Self {
        self.writable = false;
        self
    }
}

impl std::fmt::Debug for Mount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mount")
            .field("guest_path", &self.guest_path)
            .field("writable", &self.writable)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Mount {
    fn eq(&self, other: &Self) -> bool {
        self.guest_path == other.guest_path
            && Arc::ptr_eq(&self.tree, &other.tree)
            && self.writable == other.writable
    }
}

/// An open file or directory of a mounted tree.
struct Descriptor {
    tree: SharedTree,
    ino: Ino,
    writable: bool,
    flags: types::DescriptorFlags,
}

impl Drop for Descriptor {
    fn drop(&mut self) {
        lock(&self.tree).release(self.ino);
    }
}

/// What is left of a directory listing.
struct Listing(VecDeque<types::DirectoryEntry>);

/// A store's state that mounts trees: its mounts and its resource table.
pub trait HasMounts: Send {
    /// The trees this run sees, and the table its handles live in.
    fn mounts(&mut self) -> (&[Mount], &mut ResourceTable);
}

/// The filesystem view of one store.
pub struct MountedFs<'a> {
    mounts: &'a [Mount],
    table: &'a mut ResourceTable,
}

/// Replaces the WASI filesystem of `linker` (which must allow shadowing) with the mounted
/// trees of each store's state.
pub fn shadow_filesystem<T: HasMounts + 'static>(linker: &mut Linker<T>) -> wasmtime::Result<()> {
    struct Mounted<T>(std::marker::PhantomData<T>);
    impl<T: 'static> HasData for Mounted<T> {
        type Data<'a> = MountedFs<'a>;
    }
    fn view<T: HasMounts>(state: &mut T) -> MountedFs<'_> {
        let (mounts, table) = state.mounts();
        MountedFs { mounts, table }
    }
    types::add_to_linker::<T, Mounted<T>>(linker, view)?;
    preopens::add_to_linker::<T, Mounted<T>>(linker, view)?;
    Ok(())
}

/// Our handle behind a `descriptor` the bindings type as wasmtime-wasi's own.
fn ours(fd: &Resource<types::Descriptor>) -> Resource<Descriptor> {
    Resource::new_borrow(fd.rep())
}

impl MountedFs<'_> {
    fn get(&self, fd: &Resource<types::Descriptor>) -> FsResult<&Descriptor> {
        Ok(self.table.get(&ours(fd))?)
    }

    fn open(
        &mut self,
        tree: SharedTree,
        ino: Ino,
        writable: bool,
        flags: types::DescriptorFlags,
    ) -> FsResult<Resource<types::Descriptor>> {
        lock(&tree).hold(ino)?;
        let descriptor = Descriptor {
            tree,
            ino,
            writable,
            flags,
        };
        let handle = self.table.push(descriptor)?;
        Ok(Resource::new_own(handle.rep()))
    }

    /// Runs `f` on the tree of `fd` (a directory), with its node number.
    fn at_dir<R>(
        &self,
        fd: &Resource<types::Descriptor>,
        f: impl FnOnce(&mut Tree, Ino) -> Result<R, ErrorCode>,
    ) -> FsResult<R> {
        self.at(fd, |tree, ino| match tree.meta(ino)?.kind {
            NodeKind::Dir => f(tree, ino),
            NodeKind::File => Err(ErrorCode::NotDirectory),
        })
    }

    /// Like [`at_dir`](Self::at_dir), for a change: refused on a read-only mount.
    fn change_dir<R>(
        &self,
        fd: &Resource<types::Descriptor>,
        f: impl FnOnce(&mut Tree, Ino) -> Result<R, ErrorCode>,
    ) -> FsResult<R> {
        if !self.get(fd)?.writable {
            return Err(ErrorCode::ReadOnly.into());
        }
        self.at_dir(fd, f)
    }

    /// Runs `f` on the tree of `fd` with its node number.
    fn at<R>(
        &self,
        fd: &Resource<types::Descriptor>,
        f: impl FnOnce(&mut Tree, Ino) -> Result<R, ErrorCode>,
    ) -> FsResult<R> {
        let d = self.get(fd)?;
        let mut tree = lock(&d.tree);
        Ok(f(&mut tree, d.ino)?)
    }

    fn writable_file(&self, fd: &Resource<types::Descriptor>) -> FsResult<&Descriptor> {
        let d = self.get(fd)?;
        if !d.writable {
            return Err(ErrorCode::ReadOnly.into());
        }
        if !d.flags.contains(types::DescriptorFlags::WRITE) {
            return Err(ErrorCode::BadDescriptor.into());
        }
        if lock(&d.tree).meta(d.ino)?.kind == NodeKind::Dir {
            return Err(ErrorCode::IsDirectory.into());
        }
        Ok(d)
    }

    fn stream_for(
        &mut self,
        fd: &Resource<types::Descriptor>,
        offset: Option<u64>,
    ) -> FsResult<Resource<DynOutputStream>> {
        let d = self.writable_file(fd)?;
        let writer = TreeWriter::new(d.tree.clone(), d.ino, offset)?;
        let stream: DynOutputStream = Box::new(writer);
        Ok(self.table.push(stream)?)
    }
}

fn stat_of(meta: Meta) -> types::DescriptorStat {
    let time = Some(datetime(meta.mtime));
    types::DescriptorStat {
        type_: kind_of(meta.kind),
        link_count: 1,
        size: meta.size,
        data_access_timestamp: time,
        data_modification_timestamp: time,
        status_change_timestamp: time,
    }
}

fn kind_of(kind: NodeKind) -> types::DescriptorType {
    match kind {
        NodeKind::File => types::DescriptorType::RegularFile,
        NodeKind::Dir => types::DescriptorType::Directory,
    }
}

/// 2025-01-01T00:00:00Z, where every tree's logical clock starts (as the guests' clocks do).
const EPOCH_SECONDS: u64 = 1_735_689_600;

fn datetime(ns: u64) -> types::Datetime {
    types::Datetime {
        seconds: EPOCH_SECONDS + ns / 1_000_000_000,
        nanoseconds: (ns % 1_000_000_000) as u32,
    }
}

fn mtime_of(new: types::NewTimestamp) -> Option<Option<u64>> {
    match new {
        types::NewTimestamp::NoChange => None,
        types::NewTimestamp::Now => Some(None),
        types::NewTimestamp::Timestamp(t) => Some(Some(
            t.seconds
                .saturating_sub(EPOCH_SECONDS)
                .saturating_mul(1_000_000_000)
                .saturating_add(u64::from(t.nanoseconds)),
        )),
    }
}

fn hash_of(tree: &SharedTree, ino: Ino) -> types::MetadataHashValue {
    types::MetadataHashValue {
        lower: u64::from(ino),
        upper: Arc::as_ptr(tree) as usize as u64,
    }
}

impl preopens::Host for MountedFs<'_> {
    fn get_directories(&mut self) -> wasmtime::Result<Vec<(Resource<types::Descriptor>, String)>> {
        let mounts = self.mounts.to_vec();
        let mut out = Vec::with_capacity(mounts.len());
        for mount in mounts {
            let mut flags = types::DescriptorFlags::READ;
            if mount.writable {
                flags |= types::DescriptorFlags::WRITE | types::DescriptorFlags::MUTATE_DIRECTORY;
            }
            let fd = self
                .open(mount.tree.clone(), super::tree::ROOT, mount.writable, flags)
                .map_err(|e| wasmtime::format_err!("cannot open a preopen: {e:?}"))?;
            out.push((fd, mount.guest_path.clone()));
        }
        Ok(out)
    }
}

impl types::Host for MountedFs<'_> {
    fn convert_error_code(&mut self, err: FsError) -> wasmtime::Result<types::ErrorCode> {
        Ok(err.downcast()?.into())
    }

    fn filesystem_error_code(
        &mut self,
        err: Resource<wasmtime::Error>,
    ) -> wasmtime::Result<Option<types::ErrorCode>> {
        let err = self.table.get(&err)?;
        Ok(err.downcast_ref::<ErrorCode>().map(|&code| code.into()))
    }
}

impl types::HostDescriptor for MountedFs<'_> {
    fn read_via_stream(
        &mut self,
        fd: Resource<types::Descriptor>,
        offset: types::Filesize,
    ) -> FsResult<Resource<DynInputStream>> {
        let d = self.get(&fd)?;
        if lock(&d.tree).meta(d.ino)?.kind == NodeKind::Dir {
            return Err(ErrorCode::IsDirectory.into());
        }
        let reader: DynInputStream = Box::new(TreeReader::new(d.tree.clone(), d.ino, offset)?);
        Ok(self.table.push(reader)?)
    }

    fn write_via_stream(
        &mut self,
        fd: Resource<types::Descriptor>,
        offset: types::Filesize,
    ) -> FsResult<Resource<DynOutputStream>> {
        self.stream_for(&fd, Some(offset))
    }

    fn append_via_stream(
        &mut self,
        fd: Resource<types::Descriptor>,
    ) -> FsResult<Resource<DynOutputStream>> {
        self.stream_for(&fd, None)
    }

    fn advise(
        &mut self,
        _fd: Resource<types::Descriptor>,
        _offset: types::Filesize,
        _len: types::Filesize,
        _advice: types::Advice,
    ) -> FsResult<()> {
        Ok(())
    }

    fn sync_data(&mut self, fd: Resource<types::Descriptor>) -> FsResult<()> {
        self.get(&fd).map(|_| ())
    }

    fn get_flags(&mut self, fd: Resource<types::Descriptor>) -> FsResult<types::DescriptorFlags> {
        Ok(self.get(&fd)?.flags)
    }

    fn get_type(&mut self, fd: Resource<types::Descriptor>) -> FsResult<types::DescriptorType> {
        self.at(&fd, |tree, ino| Ok(kind_of(tree.meta(ino)?.kind)))
    }

    fn set_size(&mut self, fd: Resource<types::Descriptor>, size: types::Filesize) -> FsResult<()> {
        let d = self.writable_file(&fd)?;
        Ok(lock(&d.tree).set_size(d.ino, size)?)
    }

    fn set_times(
        &mut self,
        fd: Resource<types::Descriptor>,
        _atim: types::NewTimestamp,
        mtim: types::NewTimestamp,
    ) -> FsResult<()> {
        match mtime_of(mtim) {
            None => Ok(()),
            Some(mtime) => self.at(&fd, |tree, ino| tree.touch(ino, mtime)),
        }
    }

    fn read(
        &mut self,
        fd: Resource<types::Descriptor>,
        len: types::Filesize,
        offset: types::Filesize,
    ) -> FsResult<(Vec<u8>, bool)> {
        self.at(&fd, |tree, ino| {
            let len = usize::try_from(len).unwrap_or(usize::MAX).min(1 << 24);
            let bytes = tree.read(ino, offset, len)?.to_vec();
            let size = tree.meta(ino)?.size;
            let end = offset.saturating_add(bytes.len() as u64) >= size;
            Ok((bytes, end))
        })
    }

    fn write(
        &mut self,
        fd: Resource<types::Descriptor>,
        buffer: Vec<u8>,
        offset: types::Filesize,
    ) -> FsResult<types::Filesize> {
        let d = self.writable_file(&fd)?;
        lock(&d.tree).write(d.ino, Some(offset), &buffer)?;
        Ok(buffer.len() as u64)
    }

    fn read_directory(
        &mut self,
        fd: Resource<types::Descriptor>,
    ) -> FsResult<Resource<types::DirectoryEntryStream>> {
        let entries = self.at_dir(&fd, |tree, ino| tree.list(ino))?;
        let listing = Listing(
            entries
                .into_iter()
                .map(|(name, kind)| types::DirectoryEntry {
                    type_: kind_of(kind),
                    name: name.to_string(),
                })
                .collect(),
        );
        let handle = self.table.push(listing)?;
        Ok(Resource::new_own(handle.rep()))
    }

    fn sync(&mut self, fd: Resource<types::Descriptor>) -> FsResult<()> {
        self.get(&fd).map(|_| ())
    }

    fn create_directory_at(
        &mut self,
        fd: Resource<types::Descriptor>,
        path: String,
    ) -> FsResult<()> {
        self.change_dir(&fd, |tree, dir| tree.create_dir(dir, &path).map(|_| ()))
    }

    fn stat(&mut self, fd: Resource<types::Descriptor>) -> FsResult<types::DescriptorStat> {
        self.at(&fd, |tree, ino| Ok(stat_of(tree.meta(ino)?)))
    }

    fn stat_at(
        &mut self,
        fd: Resource<types::Descriptor>,
        _path_flags: types::PathFlags,
        path: String,
    ) -> FsResult<types::DescriptorStat> {
        self.at_dir(&fd, |tree, dir| {
            Ok(stat_of(tree.meta(tree.lookup(dir, &path)?)?))
        })
    }

    fn set_times_at(
        &mut self,
        fd: Resource<types::Descriptor>,
        _path_flags: types::PathFlags,
        path: String,
        _atim: types::NewTimestamp,
        mtim: types::NewTimestamp,
    ) -> FsResult<()> {
        let Some(mtime) = mtime_of(mtim) else {
            return Ok(());
        };
        self.change_dir(&fd, |tree, dir| {
            let ino = tree.lookup(dir, &path)?;
            tree.touch(ino, mtime)
        })
    }

    fn link_at(
        &mut self,
        _fd: Resource<types::Descriptor>,
        _old_path_flags: types::PathFlags,
        _old_path: String,
        _new_descriptor: Resource<types::Descriptor>,
        _new_path: String,
    ) -> FsResult<()> {
        // No hard links: every name is its own file, so a workspace cannot alias the task's.
        Err(ErrorCode::NotPermitted.into())
    }

    fn open_at(
        &mut self,
        fd: Resource<types::Descriptor>,
        _path_flags: types::PathFlags,
        path: String,
        oflags: types::OpenFlags,
        flags: types::DescriptorFlags,
    ) -> FsResult<Resource<types::Descriptor>> {
        use types::{DescriptorFlags as F, OpenFlags as O};
        let d = self.get(&fd)?;
        let (tree, writable) = (d.tree.clone(), d.writable);
        let wants_change = flags.contains(F::WRITE)
            || oflags.contains(O::TRUNCATE)
            || flags.contains(F::MUTATE_DIRECTORY);
        let ino = {
            let mut t = lock(&tree);
            if t.meta(d.ino)?.kind != NodeKind::Dir {
                return Err(ErrorCode::NotDirectory.into());
            }
            let ino = match t.lookup(d.ino, &path) {
                Ok(_) if oflags.contains(O::CREATE | O::EXCLUSIVE) => {
                    return Err(ErrorCode::Exist.into());
                }
                Ok(ino) => ino,
                Err(ErrorCode::NoEntry) if oflags.contains(O::CREATE) => {
                    if !writable {
                        return Err(ErrorCode::ReadOnly.into());
                    }
                    if oflags.contains(O::DIRECTORY) {
                        return Err(ErrorCode::Invalid.into());
                    }
                    t.create_file(d.ino, &path)?
                }
                Err(e) => return Err(e.into()),
            };
            let kind = t.meta(ino)?.kind;
            if oflags.contains(O::DIRECTORY) && kind != NodeKind::Dir {
                return Err(ErrorCode::NotDirectory.into());
            }
            if kind == NodeKind::Dir && flags.contains(F::WRITE) {
                return Err(ErrorCode::IsDirectory.into());
            }
            if wants_change && !writable && kind == NodeKind::File {
                return Err(ErrorCode::ReadOnly.into());
            }
            if oflags.contains(O::TRUNCATE) && kind == NodeKind::File {
                t.set_size(ino, 0)?;
            }
            ino
        };
        self.open(tree, ino, writable, flags)
    }

    fn drop(&mut self, fd: Resource<types::Descriptor>) -> wasmtime::Result<()> {
        self.table
            .delete(Resource::<Descriptor>::new_own(fd.rep()))?;
        Ok(())
    }

    fn readlink_at(&mut self, fd: Resource<types::Descriptor>, path: String) -> FsResult<String> {
        // Nothing in a tree is a symlink.
        self.at_dir(&fd, |tree, dir| {
            tree.lookup(dir, &path)?;
            Err(ErrorCode::Invalid)
        })
    }

    fn remove_directory_at(
        &mut self,
        fd: Resource<types::Descriptor>,
        path: String,
    ) -> FsResult<()> {
        self.change_dir(&fd, |tree, dir| tree.remove_dir(dir, &path))
    }

    fn rename_at(
        &mut self,
        fd: Resource<types::Descriptor>,
        old_path: String,
        new_descriptor: Resource<types::Descriptor>,
        new_path: String,
    ) -> FsResult<()> {
        let to = self.get(&new_descriptor)?;
        let (to_tree, to_ino) = (to.tree.clone(), to.ino);
        let from = self.get(&fd)?;
        if !Arc::ptr_eq(&from.tree, &to_tree) {
            return Err(ErrorCode::CrossDevice.into());
        }
        self.change_dir(&fd, |tree, dir| {
            tree.rename(dir, &old_path, to_ino, &new_path)
        })
    }

    fn symlink_at(
        &mut self,
        _fd: Resource<types::Descriptor>,
        _old_path: String,
        _new_path: String,
    ) -> FsResult<()> {
        // No symlinks: none can lead out of the tree.
        Err(ErrorCode::NotPermitted.into())
    }

    fn unlink_file_at(&mut self, fd: Resource<types::Descriptor>, path: String) -> FsResult<()> {
        self.change_dir(&fd, |tree, dir| tree.unlink(dir, &path))
    }

    fn is_same_object(
        &mut self,
        a: Resource<types::Descriptor>,
        b: Resource<types::Descriptor>,
    ) -> wasmtime::Result<bool> {
        let a = self.table.get(&ours(&a))?;
        let b = self.table.get(&ours(&b))?;
        Ok(Arc::ptr_eq(&a.tree, &b.tree) && a.ino == b.ino)
    }

    fn metadata_hash(
        &mut self,
        fd: Resource<types::Descriptor>,
    ) -> FsResult<types::MetadataHashValue> {
        let d = self.get(&fd)?;
        Ok(hash_of(&d.tree, d.ino))
    }

    fn metadata_hash_at(
        &mut self,
        fd: Resource<types::Descriptor>,
        _path_flags: types::PathFlags,
        path: String,
    ) -> FsResult<types::MetadataHashValue> {
        let tree = self.get(&fd)?.tree.clone();
        let ino = self.at_dir(&fd, |t, dir| t.lookup(dir, &path))?;
        Ok(hash_of(&tree, ino))
    }
}

impl types::HostDirectoryEntryStream for MountedFs<'_> {
    fn read_directory_entry(
        &mut self,
        stream: Resource<types::DirectoryEntryStream>,
    ) -> FsResult<Option<types::DirectoryEntry>> {
        let listing: Resource<Listing> = Resource::new_borrow(stream.rep());
        Ok(self.table.get_mut(&listing)?.0.pop_front())
    }

    fn drop(&mut self, stream: Resource<types::DirectoryEntryStream>) -> wasmtime::Result<()> {
        self.table
            .delete(Resource::<Listing>::new_own(stream.rep()))?;
        Ok(())
    }
}
