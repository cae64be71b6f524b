//! The session task's loop: commands from clients and the CLI, and pane exits.

use super::state::ClientEntry;
use super::status_jobs::JobResult;
use super::{Attached, ClientControl, SessionCommand, SessionEnded, SessionState};
use crate::deadline::Deadline;
use crate::ids::{ClientId, PaneId};
use crate::outcome::{not_found, CommandError, TargetKind};
use crate::pane::PaneEvent;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;
use weft_pty_io::ExitStatus;

/// What a session task listens to.
pub(super) struct Inputs {
    /// Commands from clients, the CLI and the registry.
    pub(super) commands: mpsc::Receiver<SessionCommand>,
    /// Pane exits.
    pub(super) exits: mpsc::Receiver<(PaneId, ExitStatus)>,
    /// What panes' programs did.
    pub(super) events: mpsc::Receiver<(PaneId, PaneEvent)>,
    /// The status line's shell commands' output.
    pub(super) job_results: mpsc::Receiver<JobResult>,
    /// Cancelled once the registry has acted on the session's end (see
    /// [`super::SessionHandle::gone`]).
    pub(super) gone: tokio_util::sync::CancellationToken,
}

/// How long what panes' programs did waits to be shown (window names after the program in
/// the foreground, titles, alerts). One status line expansion then shows the changes of every
/// pane: 100 panes each running `date; sleep 0.1` in a loop changed their program hundreds of
/// times a second, and expanding the status line for each change took 40% of the server's
/// time. A name or a title 50 ms late is not seen.
pub(super) const VIEW_COALESCE: std::time::Duration = std::time::Duration::from_millis(50);

impl SessionState {
    /// Runs the session until its last window closes.
    pub(super) async fn run(mut self, inputs: Inputs, ended: mpsc::Sender<SessionEnded>) {
        let Inputs {
            mut commands,
            mut exits,
            mut events,
            mut job_results,
            gone,
        } = inputs;
        self.publish_view();
        self.feed.publish(
            Some(self.id),
            None,
            crate::events::EventKind::SessionAdded {
                name: self.name.clone(),
            },
        );
        self.publish_shape();
        // The one timer of the loop: the status line's next expansion or a silence's end.
        let mut timer = Deadline::new();
        let mut sessions_changed = self.listed.directory.changes();
        loop {
            let due = [
                self.status_due,
                self.view_due,
                self.silence_due,
                self.lock_due,
            ]
            .into_iter()
            .flatten()
            .min();
            timer.set(due);
            tokio::select! {
                command = commands.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                exit = exits.recv() => {
                    let Some((pane, status)) = exit else { break };
                    // An end reported for an id a respawned program has taken since: stale.
                    if self.panes.get(&pane).is_some_and(|p| p.exit_code().is_none()) {
                        continue;
                    }
                    // Its commands run in the session: the pane is gone.
                    self.fire_hook("pane-exited", None);
                    self.publish_exit(pane, status);
                    self.pane_gone(pane);
                    if self.windows.is_empty() {
                        self.publish_shape();
                        break;
                    }
                    self.publish_view();
                }
                Some((pane, event)) = events.recv() => {
                    match event {
                        PaneEvent::Screen(event) => {
                            self.publish_screen_event(pane, &event);
                            self.pane_event(pane, event);
                        }
                        PaneEvent::Program(name) => self.program_changed(pane, &name),
                        PaneEvent::Died => {
                            self.fire_hook("pane-died", Some(pane));
                            self.publish_died(pane);
                        }
                        PaneEvent::Message(text) => self.message_clients(&text),
                        PaneEvent::Activity => self.pane_activity(pane),
                    }
                    self.view_due
                        .get_or_insert_with(|| Instant::now() + VIEW_COALESCE);
                }
                Some(result) = job_results.recv() => {
                    // Expanded again even when the output is the same: that sets the
                    // command's next run.
                    self.status_jobs.finished(result);
                    self.refresh_status();
                }
                Ok(()) = sessions_changed.changed(), if self.status_lists_sessions => {
                    self.refresh_status();
                }
                () = timer.wait() => {
                    // First, whatever else is due: a lock that keeps coming due (clients too
                    // busy to lock) must not hold back what panes' programs did.
                    let view_was_due = self.view_due.is_some_and(|at| at <= Instant::now());
                    if view_was_due {
                        self.publish_view();
                    }
                    if self.lock_due.is_some_and(|at| at <= Instant::now()) {
                        self.idle_lock_due();
                    } else if self.silence_due.is_some_and(|at| at <= Instant::now()) {
                        self.silence_due = self.check_silence(true);
                        self.publish_view();
                    } else if !view_was_due {
                        self.refresh_status();
                    }
                }
            }
            self.report_focus().await;
            self.publish_shape();
        }
        self.feed
            .publish(Some(self.id), None, crate::events::EventKind::SessionClosed);
        // Out of the other sessions' loops before the registry forgets it.
        self.listed.remove();
        // The registry first: when this was the last session, the server's socket is gone
        // before any client hears "[exited]", so what a user runs next finds no server.
        // Commands are refused from here on, so the registry never waits on this session
        // while it waits on the registry.
        drop(commands);
        let (done, acted) = oneshot::channel();
        let mut remaining = 0;
        if ended.send((self.id, done)).await.is_ok() {
            remaining = acted.await.unwrap_or(0);
        }
        let how = self
            .config()
            .option_value("detach-on-destroy")
            .unwrap_or_default();
        if remaining > 0 && how != "on" {
            // detach-on-destroy: the clients show another session instead; one that finds
            // none left by then hears "[exited]" from its own loop.
            let away = super::away_target(self.id, &how);
            for (_, client) in std::mem::take(&mut self.clients) {
                let _ = client
                    .control
                    .send(ClientControl::Switch(away.clone(), 0))
                    .await;
            }
        }
        gone.cancel();
        self.tell_clients("[exited]", 0, None).await;
    }

