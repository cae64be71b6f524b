//! What an attached client does besides typing into a pane: the prefix and key tables, the
//! command prompt, y/n confirmations, messages and listings drawn over the window.

use super::mouse::Drag;
use super::prompt::{key_of, Prompt};
pub(super) use super::sent_keys::pasted;
use crate::cmd::run::{execute, Origin, Ran};
use crate::cmd::Parsed;
use crate::config::Config;
use crate::context::ServerContext;
use crate::ids::ClientId;
use crate::keys::Input;
use crate::outcome::Output;
use crate::render::{Overlay, RenderControl};
use crate::session::{SessionHandle, View};
use bytes::Bytes;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::sync::{mpsc, watch};

/// The most command lines one if-shell chain runs (an if-shell choosing another, and so on).
const MAX_CHAINED_LINES: usize = 16;

/// The largest count typed in copy mode (`99999j`): beyond it, digits do not add up.
const MAX_COPY_COUNT: usize = 99_999;

/// The most of a streamed output (a long capture) kept for the overlay.
const OVERLAY_OUTPUT_BYTES: usize = 1024 * 1024;

/// What the client is doing besides typing into a pane.
pub(super) enum Ui {
    /// Keys go to bindings and the pane.
    Normal,
    /// Keys edit a prompt.
    Prompt(Prompt),
    /// The next key answers y/n for this command.
    Confirm(Box<Parsed>),
    /// A listing to read over the window (see `pager.rs`).
    Pager(super::pager::Pager),
    /// The paste buffers to choose from (`choose-buffer`; see `chooser.rs`).
    Chooser(super::chooser::Chooser),
    /// Sessions, windows and panes to choose from (`choose-tree`; see `tree.rs`).
    Tree(super::tree::Tree),
    /// Pane numbers over the window (`display-panes`; see `numbers.rs`).
    Numbers(super::numbers::Numbers),
    /// The clock over the active pane (`clock-mode`; see `clock.rs`): any key leaves.
    Clock,
    /// A menu to choose a command from (`display-menu`; see `menu.rs`).
    Menu(super::menu::Menu),
}

/// The per-client state of the terminal loop.
pub(super) struct ClientLoop {
    pub(super) ctx: ServerContext,
    /// The server's runtime: the loop runs on the clients' ([`crate::client_runtime`]), and
    /// the commands it runs go here, so none holds the worker every client's keys need.
    pub(super) server: tokio::runtime::Handle,
    pub(super) client: ClientId,
    pub(super) session: SessionHandle,
    pub(super) view: watch::Receiver<View>,
    pub(super) config: watch::Receiver<Arc<Config>>,
    pub(super) render: mpsc::Sender<RenderControl>,
    pub(super) read_only: bool,
    pub(super) prefix_armed: bool,
    pub(super) ui: Ui,
    pub(super) drag: Option<Drag>,
    pub(super) message_shown: bool,
    /// When the message or the pane numbers shown close by themselves (`display-time`,
    /// `display-panes-time`); no deadline while nothing is shown or it stays until a key.
    pub(super) overlay_due: crate::deadline::Deadline,
    /// `switch-client -T`: the table the next key is looked up in.
    pub(super) key_table: Option<String>,
    /// The command line an if-shell chose, to run next.
    pub(super) chosen_line: Option<String>,
    /// A count typed in vi copy mode (`5j`), for the next command.
    pub(super) copy_count: Option<usize>,
    /// A press that may become a copy-mode selection.
    pub(super) selecting: Option<super::select::Selecting>,
    /// The last press, to count double and triple clicks.
    pub(super) last_click: Option<super::select::LastClick>,
    /// The session shown before this one (`$N`), for `switch-client -l`.
    pub(super) last_session: Option<String>,
    /// Until when a repeatable key runs its binding without the prefix (`repeat-time`).
    pub(super) repeat_until: Option<tokio::time::Instant>,
    /// The popup open over the window (`display-popup`): input goes to it.
    pub(super) popup: Option<super::popup::Popup>,
    /// Mouse events as mouse keys, for bindings (see `mouse_keys.rs`).
    pub(super) mouse_keys: super::mouse_keys::MouseKeys,
    /// Into this client's loop: what a command run in the background printed.
    pub(super) relay: mpsc::Sender<crate::session::ClientControl>,
    /// The pane commands run in while a menu's chosen command runs (see `menu.rs`).
    pub(super) acting_pane: Option<crate::ids::PaneId>,
    /// When the last key came, and whether keys were coming fast already, for
    /// `assume-paste-time`.
    pub(super) last_key_at: Option<(tokio::time::Instant, bool)>,
    /// How this client leaves when it detaches itself (`detach-client -P`, `-E`).
    pub(super) detach_how: crate::session::DetachHow,
}

