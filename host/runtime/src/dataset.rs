//! Datasets the host loads once and shares with every instance through the `dataset` import.
//!
//! A dataset is a JSONL file (one JSON object per line) or a Parquet file (the layout of
//! Hugging Face dataset exports), read into memory once as one JSON object text per row. 1,024
//! env instances over the same dataset share that single copy; a guest copies in only the row it
//! asks for. Files are opened through `cap-std` directory capabilities rooted at the configured
//! data directories, so a configured path cannot escape them (`..`, absolute paths and symlinks
//! pointing outside are refused). The one exception is a path the user writes in their own
//! configuration ([`Datasets::load_user_path`]): an absolute or `~` path there is read as is,
//! since the user is trusted; plugins only ever see datasets by name.

use crate::{Error, Result};
use cap_std::ambient_authority;
use cap_std::fs::Dir;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, RwLock};

/// The rows of one dataset, each a JSON object as text.
#[derive(Debug)]
pub struct Dataset {
    /// Where it was read from (for messages).
    pub source: String,
    rows: Vec<Box<str>>,
}

impl Dataset {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Row `index` as JSON object text.
    pub fn row(&self, index: usize) -> Option<&str> {
        self.rows.get(index).map(|r| &**r)
    }

    /// Bytes held by the rows (the one shared copy).
    pub fn bytes(&self) -> usize {
        self.rows.iter().map(|r| r.len()).sum()
    }
}

/// Named datasets plus the directories they may be read from. Shared by all instances of a
/// runtime (cheap to clone).
#[derive(Clone, Default)]
pub struct Datasets {
    inner: Arc<RwLock<Inner>>,
}

#[derive(Default)]
struct Inner {
    roots: Vec<(PathBuf, Arc<Dir>)>,
    loaded: HashMap<String, Arc<Dataset>>,
}

impl std::fmt::Debug for Datasets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let inner = self.inner.read().expect("datasets lock");
        f.debug_struct("Datasets")
            .field(
                "roots",
                &inner.roots.iter().map(|(p, _)| p).collect::<Vec<_>>(),
            )
            .field("loaded", &inner.loaded.keys().collect::<Vec<_>>())
            .finish()
    }
}

fn io_error(context: String) -> impl FnOnce(std::io::Error) -> Error {
    move |source| Error::Io { context, source }
}

/// Checks `path` is a plain relative path inside a data directory.
fn check_relative(path: &Path) -> Result<()> {
    for part in path.components() {
        match part {
            Component::Normal(_) | Component::CurDir => {}
            Component::ParentDir => {
                return Err(Error::InvalidArgument(format!(
                    "dataset path `{}` may not contain `..`",
                    path.display()
                )));
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(Error::InvalidArgument(format!(
                    "dataset path `{}` must be relative to a data directory",
                    path.display()
                )));
            }
        }
    }
    Ok(())
}

/// `path` as a file of the user's own (absolute, or under `~/` expanded from `HOME`); `None`
/// for a path relative to the data directories.
fn user_path(path: &str) -> Result<Option<PathBuf>> {
    if path == "~" || path.starts_with("~/") {
        let home = std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "dataset path `{path}` starts with `~` but HOME is not set"
                ))
            })?;
        return Ok(Some(
            PathBuf::from(home).join(path[1..].trim_start_matches('/')),
        ));
    }
    if path.starts_with('~') {
        return Err(Error::InvalidArgument(format!(
            "dataset path `{path}`: only `~/` (the current user's home) is expanded"
        )));
    }
    let path = Path::new(path);
    Ok(path.is_absolute().then(|| path.to_path_buf()))
}

impl Datasets {
    /// Allows datasets to be read from `dir` (and below).
    pub fn add_root(&self, dir: &Path) -> Result<()> {
        let opened = Dir::open_ambient_dir(dir, ambient_authority()).map_err(io_error(format!(
            "opening data directory {}",
            dir.display()
        )))?;
        self.inner
            .write()
            .expect("datasets lock")
            .roots
            .push((dir.to_path_buf(), Arc::new(opened)));
        Ok(())
    }

