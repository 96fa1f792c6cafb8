//! Builds the test plugins (`tests/plugins/*`) into components for the integration tests.

use std::path::PathBuf;

fn main() {
    let manifest_dir =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = geode_build::workspace_root(&manifest_dir);
    // Test plugins, and the example plugins (built here to prove the authoring path works).
    let mut crates = geode_build::crates_in(&manifest_dir.join("plugins"));
    crates.extend(geode_build::crates_in(&root.join("examples/plugins")));
    for (package, path) in geode_build::build_guests(&root, &crates) {
        let var = format!(
            "GEODE_TEST_PLUGIN_{}",
            package.to_uppercase().replace('-', "_")
        );
        println!("cargo:rustc-env={var}={}", path.display());
    }
}