/// What the loop should do after an input.
pub(super) enum After {
    Continue,
    Detach,
    /// `suspend-client`: detach, telling the client to stop and attach again when continued.
    Suspend,
    /// `lock-client`: detach, telling the client to run `lock-command` and attach again.
    Lock,
    /// Show this session instead (see `sessions.rs`).
    Switch(SessionHandle),
}

impl ClientLoop {
    /// The options in force where this client is: its session's, with its current window's
    /// own (`prefix`, `mouse`, `mode-keys`, the key tables, ...). Server options are the
    /// global configuration's ([`ClientLoop::config`]).
    pub(super) fn options(&self) -> Arc<Config> {
        self.view.borrow().config.clone()
    }

    pub(super) async fn overlay(&mut self, overlay: Option<Overlay>) {
        let _ = self.render.send(RenderControl::Overlay(overlay)).await;
    }

    /// Shows `text`: one line in the status line until the next key or for `display-time`
    /// (0: until a key), several over the window until a key.
    pub(super) async fn message(&mut self, text: String) {
        if text.contains('\n') {
            self.show_lines(&text).await;
            return;
        }
        let shown_for = self.options().millis_option("display-time");
        self.message_for(text, shown_for).await;
    }

    /// Shows one line in the status line for `shown_for` (zero: until the next key).
    pub(super) async fn message_for(&mut self, text: String, shown_for: std::time::Duration) {
        let limit = self
            .config
            .borrow()
            .option_value("message-limit")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        self.ctx
            .messages
            .push(chrono::Local::now().timestamp(), &text, limit);
        self.message_shown = true;
        self.close_after(shown_for);
        self.overlay(Some(Overlay::Message(text))).await;
    }

    /// Closes what is shown after `shown_for`; a zero (or a time too far ahead for the clock)
    /// keeps it until a key.
    pub(super) fn close_after(&mut self, shown_for: std::time::Duration) {
        let due = (!shown_for.is_zero())
            .then(|| tokio::time::Instant::now().checked_add(shown_for))
            .flatten();
        self.overlay_due.set(due);
    }

    /// The message or the pane numbers have been shown long enough: they close.
    pub(super) async fn overlay_expired(&mut self) {
        self.overlay_due.set(None);
        if std::mem::take(&mut self.message_shown) {
            self.overlay(None).await;
        }
        if matches!(self.ui, Ui::Numbers(_)) {
            self.ui = Ui::Normal;
            self.overlay(None).await;
        }
        if matches!(self.ui, Ui::Clock) {
            self.clock_tick().await;
        }
    }

    /// A message from the server (a pipe that failed, a hook that could not run), shown
    /// unless the user is busy with a prompt or a list, which it would cover.
    pub(super) async fn notice(&mut self, text: String) {
        if matches!(self.ui, Ui::Normal) {
            self.message(text.replace('\n', " ")).await;
        }
    }

    /// The configuration's warnings from start-up, over the window until the next key.
    pub(super) async fn show_startup_warnings(&mut self, warnings: &[String]) {
        let mut text = String::from("weft: the configuration has lines it could not apply:\n");
        for w in warnings {
            text.push_str(w);
            text.push('\n');
        }
        self.show_lines(&text).await;
    }

    /// Lines over the window, to scroll and search, until `q` or Escape.
    async fn show_lines(&mut self, text: &str) {
        self.open_pager(text).await;
    }

    /// The panes typed input goes to: the active one, or all with `synchronize-panes`; not
    /// those whose input is off (`select-pane -d`).
    fn input_panes(&self) -> Vec<crate::pane::PaneHandle> {
        let view = self.view.borrow();
        let taking = |p: &&crate::pane::PaneHandle| !p.shared.input_off.load(Ordering::Relaxed);
        if view.sync_panes {
            view.panes
                .iter()
                .map(|(p, _)| p)
                .filter(taking)
                .cloned()
                .collect()
        } else {
            view.active_pane()
                .filter(taking)
                .cloned()
                .into_iter()
                .collect()
        }
    }

    pub(super) async fn forward(&self, bytes: Bytes) {
        if self.read_only {
            return;
        }
        for pane in self.input_panes() {
            pane.send_input(bytes.clone()).await;
        }
    }