    /// Loads `path` (relative to a data directory; `.jsonl` or `.parquet`) as dataset `name`.
    /// Loading the same name again keeps the first copy.
    pub fn load(&self, name: &str, path: &Path) -> Result<Arc<Dataset>> {
        if let Some(existing) = self.get(name) {
            return Ok(existing);
        }
        check_relative(path)?;
        let roots: Vec<(PathBuf, Arc<Dir>)> =
            self.inner.read().expect("datasets lock").roots.clone();
        if roots.is_empty() {
            return Err(Error::InvalidArgument(format!(
                "no data directory is configured (set GEODE_DATA_PATH, or add one with \
                 `geode --data-dir`, `geode.add_data_dir` or `Datasets::add_root`); cannot load \
                 dataset `{name}` from {}",
                path.display()
            )));
        }
        let mut last_error = None;
        for (root, dir) in &roots {
            match dir.open(path) {
                Ok(file) => {
                    let source = root.join(path).display().to_string();
                    let rows = read_rows(file.into_std(), path, &source)?;
                    let dataset = Arc::new(Dataset { source, rows });
                    let mut inner = self.inner.write().expect("datasets lock");
                    let kept = inner.loaded.entry(name.to_owned()).or_insert(dataset);
                    return Ok(kept.clone());
                }
                Err(e) => last_error = Some((root.clone(), e)),
            }
        }
        let (root, error) = last_error.expect("at least one root");
        Err(Error::Io {
            context: format!(
                "dataset `{name}`: cannot open {} inside data directory {}",
                path.display(),
                root.display()
            ),
            source: error,
        })
    }

    /// Loads a dataset file the user named in their own configuration (never a value a plugin
    /// supplied): an absolute path, or one starting with `~/` (the user's home directory), is
    /// read as is; any other path is looked up in the data directories as by
    /// [`load`](Self::load). The dataset is registered under `name`.
    pub fn load_user_path(&self, name: &str, path: &str) -> Result<Arc<Dataset>> {
        let Some(full) = user_path(path)? else {
            return self.load(name, Path::new(path));
        };
        if let Some(existing) = self.get(name) {
            return Ok(existing);
        }
        let source = full.display().to_string();
        let file = std::fs::File::open(&full)
            .map_err(io_error(format!("dataset `{name}`: cannot open {source}")))?;
        let rows = read_rows(file, &full, &source)?;
        let dataset = Arc::new(Dataset { source, rows });
        let mut inner = self.inner.write().expect("datasets lock");
        Ok(inner
            .loaded
            .entry(name.to_owned())
            .or_insert(dataset)
            .clone())
    }

    /// Where a file the user named in their own configuration is: an absolute or `~/` path as
    /// is, any other path inside the first data directory that holds it (checked as by
    /// [`load`](Self::load): no `..`, no escaping symlinks). For host-side readers of files that
    /// are not datasets, such as a search tool's corpus.
    pub fn locate(&self, path: &str) -> Result<PathBuf> {
        if let Some(full) = user_path(path)? {
            return Ok(full);
        }
        let relative = Path::new(path);
        check_relative(relative)?;
        let roots = self.inner.read().expect("datasets lock").roots.clone();
        if roots.is_empty() {
            return Err(Error::InvalidArgument(format!(
                "no data directory is configured (set GEODE_DATA_PATH, or add one with \
                 `geode --data-dir`, `geode.add_data_dir` or `Datasets::add_root`); cannot find \
                 {path}"
            )));
        }
        for (root, dir) in &roots {
            if dir.metadata(relative).is_ok_and(|m| m.is_file()) {
                return Ok(root.join(relative));
            }
        }
        let searched: Vec<String> = roots.iter().map(|(r, _)| r.display().to_string()).collect();
        Err(Error::InvalidArgument(format!(
            "{path} is in none of the data directories ({})",
            searched.join(", ")
        )))
    }

