//! Builds geode's built-in content and embeds it in `geode-builtins`: every plugin crate in
//! `plugins/` (compiled to components), their `data/*.jsonl` samples, and the CPython
//! components (`plugins/python-runner`, with numpy too under the `numpy` feature, and
//! `plugins/math-grader`).
//! Only crates that depend on `geode-builtins` pay for these builds; `geode-runtime` builds no
//! guest.

use std::fmt::Write as _;
use std::path::PathBuf;

#[path = "build/cpython.rs"]
mod cpython;
#[path = "build/swe_tasks.rs"]
mod swe_tasks;

fn main() {
    let manifest_dir =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = geode_build::workspace_root(&manifest_dir);
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    swe_tasks::pack(
        &manifest_dir.join("src/swe/tasks"),
        &out_dir.join("swe_tasks.jsonl"),
    );
    // The CPython components (componentize-py, mostly one core) build one after the other on a
    // second thread while cargo compiles the plugins: they share a build venv, and together
    // they keep both cores busy.
    std::thread::scope(|scope| {
        let cpython = scope.spawn(|| {
            cpython::PYTHON_RUNNER.embed(&root, &out_dir);
            if std::env::var_os("CARGO_FEATURE_NUMPY").is_some() {
                cpython::PYTHON_RUNNER_NUMPY.embed(&root, &out_dir);
            } else {
                cpython::PYTHON_RUNNER_NUMPY.leave_out(
                    &out_dir,
                    "this build of geode leaves numpy out (the `numpy` feature of geode-builtins \
                     and of the `geode` command, on by default)",
                );
            }
            cpython::MATH_GRADER.embed(&root, &out_dir);
        });
        embed_plugins(&root, &out_dir);
        cpython.join().expect("the CPython component builds");
    });
}

/// Compiles the plugin crates and writes `$OUT_DIR/builtin_plugins.rs` (`plugins()`, `datasets()`).
fn embed_plugins(root: &std::path::Path, out_dir: &std::path::Path) {
    let crates = geode_build::crates_in(&root.join("plugins"));
    let built = geode_build::build_guests(root, &crates);
    // Functions, not statics: rustc would also copy a static's bytes into the crate's metadata.
    let mut table = String::from(
        "/// The plugins compiled from `plugins/`: (package name, component bytes).\n",
    );
    table.push_str(
        "#[inline(never)]\npub fn plugins() -> &'static [(&'static str, &'static [u8])] {\n    &[\n",
    );
    for (package, path) in built {
        writeln!(
            table,
            "    ({package:?}, include_bytes!({:?})),",
            path.display().to_string()
        )
        .unwrap();
    }
    table.push_str("    ]\n}\n");
    builtin_datasets(root, &crates, &mut table);
    std::fs::write(out_dir.join("builtin_plugins.rs"), table).expect("write builtin_plugins.rs");
}

/// Appends `DATASETS`: every `plugins/<dir>/data/*.jsonl` of a built-in plugin, as
/// dataset `<dir>/<file stem>` (name, source shown in messages, rows).
fn builtin_datasets(
    root: &std::path::Path,
    crates: &[geode_build::GuestCrate],
    table: &mut String,
) {
    table.push_str(
        "/// The datasets of the plugins (`plugins/<dir>/data/*.jsonl`): (name, source, rows).\n",
    );
    table.push_str(
        "#[inline(never)]\npub fn datasets() -> &'static [(&'static str, &'static str, &'static [u8])] {\n    &[\n",
    );
    for guest in crates {
        let dir = &guest.dir;
        // No `rerun-if-changed` of its own: `build_guests` watches the whole plugin directory
        // (cargo scans a directory recursively), and naming a `data/` that does not exist would
        // make cargo rerun this script on every build.
        let data = dir.join("data");
        let Ok(entries) = std::fs::read_dir(&data) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .collect();
        files.sort();
        let plugin = dir.file_name().expect("plugin dir").to_string_lossy();
        for file in files {
            let stem = file.file_stem().expect("file stem").to_string_lossy();
            let source = file
                .strip_prefix(root)
                .unwrap_or(&file)
                .display()
                .to_string();
            writeln!(
                table,
                "    ({:?}, {source:?}, include_bytes!({:?})),",
                format!("{plugin}/{stem}"),
                file.display().to_string()
            )
            .unwrap();
        }
    }
    table.push_str("    ]\n}\n");
}