    /// A key for the pane (each pane, with `synchronize-panes`), in the form its program asked
    /// for: legacy, `modifyOtherKeys` or kitty (see [`crate::pane_keys`]).
    async fn forward_key(&self, name: &str, bytes: &Bytes) {
        if self.read_only {
            return;
        }
        let config = self.config.borrow().clone();
        for pane in self.input_panes() {
            let out = config.key_for_program(name, bytes, pane.shared.keyboard_mode());
            if !out.is_empty() {
                pane.send_input(out).await;
            }
        }
    }

    pub(super) async fn handle(&mut self, input: Input) -> After {
        if let Input::Key { name, bytes } = &input {
            if name == "FocusIn" || name == "FocusOut" {
                // The user's terminal gained or lost focus: the active pane's program hears
                // of it when `focus-events` is on and it asked (1004).
                let on = self.config.borrow().focus_events && !self.read_only;
                // While a popup is open, its program has the focus.
                let pane = match self.popup_pane() {
                    Some(popup) => Some(popup),
                    None => self.view.borrow().active_pane().cloned(),
                };
                if let Some(pane) =
                    pane.filter(|p| on && p.shared.focus_events.load(Ordering::Relaxed))
                {
                    pane.send_input(bytes.clone()).await;
                }
                return After::Continue;
            }
            if crate::pane_keys::is_release(bytes) {
                // A key going up (the terminal reports them in the kitty protocol): never a
                // binding or a prompt's key; only a program that asked for releases sees it.
                if self.popup.is_some() {
                    self.popup_key(name, bytes).await;
                } else if matches!(self.ui, Ui::Normal) && !self.active_in_copy_mode() {
                    self.forward_key(name, bytes).await;
                }
                return After::Continue;
            }
        }
        if self.message_shown && !matches!(input, Input::Mouse(_)) {
            self.message_shown = false;
            self.overlay_due.set(None);
            self.overlay(None).await;
        }
        if self.popup.is_some() {
            self.popup_input(input).await;
            return After::Continue;
        }
        match std::mem::replace(&mut self.ui, Ui::Normal) {
            Ui::Prompt(prompt) => return self.prompt_key(prompt, key_of(&input)).await,
            Ui::Confirm(command) => {
                if let Input::Key { name, .. } = &input {
                    self.overlay(None).await;
                    if name == "y" || name == "Y" {
                        return self.run(*command).await;
                    }
                }
                return After::Continue;
            }
            Ui::Pager(pager) => {
                let name = match &input {
                    Input::Mouse(event) => match event.wheel() {
                        Some(true) => Some("WheelUpPane".to_string()),
                        Some(false) => Some("WheelDownPane".to_string()),
                        None => None,
                    },
                    _ => key_of(&input),
                };
                let Some(name) = name else {
                    self.ui = Ui::Pager(pager);
                    return After::Continue;
                };
                return self.pager_key(pager, &name).await;
            }
            Ui::Chooser(chooser) => return self.chooser_key(chooser, &input).await,
            Ui::Tree(tree) => return self.tree_key(tree, &input).await,
            Ui::Numbers(numbers) if numbers.takes_keys => {
                return self.numbers_key(numbers, &input).await
            }
            // `display-panes -N`: a key closes the numbers and goes where it always goes, as
            // tmux's overlay that takes no keys.
            Ui::Numbers(_) => {
                self.overlay_due.set(None);
                self.overlay(None).await;
            }
            Ui::Clock => return self.clock_key(&input).await,
            Ui::Menu(menu) => return self.menu_input(menu, &input).await,
            Ui::Normal => {}
        }
        match input {
            Input::Key { name, bytes } => {
                let config = self.options();
                if self.assume_pasted(&config) && !self.active_in_copy_mode() {
                    // Closer to the last key than `assume-paste-time`: pasted, not typed.
                    self.prefix_armed = false;
                    self.forward_key(&name, &bytes).await;
                    return After::Continue;
                }
                // A repeatable key again, soon after: its binding runs without the prefix.
                let repeating = self
                    .repeat_until
                    .take()
                    .is_some_and(|until| tokio::time::Instant::now() < until);
                if self.prefix_armed || repeating {
                    let armed = std::mem::take(&mut self.prefix_armed);
                    let repeats = config.keys.repeats("prefix", &name);
                    if armed || repeats {
                        if let Some(line) = config.keys.prefix_table.get(&name) {
                            if repeats {
                                self.repeat_until =
                                    Some(tokio::time::Instant::now() + config.repeat_time);
                            }
                            return self.run_line(line).await;
                        }
                        return After::Continue;
                    }
                }
                if let Some(table) = self.key_table.take() {
                    // One key in the table `switch-client -T` chose; unbound keys do nothing.
                    if let Some(line) = config.keys.table(&table).and_then(|t| t.get(&name)) {
                        return self.run_line(&line.clone()).await;
                    }
                    return After::Continue;
                }
                if name == config.keys.prefix || config.keys.prefix2.as_ref() == Some(&name) {
                    self.prefix_armed = true;
                    return After::Continue;
                }
                if self.active_in_copy_mode() {
                    return self.copy_mode_key(&name, &config).await;
                }
                // The session's `key-table` (root unless set): its keys run, others go on
                // to the pane, as tmux does.
                // Read from the set values alone: this runs on every key typed.
                let table = config
                    .options
                    .get("key-table")
                    .map_or("root", String::as_str);
                if let Some(line) = config.keys.table(table).and_then(|t| t.get(&name)) {
                    return self.run_line(&line.clone()).await;
                }
                self.forward_key(&name, &bytes).await;
            }
            Input::Paste(text) => {
                let bracketed = self
                    .view
                    .borrow()
                    .active_pane()
                    .is_some_and(|p| p.shared.bracketed_paste.load(Ordering::Relaxed));
                self.forward(pasted(&text, bracketed)).await;
            }
            Input::Mouse(event) => return self.mouse(event).await,
        }
        After::Continue
    }

