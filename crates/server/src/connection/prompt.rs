//! The prompt in the status line (`command-prompt`, `rename-window`, searches): typing into
//! it, running what it makes, and the incremental searches that run as it changes.

use super::line_edit::Edit;
use super::ui::{After, ClientLoop, Ui};
use crate::cmd::run::execute;
use crate::keys::Input;
use crate::render::Overlay;

/// A line being typed in the status line.
pub(super) struct Prompt {
    /// Shown before the input.
    pub(super) label: String,
    /// Typed so far, with the cursor.
    pub(super) line: super::line_edit::LineEditor,
    /// The command the input completes (`%%` stands for it); empty: the input is the command.
    pub(super) template: String,
    /// Whether one key is the whole input, and how it is given.
    pub(super) one_key: crate::cmd::OneKey,
    /// The template runs as the input changes.
    pub(super) incremental: bool,
    /// Only digits may be typed (`command-prompt -N`).
    pub(super) numeric: bool,
    /// Whose history Up and Down go through (`command-prompt -T`).
    pub(super) kind: crate::prompt_history::PromptType,
}

impl ClientLoop {
    pub(super) async fn start_prompt(&mut self, prompt: Prompt) {
        if let Some(path) = self.history_file() {
            // The first prompt of this server: the lines kept from earlier ones.
            let mut history = self
                .ctx
                .prompt_history
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let commands = history.of_mut(crate::prompt_history::PromptType::Command);
            if commands.is_empty() {
                let kept = super::history_file::load(&path, self.history_limit());
                commands.extend(kept);
            }
        }
        self.overlay(Some(Overlay::Prompt {
            label: prompt.label.clone(),
            input: prompt.line.text().to_string(),
            cursor: prompt.line.cursor_chars(),
            vi_command: prompt.line.in_vi_command(),
        }))
        .await;
        self.ui = Ui::Prompt(prompt);
    }

    /// The file the prompt's history is kept in (`history-file`), if one is set.
    /// How many lines the prompt's history keeps: `prompt-history-limit`.
    fn history_limit(&self) -> usize {
        let limit = self.config.borrow().option_value("prompt-history-limit");
        limit
            .and_then(|v| v.parse::<usize>().ok())
            .unwrap_or(100)
            .min(super::line_edit::MAX_HISTORY_LINES)
    }

    fn history_file(&self) -> Option<std::path::PathBuf> {
        super::history_file::path_of(self.config.borrow().option_value("history-file"))
    }

    /// A key typed at the prompt.
    pub(super) async fn prompt_key(&mut self, mut prompt: Prompt, key: Option<String>) -> After {
        let Some(name) = key else {
            self.ui = Ui::Prompt(prompt);
            return After::Continue;
        };
        // `-N`: digits type; any other key ends the input, as tmux.
        if prompt.numeric && !(name.len() == 1 && name.starts_with(|c: char| c.is_ascii_digit())) {
            self.overlay(None).await;
            let line = crate::cmd::fill_template(&prompt.template, prompt.line.text());
            return self.run_line(&line).await;
        }
        if prompt.one_key != crate::cmd::OneKey::No {
            self.overlay(None).await;
            let text = match name.as_str() {
                n if prompt.one_key == crate::cmd::OneKey::Name => n.to_string(),
                "Space" => " ".to_string(),
                "Escape" | "C-c" | "C-g" => return After::Continue,
                n if n.chars().count() == 1 => n.to_string(),
                _ => return After::Continue,
            };
            let line = crate::cmd::fill_template(&prompt.template, &text);
            return self.run_line(&line).await;
        }
        let before = prompt.line.text().to_string();
        let history: Vec<String> = self
            .ctx
            .prompt_history
            .lock()
            .map(|h| h.of(prompt.kind).iter().rev().cloned().collect())
            .unwrap_or_default();
        // Only a command line completes command, option and target names; the targets are
        // gathered only when Tab asks for them.
        let targets = if name == "Tab" && prompt.template.is_empty() {
            super::prompt_targets::gather(&self.ctx).await
        } else {
            super::prompt_targets::Targets::default()
        };
        let command_line = |line: &str| super::line_edit::completions(line, &targets);
        let complete: &dyn Fn(&str) -> Vec<String> = if prompt.template.is_empty() {
            &command_line
        } else {
            &|_| Vec::new()
        };
        let vi = self.options().option_value("status-keys").as_deref() == Some("vi");
        match prompt.line.key(&name, vi, &history, complete) {
            Edit::Submit => {
                self.overlay(None).await;
                let text = prompt.line.text().to_string();
                if text.trim().is_empty() {
                    return After::Continue;
                }
                let limit = self.history_limit();
                if let Ok(mut h) = self.ctx.prompt_history.lock() {
                    h.add(prompt.kind, &text, limit);
                }
                // The file keeps the command lines.
                let command = prompt.kind == crate::prompt_history::PromptType::Command;
                if let Some(path) = self.history_file().filter(|_| command) {
                    super::history_file::append(&path, &text);
                }
                let line = crate::cmd::fill_template(&prompt.template, &text);
                return self.run_line(&line).await;
            }
            Edit::Cancel => {
                self.overlay(None).await;
                if prompt.incremental {
                    // Undone: the search goes back to where it started.
                    let line = crate::cmd::fill_template(&prompt.template, "");
                    return self.run_line(&line).await;
                }
                return After::Continue;
            }
            Edit::Edited => {}
        }
        if prompt.incremental && prompt.line.text() != before {
            let line = crate::cmd::fill_template(&prompt.template, prompt.line.text());
            if let Ok(command) = crate::cmd::parse_line(&line) {
                // Errors while typing (no match yet) are not shown over the prompt.
                let origin = self.origin();
                let ran = execute(&self.ctx, command, &origin);
                let _ = crate::cmd::NOBODY_READS.scope(true, ran).await;
            }
        }
        self.start_prompt(prompt).await;
        After::Continue
    }
}

/// The key name an input stands for at a prompt (a one-character paste counts as typed).
pub(super) fn key_of(input: &Input) -> Option<String> {
    match input {
        Input::Key { name, .. } => Some(name.clone()),
        Input::Paste(text) => {
            Some(String::from_utf8_lossy(text).into_owned()).filter(|t| t.chars().count() == 1)
        }
        Input::Mouse(_) => None,
    }
}
