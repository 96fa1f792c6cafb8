//! Builds the built-in plugins (`plugins/*`) into components and embeds them in the runtime.

use std::fmt::Write as _;
use std::path::PathBuf;

#[path = "build/math_grader.rs"]
mod math_grader;
#[path = "build/python_runner.rs"]
mod python_runner;

fn main() {
    let manifest_dir =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = geode_build::workspace_root(&manifest_dir);
    let crates = geode_build::crates_in(&root.join("plugins"));
    let built = geode_build::build_guests(&root, &crates);
    let mut table = String::from(
        "/// Built-in plugins compiled from `plugins/`: (package name, component bytes).\n",
    );
    table.push_str("pub static BUILTIN_PLUGINS: &[(&str, &[u8])] = &[\n");
    for (package, path) in built {
        writeln!(
            table,
            "    ({package:?}, include_bytes!({:?})),",
            path.display().to_string()
        )
        .unwrap();
    }
    table.push_str("];\n");
    builtin_datasets(&root, &crates, &mut table);
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("builtin_plugins.rs");
    std::fs::write(out, table).expect("write builtin_plugins.rs");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    python_runner::embed(&root, &out_dir);
    math_grader::embed(&root, &out_dir);
}

/// Appends `BUILTIN_DATASETS`: every `plugins/<dir>/data/*.jsonl` of a built-in plugin, as
/// dataset `<dir>/<file stem>` (name, source shown in messages, rows).
fn builtin_datasets(
    root: &std::path::Path,
    crates: &[geode_build::GuestCrate],
    table: &mut String,
) {
    table.push_str(
        "/// Datasets of built-in plugins (`plugins/<dir>/data/*.jsonl`): (name, source, rows).\n",
    );
    table.push_str("pub static BUILTIN_DATASETS: &[(&str, &str, &[u8])] = &[\n");
    for guest in crates {
        let dir = &guest.dir;
        let data = dir.join("data");
        println!("cargo:rerun-if-changed={}", data.display());
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
    table.push_str("];\n");
}
