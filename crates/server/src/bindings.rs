//! Changing key bindings by table: `bind-key` and `unbind-key` on [`KeyTables`].

use crate::keys::{normalize, KeyTables};
use std::collections::BTreeMap;

/// The most keys bound in one table, the most tables of the user's own, and the longest bound
/// command line: a client may not grow the server's memory without bound.
pub const MAX_KEYS_PER_TABLE: usize = 4096;
/// See [`MAX_KEYS_PER_TABLE`].
pub const MAX_USER_TABLES: usize = 256;
/// See [`MAX_KEYS_PER_TABLE`].
pub const MAX_COMMAND_BYTES: usize = 16 << 10;

/// The tables weft itself uses; any other name is a table of the user's own.
pub const BUILT_IN_TABLES: &[&str] = &["prefix", "root", "copy-mode", "copy-mode-vi"];

impl KeyTables {
    /// The bindings of `table`, made on first use for a table of the user's own.
    fn table_mut(&mut self, table: &str) -> &mut BTreeMap<String, String> {
        match table {
            "prefix" => &mut self.prefix_table,
            "root" => &mut self.root_table,
            "copy-mode" => &mut self.copy_mode,
            "copy-mode-vi" => &mut self.copy_mode_vi,
            other => self.user.entry(other.to_string()).or_default(),
        }
    }

    /// The bindings of `table`, if it exists.
    pub fn table(&self, table: &str) -> Option<&BTreeMap<String, String>> {
        match table {
            "prefix" => Some(&self.prefix_table),
            "root" => Some(&self.root_table),
            "copy-mode" => Some(&self.copy_mode),
            "copy-mode-vi" => Some(&self.copy_mode_vi),
            other => self.user.get(other),
        }
    }

    /// Binds `key` in `table` to the command line `command`; `repeat` (`-r`) lets it repeat,
    /// `note` (`-N`) describes it. Errors are sentences.
    pub fn bind(
        &mut self,
        table: &str,
        key: &str,
        command: &str,
        repeat: bool,
        note: Option<&str>,
    ) -> Result<(), String> {
        check_table_name(table)?;
        let key = normalize(key)?;
        if command.len() > MAX_COMMAND_BYTES {
            return Err(format!(
                "a bound command may be at most {} KiB",
                MAX_COMMAND_BYTES >> 10
            ));
        }
        let new_table = self.table(table).is_none();
        if new_table && self.user.len() >= MAX_USER_TABLES {
            return Err(format!(
                "at most {MAX_USER_TABLES} key tables of your own are kept"
            ));
        }
        if self
            .table(table)
            .is_some_and(|t| t.len() >= MAX_KEYS_PER_TABLE && !t.contains_key(&key))
        {
            return Err(format!(
                "at most {MAX_KEYS_PER_TABLE} keys are bound in one table"
            ));
        }
        let id = format!("{table} {key}");
        if repeat {
            self.repeat.insert(id.clone());
        } else {
            self.repeat.remove(&id);
        }
        match note {
            Some(n) => {
                self.notes.insert(id, n.to_string());
            }
            None => {
                self.notes.remove(&id);
            }
        }
        self.table_mut(table).insert(key, command.to_string());
        Ok(())
    }

    /// Removes `key` from `table` (every key with `key` `None`). Unbinding a key that is not
    /// bound is not an error, as in tmux.
    pub fn unbind(&mut self, table: &str, key: Option<&str>) -> Result<(), String> {
        check_table_name(table)?;
        match key {
            Some(key) => {
                let key = normalize(key)?;
                let id = format!("{table} {key}");
                self.repeat.remove(&id);
                self.notes.remove(&id);
                self.table_mut(table).remove(&key);
            }
            None => {
                let prefix = format!("{table} ");
                self.repeat.retain(|id| !id.starts_with(&prefix));
                self.notes.retain(|id, _| !id.starts_with(&prefix));
                self.table_mut(table).clear();
            }
        }
        Ok(())
    }

    /// Whether `key` of `table` repeats (`bind -r`).
    pub fn repeats(&self, table: &str, key: &str) -> bool {
        self.repeat.contains(&format!("{table} {key}"))
    }

    /// What `key` is bound to (`list-keys [-N] [-T table] KEY`), a line per table that binds
    /// it: `table` only, or every table (`prefix` and `root` for notes). With `notes`, as tmux
    /// describes a key (`C-b c new-window`): the prefix before the prefix table's keys
    /// (`prefix`, else the prefix key), then its note, or its command when it has none.
    pub fn describe_key(
        &self,
        table: Option<&str>,
        key: &str,
        notes: bool,
        prefix: Option<&str>,
    ) -> Result<Vec<String>, String> {
        let key = normalize(key)?;
        let mut tables: Vec<&str> = match table {
            Some(t) => vec![t],
            None if notes => vec!["prefix", "root"],
            None => BUILT_IN_TABLES.to_vec(),
        };
        if table.is_none() && !notes {
            tables.extend(self.user.keys().map(String::as_str));
        }
        let mut lines = Vec::new();
        for t in tables {
            let Some(command) = self.table(t).and_then(|k| k.get(&key)) else {
                continue;
            };
            if notes {
                let before = match (t, prefix) {
                    (_, Some(p)) => p.to_string(),
                    ("prefix", None) => format!("{} ", self.prefix),
                    _ => String::new(),
                };
                let note = self.notes.get(&format!("{t} {key}")).unwrap_or(command);
                lines.push(format!("{before}{key} {note}"));
            } else {
                let r = if self.repeats(t, &key) { "-r " } else { "" };
                lines.push(format!("bind-key {r}-T {t} {key} {command}"));
            }
        }
        Ok(lines)
    }
}

/// A table name a user may give: printable, no spaces, not too long.
fn check_table_name(table: &str) -> Result<(), String> {
    if table.is_empty() || table.len() > 64 || !table.chars().all(|c| c.is_ascii_graphic()) {
        return Err(format!("{table:?} is not a key table name"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bind_unbind_and_user_tables() {
        let mut k = KeyTables::default();
        k.bind("prefix", "|", "split-window -h", false, Some("split"))
            .unwrap();
        assert_eq!(
            k.prefix_table.get("|").map(String::as_str),
            Some("split-window -h")
        );
        k.bind("prefix", "M-Up", "resize-pane -U", true, None)
            .unwrap();
        assert!(k.repeats("prefix", "M-Up"));
        k.bind("resize", "h", "resize-pane -L", true, None).unwrap();
        assert!(k.table("resize").is_some_and(|t| t.contains_key("h")));
        k.unbind("prefix", Some("|")).unwrap();
        assert!(!k.prefix_table.contains_key("|"));
        k.unbind("root", None).unwrap();
        assert!(k.root_table.is_empty());
        assert!(k.bind("bad table", "x", "y", false, None).is_err());
    }
}
