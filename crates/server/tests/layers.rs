//! The server's modules import each other one way, as the design's layers say: a module may use
//! modules of its own layer's utilities and of the layers below it, never above. A new import
//! that goes upwards (say the pane reaching into the renderer) fails here, naming the file.

use std::collections::BTreeMap;
use std::path::Path;

/// Each top-level module of `crates/server/src` and its layer, lowest first. Utilities (0) use
/// nothing of the server; panes (1) use utilities; windows and layouts (2); sessions (3); the
/// registry and what is shared with commands (4); clients, renderers and commands on top (5);
/// the listener that starts connections (6).
const LAYERS: &[(&str, u8)] = &[
    ("ids", 0),
    ("outcome", 0),
    ("deadline", 0),
    ("direct", 0),
    ("memory", 0),
    ("message_log", 0),
    ("metrics", 0),
    ("priority", 0),
    ("flood_shares", 0),
    ("sched", 0),
    ("client_runtime", 0),
    ("key_names", 0),
    ("keys", 0),
    ("key_tables", 0),
    ("default_menus", 0),
    ("pane_keys", 0),
    ("bindings", 0),
    ("capture", 0),
    ("limits", 0),
    ("socket_file", 0),
    ("tmux_shim", 0),
    ("startup_runs", 1),
    ("lease", 0),
    ("names", 0),
    ("words", 0),
    ("prompt_history", 0),
    ("format", 0),
    ("style", 0),
    ("panics", 0),
    ("copy", 0),
    ("copy_keys", 0),
    ("buffers", 0),
    ("hooks", 0),
    ("wait_channels", 0),
    ("terminal", 0),
    ("config", 1),
    ("options", 1),
    ("option_scopes", 1),
    ("option_arrays", 1),
    ("theme", 1),
    ("conf_file", 1),
    ("convert", 1),
    ("pane", 1),
    ("layout", 2),
    ("events", 2),
    ("session", 3),
    ("registry", 4),
    ("context", 4),
    ("render", 5),
    ("cmd", 5),
    ("connection", 6),
    ("hook_runner", 6),
    ("listener", 7),
];

fn layer(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

/// The top-level module a source file belongs to (`pane/shared.rs` -> `pane`).
fn module_of(path: &Path, src: &Path) -> Option<String> {
    let rel = path.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    Some(first.trim_end_matches(".rs").to_string())
}

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src").flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn modules_import_each_other_only_downwards() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut upward: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in &files {
        let Some(module) = module_of(file, &src) else {
            continue;
        };
        if module == "lib" {
            continue;
        }
        let Some(own) = layer(&module) else {
            panic!("{module} has no layer: add it to LAYERS in this test");
        };
        let text = std::fs::read_to_string(file).expect("read source");
        // Unit-test modules (at the end of a file) may reach anywhere.
        let code = text.split("#[cfg(test)]\nmod ").next().unwrap_or(&text);
        for (i, _) in code.match_indices("crate::") {
            let used: String = code[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if used == module || used.is_empty() {
                continue;
            }
            match layer(&used) {
                Some(l) if l <= own => {}
                Some(_) => upward
                    .entry(file.display().to_string())
                    .or_default()
                    .push(format!("{module} uses {used}")),
                None => panic!("{used} (used by {module}) has no layer: add it to LAYERS"),
            }
        }
    }
    assert!(upward.is_empty(), "imports that go up a layer: {upward:#?}");
}