    /// Where this client's commands come from: its session and active pane (the pane under
    /// the mouse while a mouse key's binding runs).
    pub(super) fn origin(&self) -> Origin {
        let mouse = self.mouse_keys.pane().map(|p| p.id());
        Origin {
            session: Some(self.session.id.to_string()),
            pane: self.acting_pane.or(mouse).or(self.view.borrow().active),
            mouse_window: self.mouse_keys.window(),
        }
    }

    /// Whether this key was pasted, as tmux assumes it: the second of two keys in a row each
    /// sooner after the last than `assume-paste-time` (so `C-b c` sent at once still works);
    /// never when that is zero.
    fn assume_pasted(&mut self, config: &Config) -> bool {
        if config.assume_paste_time.is_zero() {
            return false;
        }
        let now = tokio::time::Instant::now();
        let fast = self
            .last_key_at
            .is_some_and(|(at, _)| now.duration_since(at) < config.assume_paste_time);
        let was_fast = self.last_key_at.is_some_and(|(_, f)| f);
        self.last_key_at = Some((now, fast));
        fast && was_fast
    }

    /// Whether the active pane is in copy mode (its keys go to the copy-mode table).
    fn active_in_copy_mode(&self) -> bool {
        self.view
            .borrow()
            .active_pane()
            .is_some_and(|p| p.in_copy_mode())
    }

    /// A key for the active pane's copy mode: a count digit (vi), or the command the copy-mode
    /// table binds it to, run `count` times. Unbound keys do nothing, as in tmux.
    async fn copy_mode_key(&mut self, name: &str, config: &Config) -> After {
        let table = if config.mode_keys_vi {
            &config.keys.copy_mode_vi
        } else {
            &config.keys.copy_mode
        };
        if config.mode_keys_vi {
            if let Some(digit) = crate::copy_keys::count_digit(name, self.copy_count.is_some()) {
                let count = self.copy_count.unwrap_or(0);
                self.copy_count = Some((count * 10 + digit as usize).min(MAX_COPY_COUNT));
                return After::Continue;
            }
        }
        let count = self.copy_count.take();
        let Some(line) = table.get(name) else {
            return After::Continue;
        };
        let line = match (count, line.split_once(" -X ")) {
            (Some(n), Some((send, rest))) if send == "send-keys" || send == "send" => {
                format!("{send} -N {n} -X {rest}")
            }
            _ => line.clone(),
        };
        self.run_line(&line).await
    }

    /// Parses and runs a command line typed at the prompt or bound to a key.
    pub(super) async fn run_line(&mut self, line: &str) -> After {
        match crate::cmd::parse_line_sequence(line) {
            Ok(commands) => {
                for command in commands {
                    match self.run(command).await {
                        After::Continue => {}
                        other => return other,
                    }
                }
                After::Continue
            }
            Err(e) => {
                self.message(e.to_string()).await;
                After::Continue
            }
        }
    }

