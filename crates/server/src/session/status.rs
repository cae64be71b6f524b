//! The status line's content, as tmux's options describe it: `status-left`, each window's
//! `window-status-format` (or `-current-format`) and `status-right`, expanded here where the
//! session's state lives (variables, `strftime` times, `#()` shell commands' output), with the
//! styles and sizes a renderer needs to lay it out for its client.
//!
//! Nothing here ticks: the session asks to be woken again ([`SessionState::status_due`]) only
//! while something shown can change with time, at the next minute for a clock that shows
//! minutes, after `status-interval` for seconds and for shell commands.

use super::status_jobs::JobLookup;
use super::{SessionState, StatusLine, WindowTab};
use crate::config::Config;
pub use crate::format::time::{strftime, Clock};
use crate::format::{self, Loop, Vars};
use crate::style::Align;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::time::Duration;
use tokio::time::Instant;

/// The most columns a `status-left-length` or `status-right-length` gives a part: wider than
/// any terminal, and a bound on the work of laying a part out.
const MAX_PART_COLUMNS: usize = 4096;

/// When the wall clock next turns to a new minute (a few milliseconds after, so the clock
/// read then shows the new minute).
pub fn next_minute() -> Instant {
    let now = chrono::Local::now();
    let secs = u64::from(chrono::Timelike::second(&now)).min(59);
    let nanos = u64::from(chrono::Timelike::nanosecond(&now)).min(999_999_999);
    let left = Duration::from_secs(60 - secs).saturating_sub(Duration::from_nanos(nanos));
    Instant::now() + left + Duration::from_millis(5)
}

/// A session's variables for a status format: a pane's own, escaped so that a `#` in a name
/// shows as itself (the status line reads `##` as `#` and `#[` as a style); options by name
/// (`#{status-left-length}`, `#{@theme}`), unescaped, as formats; shell commands from the
/// session's cache.
struct StatusVars<'a, 'j> {
    vars: Cow<'a, HashMap<String, String>>,
    shared: &'a Shared<'a, 'j>,
}

/// What every [`StatusVars`] of one expansion shares: options, the command cache, and what
/// loops (`#{W:...}`) go over.
struct Shared<'a, 'j> {
    config: &'a Config,
    jobs: RefCell<JobLookup<'j>>,
    /// The session's own variables.
    session: &'a HashMap<String, String>,
    /// This session's id, and where the others' summaries are (read only when a format
    /// loops over sessions, `#{S:...}`).
    session_id: crate::ids::SessionId,
    directory: &'a super::SessionDirectory,
    /// Each window's variables, and whether it is current.
    windows: Vec<(&'a HashMap<String, String>, bool)>,
    /// Each pane of the current window, and whether it is active (only when a format has
    /// `#{P:`).
    panes: Vec<(HashMap<String, String>, bool)>,
}

impl Vars for StatusVars<'_, '_> {
    fn get(&self, name: &str) -> Option<String> {
        match self.vars.get(name) {
            Some(v) => Some(v.replace('#', "##")),
            None => self.shared.config.option_value(name),
        }
    }

    fn command(&self, cmd: &str) -> Option<String> {
        self.shared.jobs.borrow_mut().lookup(cmd)
    }

