//! Light and dark default styles for weft's chrome (`set -g theme auto|light|dark`).
//!
//! A style option the user never set takes its default from the theme of the client drawing
//! it: `auto` picks by the background colour the client's terminal reported (light: the light
//! set; dark or unknown: tmux's classic look, the options' own defaults). An option the user
//! set wins over any theme, and `show-options` shows tmux's default for an unset one.

use crate::config::Config;

/// The default styles a client's chrome is drawn with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// tmux's defaults (green status bar), for dark terminals and those that do not say.
    #[default]
    Dark,
    /// Defaults legible on a white background.
    Light,
}

/// The light set: option name and its default under [`Theme::Light`]. Options not listed keep
/// tmux's default in both themes (yellow messages and selections read well on either).
const LIGHT: &[(&str, &str)] = &[
    ("status-style", "bg=colour252,fg=black"),
    ("pane-active-border-style", "fg=blue"),
];

impl Theme {
    /// The theme for `setting` (the `theme` option) on a terminal whose background is dark
    /// (`Some(true)`), light (`Some(false)`) or unknown (`None`).
    pub fn pick(setting: &str, dark_background: Option<bool>) -> Theme {
        match setting {
            "light" => Theme::Light,
            "dark" => Theme::Dark,
            _ if dark_background == Some(false) => Theme::Light,
            _ => Theme::Dark,
        }
    }

    /// The theme `config` gives a terminal whose background is dark, light or unknown.
    pub fn for_terminal(config: &Config, dark_background: Option<bool>) -> Theme {
        let setting = config.option_value("theme").unwrap_or_default();
        Theme::pick(&setting, dark_background)
    }

    /// This theme's default for option `name`, when it differs from the option's own.
    pub fn default_of(self, name: &str) -> Option<&'static str> {
        match self {
            Theme::Dark => None,
            Theme::Light => LIGHT.iter().find(|(n, _)| *n == name).map(|(_, v)| *v),
        }
    }
}

impl Config {
    /// Option `name` as a client with `theme` draws it: the user's value when set, else the
    /// theme's default, else the option's own (`None` for an unknown option).
    pub fn themed_option(&self, name: &str, theme: Theme) -> Option<String> {
        if self.options.contains_key(name) {
            return self.option_value(name);
        }
        match theme.default_of(name) {
            Some(value) => Some(value.to_string()),
            None => self.option_value(name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::SetHow;

    #[test]
    fn auto_follows_the_background_and_unknown_is_dark() {
        assert_eq!(Theme::pick("auto", Some(false)), Theme::Light);
        assert_eq!(Theme::pick("auto", Some(true)), Theme::Dark);
        assert_eq!(Theme::pick("auto", None), Theme::Dark);
        assert_eq!(Theme::pick("dark", Some(false)), Theme::Dark);
        assert_eq!(Theme::pick("light", Some(true)), Theme::Light);
        assert_eq!(
            Theme::for_terminal(&Config::default(), Some(false)),
            Theme::Light
        );
    }

    #[test]
    fn the_dark_set_is_tmuxs_defaults_and_the_light_one_differs() {
        let config = Config::default();
        for (name, light) in LIGHT {
            assert_eq!(
                config.themed_option(name, Theme::Dark),
                config.option_value(name),
                "{name}"
            );
            assert_eq!(
                config.themed_option(name, Theme::Light).as_deref(),
                Some(*light)
            );
            assert!(
                crate::style::parse(light, &Default::default()).is_ok(),
                "{name}: {light} parses"
            );
        }
        assert_eq!(
            config.themed_option("status-style", Theme::Dark).as_deref(),
            Some("bg=green,fg=black")
        );
        assert_eq!(
            config
                .themed_option("message-style", Theme::Light)
                .as_deref(),
            Some("bg=yellow,fg=black")
        );
    }

    #[test]
    fn a_style_the_user_set_wins_and_show_options_keeps_tmuxs_default() {
        let mut config = Config::default();
        config
            .set_option("status-style", Some("bg=red"), SetHow::default())
            .expect("a valid style");
        assert_eq!(
            config
                .themed_option("status-style", Theme::Light)
                .as_deref(),
            Some("bg=red")
        );
        assert_eq!(
            Config::default().option_value("status-style").as_deref(),
            Some("bg=green,fg=black")
        );
    }
}