    /// Adds JSONL text held in memory (such as data compiled into the binary) as dataset `name`,
    /// described as `source` in messages. Needs no data directory. Like [`load`](Self::load), a
    /// name already loaded keeps its first copy.
    pub fn insert_jsonl(&self, name: &str, source: &str, jsonl: &[u8]) -> Result<Arc<Dataset>> {
        if let Some(existing) = self.get(name) {
            return Ok(existing);
        }
        let rows = read_jsonl(jsonl, source)?;
        let dataset = Arc::new(Dataset {
            source: source.to_owned(),
            rows,
        });
        let mut inner = self.inner.write().expect("datasets lock");
        Ok(inner
            .loaded
            .entry(name.to_owned())
            .or_insert(dataset)
            .clone())
    }

    /// The loaded dataset `name`.
    pub fn get(&self, name: &str) -> Option<Arc<Dataset>> {
        self.inner
            .read()
            .expect("datasets lock")
            .loaded
            .get(name)
            .cloned()
    }
}

fn read_rows(file: std::fs::File, path: &Path, source: &str) -> Result<Vec<Box<str>>> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("jsonl") | Some("json") => read_jsonl(file, source),
        Some("parquet") => read_parquet(file, source),
        _ => Err(Error::InvalidArgument(format!(
            "dataset {source}: expected a .jsonl or .parquet file"
        ))),
    }
}

fn read_jsonl(file: impl Read, source: &str) -> Result<Vec<Box<str>>> {
    let mut rows = Vec::new();
    for (number, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(io_error(format!("reading {source}")))?;
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        match serde_json::from_str::<serde_json::Value>(trimmed) {
            Ok(serde_json::Value::Object(_)) => rows.push(trimmed.into()),
            _ => {
                return Err(Error::InvalidArgument(format!(
                    "dataset {source}, line {}: not a JSON object",
                    number + 1
                )));
            }
        }
    }
    Ok(rows)
}

fn read_parquet(file: std::fs::File, source: &str) -> Result<Vec<Box<str>>> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let bad =
        |e: parquet::errors::ParquetError| Error::InvalidArgument(format!("dataset {source}: {e}"));
    let reader = SerializedFileReader::new(file).map_err(bad)?;
    let mut rows = Vec::new();
    for row in reader.get_row_iter(None).map_err(bad)? {
        let row = row.map_err(bad)?;
        rows.push(row.to_json_value().to_string().into());
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn users_may_name_absolute_and_home_paths() {
        assert_eq!(
            user_path("/data/x.jsonl").unwrap(),
            Some(PathBuf::from("/data/x.jsonl"))
        );
        assert_eq!(user_path("sub/x.jsonl").unwrap(), None);
        assert!(user_path("~bob/x.jsonl").is_err());
        if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
            assert_eq!(
                user_path("~/d/x.jsonl").unwrap(),
                Some(PathBuf::from(home).join("d/x.jsonl"))
            );
        }
    }

    #[test]
    fn relative_paths_only() {
        assert!(check_relative(Path::new("code/train.jsonl")).is_ok());
        assert!(
            check_relative(Path::new("../secrets.jsonl"))
                .unwrap_err()
                .to_string()
                .contains("may not contain `..`")
        );
        assert!(
            check_relative(Path::new("/etc/passwd"))
                .unwrap_err()
                .to_string()
                .contains("must be relative")
        );
    }

    #[test]
    fn jsonl_from_memory_keeps_the_first_copy() {
        let datasets = Datasets::default();
        let first = datasets
            .insert_jsonl("d", "built-in", b"{\"a\": 1}\n\n{\"a\": 2}\n")
            .unwrap();
        assert_eq!((first.len(), first.row(1)), (2, Some("{\"a\": 2}")));
        let again = datasets.insert_jsonl("d", "other", b"{}").unwrap();
        assert!(Arc::ptr_eq(&first, &again));
        let error = datasets.insert_jsonl("bad", "x", b"[1]").unwrap_err();
        assert!(error.to_string().contains("x, line 1"), "{error}");
    }
}
