//! `trajectories.jsonl`: finished episodes appended one line each as they finish, read back on
//! `--resume` (a line cut short by a crash is dropped: that episode runs again), and rewritten in
//! episode order when the run completes, so a resumed run's file equals an uninterrupted one's.

use crate::record::{EpisodeKey, EpisodeRecord};
use anyhow::Context;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The file name of the episodes in an output directory.
pub const TRAJECTORIES: &str = "trajectories.jsonl";

/// The episode log of one output directory.
pub struct TrajectoryLog {
    path: PathBuf,
    file: Mutex<File>,
}

impl TrajectoryLog {
    /// Opens (or creates) `dir/trajectories.jsonl` for appending, after reading the episodes it
    /// holds; a last line cut short by a crash is cut off the file.
    pub fn open(dir: &Path) -> anyhow::Result<(Self, BTreeMap<EpisodeKey, EpisodeRecord>)> {
        let path = dir.join(TRAJECTORIES);
        let done = if path.exists() {
            read_and_repair(&path)?
        } else {
            BTreeMap::new()
        };
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        Ok((
            TrajectoryLog {
                path,
                file: Mutex::new(file),
            },
            done,
        ))
    }

    /// Appends one finished episode as one line, written with a single call.
    pub fn append(&self, record: &EpisodeRecord) -> anyhow::Result<()> {
        let mut line = serde_json::to_vec(record)?;
        line.push(b'\n');
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        file.write_all(&line)
            .with_context(|| format!("writing {}", self.path.display()))
    }

    /// Rewrites the file with `records` in episode order (through a temporary file and a rename).
    pub fn rewrite_sorted(
        &self,
        records: &BTreeMap<EpisodeKey, EpisodeRecord>,
    ) -> anyhow::Result<()> {
        let temporary = self.path.with_extension("jsonl.tmp");
        let mut out = std::io::BufWriter::new(File::create(&temporary)?);
        for record in records.values() {
            serde_json::to_writer(&mut out, record)?;
            out.write_all(b"\n")?;
        }
        out.into_inner()?.sync_all()?;
        std::fs::rename(&temporary, &self.path)
            .with_context(|| format!("replacing {}", self.path.display()))
    }
}

/// Every complete episode of `path`; cuts the file after its last complete line.
fn read_and_repair(path: &Path) -> anyhow::Result<BTreeMap<EpisodeKey, EpisodeRecord>> {
    let mut reader = BufReader::new(File::open(path)?);
    let mut records = BTreeMap::new();
    let mut good_bytes = 0u64;
    let mut line = String::new();
    let mut number = 0;
    loop {
        line.clear();
        let read = reader.read_line(&mut line)?;
        if read == 0 {
            break;
        }
        number += 1;
        if !line.ends_with('\n') {
            break; // the last write was cut short
        }
        match serde_json::from_str::<EpisodeRecord>(&line) {
            Ok(record) => {
                records.insert(record.key.clone(), record);
                good_bytes += read as u64;
            }
            Err(error) => {
                let mut rest = String::new();
                if reader.read_line(&mut rest)? == 0 {
                    break; // a torn last line
                }
                anyhow::bail!(
                    "{} line {number} is not an episode record ({error}); the file was not written by this run",
                    path.display()
                );
            }
        }
    }
    let file = OpenOptions::new().write(true).open(path)?;
    file.set_len(good_bytes)?;
    Ok(records)
}