    /// Whether the processes of session `sid` have one of this session's panes as their
    /// terminal. Each pane's program is started as the leader of a new session whose
    /// controlling terminal is the pane's pty (`setsid`, `TIOCSCTTY`), so the session id of a
    /// process on that pty is the pid of a pane's program still running.
    /// The client a command from the command line acts on: `client`, else the most recently
    /// active one, else the first.
    fn chosen_client(&self, client: Option<ClientId>) -> Option<&ClientEntry> {
        client
            .or_else(|| self.clients.keys().copied().find(|c| self.latest.is(*c)))
            .or_else(|| self.clients.keys().copied().min())
            .and_then(|c| self.clients.get(&c))
    }

    fn has_pane_terminal(&self, sid: u32) -> bool {
        self.panes
            .values()
            .any(|p| p.shared.pid == Some(sid) && p.exit_code().is_none())
    }

    async fn handle(&mut self, command: SessionCommand) {
        match command {
            SessionCommand::Attach {
                client,
                cols,
                rows,
                read_only,
                control,
                terminal_session,
                env,
                tty,
                activity,
                reply,
            } => {
                if terminal_session.is_some_and(|sid| self.has_pane_terminal(sid)) {
                    let _ = reply.send(Err(CommandError::failed(format!(
                        "cannot attach session {} to a terminal that is one of its own panes \
                         (the session would show inside itself); attach from another terminal",
                        self.name
                    ))));
                    return;
                }
                // update-environment: the attaching client's values (or their absence) for the
                // variables it names, for panes started from now on.
                let names = self
                    .config()
                    .option_value("update-environment")
                    .unwrap_or_default();
                for name in names.split_whitespace() {
                    let value = env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
                    self.environment.insert(name.to_string(), value);
                }
                let now = super::format_vars::epoch_seconds();
                activity.fetch_max(now, std::sync::atomic::Ordering::Relaxed);
                self.clients.insert(
                    client,
                    ClientEntry {
                        cols,
                        rows,
                        read_only,
                        control,
                        since: now,
                        activity,
                        term: env
                            .iter()
                            .find(|(k, _)| k == "TERM")
                            .map(|(_, v)| v.clone())
                            .unwrap_or_default(),
                        tty: tty.unwrap_or_default(),
                    },
                );
                self.last_attached = now;
                self.arm_idle_lock();
                if !read_only {
                    self.latest.set(client);
                    self.follow_clients(cols, rows, false);
                }
                let _ = reply.send(Ok(Attached {
                    name: self.name.clone(),
                    view: self.view.subscribe(),
                    latest: self.latest.clone(),
                }));
                self.fire_hook("client-attached", None);
            }
            SessionCommand::ClientResize { client, cols, rows } => {
                let Some(entry) = self.clients.get_mut(&client) else {
                    return;
                };
                entry.cols = cols;
                entry.rows = rows;
                if !entry.read_only {
                    self.latest.set(client);
                    self.follow_clients(cols, rows, true);
                }
            }
            SessionCommand::ClientActive { client } => {
                if let Some(entry) = self.clients.get(&client).filter(|e| !e.read_only) {
                    let (cols, rows) = (entry.cols, entry.rows);
                    self.latest.set(client);
                    self.follow_clients(cols, rows, false);
                }
            }
            SessionCommand::ClientGone { client } => {
                self.clients.remove(&client);
                self.fire_hook("client-detached", None);
                if self.clients.is_empty()
                    && super::status::flag(&self.in_force, "destroy-unattached")
                {
                    // Its last client left: the session goes, as `kill-session` would.
                    for pane in self.panes.values() {
                        pane.kill();
                    }
                }
                if self.latest.is(client) {
                    if let Some((&id, entry)) = self.clients.iter().find(|(_, e)| !e.read_only) {
                        let (cols, rows) = (entry.cols, entry.rows);
                        self.latest.set(id);
                        self.follow_clients(cols, rows, false);
                    }
                }
            }
            SessionCommand::Detach { except, how } => {
                let notice = how.notice(&self.name);
                self.send_exits(&notice, except).await;
            }
            SessionCommand::DetachOne { client, how } => {
                if let Some(entry) = self.clients.remove(&client) {
                    let notice = how.notice(&self.name);
                    let _ = entry.control.send(ClientControl::Exit(notice)).await;
                }
            }
            SessionCommand::Lock => {
                if let Err(e) = self.lock_clients() {
                    tracing::warn!("lock-server: {e}");
                }
            }
            SessionCommand::SwitchClients {
                client,
                target,
                hook_depth,
            } => {
                if let Some(entry) = self.chosen_client(client) {
                    let switch = ClientControl::Switch(target, hook_depth);
                    let _ = entry.control.send(switch).await;
                }
            }
            SessionCommand::PopupClient { client, action } => {
                // Dropped (and the command told it closed) when there is no client.
                if let Some(entry) = self.chosen_client(client) {
                    let _ = entry.control.send(ClientControl::Popup(action)).await;
                }
            }
            SessionCommand::MenuClient(request) => {
                // Dropped (and the command told it closed) when there is no client.
                if let Some(entry) = self.chosen_client(None) {
                    let _ = entry.control.send(ClientControl::Menu(request)).await;
                }
            }
            SessionCommand::Message(text) => self.message_clients(&text),
            SessionCommand::Refresh => {
                self.generation += 1;
                self.repaint += 1;
                self.publish_view();
            }
            SessionCommand::Kill => {
                for pane in self.panes.values() {
                    pane.kill();
                }
            }
            SessionCommand::Info { reply } => {
                let _ = reply.send(self.info());
            }
            SessionCommand::Run {
                action,
                scope,
                hook_depth,
                reply,
            } => {
                self.hook_depth = hook_depth;
                let result = action(self, &scope);
                self.hook_depth = 0;
                self.publish_view();
                // Before the reply: a focus report the command caused (`select-pane`) reaches
                // the program before anything the caller does next.
                self.report_focus().await;
                let _ = reply.send(result);
            }
            SessionCommand::HasPane { pane, reply } => {
                let known =
                    self.panes.contains_key(&pane) || self.dead.iter().any(|p| p.id() == pane);
                let _ = reply.send(known);
            }
            SessionCommand::ResolvePane { scope, reply } => {
                let dead = scope
                    .target()
                    .and_then(PaneId::parse)
                    .and_then(|id| self.dead.iter().find(|p| p.id() == id).cloned());
                let result = match dead {
                    Some(p) => Ok(p),
                    None => self.find_pane(&scope).and_then(|(_, id)| {
                        self.panes
                            .get(&id)
                            .cloned()
                            .ok_or_else(|| not_found(TargetKind::Pane, id.to_string()))
                    }),
                };
                let _ = reply.send(result);
            }
            SessionCommand::ConfigChanged => self.refresh_options(),
        }
    }
}