    fn each(&self, over: Loop) -> Vec<(Box<dyn Vars + '_>, bool)> {
        let shared = self.shared;
        let items: Vec<(Cow<'_, HashMap<String, String>>, bool)> = match over {
            Loop::Sessions => shared
                .directory
                .sessions()
                .into_iter()
                .map(|other| {
                    if other.id == shared.session_id {
                        (Cow::Borrowed(shared.session), true)
                    } else {
                        (Cow::Owned(other.format_vars()), false)
                    }
                })
                .collect(),
            Loop::Windows => shared
                .windows
                .iter()
                .map(|&(vars, current)| (Cow::Borrowed(vars), current))
                .collect(),
            Loop::Panes => shared
                .panes
                .iter()
                .map(|(vars, current)| (Cow::Borrowed(vars), *current))
                .collect(),
        };
        items
            .into_iter()
            .map(|(vars, current)| {
                let item = StatusVars { vars, shared };
                (Box::new(item) as Box<dyn Vars>, current)
            })
            .collect()
    }
}

/// An option's text (tmux's default when unset).
fn text(config: &Config, name: &str) -> String {
    config.option_value(name).unwrap_or_default()
}

/// A number option, clamped to `max`.
fn number(config: &Config, name: &str, max: u64) -> u64 {
    text(config, name).parse::<u64>().unwrap_or(0).min(max)
}

/// Whether a flag option is on.
pub(super) fn flag(config: &Config, name: &str) -> bool {
    text(config, name) == "on"
}

/// `status-interval`, when not 0.
fn interval(config: &Config) -> Option<Duration> {
    Some(Duration::from_secs(number(
        config,
        "status-interval",
        86_400,
    )))
    .filter(|d| !d.is_zero())
}

/// `status-style`, with the older `status-fg` and `status-bg` over it when set (as tmux).
fn line_style(config: &Config) -> String {
    let mut style = text(config, "status-style");
    for (name, key) in [("status-fg", "fg"), ("status-bg", "bg")] {
        let colour = text(config, name);
        if colour != "default" && crate::style::colour(&colour).is_some() {
            style.push_str(&format!(",{key}={colour}"));
        }
    }
    style
}

/// The style of a window's tab, as tmux's default `status-format` picks it: the current
/// window's style when set (else the usual one); the last window's, a bell's, activity's or
/// silence's added over the usual one when set.
fn tab_style(config: &Config, current: bool, last: bool, bell: bool, noisy: bool) -> String {
    let usual = text(config, "window-status-style");
    if current {
        let style = text(config, "window-status-current-style");
        return if style == "default" { usual } else { style };
    }
    let mut style = usual;
    let mut add = |name: &str| {
        let extra = text(config, name);
        if extra != "default" {
            style.push(',');
            style.push_str(&extra);
        }
    };
    if last {
        add("window-status-last-style");
    }
    if bell {
        add("window-status-bell-style");
    } else if noisy {
        add("window-status-activity-style");
    }
    style
}

/// A window's tab before its format is expanded.
struct Tab {
    index: u32,
    current: bool,
    /// Its style, as `tab_style` makes it.
    style: String,
    /// `window-status-format` or `-current-format`, as the window has it.
    format: String,
}

impl SessionState {
    /// The status line at `row`, expanded now; notes when it next needs expanding again
    /// ([`SessionState::status_due`]). Shell commands start only while a client is attached.
    pub(super) fn status_line(&mut self, row: u16) -> StatusLine {
        let config = self.config();
        let now = chrono::Local::now();
        let every = interval(&config);
        let attached = !self.clients.is_empty();
        // Every variable first: the job cache is borrowed while the formats expand. What only
        // `/proc` tells is read only when a format names it.
        // `status-format[0]` only when the user's own (a changed array keeps its elements
        // under `name[i]`; read without copying tmux's long default); then the further lines.
        let first_format = config
            .options
            .get("status-format[0]")
            .filter(|f| *f != crate::option_arrays::STATUS_FORMAT_0)
            .cloned();
        let more_formats: Vec<String> = (1..self.status_height())
            .map(|i| {
                config
                    .array_element("status-format", usize::from(i))
                    .unwrap_or_default()
            })
            .collect();
        let mut templates: Vec<String> = [
            "status-left",
            "status-right",
            "window-status-format",
            "window-status-current-format",
        ]
        .iter()
        .map(|name| text(&config, name))
        .collect();
        templates.extend(first_format.iter().chain(&more_formats).cloned());
        // (and the screen's lock, for the cursor and the history).
        self.status_lists_sessions = templates.iter().any(|t| t.contains("S:"));
        let tabs: Vec<Tab> = self
            .windows
            .iter()
            .enumerate()
            .map(|(wpos, w)| {
                let current = wpos == self.current;
                let last = Some(w.id) == self.last_window;
                // The window's own options, where it sets any (`setw -t :2 ...`).
                let config = self.window_config(wpos);
                let style = tab_style(&config, current, last, w.bell, w.activity || w.silence);
                let format = if current {
                    "window-status-current-format"
                } else {
                    "window-status-format"
                };
                Tab {
                    index: w.index,
                    current,
                    style,
                    format: text(&config, format),
                }
            })
            .collect();
        // Only the variables the formats can name (a window's own tab format too, and the
        // separator between tabs).
        let separator = text(&config, "window-status-separator");
        let formats: Vec<&str> = templates
            .iter()
            .chain(tabs.iter().map(|t| &t.format))
            .chain([&separator])
            .map(String::as_str)
            .collect();
        let wanted = crate::format::names_in(&formats);
        let wanted = wanted.as_deref();
        let processes = formats.iter().any(|t| {
            ["pane_current", "history_", "cursor_"]
                .iter()
                .any(|name| t.contains(name))
        });
        // Each window's variables, made once: the current window's are the session's too.
        let window_vars: Vec<HashMap<String, String>> = self
            .windows
            .iter()
            .enumerate()
            .map(|(wpos, w)| self.format_vars_named(wpos, w.active, processes, wanted))
            .collect();
        let no_vars = HashMap::new();
        let session_vars = window_vars.get(self.current).unwrap_or(&no_vars);
        let panes = match self.windows.get(self.current) {
            Some(w) if formats.iter().any(|t| t.contains("#{P:")) => w
                .layout
                .panes()
                .into_iter()
                .map(|p| {
                    (
                        self.format_vars_named(self.current, p, processes, wanted),
                        p == w.active,
                    )
                })
                .collect(),
            _ => Vec::new(),
        };
        let shared = Shared {
            config: &config,
            jobs: RefCell::new(self.status_jobs.lookup_pass(every, attached)),
            session: session_vars,
            session_id: self.id,
            directory: &self.listed.directory,
            windows: window_vars
                .iter()
                .zip(&tabs)
                .map(|(v, t)| (v, t.current))
                .collect(),
            panes,
        };
        let mut clock = Clock::Never;
        let mut expand = |template: &str, vars: &HashMap<String, String>, timed: bool| {
            let vars = StatusVars {
                vars: Cow::Borrowed(vars),
                shared: &shared,
            };
            let template = if timed {
                let (done, used) = strftime(template, &now);
                clock = clock.max(used);
                done
            } else {
                template.to_string()
            };
            format::expand(&template, &vars)
        };
        let left = expand(&text(&config, "status-left"), session_vars, true);
        let right = expand(&text(&config, "status-right"), session_vars, true);
        let separator = expand(&separator, session_vars, false);
        let windows: Vec<WindowTab> = tabs
            .into_iter()
            .zip(&window_vars)
            .map(|(tab, vars)| WindowTab {
                index: tab.index,
                text: expand(&tab.format, vars, true),
                style: tab.style,
                current: tab.current,
            })
            .collect();
        let first = first_format.map(|f| expand(&f, session_vars, true));
        let more: Vec<String> = more_formats
            .iter()
            .map(|f| expand(f, session_vars, true))
            .collect();
        let used_jobs = shared.jobs.into_inner().finish();
        let job_due = if used_jobs {
            self.status_jobs.next_due(every)
        } else {
            None
        };
        let clock_due = match (clock, every) {
            (_, None) | (Clock::Never, _) => None,
            (Clock::Minutes, Some(_)) => Some(next_minute()),
            (Clock::Seconds, Some(every)) => Some(Instant::now() + every),
        };
        self.status_due = [job_due, clock_due]
            .into_iter()
            .flatten()
            .min()
            .filter(|_| attached);
        let length = |name| number(&config, name, MAX_PART_COLUMNS as u64) as usize;
        StatusLine {
            row,
            left,
            right,
            windows,
            separator,
            style: line_style(&config),
            left_style: text(&config, "status-left-style"),
            right_style: text(&config, "status-right-style"),
            justify: Align::from_word(&text(&config, "status-justify")).unwrap_or(Align::Left),
            left_length: length("status-left-length"),
            right_length: length("status-right-length"),
            first,
            more,
        }
    }

