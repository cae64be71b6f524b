//! What `list-panes` and `list-windows` print, for one session or, with `-a`, for every
//! session in turn: lines, JSON or a format per item.

use super::Action;
use crate::outcome::Output;
use crate::session::{FormatContext, Scope, SessionState};
use futures::FutureExt;

/// How a listing is printed.
#[derive(Clone, Debug)]
pub(super) struct Listing {
    /// `--json`: one array of objects.
    pub(super) json: bool,
    /// `-F`: a format per item.
    pub(super) format: Option<String>,
    /// `-f`: a format that leaves out the items it is false for (tmux's filter).
    pub(super) filter: Option<String>,
}

/// Keeps the items `keep` says to, in order (one flag per item).
fn kept<T>(items: Vec<T>, keep: &[bool]) -> Vec<T> {
    items
        .into_iter()
        .zip(keep)
        .filter_map(|(item, &k)| k.then_some(item))
        .collect()
}

impl Listing {
    /// Whether an item passes `-f`, with the format variables `vars` makes. They are made only
    /// for a filter: making them reads `/proc` for each pane, and `list-windows -a` over 500
    /// windows spent most of its time making variables it did not use.
    fn passes<'s>(&self, vars: impl FnOnce() -> FormatContext<'s>) -> bool {
        self.filter
            .as_ref()
            .is_none_or(|f| crate::format::truthy(&crate::format::expand(f, &vars())))
    }

    /// The variable names `-F` and `-f` can ask for (`None`: any), so each item makes only
    /// those.
    fn wanted(&self) -> Option<Vec<String>> {
        let formats: Vec<&str> = [&self.format, &self.filter]
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect();
        crate::format::names_in(&formats)
    }

    /// The panes of the windows at `wposes`, each line after `prefix` (`name:` with `-a`).
    pub(super) fn panes(&self, s: &SessionState, wposes: &[usize], prefix: &str) -> Output {
        let panes: Vec<(usize, crate::ids::PaneId)> = wposes
            .iter()
            .filter(|&&w| w < s.windows.len())
            .flat_map(|&w| {
                let rects = s.windows[w].layout.rects();
                rects.into_iter().map(move |(p, _)| (w, p))
            })
            .collect();
        let wanted = self.wanted();
        let vars = |w: usize, p| s.format_context_named(w, p, wanted.as_deref());
        let keep: Vec<bool> = panes
            .iter()
            .map(|&(w, p)| self.passes(|| vars(w, p)))
            .collect();
        if let Some(f) = &self.format {
            let lines: Vec<String> = kept(panes, &keep)
                .into_iter()
                .map(|(w, p)| crate::format::expand(f, &vars(w, p)))
                .collect();
            return Output::text(lines.join("\n"));
        }
        let (lines, items) = s.pane_listing(wposes, prefix);
        if self.json {
            return Output::text(serde_json::Value::Array(kept(items, &keep)).to_string());
        }
        Output::text(kept(lines, &keep).join("\n"))
    }

    /// The session's windows, each line after `prefix`.
    pub(super) fn windows(&self, s: &SessionState, prefix: &str) -> Output {
        let wanted = self.wanted();
        let vars = |w: usize| s.format_context_named(w, s.windows[w].active, wanted.as_deref());
        let keep: Vec<bool> = (0..s.windows.len())
            .map(|w| self.passes(|| vars(w)))
            .collect();
        if let Some(f) = &self.format {
            let lines: Vec<String> = (0..s.windows.len())
                .filter(|&w| keep[w])
                .map(|w| crate::format::expand(f, &vars(w)))
                .collect();
            return Output::text(lines.join("\n"));
        }
        let text = s.list_windows(self.json);
        if self.json {
            let items: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap_or_default();
            return Output::text(serde_json::Value::Array(kept(items, &keep)).to_string());
        }
        let lines: Vec<String> = text.lines().map(|l| format!("{prefix}{l}")).collect();
        Output::text(kept(lines, &keep).join("\n"))
    }
}

/// A listing made in every session in turn and joined: lines one after another, JSON arrays
/// into one. A session that ends meanwhile is left out.
pub(super) fn every_session(
    json: bool,
    list: impl Fn(&SessionState) -> Output + Clone + Send + Sync + 'static,
) -> Action {
    Action::Server(Box::new(move |ctx| {
        async move {
            let mut lines: Vec<String> = Vec::new();
            let mut items: Vec<serde_json::Value> = Vec::new();
            for session in ctx.registry.all().await {
                let list = list.clone();
                let action = Box::new(move |s: &mut SessionState, _: &Scope| Ok(list(s)));
                let Ok(out) = session.run(action, Scope::default()).await else {
                    continue;
                };
                if json {
                    let array: Vec<serde_json::Value> =
                        serde_json::from_str(&out.stdout).unwrap_or_default();
                    items.extend(array);
                } else {
                    lines.extend(out.stdout.lines().map(str::to_string));
                }
            }
            if json {
                return Ok(Output::text(serde_json::Value::Array(items).to_string()));
            }
            Ok(Output::text(lines.join("\n")))
        }
        .boxed()
    }))
}
