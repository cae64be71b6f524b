//! `clock-mode` (`C-b t`): the time in big digits over the active pane until a key is
//! pressed, redrawn when the minute turns (a deadline, not a ticking timer).

use super::ui::{After, ClientLoop, Ui};
use crate::keys::Input;
use crate::render::{Overlay, RenderControl};

impl ClientLoop {
    /// Shows the clock.
    pub(super) async fn clock_mode(&mut self) {
        self.ui = Ui::Clock;
        self.clock_tick().await;
    }

    /// Draws the time now and sets the deadline for the next minute.
    pub(super) async fn clock_tick(&mut self) {
        let now = chrono::Local::now();
        let colour = self
            .options()
            .option_value("clock-mode-colour")
            .unwrap_or_else(|| "blue".into());
        // tmux's 12-hour face: ` 3:05 PM`.
        let twelve = self.options().option_value("clock-mode-style").as_deref() == Some("12");
        let time = if twelve {
            now.format("%l:%M %p").to_string()
        } else {
            now.format("%H:%M").to_string()
        };
        let overlay = Overlay::Clock {
            time,
            style: format!("fg={colour}"),
        };
        let _ = self
            .render
            .send(RenderControl::Overlay(Some(overlay)))
            .await;
        let into_minute = u64::from(chrono::Timelike::second(&now).min(59));
        self.close_after(std::time::Duration::from_secs(60 - into_minute));
    }

    /// Any key leaves the clock (and is not passed on, as in tmux).
    pub(super) async fn clock_key(&mut self, input: &Input) -> After {
        if !matches!(input, Input::Key { .. }) {
            self.ui = Ui::Clock;
            return After::Continue;
        }
        self.ui = Ui::Normal;
        self.overlay_due.set(None);
        let _ = self.render.send(RenderControl::Overlay(None)).await;
        After::Continue
    }
}
