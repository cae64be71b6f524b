//! `display-panes` (`C-b q`): each pane of the window drawn with its index in big digits over
//! it (the renderer draws them, as the clock's); typing an index's digit focuses that pane, any
//! other key leaves (with `-N`, the first key closes them and goes where it always goes).

use super::ui::{After, ClientLoop, Ui};
use crate::ids::PaneId;
use crate::keys::Input;
use crate::layout::Rect;
use crate::render::{Overlay, RenderControl};

/// The panes shown, in index order.
pub(super) struct Numbers {
    panes: Vec<PaneId>,
    /// `pane-base-index` when they were drawn: the first pane's number.
    base: usize,
    /// What a digit runs (`%%`: the pane's id); else it focuses the pane.
    template: Option<String>,
    /// Keys choose a pane or close the numbers; not with `display-panes -N`.
    pub(super) takes_keys: bool,
}

impl ClientLoop {
    /// Shows the window's panes with their indexes, in `display-panes-colour` (the active
    /// one in `display-panes-active-colour`).
    /// They show for `duration`, else `display-panes-time`; a digit runs `template` if given.
    pub(super) async fn display_panes(
        &mut self,
        duration: Option<std::time::Duration>,
        template: Option<String>,
        takes_keys: bool,
    ) {
        let options = self.options();
        let base = options.pane_base_index();
        let colour = |name: &str, default: &str| {
            format!(
                "fg={}",
                options
                    .option_value(name)
                    .unwrap_or_else(|| default.to_string())
            )
        };
        let (numbers, panes) = {
            let view = self.view.borrow();
            let numbers: Vec<(Rect, String, bool)> = view
                .panes
                .iter()
                .enumerate()
                .map(|(i, (p, r))| (*r, (i + base).to_string(), view.active == Some(p.id())))
                .collect();
            (numbers, view.panes.iter().map(|(p, _)| p.id()).collect())
        };
        let overlay = Overlay::PaneNumbers {
            panes: numbers,
            style: colour("display-panes-colour", "blue"),
            active_style: colour("display-panes-active-colour", "red"),
        };
        let _ = self
            .render
            .send(RenderControl::Overlay(Some(overlay)))
            .await;
        self.ui = Ui::Numbers(Numbers {
            panes,
            base,
            template,
            takes_keys,
        });
        let shown_for = duration.unwrap_or_else(|| options.millis_option("display-panes-time"));
        self.close_after(shown_for);
    }

    /// A key while the numbers are shown: a digit focuses that pane; any key leaves.
    pub(super) async fn numbers_key(&mut self, numbers: Numbers, input: &Input) -> After {
        let Input::Key { name, .. } = input else {
            self.ui = Ui::Numbers(numbers);
            return After::Continue;
        };
        self.overlay_due.set(None);
        let _ = self.render.send(RenderControl::Overlay(None)).await;
        let chosen = name
            .parse::<usize>()
            .ok()
            .and_then(|i| i.checked_sub(numbers.base))
            .and_then(|i| numbers.panes.get(i));
        let Some(pane) = chosen else {
            return After::Continue;
        };
        match &numbers.template {
            Some(template) => {
                let line = crate::cmd::fill_template(template, &pane.to_string());
                self.run_line(&line).await
            }
            None => self.run_line(&format!("select-pane -t {pane}")).await,
        }
    }
}
