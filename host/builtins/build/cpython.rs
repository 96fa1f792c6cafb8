//! Build step for the CPython components (`plugins/python-runner` with and without numpy,
//! `plugins/math-grader`): runs a component's `build.sh` when its output is missing or one of its inputs changed (a stamp
//! next to the output records them), and writes `$OUT_DIR/<name>.rs` embedding it. A failed
//! build (no python3, no network for the first install of componentize-py) is a warning, not an
//! error: what needs the component then reports it unavailable. `<env_var>=<file>` embeds a
//! prebuilt component instead.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One CPython component of `plugins/`.
pub struct Component {
    /// The file stem of the output and of the generated Rust (`python_runner`).
    pub name: &'static str,
    /// Its directory under the workspace root (`plugins/python-runner`).
    pub plugin: &'static str,
    /// The variable naming a prebuilt component to embed instead.
    pub env_var: &'static str,
    /// What is lost without it, for the warning.
    pub without: &'static str,
    /// Arguments for `build.sh` after the output path.
    pub args: &'static [&'static str],
    /// Directories under the workspace root whose every file is an input too.
    pub extra_inputs: &'static [&'static str],
}

/// The Python runner of the code sandbox.
pub const PYTHON_RUNNER: Component = Component {
    name: "python_runner",
    plugin: "plugins/python-runner",
    env_var: "GEODE_PYTHON_RUNNER_WASM",
    without: "the code sandbox is disabled",
    args: &[],
    extra_inputs: &[],
};

/// The Python runner with numpy, where programs that need numpy run.
pub const PYTHON_RUNNER_NUMPY: Component = Component {
    name: "python_runner_numpy",
    plugin: "plugins/python-runner",
    env_var: "GEODE_PYTHON_RUNNER_NUMPY_WASM",
    without: "programs that import numpy fail with ModuleNotFoundError",
    args: &["--with-numpy"],
    extra_inputs: &["plugins/python-runner/numpy"],
};

/// The math grader of the math envs.
pub const MATH_GRADER: Component = Component {
    name: "math_grader",
    plugin: "plugins/math-grader",
    env_var: "GEODE_MATH_GRADER_WASM",
    without: "the math envs are disabled",
    args: &[],
    extra_inputs: &[],
};

/// The Python shared by both components' builds (`plugins/cpython-common`).
const COMMON: &str = "plugins/cpython-common";

impl Component {
    /// Builds (if needed) and embeds the component; writes the generated Rust into `out_dir`.
    pub fn embed(&self, root: &Path, out_dir: &Path) {
        println!("cargo:rerun-if-env-changed={}", self.env_var);
        let plugin = root.join(self.plugin);
        let mut inputs = inputs(root, &plugin);
        let extra: Vec<PathBuf> = self.extra_inputs.iter().map(|d| root.join(d)).collect();
        inputs.extend(extra.iter().flat_map(|dir| files_in(dir)));
        // The directories too, so a new guest file reruns this step.
        for dir in [plugin.join("guest"), root.join(COMMON)]
            .into_iter()
            .chain(extra)
        {
            println!("cargo:rerun-if-changed={}", dir.display());
        }
        for input in &inputs {
            println!("cargo:rerun-if-changed={}", input.display());
        }
        let result = match std::env::var_os(self.env_var) {
            Some(path) => Ok(PathBuf::from(path)),
            None => self.build(root, &plugin, &inputs),
        };
        match result {
            Ok(path) => self.write_module(
                out_dir,
                &format!("include_bytes!({:?})", path.display().to_string()),
                "",
            ),
            Err(reason) => {
                println!(
                    "cargo:warning={} not built, {}: {reason}",
                    self.name.replace('_', " "),
                    self.without
                );
                self.write_module(out_dir, "&[]", &reason);
            }
        }
    }

    /// Embeds nothing: this build leaves the component out, for `reason`.
    pub fn leave_out(&self, out_dir: &Path, reason: &str) {
        self.write_module(out_dir, "&[]", reason);
    }

