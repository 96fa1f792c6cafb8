//! Build step for the math grader component (`plugins/math-grader`): runs its `build.sh` when
//! the component is missing or one of its inputs changed (a stamp records them), and writes
//! `$OUT_DIR/math_grader.rs` embedding it. A failed build is a warning: the math envs then
//! report the grader as unavailable. `GEODE_MATH_GRADER_WASM=<file>` embeds a prebuilt one.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

const PLUGIN: &str = "plugins/math-grader";
const OUTPUT_DIR: &str = "target/math-grader";

/// Builds (if needed) and embeds the component; writes the generated Rust into `out_dir`.
pub fn embed(root: &Path, out_dir: &Path) {
    println!("cargo:rerun-if-env-changed=GEODE_MATH_GRADER_WASM");
    let plugin = root.join(PLUGIN);
    let inputs = inputs(&plugin);
    // The directory too, so a new guest file reruns this step.
    println!("cargo:rerun-if-changed={}", plugin.join("guest").display());
    for input in &inputs {
        println!("cargo:rerun-if-changed={}", input.display());
    }
    let result = match std::env::var_os("GEODE_MATH_GRADER_WASM") {
        Some(path) => Ok(PathBuf::from(path)),
        None => build(root, &plugin, &inputs),
    };
    let (path, reason) = match result {
        Ok(path) => (path.display().to_string(), String::new()),
        Err(reason) => {
            println!("cargo:warning=math grader not built, the math envs are disabled: {reason}");
            (String::new(), reason)
        }
    };
    let bytes = if path.is_empty() {
        "&[]".to_owned()
    } else {
        format!("include_bytes!({path:?})")
    };
    let code = format!(
        "/// The math grader component (empty when it was not built).\n\
         pub static MATH_GRADER_WASM: &[u8] = {bytes};\n\
         /// Why the component is missing (empty: it is not).\n\
         pub static MATH_GRADER_BUILD_ERROR: &str = {reason:?};\n"
    );
    std::fs::write(out_dir.join("math_grader.rs"), code).expect("write math_grader.rs");
}

/// `build.sh`, the WIT and every file under `guest/`, sorted.
fn inputs(plugin: &Path) -> Vec<PathBuf> {
    let mut files = vec![plugin.join("build.sh"), plugin.join("wit/math-grader.wit")];
    let mut pending = vec![plugin.join("guest")];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "__pycache__") {
                    pending.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "py") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// A fingerprint of the build inputs (paths relative to the plugin, and contents).
fn fingerprint(plugin: &Path, inputs: &[PathBuf]) -> Result<String, String> {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for input in inputs {
        let bytes =
            std::fs::read(input).map_err(|e| format!("reading {}: {e}", input.display()))?;
        input
            .strip_prefix(plugin)
            .unwrap_or(input)
            .hash(&mut hasher);
        bytes.hash(&mut hasher);
    }
    Ok(format!("{:016x}", hasher.finish()))
}

/// Runs `build.sh` unless the component on disk was built from the current inputs.
fn build(root: &Path, plugin: &Path, inputs: &[PathBuf]) -> Result<PathBuf, String> {
    let dir = root.join(OUTPUT_DIR);
    std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let out = dir.join("math_grader.wasm");
    let stamp = dir.join("math_grader.stamp");
    let wanted = fingerprint(plugin, inputs)?;
    // Several builds may get here at once: one builds, the rest wait.
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
