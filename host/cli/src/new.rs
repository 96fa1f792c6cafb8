//! `geode new --lang L NAME`: a plugin project to start from, in any supported language: one
//! env (Parity, two ids), scripted episodes in `tests/`, a README. `geode build NAME` builds it.

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
    /// The project directory to create; its name is the plugin's name and id prefix.
    #[arg(value_name = "NAME")]
    dir: PathBuf,
}

/// Files every project gets, whatever its language.
const COMMON: &[(&str, &str)] = &[
    ("README.md", include_str!("templates/README.md")),
    (
        "tests/episodes.json",
        include_str!("templates/episodes.json"),
    ),
    (".gitignore", include_str!("templates/gitignore")),
];

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
    create(&args.dir, args.lang)?;
    println!(
        "created {} ({:?}); next: geode build {}",
        args.dir.display(),
        args.lang,
        args.dir.display()
    );
    Ok(())
}

/// Creates a `language` project in `dir` (which must not exist or be empty).
pub fn create(dir: &Path, language: Language) -> Result<()> {
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
    let entry = files(language)
        .iter()
        .map(|(path, _)| *path)
        .find(|p| !p.ends_with(".toml") && !p.ends_with(".txt"))
        .unwrap_or("");
    for (path, text) in COMMON.iter().chain(files(language)) {
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
