//! The toolchain cache: what `geode build` installs the first time a language is built, from
//! the package registries, into one directory (`GEODE_TOOLCHAINS`, else
//! `$XDG_CACHE_HOME/geode/toolchains`, else `~/.cache/geode/toolchains`). Each tool is pinned;
//! an install is skipped when the pinned version is already there, and a lock file keeps two
//! builds from installing the same tool at once.

use anyhow::{Context, Result, bail};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;

/// componentize-py, which puts CPython and the plugin's modules into a component (PyPI).
pub const COMPONENTIZE_PY: &str = "0.25.1";
/// componentize-qjs, which puts QuickJS and the plugin's modules into a component (npm).
pub const COMPONENTIZE_QJS: &str = "0.4.5";
/// ziglang, whose `zig cc` is clang with wasi-libc for `wasm32-wasi` (PyPI).
pub const ZIGLANG: &str = "0.17.0";

/// How many times an install from a package registry is tried before a build fails.
const INSTALL_ATTEMPTS: u32 = 3;

/// The pinned versions, hashed into every build stamp.
pub fn versions() -> String {
    format!(
        "componentize-py {COMPONENTIZE_PY}\ncomponentize-qjs {COMPONENTIZE_QJS}\nziglang {ZIGLANG}\n"
    )
}

/// The toolchain cache directory.
pub struct Toolchains {
    root: PathBuf,
}

impl Toolchains {
    /// The cache in `root` (created if missing).
    pub fn at(root: &Path) -> Result<Toolchains> {
        std::fs::create_dir_all(root)
            .with_context(|| format!("creating the toolchain cache {}", root.display()))?;
        Ok(Toolchains {
            root: root.to_path_buf(),
        })
    }

