//! `geode new --lang L NAME`: a plugin project to start from, in any supported language: one
//! env (Parity, two ids), scripted episodes in `tests/`, a README. With `--kind multiagent`: a
//! two-player game (Race, two ids) and a `geode.json` saying the kind. `geode build NAME`
//! builds it.

use crate::guest_build::manifest::{self, Kind};
use crate::guest_build::{Language, identifier};
use anyhow::{Result, bail};
use clap::Args;
use std::path::{Path, PathBuf};

/// Arguments of `geode new`.
#[derive(Args)]
pub struct NewArgs {
    /// The plugin's language.
    #[arg(long, value_enum)]
    lang: Language,
    /// What the plugin provides: single-agent envs, or multi-agent envs.
    #[arg(long, value_enum, default_value = "env")]
    kind: Kind,
    /// The project directory to create; its name is the plugin's name and id prefix.
    #[arg(value_name = "NAME")]
    dir: PathBuf,
}

/// Files every single-agent project gets, whatever its language.
const COMMON: &[(&str, &str)] = &[
    ("README.md", include_str!("templates/README.md")),
    (
        "tests/episodes.json",
        include_str!("templates/episodes.json"),
    ),
    (".gitignore", include_str!("templates/gitignore")),
];

/// Files every multi-agent project gets, whatever its language (besides its `geode.json`).
const COMMON_MULTIAGENT: &[(&str, &str)] = &[
    ("README.md", include_str!("templates/multiagent/README.md")),
    (
        "tests/episodes.json",
        include_str!("templates/multiagent/episodes.json"),
    ),
    (".gitignore", include_str!("templates/gitignore")),
];

/// The language's own files for a multi-agent project.
fn multiagent_files(language: Language) -> &'static [(&'static str, &'static str)] {
    match language {
        Language::Rust => &[
            ("Cargo.toml", include_str!("templates/rust/Cargo.toml")),
            (
                "src/lib.rs",
                include_str!("templates/multiagent/rust/lib.rs"),
            ),
        ],
        Language::Python => &[
            (
                "plugin.py",
                include_str!("templates/multiagent/python/plugin.py"),
            ),
            (
                "requirements.txt",
                include_str!("templates/python/requirements.txt"),
            ),
        ],
        Language::Js => &[(
            "plugin.js",
            include_str!("templates/multiagent/js/plugin.js"),
        )],
        Language::C => &[("plugin.c", include_str!("templates/multiagent/c/plugin.c"))],
    }
}

/// The language's own files.
fn files(language: Language) -> &'static [(&'static str, &'static str)] {
    match language {
        Language::Rust => &[
            ("Cargo.toml", include_str!("templates/rust/Cargo.toml")),
            ("src/lib.rs", include_str!("templates/rust/lib.rs")),
        ],
        Language::Python => &[
            ("plugin.py", include_str!("templates/python/plugin.py")),
            (
                "requirements.txt",
                include_str!("templates/python/requirements.txt"),
            ),
        ],
        Language::Js => &[("plugin.js", include_str!("templates/js/plugin.js"))],
        Language::C => &[("plugin.c", include_str!("templates/c/plugin.c"))],
    }
}

/// `geode new`: writes the project, refusing to overwrite anything.
pub fn run(args: &NewArgs) -> Result<()> {
    create(&args.dir, args.lang, args.kind)?;
    println!(
        "created {} ({:?}, {:?}); next: geode build {}",
        args.dir.display(),
        args.lang,
        args.kind,
        args.dir.display()
    );
    Ok(())
}

/// Creates a `language` project of `kind` in `dir` (which must not exist or be empty).
pub fn create(dir: &Path, language: Language, kind: Kind) -> Result<()> {
    if dir.exists() && std::fs::read_dir(dir)?.next().is_some() {
        bail!("{} already exists and is not empty", dir.display());
    }
    let stem = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = identifier(&stem);
    let sdk_rust = crate::guest_build::sources::sdk("rust")?;
    let language_name = match language {
        Language::Rust => "Rust",
        Language::Python => "Python",
        Language::Js => "JavaScript",
        Language::C => "C",
    };
    let (common, own) = match kind {
        Kind::Env => (COMMON, files(language)),
        Kind::MultiAgent => (COMMON_MULTIAGENT, multiagent_files(language)),
    };
    let entry = own
        .iter()
        .map(|(path, _)| *path)
        .find(|p| !p.ends_with(".toml") && !p.ends_with(".txt"))
        .unwrap_or("");
    if kind != Kind::Env {
        std::fs::create_dir_all(dir)?;
        std::fs::write(dir.join(manifest::FILE), kind.manifest())?;
    }
    for (path, text) in common.iter().chain(own) {
        let text = text
            .replace("{{name}}", &name)
            .replace("{{language}}", language_name)
            .replace("{{entry}}", entry)
            .replace("{{sdk_rust}}", &sdk_rust.display().to_string());
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(target, text)?;
    }
    Ok(())
}
