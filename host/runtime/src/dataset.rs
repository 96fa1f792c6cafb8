//! Datasets the host loads once and shares with every instance through the `dataset` import.
//!
//! A dataset is a JSONL file (one JSON object per line) or a Parquet file (the layout of
//! Hugging Face dataset exports), read into memory once as one JSON object text per row. 1,024
//! env instances over the same dataset share that single copy; a guest copies in only the row it
//! asks for. Files are opened through `cap-std` directory capabilities rooted at the configured
//! data directories, so a configured path cannot escape them (`..`, absolute paths and symlinks
//! pointing outside are refused).

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
