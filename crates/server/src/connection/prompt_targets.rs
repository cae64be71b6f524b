//! What Tab completes after `-t` or `-s` at the command prompt: session names (`work:`),
//! windows (`work:1`, `work:editor`) and pane ids (`%3`), as tmux's prompt does.

use crate::context::ServerContext;
use crate::outcome::Output;
use crate::session::{Scope, SessionState};

/// Every target the prompt can complete, gathered when Tab is pressed.
#[derive(Clone, Debug, Default)]
pub(super) struct Targets {
    /// `name:` for every session.
    pub(super) sessions: Vec<String>,
    /// `session:index` and `session:name` for every window.
    pub(super) windows: Vec<String>,
    /// `%N` for every pane.
    pub(super) panes: Vec<String>,
}

/// One line per pane: its session, window index, window name and pane id.
const PANE_LINE: &str = "#{session_name}\t#{window_index}\t#{window_name}\t#{pane_id}";

/// The targets of every session now; a session that ends meanwhile is left out.
pub(super) async fn gather(ctx: &ServerContext) -> Targets {
    let mut targets = Targets::default();
    for session in ctx.registry.all().await {
        let action = Box::new(|s: &mut SessionState, _: &Scope| {
            let s: &SessionState = s;
            let lines: Vec<String> = (0..s.windows.len())
                .flat_map(|w| {
                    s.windows[w]
                        .layout
                        .panes()
                        .into_iter()
                        .map(move |p| crate::format::expand(PANE_LINE, &s.format_context(w, p)))
                })
                .collect();
            Ok(Output::text(lines.join("\n")))
        });
        let Ok(out) = session.run(action, Scope::default()).await else {
            continue;
        };
        for line in out.stdout.lines() {
            let mut fields = line.split('\t');
            let (Some(name), Some(index), Some(window), Some(pane)) =
                (fields.next(), fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            targets.sessions.push(format!("{name}:"));
            targets.windows.push(format!("{name}:{index}"));
            targets.windows.push(format!("{name}:{window}"));
            targets.panes.push(pane.to_string());
        }
    }
    for list in [
        &mut targets.sessions,
        &mut targets.windows,
        &mut targets.panes,
    ] {
        list.sort();
        list.dedup();
    }
    targets
}
