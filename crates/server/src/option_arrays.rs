//! tmux's array options: `status-format[1]`, `command-alias[10]`, `user-keys[0]`,
//! `pane-colours[4]`. Each element is set, appended to and unset by its index, the whole
//! array by its name (`set -a command-alias 'zz=list-sessions'` adds one at the next index).
//!
//! An array the user never changed is its defaults. Once changed, a [`Config`] keeps each
//! element under `name[i]` in its text options, with `name` itself (empty) marking that the
//! elements there replace the defaults.

use crate::config::Config;
use crate::options::{Applied, OptionDef, SetHow, MAX_OPTION_BYTES};
use std::collections::BTreeMap;
use std::sync::{Arc, PoisonError, RwLock};

/// The highest index an element may have, and so the most elements an array holds: tmux
/// takes any `u_int`, which would let a client grow the server's memory without bound.
pub const MAX_ARRAY_INDEX: usize = 999;

/// tmux's default first status line, written out as its `options-table.c` has it. weft draws
/// it natively (window tabs the mouse can click, a list that scrolls); only a user's own
/// `status-format[0]` is expanded as a format.
pub const STATUS_FORMAT_0: &str = concat!(
    "#[align=left range=left #{E:status-left-style}]#[push-default]",
    "#{T;=/#{status-left-length}:status-left}#[pop-default]#[norange default]",
    "#[list=on align=#{status-justify}]#[list=left-marker]<#[list=right-marker]>#[list=on]",
    "#{W:#[range=window|#{window_index} #{E:window-status-style}",
    "#{?#{&&:#{window_last_flag},#{!=:#{E:window-status-last-style},default}}, ",
    "#{E:window-status-last-style},}",
    "#{?#{&&:#{window_bell_flag},#{!=:#{E:window-status-bell-style},default}}, ",
    "#{E:window-status-bell-style},",
    "#{?#{&&:#{||:#{window_activity_flag},#{window_silence_flag}},",
    "#{!=:#{E:window-status-activity-style},default}}, ",
    "#{E:window-status-activity-style},}}]",
    "#[push-default]#{T:window-status-format}#[pop-default]#[norange default]",
    "#{?window_end_flag,,#{window-status-separator}},",
    "#[range=window|#{window_index} list=focus ",
    "#{?#{!=:#{E:window-status-current-style},default},",
    "#{E:window-status-current-style},#{E:window-status-style}}",
    "#{?#{&&:#{window_last_flag},#{!=:#{E:window-status-last-style},default}}, ",
    "#{E:window-status-last-style},}",
    "#{?#{&&:#{window_bell_flag},#{!=:#{E:window-status-bell-style},default}}, ",
    "#{E:window-status-bell-style},",
    "#{?#{&&:#{||:#{window_activity_flag},#{window_silence_flag}},",
    "#{!=:#{E:window-status-activity-style},default}}, ",
    "#{E:window-status-activity-style},}}]",
    "#[push-default]#{T:window-status-current-format}#[pop-default]",
    "#[norange list=on default]#{?window_end_flag,,#{window-status-separator}}}",
    "#[nolist align=right range=right #{E:status-right-style}]#[push-default]",
    "#{T;=/#{status-right-length}:status-right}#[pop-default]#[norange default]",
);

/// tmux's default second status line (`status 2`): the current window's panes and sizes.
pub const STATUS_FORMAT_1: &str = "#[align=centre]#{P:#{?pane_active,#[reverse],}\
                                   #{pane_index}[#{pane_width}x#{pane_height}]#[default] }";

/// tmux's default command aliases.
const COMMAND_ALIASES: &[&str] = &[
    "split-pane=split-window",
    "splitp=split-window",
    "server-info=show-messages -JT",
    "info=show-messages -JT",
    "choose-window=choose-tree -w",
    "choose-session=choose-tree -s",
];

/// An array option's elements before the user changes them.
pub fn defaults(name: &str) -> &'static [&'static str] {
    match name {
        "status-format" => &[STATUS_FORMAT_0, STATUS_FORMAT_1],
        "command-alias" => COMMAND_ALIASES,
        _ => &[],
    }
}

