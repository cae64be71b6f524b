//! The size a session takes from its clients, as tmux's `window-size` option says: `latest`
//! (the default: the client that typed or resized last), `smallest` or `largest` of the
//! clients that may change it (read-only clients never do), or `manual` (only
//! `resize-window` changes it).

use super::SessionState;

impl SessionState {
    /// A client of the session wants `cols` x `rows` (it typed, resized, attached or the one
    /// that did left): the session follows as `window-size` says.
    pub(super) fn follow_clients(&mut self, cols: u16, rows: u16, paced: bool) {
        let policy = self
            .config()
            .option_value("window-size")
            .unwrap_or_default();
        let sizes = self
            .clients
            .values()
            .filter(|c| !c.read_only)
            .map(|c| (c.cols, c.rows));
        let (cols, rows) = match policy.as_str() {
            "manual" => return,
            "smallest" => sizes.fold((cols, rows), |(c, r), (x, y)| (c.min(x), r.min(y))),
            "largest" => sizes.fold((cols, rows), |(c, r), (x, y)| (c.max(x), r.max(y))),
            _ => (cols, rows),
        };
        self.resize_to(cols, rows, paced);
    }
}
