//! Where local indexes live, and the one copy each process shares. An index is built once per
//! corpus content: on disk next to the corpus (`<corpus file>.geode-index/<hash>/`), or under the
//! geode cache directory (`<cache>/search/<hash>/`) when the corpus's directory is read-only (and
//! for the shipped corpus), or in memory when neither can be written. A build goes to a fresh
//! directory that is renamed into place when complete, so a crash leaves no half-built index and
//! two processes building at once both end up with a complete one. Every tool instance of the
//! process gets the same `Arc` per corpus.

use crate::corpus::{Passage, content_hash, read_passages};
use crate::index::LocalIndex;
use geode_runtime::{Error, Result};
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

/// The corpus written for geode: short passages that answer the shipped QA samples.
pub const SHIPPED_CORPUS: &str = include_str!("../data/corpus.jsonl");
/// How messages name the shipped corpus.
pub const SHIPPED_SOURCE: &str = "the shipped corpus (geode-search/data/corpus.jsonl)";

/// Which corpus an index is of.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Corpus {
    /// The corpus compiled into geode.
    Shipped,
    /// A JSONL file.
    File(PathBuf),
}

/// What identifies a file's content without reading it again: path, size, modification time.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Shipped,
    File(PathBuf, u64, Option<SystemTime>),
}

static OPEN: Mutex<Option<HashMap<Key, Arc<LocalIndex>>>> = Mutex::new(None);

/// The index of `corpus`, shared by the whole process: opened from the disk cache, or built
/// (and cached) on first use.
pub fn shared_index(corpus: &Corpus) -> Result<Arc<LocalIndex>> {
    let key = key(corpus)?;
    // Held across a build: a second tool over the same corpus waits for the first build rather
    // than repeating it.
    let mut open = OPEN.lock().unwrap_or_else(PoisonError::into_inner);
    let open = open.get_or_insert_with(HashMap::new);
    if let Some(index) = open.get(&key) {
        return Ok(index.clone());
    }
    let index = Arc::new(load(corpus)?);
    open.insert(key, index.clone());
    Ok(index)
}

fn key(corpus: &Corpus) -> Result<Key> {
    match corpus {
        Corpus::Shipped => Ok(Key::Shipped),
        Corpus::File(path) => {
            let full = std::fs::canonicalize(path).map_err(|e| Error::Io {
                context: format!("search corpus {}", path.display()),
                source: e,
            })?;
            let meta = std::fs::metadata(&full).map_err(|e| Error::Io {
                context: format!("search corpus {}", full.display()),
                source: e,
            })?;
            if !meta.is_file() {
                return Err(Error::InvalidArgument(format!(
                    "search corpus {} is not a file",
                    full.display()
                )));
            }
            Ok(Key::File(full, meta.len(), meta.modified().ok()))
        }
    }
}

/// Opens or builds the index of `corpus`, without the process-wide sharing.
pub fn load(corpus: &Corpus) -> Result<LocalIndex> {
    match corpus {
        Corpus::Shipped => {
            let hash = content_hash(SHIPPED_CORPUS.as_bytes(), SHIPPED_SOURCE)?;
            let passages = || shipped_passages().into_iter().map(Ok);
            let homes = cache_home().into_iter().collect::<Vec<_>>();
            open_or_build(&homes, &hash, SHIPPED_SOURCE, passages)
        }
        Corpus::File(path) => {
            let source = path.display().to_string();
            let hash = content_hash(open(path)?, &source)?;
            let mut homes = vec![beside(path)];
            homes.extend(cache_home());
            open_or_build(&homes, &hash, &source, || stream_passages(path, &source))
        }
    }
}

/// The shipped corpus's passages.
pub fn shipped_passages() -> Vec<Passage> {
    read_passages(SHIPPED_CORPUS.as_bytes(), SHIPPED_SOURCE).expect("the shipped corpus is valid")
}

fn open(path: &Path) -> Result<std::fs::File> {
    std::fs::File::open(path).map_err(|e| Error::Io {
        context: format!("opening search corpus {}", path.display()),
        source: e,
    })
}

/// The passages of a corpus file, read as the index is built (a corpus larger than memory
/// still indexes).
fn stream_passages(path: &Path, source: &str) -> Box<dyn Iterator<Item = Result<Passage>>> {
    let file = match open(path) {
        Ok(file) => file,
        Err(e) => return Box::new(std::iter::once(Err(e))),
    };
    let source = source.to_owned();
    let lines = BufReader::new(file).lines().enumerate();
    Box::new(lines.filter_map(move |(number, line)| {
        match line {
            Err(e) => Some(Err(Error::Io {
                context: format!("reading search corpus {source}"),
                source: e,
            })),
            Ok(line) if line.trim().is_empty() => None,
            Ok(line) => Some(
                read_passages(line.as_bytes(), &source)
                    .map(|mut one| one.remove(0))
                    .map_err(|e| renumber(e, number + 1)),
            ),
        }
    }))
}

/// A one-line parse reports line 1; the message should name the line in the file.
fn renumber(error: Error, number: usize) -> Error {
    match error {
        Error::InvalidArgument(message) => {
            Error::InvalidArgument(message.replacen("line 1:", &format!("line {number}:"), 1))
        }
        other => other,
    }
}

/// The cache directory beside a corpus file.
fn beside(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".geode-index");
    path.with_file_name(name)
}

/// `$GEODE_CACHE_DIR/search`, else `$XDG_CACHE_HOME/geode/search`, else `~/.cache/geode/search`
/// (the directories geode's compile cache uses).
fn cache_home() -> Option<PathBuf> {
    let base = if let Some(dir) = std::env::var_os("GEODE_CACHE_DIR") {
        PathBuf::from(dir)
    } else if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
        PathBuf::from(dir).join("geode")
    } else {
        PathBuf::from(std::env::var_os("HOME")?).join(".cache/geode")
    };
    Some(base.join("search"))
}

/// The first home that has (or can take) the index of content `hash`; in memory if none can.
fn open_or_build<I>(
    homes: &[PathBuf],
    hash: &str,
    source: &str,
    passages: impl Fn() -> I,
) -> Result<LocalIndex>
where
    I: Iterator<Item = Result<Passage>>,
{
    let name = &hash[..32];
    for home in homes {
        let dir = home.join(name);
        if dir.is_dir() {
            match LocalIndex::open(&dir, source) {
                Ok(index) => return Ok(index),
                // Damaged (say, by hand): built again below.
                Err(_) => {
                    let _ = std::fs::remove_dir_all(&dir);
                }
            }
        }
        let Some(fresh) = fresh_dir(home) else {
            continue;
        };
        let built = LocalIndex::build_in(&fresh, passages(), source);
        if let Err(e) = built {
            let _ = std::fs::remove_dir_all(&fresh);
            return Err(e);
        }
        if std::fs::rename(&fresh, &dir).is_err() {
            // Another process finished first: use its index.
            let _ = std::fs::remove_dir_all(&fresh);
        }
        return LocalIndex::open(&dir, source);
    }
    LocalIndex::build_in_memory(passages(), source)
}

/// A new empty directory inside `home` to build in, or `None` when `home` cannot be written.
fn fresh_dir(home: &Path) -> Option<PathBuf> {
    std::fs::create_dir_all(home).ok()?;
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let dir = home.join(format!(".building-{}-{nanos}", std::process::id()));
    std::fs::create_dir(&dir).ok()?;
    Some(dir)
}
