//! Options set on one session, window or pane (`set-option` without `-g`), over the level
//! above: the global options for a session, the session's for a window, the window's for a
//! pane, as tmux inherits them.
//!
//! A level keeps only the values set on it, as checked text; the options in force there are the
//! level above's configuration with those values set on a copy ([`LocalOptions::over`]), so
//! every option weft acts on (typed fields included) reads the same way at every level.

use crate::config::Config;
use crate::options::{Applied, SetHow, MAX_USER_OPTIONS, OPTIONS};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The most values one level keeps: every option of tmux's and the user options a global
/// configuration may hold, so a client cannot grow a session's memory without bound.
pub const MAX_LOCAL_OPTIONS: usize = MAX_USER_OPTIONS + OPTIONS.len();

/// The values set on one level, by option name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocalOptions {
    values: BTreeMap<String, String>,
}

impl LocalOptions {
    /// Nothing set here: everything is inherited.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The value set here, if one is.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// The values set here, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// The configuration in force at this level: `above`'s with these values set. `above`
    /// itself when nothing is set here (no copy).
    pub fn over(&self, above: &Arc<Config>) -> Arc<Config> {
        if self.values.is_empty() {
            return above.clone();
        }
        let mut config = Config::clone(above);
        for (name, value) in &self.values {
            if is_array(name) {
                // The marker: the elements here replace the array above whole.
                if !name.contains('[') {
                    config.replace_array(name, self.elements(name));
                }
                continue;
            }
            // Checked when it was set; an option set here that the level above no longer
            // takes (a TOML reload cannot remove one) is left out rather than failing.
            if let Err(e) = config.set_option(name, Some(value), SetHow::default()) {
                tracing::debug!("local option {name} left out: {e}");
            }
        }
        Arc::new(config)
    }

    /// Sets `name` here as `set-option` does (`how`: unset, append, only if unset), checked
    /// and computed against `above` (a flag toggles from the value in force). Errors are
    /// sentences for the user.
    pub fn set(
        &mut self,
        above: &Arc<Config>,
        name: &str,
        value: Option<&str>,
        how: SetHow,
    ) -> Result<Applied, String> {
        let name = &*crate::options::canonical_name(name);
        if how.unset {
            if !name.starts_with('@') && crate::options::find(name).is_none() {
                return Err(format!("unknown option: {name}"));
            }
            if is_array(name) && !name.contains('[') {
                // The whole array: inherited again.
                self.forget_array(name);
            } else {
                self.values.remove(name);
            }
            return Ok(Applied::Now);
        }
        if is_array(name) {
            return self.set_array(above, name, value, how);
        }
        if how.only_if_unset && self.values.contains_key(name) {
            return Ok(Applied::Unchanged);
        }
        if !self.values.contains_key(name) && self.values.len() >= MAX_LOCAL_OPTIONS {
            return Err(format!(
                "at most {MAX_LOCAL_OPTIONS} options are kept on one session, window or pane"
            ));
        }
        let mut config = Config::clone(&self.over(above));
        let how = SetHow {
            only_if_unset: false,
            ..how
        };
        let applied = config.set_option(name, value, how)?;
        let text = config.option_value(name).unwrap_or_default();
        self.values.insert(name.to_string(), text);
        Ok(applied)
    }

    /// [`LocalOptions::set`] for an array option: the whole array as it comes out is kept
    /// here, each element under `name[i]` with the marker `name`.
    fn set_array(
        &mut self,
        above: &Arc<Config>,
        name: &str,
        value: Option<&str>,
        how: SetHow,
    ) -> Result<Applied, String> {
        let base = name.split_once('[').map_or(name, |(b, _)| b);
        let mut config = Config::clone(&self.over(above));
        let applied = config.set_option(name, value, how)?;
        if applied == Applied::Unchanged {
            // `-o` on what is set already: nothing is copied to this level.
            return Ok(applied);
        }
        let elements = config.array_elements(base);
        let here = self.elements(base).len() + usize::from(self.values.contains_key(base));
        if self.values.len() - here + elements.len() + 1 > MAX_LOCAL_OPTIONS {
            return Err(format!(
                "at most {MAX_LOCAL_OPTIONS} options are kept on one session, window or pane"
            ));
        }
        self.forget_array(base);
        self.values.insert(base.to_string(), String::new());
        for (i, v) in elements {
            self.values.insert(format!("{base}[{i}]"), v);
        }
        Ok(applied)
    }