    /// The status line expanded again (its clock turned, a command's output came): clients
    /// are told only when what it shows changed.
    pub(super) fn refresh_status(&mut self) {
        let Some(row) = self.view.borrow().status.as_ref().map(|s| s.row) else {
            self.status_due = None;
            return;
        };
        let status = self.status_line(row);
        self.view.send_if_modified(|view| {
            if view.status.as_ref() == Some(&status) {
                false
            } else {
                view.status = Some(status);
                true
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn times_are_expanded_before_formats_and_say_how_soon_they_change() {
        let at = chrono::Utc.with_ymd_and_hms(2026, 11, 24, 9, 5, 7).unwrap();
        assert_eq!(
            strftime("%H:%M %d-%b-%y", &at),
            ("09:05 24-Nov-26".to_string(), Clock::Minutes)
        );
        assert_eq!(
            strftime("#S %T", &at),
            ("#S 09:05:07".into(), Clock::Seconds)
        );
        assert_eq!(
            strftime("100%% #{x}", &at),
            ("100% #{x}".into(), Clock::Never)
        );
        assert_eq!(strftime("plain", &at), ("plain".into(), Clock::Never));
        // Not a conversion: stays as written, and nothing panics.
        assert_eq!(strftime("50%Q %", &at).0, "50%Q %");
        assert_eq!(strftime("%-d/%-m", &at).0, "24/11");
    }

    #[test]
    fn status_fg_and_bg_go_over_status_style() {
        let mut c = Config::default();
        assert_eq!(line_style(&c), "bg=green,fg=black");
        c.set_option("status-bg", Some("colour235"), Default::default())
            .unwrap();
        c.set_option("status-fg", Some("nonsense"), Default::default())
            .unwrap();
        assert_eq!(line_style(&c), "bg=green,fg=black,bg=colour235");
    }

    #[test]
    fn tab_styles_follow_tmux_default_status_format() {
        let mut c = Config::default();
        assert_eq!(tab_style(&c, true, false, false, false), "default");
        assert_eq!(tab_style(&c, false, false, true, false), "default,reverse");
        assert_eq!(tab_style(&c, false, false, false, true), "default,reverse");
        c.set_option(
            "window-status-current-style",
            Some("fg=red"),
            Default::default(),
        )
        .unwrap();
        assert_eq!(tab_style(&c, true, false, false, false), "fg=red");
    }
}