    /// Parses and runs a command line as if typed in `pane` (a menu's chosen command).
    pub(super) async fn run_line_in(&mut self, line: &str, pane: crate::ids::PaneId) -> After {
        let outer = self.acting_pane.replace(pane);
        let after = self.run_line(line).await;
        self.acting_pane = outer;
        after
    }

    /// Runs a command as this client: without a target, on its session's active pane. A
    /// read-only client runs only commands that change nothing.
    pub(super) async fn run(&mut self, command: Parsed) -> After {
        match self.run_one(command).await {
            After::Continue => {}
            other => return other,
        }
        // Commands an if-shell chose, in a loop rather than by recursion (bounded, so a chain
        // of if-shells that choose each other ends).
        for _ in 0..MAX_CHAINED_LINES {
            let Some(line) = self.chosen_line.take() else {
                break;
            };
            match crate::cmd::parse_line_sequence(&line) {
                Ok(commands) => {
                    for command in commands {
                        match self.run_one(command).await {
                            After::Continue => {}
                            other => return other,
                        }
                    }
                }
                Err(e) => self.message(e.to_string()).await,
            }
        }
        self.chosen_line = None;
        After::Continue
    }

    /// Runs one command (an if-shell leaves its chosen line in `chosen_line`).
    async fn run_one(&mut self, command: Parsed) -> After {
        if self.read_only && !command.entry.read_only {
            let name = command.entry.name;
            self.message(format!(
                "{name}: this client is read-only (attach without -r to change the session)"
            ))
            .await;
            return After::Continue;
        }
        let origin = self.origin();
        if command.entry.name == "wait-for" {
            // It may wait for a long time: in the background, so keys still work meanwhile.
            let ctx = self.ctx.clone();
            self.server.spawn(async move {
                if let Err(e) = execute(&ctx, command, &origin).await {
                    tracing::info!("wait-for from a client: {e}");
                }
            });
            return After::Continue;
        }
        if command.entry.name == "run-shell" {
            // Its shell may take long, or run `weft display-popup` and wait for the popup
            // this loop must open and feed: in the background, its output shown when it ends.
            let (ctx, relay) = (self.ctx.clone(), self.relay.clone());
            self.server.spawn(async move {
                let ran = execute(&ctx, command, &origin);
                let shown = match crate::cmd::shell::HOLDS_NOTHING.scope(true, ran).await {
                    Ok(Ran::Output(output)) => crate::session::ClientControl::Output(output),
                    Ok(Ran::Client(_)) => return,
                    Err(e) => crate::session::ClientControl::Message(e.to_string()),
                };
                let _ = relay.send(shown).await;
            });
            return After::Continue;
        }
        let name = command.entry.name;
        let ctx = self.ctx.clone();
        let ran = self
            .server
            .spawn(async move {
                let ran = execute(&ctx, command, &origin);
                crate::cmd::NOBODY_READS.scope(true, ran).await
            })
            .await;
        match ran {
            Ok(Ok(Ran::Output(output))) => self.show_output(output).await,
            Ok(Ok(Ran::Client(request))) => return self.client_request(request).await,
            Ok(Err(e)) => self.message(e.to_string()).await,
            Err(_) => {
                let text = format!("{name}: weft hit an internal error running it; the server goes on (please report it)");
                self.message(text).await
            }
        }
        After::Continue
    }

    /// What a command printed, over the window; its error output as a message.
    pub(super) async fn show_output(&mut self, mut output: Output) {
        if let Some(mut stream) = output.stream.take() {
            // Only what fits the overlay is kept; dropping the stream ends the capture.
            while let Some(piece) = stream.recv().await {
                let room = OVERLAY_OUTPUT_BYTES.saturating_sub(output.stdout.len());
                let piece = String::from_utf8_lossy(&piece);
                if piece.len() >= room {
                    let mut end = room;
                    while !piece.is_char_boundary(end) {
                        end -= 1;
                    }
                    output.stdout.push_str(&piece[..end]);
                    break;
                }
                output.stdout.push_str(&piece);
            }
        }
        if !output.stdout.is_empty() && !output.stdout.trim_end().contains('\n') {
            // One line (display-message, a short answer): in the status line.
            let text = output.stdout.trim_end().to_string();
            match output.shown_for {
                Some(shown_for) => self.message_for(text, shown_for).await,
                None => self.message(text).await,
            }
        } else if !output.stdout.is_empty() {
            self.show_lines(&output.stdout).await;
        } else if output.code != 0 && !output.stderr.is_empty() {
            self.message(output.stderr).await;
        }
    }
}
