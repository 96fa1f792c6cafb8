//! Builds the built-in plugins (`plugins/*`) into components and embeds them in the runtime.

use std::fmt::Write as _;
use std::path::PathBuf;

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
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("builtin_plugins.rs");
    std::fs::write(out, table).expect("write builtin_plugins.rs");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    python_runner::embed(&root, &out_dir);
}