/// What separates elements when a whole array is set from one value (`set -g command-alias
/// 'a=b,c=d'`); `None`: the value is one element.
fn separator(name: &str) -> Option<char> {
    match name {
        "command-alias" | "user-keys" => Some(','),
        "pane-colours" => Some(' '),
        _ => None,
    }
}

/// `name[3]` as `("name", Some(3))`, `name` as `("name", None)`. Errors are sentences.
pub fn split_index(name: &str) -> Result<(&str, Option<usize>), String> {
    let Some(open) = name.find('[') else {
        return Ok((name, None));
    };
    let base = &name[..open];
    let index = name[open + 1..]
        .strip_suffix(']')
        .and_then(|digits| digits.parse::<usize>().ok())
        .ok_or_else(|| format!("{name}: an index is a number in brackets, as {base}[1]"))?;
    if index > MAX_ARRAY_INDEX {
        return Err(format!("{name}: an index may be at most {MAX_ARRAY_INDEX}"));
    }
    Ok((base, Some(index)))
}

/// The key an element is kept under.
fn key(name: &str, index: usize) -> String {
    format!("{name}[{index}]")
}

impl Config {
    /// The elements of array option `name`, by index.
    pub fn array_elements(&self, name: &str) -> Vec<(usize, String)> {
        if !self.options.contains_key(name) {
            return defaults(name)
                .iter()
                .enumerate()
                .map(|(i, v)| (i, v.to_string()))
                .collect();
        }
        stored_elements(&self.options, name)
    }

    /// Element `index` of array option `name`, when it has one.
    pub fn array_element(&self, name: &str, index: usize) -> Option<String> {
        if !self.options.contains_key(name) {
            return defaults(name).get(index).map(|v| v.to_string());
        }
        self.options.get(&key(name, index)).cloned()
    }

    /// Sets array option `def` (element `index`, or the whole array) as `set-option` does.
    pub(crate) fn set_array(
        &mut self,
        def: &OptionDef,
        index: Option<usize>,
        value: Option<&str>,
        how: SetHow,
    ) -> Result<Applied, String> {
        let name = def.name;
        // `-o`: an element that exists, or a whole array changed from its defaults.
        let set_already = match index {
            Some(i) => self.array_element(name, i).is_some(),
            None => self.options.contains_key(name),
        };
        if how.only_if_unset && set_already {
            return Ok(Applied::Unchanged);
        }
        if how.unset && index.is_none() {
            self.clear_array(name);
            return Ok(Applied::Now);
        }
        let mut elements: BTreeMap<usize, String> = self.array_elements(name).into_iter().collect();
        if how.unset {
            elements.remove(&index.unwrap_or_default());
        } else {
            let value = value.ok_or_else(|| format!("{name} needs a value"))?;
            match index {
                Some(i) if how.append => elements.entry(i).or_default().push_str(value),
                Some(i) => {
                    elements.insert(i, value.to_string());
                }
                None => {
                    if !how.append {
                        elements.clear();
                    }
                    // An empty value leaves the array empty, as tmux.
                    let given: Vec<&str> = match separator(name) {
                        Some(sep) => value.split(sep).filter(|v| !v.is_empty()).collect(),
                        None if value.is_empty() => Vec::new(),
                        None => vec![value],
                    };
                    for v in given {
                        // The first free index, as tmux's `options_array_assign`.
                        let next = (0..).find(|i| !elements.contains_key(i)).unwrap_or(0);
                        if next > MAX_ARRAY_INDEX {
                            return Err(format!(
                                "{name}: at most {} elements",
                                MAX_ARRAY_INDEX + 1
                            ));
                        }
                        elements.insert(next, v.to_string());
                    }
                }
            }
            for v in elements.values() {
                check_element(name, v)?;
            }
        }
        // Checked: only now does anything change.
        self.replace_array(name, elements);
        Ok(Applied::Now)
    }

