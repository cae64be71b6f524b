//! What the host tells the screen about the user's terminal: its colours and colour scheme,
//! which queries from the program are answered from.

use super::Screen;
use crate::palette::HostColors;
use std::sync::Arc;

impl Screen {
    /// The user's terminal's colours as the host knows them now (an empty [`HostColors`] when
    /// it knows nothing: colour queries then go unanswered). A program that enabled mode 2031
    /// is told (`CSI ? 997 ; 1|2 n`, queued with the replies) when the scheme turned dark or
    /// light.
    pub fn set_host_colors(&mut self, host: Arc<HostColors>) {
        let was_dark = self.host.is_dark();
        self.host = host;
        let dark = self.host.is_dark();
        if self.modes.color_scheme_updates && dark.is_some() && dark != was_dark {
            self.report_color_scheme();
        }
    }

    /// The user's terminal's colours the screen answers from.
    pub fn host_colors(&self) -> &HostColors {
        &self.host
    }
}
