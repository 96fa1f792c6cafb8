//! Build step for the Python runner component (`plugins/python-runner`): runs its `build.sh`
//! when the component is missing or one of its inputs changed, and writes
//! `$OUT_DIR/python_runner.rs` embedding it. A failed build (no python3, no network for the
//! first install of componentize-py) is a warning, not an error: the runtime then reports the
//! sandbox as unsupported. `GEODE_PYTHON_RUNNER_WASM=<file>` uses a prebuilt component instead.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

const INPUTS: &[&str] = &["build.sh", "guest/app.py", "wit/python-runner.wit"];

/// Builds (if needed) and embeds the component; writes the generated Rust into `out_dir`.
pub fn embed(root: &Path, out_dir: &Path) {
    println!("cargo:rerun-if-env-changed=GEODE_PYTHON_RUNNER_WASM");
    let plugin = root.join("plugins/python-runner");
    for input in INPUTS {
        println!("cargo:rerun-if-changed={}", plugin.join(input).display());
    }
    let result = match std::env::var_os("GEODE_PYTHON_RUNNER_WASM") {
        Some(path) => Ok(PathBuf::from(path)),
        None => build(root, &plugin),
    };
    let code = match result {
        Ok(path) => format!(
            "/// The Python runner component.\npub static PYTHON_RUNNER_WASM: &[u8] = include_bytes!({:?});\n\
             /// Why the component is missing (empty: it is not).\npub static PYTHON_RUNNER_BUILD_ERROR: &str = \"\";\n",
            path.display().to_string()
        ),
        Err(reason) => {
            println!(
                "cargo:warning=python runner not built, the code sandbox is disabled: {reason}"
            );
            format!(
                "/// The Python runner component (missing).\npub static PYTHON_RUNNER_WASM: &[u8] = &[];\n\
                 /// Why the component is missing.\npub static PYTHON_RUNNER_BUILD_ERROR: &str = {reason:?};\n"
            )
        }
    };
    std::fs::write(out_dir.join("python_runner.rs"), code).expect("write python_runner.rs");
}

/// A fingerprint of the build inputs.
fn fingerprint(plugin: &Path) -> Result<String, String> {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for input in INPUTS {
        let bytes =
            std::fs::read(plugin.join(input)).map_err(|e| format!("reading {input}: {e}"))?;
        input.hash(&mut hasher);
        bytes.hash(&mut hasher);
    }
    Ok(format!("{:016x}", hasher.finish()))
}

/// Runs `build.sh` unless the component on disk was built from the current inputs.
fn build(root: &Path, plugin: &Path) -> Result<PathBuf, String> {
    let dir = root.join("target/python-runner");
    std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let out = dir.join("python_runner.wasm");
    let stamp = dir.join("python_runner.stamp");
    let wanted = fingerprint(plugin)?;
    // Several builds (other target dirs, tests) may get here at once: one builds, the rest wait.
    let lock = std::fs::File::create(dir.join(".lock")).map_err(|e| format!("lock file: {e}"))?;
    lock.lock()
        .map_err(|e| format!("locking {}: {e}", dir.display()))?;
    let fresh = out.is_file() && std::fs::read_to_string(&stamp).is_ok_and(|s| s.trim() == wanted);
    if !fresh {
        let output = Command::new("sh")
            .arg(plugin.join("build.sh"))
            .arg(&out)
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