    /// Writes `$OUT_DIR/<name>.rs`: the component's bytes (a Rust expression) and why they are
    /// missing (empty: they are not). The bytes are returned by a function that is never inlined,
    /// not held in a `static`: rustc copies a static's value into the crate's metadata too, which
    /// doubled the crate on disk (one more copy per feature set) and made every dependent load it.
    fn write_module(&self, out_dir: &Path, bytes: &str, reason: &str) {
        let upper = self.name.to_uppercase();
        let code = format!(
            "/// The {name} component (empty when it was not built).\n\
             #[inline(never)]\n\
             pub fn {lower}_wasm() -> &'static [u8] {{ {bytes} }}\n\
             /// Why the component is missing (empty: it is not).\n\
             pub static {upper}_BUILD_ERROR: &str = {reason:?};\n",
            name = self.name.replace('_', " "),
            lower = self.name,
        );
        let file = out_dir.join(format!("{}.rs", self.name));
        std::fs::write(&file, code).expect("write the generated component module");
    }

    /// Runs `build.sh` unless the component on disk was built from the current inputs.
    fn build(&self, root: &Path, plugin: &Path, inputs: &[PathBuf]) -> Result<PathBuf, String> {
        let dir = root.join("target").join(self.name.replace('_', "-"));
        std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
        let out = dir.join(format!("{}.wasm", self.name));
        let stamp = dir.join(format!("{}.stamp", self.name));
        let wanted = fingerprint(root, inputs)?;
        // Several builds (other target dirs, tests) may get here at once: one builds, the rest
        // wait.
        let lock =
            std::fs::File::create(dir.join(".lock")).map_err(|e| format!("lock file: {e}"))?;
        lock.lock()
            .map_err(|e| format!("locking {}: {e}", dir.display()))?;
        let fresh =
            out.is_file() && std::fs::read_to_string(&stamp).is_ok_and(|s| s.trim() == wanted);
        if !fresh {
            let output = Command::new("sh")
                .arg(plugin.join("build.sh"))
                .arg(&out)
                .args(self.args)
                .output()
                .map_err(|e| format!("cannot run build.sh: {e}"))?;
            if !output.status.success() {
                let mut log = String::from_utf8_lossy(&output.stderr).into_owned();
                log.push_str(&String::from_utf8_lossy(&output.stdout));
                let tail: Vec<&str> = log.lines().rev().take(6).collect();
                let tail: Vec<&str> = tail.into_iter().rev().collect();
                return Err(format!("build.sh failed: {}", tail.join(" | ")));
            }
            std::fs::write(&stamp, &wanted).map_err(|e| format!("writing stamp: {e}"))?;
        }
        Ok(out)
    }
}

/// `build.sh`, the WIT files and every `.py` file under `guest/` and the shared directory,
/// sorted.
fn inputs(root: &Path, plugin: &Path) -> Vec<PathBuf> {
    let mut files = vec![plugin.join("build.sh")];
    for dir in [plugin.join("guest"), plugin.join("wit"), root.join(COMMON)] {
        files.extend(
            files_in(&dir)
                .into_iter()
                .filter(|p| p.extension().is_some_and(|e| e == "py" || e == "wit")),
        );
    }
    files.sort();
    files
}

/// Every file under `dir` (but `__pycache__`), sorted.
fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "__pycache__") {
                    pending.push(path);
                }
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// A fingerprint of the build inputs (paths relative to the workspace root, and contents).
fn fingerprint(root: &Path, inputs: &[PathBuf]) -> Result<String, String> {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for input in inputs {
        let bytes =
            std::fs::read(input).map_err(|e| format!("reading {}: {e}", input.display()))?;
        input.strip_prefix(root).unwrap_or(input).hash(&mut hasher);
        bytes.hash(&mut hasher);
    }
    Ok(format!("{:016x}", hasher.finish()))
}
