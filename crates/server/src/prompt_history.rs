//! The prompt's histories, one per kind of prompt as tmux keeps them (`command-prompt -T`):
//! Up at the `:` prompt brings back commands, not the searches typed in copy mode.

use std::collections::VecDeque;

/// The kinds of prompt, each with a history of its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PromptType {
    /// A command line (`:`), the default.
    #[default]
    Command,
    /// A search (copy mode's `/` and `?`).
    Search,
    /// A target (`-T target`).
    Target,
    /// A window's target (`-T window-target`).
    WindowTarget,
}

impl PromptType {
    /// Every kind, in tmux's order.
    pub const ALL: [PromptType; 4] = [
        PromptType::Command,
        PromptType::Search,
        PromptType::Target,
        PromptType::WindowTarget,
    ];

    /// The kind `-T` names; `None` for a word tmux does not take.
    pub fn parse(word: &str) -> Option<PromptType> {
        PromptType::ALL.into_iter().find(|t| t.name() == word)
    }

    /// tmux's name for it.
    pub fn name(self) -> &'static str {
        match self {
            PromptType::Command => "command",
            PromptType::Search => "search",
            PromptType::Target => "target",
            PromptType::WindowTarget => "window-target",
        }
    }

    fn slot(self) -> usize {
        self as usize
    }
}

/// Lines entered at prompts, oldest first, one history per [`PromptType`] (server-wide).
#[derive(Debug, Default)]
pub struct PromptHistories {
    by_type: [VecDeque<String>; 4],
}

impl PromptHistories {
    /// The history of prompts of `kind`.
    pub fn of(&self, kind: PromptType) -> &VecDeque<String> {
        &self.by_type[kind.slot()]
    }

    /// The history of prompts of `kind`, to change.
    pub fn of_mut(&mut self, kind: PromptType) -> &mut VecDeque<String> {
        &mut self.by_type[kind.slot()]
    }

    /// Adds `line` to `kind`'s history (not twice in a row), keeping at most `limit` lines.
    pub fn add(&mut self, kind: PromptType, line: &str, limit: usize) {
        let history = self.of_mut(kind);
        if history.back().map(String::as_str) != Some(line) {
            history.push_back(line.to_string());
        }
        while history.len() > limit {
            history.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_keeps_its_own_lines() {
        let mut h = PromptHistories::default();
        h.add(PromptType::Command, "split-window", 10);
        h.add(PromptType::Search, "error", 10);
        h.add(PromptType::Search, "error", 10);
        assert_eq!(h.of(PromptType::Command).len(), 1);
        assert_eq!(h.of(PromptType::Search).len(), 1, "not twice in a row");
        for i in 0..5 {
            h.add(PromptType::Target, &i.to_string(), 3);
        }
        let kept: Vec<&str> = h
            .of(PromptType::Target)
            .iter()
            .map(String::as_str)
            .collect();
        assert_eq!(kept, ["2", "3", "4"]);
        assert_eq!(
            PromptType::parse("window-target"),
            Some(PromptType::WindowTarget)
        );
        assert_eq!(PromptType::parse("nonsense"), None);
    }
}