    /// The cache directory from the environment (created if missing).
    pub fn locate() -> Result<Toolchains> {
        let root = if let Some(dir) = std::env::var_os("GEODE_TOOLCHAINS") {
            PathBuf::from(dir)
        } else if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
            PathBuf::from(dir).join("geode/toolchains")
        } else if let Some(home) = std::env::var_os("HOME") {
            PathBuf::from(home).join(".cache/geode/toolchains")
        } else {
            bail!("set GEODE_TOOLCHAINS (or HOME) to say where geode may install toolchains")
        };
        Toolchains::at(&root)
    }

    /// A directory inside the cache.
    pub fn path(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    /// Runs `install` unless `ready` holds, holding the cache's lock for `name`. An install
    /// that fails is tried again (up to [`INSTALL_ATTEMPTS`] times, waiting longer each time):
    /// a package registry that drops a connection or answers 5xx for a moment should not fail a
    /// build. Every install starts from scratch, so a half-done one is never kept.
    fn ensure(
        &self,
        name: &str,
        ready: impl Fn() -> bool,
        install: impl Fn() -> Result<()>,
    ) -> Result<()> {
        if ready() {
            return Ok(());
        }
        let lock = File::create(self.root.join(format!(".{name}.lock")))?;
        lock.lock()?;
        if ready() {
            return Ok(());
        }
        eprintln!("installing {name} into {} (once)", self.root.display());
        let mut attempt = 1;
        while let Err(error) = install() {
            if attempt == INSTALL_ATTEMPTS {
                return Err(error.context(format!("installing {name} ({attempt} attempts)")));
            }
            let pause = std::time::Duration::from_secs(3 << attempt);
            eprintln!("installing {name} failed ({error:#}); trying again in {pause:?}");
            std::thread::sleep(pause);
            attempt += 1;
        }
        if !ready() {
            bail!("{name} was installed but does not answer as expected");
        }
        Ok(())
    }

    /// A Python virtual environment with `package==version` installed; returns its directory.
    /// The venv is made afresh (`--clear`: a half-made one from a failed or copied install
    /// is not reused) and without pip of its own: the host interpreter's pip installs into
    /// it ([`pip_install`]), so no `ensurepip` runs.
    fn python_venv(&self, dir: &str, package: &str, version: &str) -> Result<PathBuf> {
        let venv = self.path(dir);
        let marker = venv.join(format!(".installed-{package}-{version}"));
        self.ensure(
            &format!("{package} {version}"),
            || marker.is_file(),
            || {
                run(Command::new(host_python())
                    .args(["-m", "venv", "--clear", "--without-pip"])
                    .arg(&venv))?;
                run(pip_install(&venv).arg(format!("{package}=={version}")))?;
                std::fs::write(&marker, "")?;
                Ok(())
            },
        )?;
        Ok(venv)
    }

    /// The venv holding componentize-py (its `bin/componentize-py`, its `bin/python`).
    pub fn componentize_py(&self) -> Result<PathBuf> {
        self.python_venv("python", "componentize-py", COMPONENTIZE_PY)
    }

    /// A command running `zig` (from the ziglang wheel).
    pub fn zig(&self) -> Result<Command> {
        let venv = self.python_venv("zig", "ziglang", ZIGLANG)?;
        let mut zig = Command::new(venv.join("bin/python"));
        zig.args(["-m", "ziglang"]);
        // zig caches compiled wasi-libc and objects; keep them with the toolchain.
        zig.env("ZIG_GLOBAL_CACHE_DIR", self.path("zig-cache"));
        Ok(zig)
    }

    /// The `componentize-qjs` executable (from npm).
    pub fn componentize_qjs(&self) -> Result<PathBuf> {
        let prefix = self.path("js");
        let bin = prefix.join("node_modules/.bin/componentize-qjs");
        let manifest = prefix.join("node_modules/componentize-qjs/package.json");
        let ready = || {
            bin.is_file()
                && std::fs::read_to_string(&manifest)
                    .is_ok_and(|m| m.contains(&format!("\"version\": \"{COMPONENTIZE_QJS}\"")))
        };
        self.ensure(
            &format!("componentize-qjs {COMPONENTIZE_QJS}"),
            ready,
            || {
                std::fs::create_dir_all(&prefix)?;
                run(Command::new("npm")
                    .args([
                        "install",
                        "--no-audit",
                        "--no-fund",
                        "--no-save",
                        "--prefix",
                    ])
                    .arg(&prefix)
                    .arg(format!("componentize-qjs@{COMPONENTIZE_QJS}")))
            },
        )?;
        Ok(bin)
    }

    /// The cargo target directory Rust plugins build into (shared, so dependencies build once).
    pub fn rust_target(&self) -> PathBuf {
        self.path("rust-target")
    }
}

/// The Python that makes venvs and runs pip: `$PYTHON`, else `python3`.
fn host_python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".into())
}

/// `pip install` into `venv`, run by the host interpreter's pip (`--python`), quiet; the
/// caller adds what to install.
pub fn pip_install(venv: &Path) -> Command {
    let mut pip = Command::new(host_python());
    pip.args(["-m", "pip", "--python"])
        .arg(venv.join("bin/python"))
        .args(["install", "--quiet", "--disable-pip-version-check"]);
    pip
}

/// Runs `command`, failing with its output when it fails.
pub fn run(command: &mut Command) -> Result<()> {
    let shown = format!("{command:?}");
    let output = command
        .output()
        .with_context(|| format!("cannot start {shown}"))?;
    if !output.status.success() {
        let mut log = String::from_utf8_lossy(&output.stderr).into_owned();
        log.push_str(&String::from_utf8_lossy(&output.stdout));
        let tail: Vec<&str> = log.lines().rev().take(40).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        bail!("{shown} failed ({}):\n{}", output.status, tail.join("\n"));
    }
    Ok(())
}

/// Copies every file under `from` into `to`, skipping build outputs.
pub fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)?.flatten() {
        let name = entry.file_name();
        if ["build", "node_modules", ".git", "__pycache__"]
            .iter()
            .any(|s| name == *s)
        {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            copy_tree(&path, &to.join(&name))?;
        } else {
            std::fs::copy(&path, to.join(&name))?;
        }
    }
    Ok(())
}
