//! `geode build DIR`: turns a plugin project in any supported language into a component.
//!
//! The language is read off the project's entry file (`Cargo.toml`, `plugin.py`, `plugin.js`,
//! `plugin.c`); the kind of plugin (and so the WIT world) off the project's `geode.json`
//! ([`manifest`]). Each language module installs what it needs into the toolchain cache
//! ([`toolchains`]) the first time, and writes `DIR/build/<name>.wasm`. A stamp next to the
//! component records a hash of every input (the project's files, the SDK, the WIT contract and
//! the toolchain versions): an unchanged project is not rebuilt.

mod c;
mod componentize;
mod js;
pub mod manifest;
mod python;
mod rust;
pub mod sources;
mod stamp;
pub mod toolchains;

use anyhow::{Context, Result, bail};
use clap::Args;
use manifest::Kind;
use std::path::{Path, PathBuf};
use toolchains::Toolchains;

/// Arguments of `geode build`.
#[derive(Args)]
pub struct BuildArgs {
    /// The plugin project directory (made by `geode new`).
    #[arg(value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,
    /// Rebuild even when the inputs did not change.
    #[arg(long)]
    pub force: bool,
}

/// A guest language geode can build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Language {
    /// Rust, with the `geode-sdk` crate.
    Rust,
    /// Python, with `sdk/python` (CPython in the component, via componentize-py).
    Python,
    /// JavaScript ES modules, with `sdk/js` (QuickJS in the component, via componentize-qjs).
    Js,
    /// C, with `sdk/c` (zig's clang and wasi-libc, adapted to a component).
    C,
}

impl Language {
    /// Every language, in `geode new --lang` order.
    pub const ALL: [Language; 4] = [Language::Rust, Language::Python, Language::Js, Language::C];

    /// The file whose presence marks a project of this language.
    pub fn entry_file(self) -> &'static str {
        match self {
            Language::Rust => "Cargo.toml",
            Language::Python => "plugin.py",
            Language::Js => "plugin.js",
            Language::C => "plugin.c",
        }
    }

    /// The language of the project in `dir`.
    pub fn detect(dir: &Path) -> Result<Language> {
        let found: Vec<Language> = Language::ALL
            .into_iter()
            .filter(|l| dir.join(l.entry_file()).is_file())
            .collect();
        match found.as_slice() {
            [one] => Ok(*one),
            [] => bail!(
                "{} is not a plugin project: it has none of Cargo.toml, plugin.py, plugin.js, plugin.c",
                dir.display()
            ),
            _ => bail!(
                "{} has entry files of several languages ({found:?}); keep one",
                dir.display()
            ),
        }
    }
}

/// A project to build: its directory, language, kind and name.
pub struct Project {
    /// The project directory.
    pub dir: PathBuf,
    /// Its language.
    pub language: Language,
    /// What it provides (from its `geode.json`).
    pub kind: Kind,
    /// The component's file stem (the directory's name, as an identifier).
    pub name: String,
}

impl Project {
    /// The project in `dir`.
    pub fn open(dir: &Path) -> Result<Project> {
        let dir = dir
            .canonicalize()
            .with_context(|| format!("no project directory {}", dir.display()))?;
        let language = Language::detect(&dir)?;
        let kind = manifest::kind(&dir)?;
        let name = identifier(
            dir.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
                .as_str(),
        );
        Ok(Project {
            dir,
            language,
            kind,
            name,
        })
    }

    /// Where build outputs go.
    pub fn build_dir(&self) -> PathBuf {
        self.dir.join("build")
    }

    /// The component `geode build` writes.
    pub fn component(&self) -> PathBuf {
        self.build_dir().join(format!("{}.wasm", self.name))
    }

    /// A scratch directory for one build step, emptied first.
    fn stage(&self, what: &str) -> Result<PathBuf> {
        let stage = self.build_dir().join(format!(".stage-{what}"));
        if stage.exists() {
            std::fs::remove_dir_all(&stage)?;
        }
        std::fs::create_dir_all(&stage)?;
        Ok(stage)
    }
}

/// `name` as a lowercase identifier: letters, digits and `_`.
pub fn identifier(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "plugin_");
    }
    out
}

/// `geode build`: builds the project unless it is up to date; prints the component's path.
pub fn run(args: &BuildArgs) -> Result<()> {
    let path = build(&args.dir, args.force)?;
    println!("{}", path.display());
    Ok(())
}

/// Builds the project in `dir` (unless its stamp says it is up to date, or `force`) and returns
/// the component's path. Toolchains come from the cache [`Toolchains::locate`] finds.
pub fn build(dir: &Path, force: bool) -> Result<PathBuf> {
    build_with(dir, force, &Toolchains::locate()?)
}

/// [`build`] with toolchains from `tools`.
pub fn build_with(dir: &Path, force: bool, tools: &Toolchains) -> Result<PathBuf> {
    let project = Project::open(dir)?;
    let out = project.component();
    std::fs::create_dir_all(project.build_dir())?;
    // Two builds of one project at once would share the staging directories: one waits.
    let lock = std::fs::File::create(project.build_dir().join(".lock"))?;
    lock.lock()?;
    let fingerprint = stamp::fingerprint(&project)?;
    if !force && stamp::fresh(&out, &fingerprint) {
        eprintln!("{} is up to date", out.display());
        return Ok(out);
    }
    let tmp = out.with_extension("wasm.tmp");
    let built = match project.language {
        Language::Rust => rust::build(&project, tools, &tmp),
        Language::Python => python::build(&project, tools, &tmp),
        Language::Js => js::build(&project, tools, &tmp),
        Language::C => c::build(&project, tools, &tmp),
    };
    built.with_context(|| format!("building {}", project.dir.display()))?;
    manifest::check_component(project.kind, &std::fs::read(&tmp)?)
        .with_context(|| format!("building {}", project.dir.display()))?;
    std::fs::rename(&tmp, &out)?;
    stamp::write(&out, &fingerprint)?;
    eprintln!("built {}", out.display());
    Ok(out)
}