    /// The elements of array `name` kept here, by index.
    fn elements(&self, name: &str) -> Vec<(usize, String)> {
        crate::option_arrays::stored_elements(&self.values, name)
    }

    /// Forgets array `name` here: its marker and every element.
    fn forget_array(&mut self, name: &str) {
        crate::option_arrays::forget(&mut self.values, name);
    }
}

/// Whether `name` (or the array an element `name[i]` is of) is an array option.
fn is_array(name: &str) -> bool {
    crate::options::find(name).is_some_and(|d| d.kind == crate::options::Kind::Array)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(local: &mut LocalOptions, above: &Arc<Config>, name: &str, value: Option<&str>) {
        local
            .set(above, name, value, SetHow::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }

    #[test]
    fn a_level_overrides_the_one_above_and_inherits_the_rest() {
        let global = Arc::new(Config::default());
        let mut session = LocalOptions::default();
        assert!(Arc::ptr_eq(&session.over(&global), &global));
        set(&mut session, &global, "status", Some("off"));
        set(&mut session, &global, "status-left", Some("[#S]"));
        set(&mut session, &global, "@theme", Some("dark"));
        let in_force = session.over(&global);
        assert!(!in_force.status, "a typed field follows the local value");
        assert!(global.status, "the level above is untouched");
        assert_eq!(
            in_force.option_value("status-left").as_deref(),
            Some("[#S]")
        );
        assert_eq!(in_force.option_value("@theme").as_deref(), Some("dark"));
        assert_eq!(
            in_force.option_value("history-limit"),
            global.option_value("history-limit")
        );

        let mut window = LocalOptions::default();
        set(&mut window, &in_force, "monitor-activity", Some("on"));
        let window_in_force = window.over(&in_force);
        assert!(!window_in_force.status, "a window inherits its session's");
        assert_eq!(
            window_in_force.option_value("monitor-activity").as_deref(),
            Some("on")
        );
    }

    #[test]
    fn toggles_appends_unsets_and_checks_against_the_value_in_force() {
        let mut global = Config::default();
        global
            .set_option("mouse", Some("off"), SetHow::default())
            .unwrap();
        let global = Arc::new(global);
        let mut local = LocalOptions::default();
        set(&mut local, &global, "mouse", None);
        assert_eq!(
            local.get("mouse"),
            Some("on"),
            "toggled from the global off"
        );
        let append = SetHow {
            append: true,
            ..SetHow::default()
        };
        local
            .set(&global, "status-right", Some("!"), append)
            .unwrap();
        let expected = format!("{}!", global.option_value("status-right").unwrap());
        assert_eq!(local.get("status-right"), Some(expected.as_str()));
        let only = SetHow {
            only_if_unset: true,
            ..SetHow::default()
        };
        assert_eq!(
            local.set(&global, "mouse", Some("off"), only),
            Ok(Applied::Unchanged)
        );
        assert!(local
            .set(&global, "mouse", Some("maybe"), SetHow::default())
            .is_err());
        assert!(local
            .set(&global, "no-such", Some("1"), SetHow::default())
            .is_err());
        assert_eq!(
            local.get("mouse"),
            Some("on"),
            "a refused value changes nothing"
        );
        let unset = SetHow {
            unset: true,
            ..SetHow::default()
        };
        local.set(&global, "mouse", None, unset).unwrap();
        assert_eq!(local.get("mouse"), None);
        assert!(!local.over(&global).mouse, "inherited again");
    }

    #[test]
    fn an_array_set_on_a_level_replaces_the_one_above_whole() {
        let global = Arc::new(Config::default());
        let mut session = LocalOptions::default();
        let append = SetHow {
            append: true,
            ..SetHow::default()
        };
        session
            .set(&global, "status-format", Some("#S"), append)
            .unwrap();
        let in_force = session.over(&global);
        let formats = in_force.array_elements("status-format");
        assert_eq!(formats.len(), 3, "the defaults and the one appended");
        assert_eq!(formats[2].1, "#S");
        session
            .set(
                &global,
                "status-format[1]",
                None,
                SetHow {
                    unset: true,
                    ..SetHow::default()
                },
            )
            .unwrap();
        let in_force = session.over(&global);
        assert_eq!(in_force.array_element("status-format", 1), None);
        assert_eq!(
            in_force.array_element("status-format", 2).as_deref(),
            Some("#S")
        );
        session
            .set(
                &global,
                "status-format",
                None,
                SetHow {
                    unset: true,
                    ..SetHow::default()
                },
            )
            .unwrap();
        assert!(session.is_empty(), "the whole array unset: inherited again");
    }
}
