//! `convert-config`: an older TOML configuration written as the commands of a `weft.conf`.

use crate::config::Config;
use crate::options::OPTIONS;

/// The commands that make the defaults into `config`: `set -g` for each option that differs,
/// `bind` / `unbind` for each binding that differs.
pub fn as_commands(config: &Config) -> String {
    let defaults = Config::default();
    let mut out = vec!["# Written by weft convert-config.".to_string()];
    for o in OPTIONS {
        let (now, was) = (config.option_value(o.name), defaults.option_value(o.name));
        if now != was {
            if let Some(v) = now {
                out.push(format!("set -g {} {}", o.name, quote(&v)));
            }
        }
    }
    let tables = [
        (
            "prefix",
            &config.keys.prefix_table,
            &defaults.keys.prefix_table,
        ),
        ("root", &config.keys.root_table, &defaults.keys.root_table),
        (
            "copy-mode",
            &config.keys.copy_mode,
            &defaults.keys.copy_mode,
        ),
        (
            "copy-mode-vi",
            &config.keys.copy_mode_vi,
            &defaults.keys.copy_mode_vi,
        ),
    ];
    for (table, now, was) in tables {
        for key in was.keys().filter(|k| !now.contains_key(*k)) {
            out.push(format!("unbind -T {table} {}", quote(key)));
        }
        for (key, command) in now.iter().filter(|(k, c)| was.get(*k) != Some(c)) {
            out.push(format!("bind -T {table} {} {command}", quote(key)));
        }
    }
    out.join("\n") + "\n"
}

/// A word as a configuration line spells it.
fn quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./@:%+=,|".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toml_configuration_becomes_commands_that_load_the_same() {
        let toml = "prefix = \"C-a\"\nmouse = false\nscrollback-lines = 500\n\
                    [keys.prefix]\n\"|\" = \"split-window -h\"\n\"%\" = \"\"\n";
        let loaded = Config::parse(toml, "t", &|_| Ok(())).unwrap();
        let text = as_commands(&loaded.config);
        assert!(text.contains("set -g prefix C-a"), "{text}");
        assert!(text.contains("set -g mouse off"), "{text}");
        assert!(text.contains("set -g history-limit 500"), "{text}");
        assert!(text.contains("bind -T prefix | split-window -h"), "{text}");
        assert!(text.contains("unbind -T prefix %"), "{text}");
    }
}
