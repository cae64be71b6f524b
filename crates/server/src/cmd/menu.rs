//! `display-menu` (`menu`): a list of commands in a box over the window, for this client. The
//! client shows it and runs the item chosen (`connection/menu.rs`); the session expands its
//! items (`session/menu.rs`).

use super::{Action, Args, ClientRequest, Entry};
use crate::outcome::CommandError;
use crate::session::menu::{MenuItemSpec, MenuRequest};

/// `display-menu`.
pub static DISPLAY_MENU: Entry = Entry {
    name: "display-menu",
    aliases: &["menu"],
    usage: "[-MO] [-b border-lines] [-c target-client] [-C starting-choice] \
            [-H selected-style] [-s style] [-S border-style] [-t target-pane] [-T title] \
            [-x position] [-y position] name key command ...",
    about: "Show a menu over the window: each item is a name, the key that chooses it (or \
            '') and the command it runs; an empty name alone is a separator line and a name \
            starting with - is shown dim and cannot be chosen. Up/Down move, Enter or an \
            item's key chooses, q or Escape closes; from a mouse binding (or with -M) a click \
            or a release over an item chooses it. -x/-y place it (a cell, or C, P, M, W, S, \
            R, L as in tmux); names, commands and -T are formats.",
    flags: "MOb:c:C:H:s:S:t:T:x:y:",
    long: &[],
    read_only: false,
    target: None,
    build: |args| {
        let lines = super::popup::border_lines(args)?;
        let starting_choice = match args.value('C') {
            Some(n) => Some(
                n.parse::<usize>()
                    .map_err(|_| args.usage(format!("-C takes an item's number, not {n:?}")))?,
            ),
            None => None,
        };
        let request = MenuRequest {
            items: items(args)?,
            title: args.value('T').map(str::to_string),
            x: args.value('x').map(str::to_string),
            y: args.value('y').map(str::to_string),
            starting_choice,
            style: args.value('s').map(str::to_string),
            selected_style: args.value('H').map(str::to_string),
            border_style: args.value('S').map(str::to_string),
            lines,
            target: args.target(),
            mouse: args.has('M'),
            closed: None,
        };
        Ok(Action::Client(ClientRequest::Menu(Box::new(request))))
    },
};

/// The items, from the arguments in threes (an empty name alone).
fn items(args: &Args) -> Result<Vec<MenuItemSpec>, CommandError> {
    let mut words = args.positional.iter();
    let mut items = Vec::new();
    while let Some(name) = words.next() {
        if name.is_empty() {
            items.push(MenuItemSpec::default());
            continue;
        }
        let (Some(key), Some(command)) = (words.next(), words.next()) else {
            return Err(args.usage(format!(
                "item {name:?} needs a key ('' for none) and a command after its name"
            )));
        };
        items.push(MenuItemSpec {
            name: name.clone(),
            key: key.clone(),
            command: command.clone(),
        });
    }
    if items.is_empty() {
        return Err(args.usage("a menu needs at least one item: a name, a key and a command"));
    }
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(line: &str) -> Result<MenuRequest, String> {
        let parsed = crate::cmd::parse_line(line).map_err(|e| e.to_string())?;
        match parsed.action {
            Action::Client(ClientRequest::Menu(request)) => Ok(*request),
            _ => Err("not a menu".into()),
        }
    }

    #[test]
    fn items_come_in_threes_with_lone_separators() {
        let menu =
            request("display-menu -T Pane -x M 'Kill' X {kill-pane} '' Zoom z 'resize-pane -Z'")
                .expect("a menu");
        assert_eq!(menu.title.as_deref(), Some("Pane"));
        assert_eq!(menu.x.as_deref(), Some("M"));
        assert_eq!(menu.items.len(), 3);
        assert_eq!(menu.items[0].command, "kill-pane");
        assert_eq!(menu.items[1], MenuItemSpec::default());
        assert_eq!(menu.items[2].key, "z");
        let short = request("menu Kill X").expect_err("a name without its command");
        assert!(short.contains("needs a key"), "{short}");
        assert!(request("menu -T x").is_err(), "a menu with no items");
    }

    /// Every default menu binding reads as commands, and every item's command too.
    #[test]
    fn the_default_menus_parse() {
        let lines = crate::default_menus::prefix_bindings()
            .into_iter()
            .map(|(_, l)| l)
            .chain(
                crate::default_menus::root_bindings()
                    .into_iter()
                    .map(|(_, l)| l),
            );
        let mut menus = 0;
        for line in lines {
            for parsed in
                crate::cmd::parse_line_sequence(&line).unwrap_or_else(|e| panic!("{line}: {e}"))
            {
                let Action::Client(ClientRequest::Menu(menu)) = parsed.action else {
                    continue;
                };
                menus += 1;
                assert!(menu.items.len() > 5, "{line}");
                for item in menu.items.iter().filter(|i| !i.command.is_empty()) {
                    crate::cmd::parse_line_sequence(&item.command)
                        .unwrap_or_else(|e| panic!("{}: {e}", item.command));
                }
            }
        }
        // `<`, `>`, the status line's four and `M-MouseDown3Pane` (the plain one's is
        // inside an if-shell).
        assert_eq!(menus, 7);
    }
}