    /// Makes array `name` exactly `elements` (checked already), defaults or not.
    pub(crate) fn replace_array(
        &mut self,
        name: &str,
        elements: impl IntoIterator<Item = (usize, String)>,
    ) {
        self.clear_array(name);
        self.options.insert(name.to_string(), String::new());
        for (i, v) in elements {
            self.options.insert(key(name, i), v);
        }
    }

    /// Forgets every element of `name` and its marker: the defaults again.
    fn clear_array(&mut self, name: &str) {
        forget(&mut self.options, name);
    }
}

/// The elements of array `name` kept in `values` (under `name[i]`), by index: a
/// configuration's, or one level's (`option_scopes`).
pub(crate) fn stored_elements(
    values: &BTreeMap<String, String>,
    name: &str,
) -> Vec<(usize, String)> {
    let prefix = format!("{name}[");
    let mut elements: Vec<(usize, String)> = values
        .range(prefix.clone()..)
        .take_while(|(k, _)| k.starts_with(&prefix))
        .filter_map(|(k, v)| {
            let index = k[prefix.len()..].strip_suffix(']')?.parse().ok()?;
            Some((index, v.clone()))
        })
        .collect();
    elements.sort_by_key(|(i, _)| *i);
    elements
}

/// Removes array `name` from `values`: its marker and every element.
pub(crate) fn forget(values: &mut BTreeMap<String, String>, name: &str) {
    let prefix = format!("{name}[");
    values.retain(|k, _| k != name && !k.starts_with(&prefix));
}

/// An alias entry (`NAME=COMMAND`) as its name and command, trimmed.
fn split_alias(entry: &str) -> Option<(&str, &str)> {
    let (alias, command) = entry.split_once('=')?;
    Some((alias.trim(), command.trim()))
}

/// An element checked for its array: an alias needs its `=`, a value at most
/// [`MAX_OPTION_BYTES`].
fn check_element(name: &str, value: &str) -> Result<(), String> {
    if value.len() > MAX_OPTION_BYTES {
        return Err(format!(
            "{name}: a value may be at most {} KiB",
            MAX_OPTION_BYTES >> 10
        ));
    }
    if name == "pane-colours" {
        return crate::options::check_colour(name, value);
    }
    if name == "command-alias" {
        match value.split_once('=') {
            Some((_, command))
                if command
                    .split_whitespace()
                    .any(|w| w == ";" || w.ends_with(";")) =>
            {
                return Err(format!(
                    "command-alias: {value:?} holds several commands; an alias stands for one \
                     (bind a key to several instead)"
                ))
            }
            Some((alias, command)) if !alias.trim().is_empty() && !command.trim().is_empty() => {}
            _ => {
                return Err(format!(
                    "command-alias: {value:?} is not an alias: write NAME=COMMAND, as \
                     zz=list-sessions"
                ))
            }
        }
    }
    Ok(())
}

/// The command aliases in force, for the command parser, which has no configuration at hand
/// (it also runs in the client to check a command before sending it).
///
/// Published whole by the configuration in force when it changes (the registry) and by a
/// configuration file's `set-option` lines as it loads (before the server listens, so later
/// lines of the file see the aliases); every parse reads it. `None` until then: tmux's
/// defaults. Copies of a configuration that are only checked never publish.
static ALIASES: RwLock<Option<Arc<AliasTable>>> = RwLock::new(None);

/// Each alias and the command line it stands for.
type AliasTable = Vec<(String, String)>;

/// Publishes `config`'s `command-alias` as the table the parser reads.
pub fn publish_aliases(config: &Config) {
    let table: AliasTable = config
        .array_elements("command-alias")
        .into_iter()
        .filter_map(|(_, v)| {
            let (alias, command) = split_alias(&v)?;
            Some((alias.to_string(), command.to_string()))
        })
        .collect();
    *ALIASES.write().unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(table));
}

/// The command `config`'s `command-alias` says `name` stands for, if it is an alias there.
pub fn alias_in(config: &Config, name: &str) -> Option<String> {
    config
        .array_elements("command-alias")
        .into_iter()
        .find_map(|(_, entry)| {
            let (alias, command) = split_alias(&entry)?;
            (alias == name).then(|| command.to_string())
        })
}

/// The command an alias stands for (`splitp` → `split-window`), if `name` is one.
pub fn alias(name: &str) -> Option<String> {
    let published = ALIASES
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    match published {
        Some(table) => table
            .iter()
            .find(|(a, _)| a == name)
            .map(|(_, c)| c.clone()),
        None => COMMAND_ALIASES.iter().find_map(|entry| {
            let (alias, command) = split_alias(entry)?;
            (alias == name).then(|| command.to_string())
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(
        c: &mut Config,
        name: &str,
        value: Option<&str>,
        how: SetHow,
    ) -> Result<Applied, String> {
        c.set_option(name, value, how)
    }

    #[test]
    fn elements_set_append_and_unset_by_index() {
        let mut c = Config::default();
        assert_eq!(c.array_elements("status-format").len(), 2);
        assert_eq!(
            c.array_element("status-format", 1).as_deref(),
            Some(STATUS_FORMAT_1)
        );
        set(&mut c, "status-format[1]", Some("#S"), SetHow::default()).unwrap();
        assert_eq!(c.array_element("status-format", 1).as_deref(), Some("#S"));
        assert_eq!(
            c.array_element("status-format", 0).as_deref(),
            Some(STATUS_FORMAT_0),
            "the other elements keep their defaults"
        );
        let append = SetHow {
            append: true,
            ..SetHow::default()
        };
        set(&mut c, "status-format[1]", Some("!"), append).unwrap();
        assert_eq!(c.array_element("status-format", 1).as_deref(), Some("#S!"));
        let unset = SetHow {
            unset: true,
            ..SetHow::default()
        };
        set(&mut c, "status-format[1]", None, unset).unwrap();
        assert_eq!(c.array_element("status-format", 1), None);
        set(&mut c, "status-format", None, unset).unwrap();
        assert_eq!(
            c.array_element("status-format", 1).as_deref(),
            Some(STATUS_FORMAT_1)
        );
    }

    #[test]
    fn a_whole_array_is_split_and_appended_at_the_next_index() {
        let mut c = Config::default();
        let append = SetHow {
            append: true,
            ..SetHow::default()
        };
        set(&mut c, "command-alias", Some("zz=list-sessions"), append).unwrap();
        let elements = c.array_elements("command-alias");
        assert_eq!(elements.len(), COMMAND_ALIASES.len() + 1);
        assert_eq!(
            elements.last().map(|(i, _)| *i),
            Some(COMMAND_ALIASES.len())
        );
        set(&mut c, "command-alias", Some("a=b,c=d"), SetHow::default()).unwrap();
        assert_eq!(
            c.array_elements("command-alias"),
            vec![(0, "a=b".to_string()), (1, "c=d".to_string())]
        );
    }

    #[test]
    fn bad_indexes_and_aliases_are_refused_and_change_nothing() {
        let mut c = Config::default();
        assert!(set(&mut c, "status-format[x]", Some("a"), SetHow::default()).is_err());
        assert!(set(&mut c, "status-format[1000]", Some("a"), SetHow::default()).is_err());
        assert!(set(&mut c, "mouse[1]", Some("on"), SetHow::default()).is_err());
        assert!(set(
            &mut c,
            "command-alias[3]",
            Some("no-equals"),
            SetHow::default()
        )
        .is_err());
        assert_eq!(
            c.array_elements("command-alias").len(),
            COMMAND_ALIASES.len()
        );
    }

    #[test]
    fn indexes_are_split_from_names() {
        assert_eq!(split_index("user-keys[12]"), Ok(("user-keys", Some(12))));
        assert_eq!(split_index("status"), Ok(("status", None)));
        assert!(split_index("a[]").is_err());
        assert!(split_index("a[-1]").is_err());
    }
}
