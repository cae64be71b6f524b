//! Key names as configurations and `bind` write them, read into tmux's canonical form
//! (`C-B` is `C-b`, `s-c-left` is `C-S-Left`, `wheeluppane` is `WheelUpPane`), and tmux's user
//! keys (`User0`...).

use weft_screen_model::keyboard::KeyMods;

/// The most user keys (`User0` to `User999`), as tmux.
pub const MAX_USER_KEYS: usize = 1000;

/// Whether `name` is a user key's name (`User0` to `User999`).
pub fn is_user_key(name: &str) -> bool {
    name.strip_prefix("User")
        .and_then(|n| n.parse::<usize>().ok())
        .is_some_and(|n| n < MAX_USER_KEYS)
}

/// Normalizes a key name as written in configuration or `bind` (`C-B` is `C-b`, `^B` too;
/// `\;` is `;`, as `list-keys` writes the keys the parser would read otherwise).
pub fn normalize(name: &str) -> Result<String, String> {
    if let Some(escaped) = name.strip_prefix('\\').filter(|c| c.chars().count() == 1) {
        return Ok(escaped.to_string());
    }
    if let Some(rest) = name.strip_prefix('^') {
        if rest.chars().count() == 1 {
            return Ok(format!("C-{}", rest.to_ascii_lowercase()));
        }
    }
    // Modifiers in any order and, as tmux takes them, any case (`s-c-left` is `C-S-Left`).
    let mut mods = 0u8;
    let mut rest = name;
    'prefixes: while rest.len() > 2 {
        for (prefix, bit) in crate::pane_keys::MODIFIER_PREFIXES.iter().rev() {
            let head = rest.get(..prefix.len());
            if head.is_some_and(|h| h.eq_ignore_ascii_case(prefix)) {
                mods |= bit;
                rest = &rest[prefix.len()..];
                continue 'prefixes;
            }
        }
        break;
    }
    const NAMED: &[&str] = &[
        "Up", "Down", "Left", "Right", "Home", "End", "IC", "DC", "PageUp", "PageDown", "Enter",
        "Escape", "Tab", "BTab", "Space", "BSpace", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8",
        "F9", "F10", "F11", "F12",
    ];
    let base = match rest {
        "PgUp" | "PPage" => "PageUp".to_string(),
        "PgDn" | "NPage" => "PageDown".to_string(),
        n if NAMED.iter().any(|k| k.eq_ignore_ascii_case(n)) => NAMED
            .iter()
            .find(|k| k.eq_ignore_ascii_case(n))
            .map_or_else(String::new, |k| k.to_string()),
        n if n.chars().count() == 1 => {
            // `C-B` is `C-b` (control with shift is `C-S-b`), and `S-b` is `B`, as the keys
            // arrive from a terminal.
            if mods & KeyMods::CTRL != 0 {
                n.to_ascii_lowercase()
            } else if mods & KeyMods::SHIFT != 0 && n.chars().all(|c| c.is_ascii_alphabetic()) {
                mods &= !KeyMods::SHIFT;
                n.to_ascii_uppercase()
            } else {
                n.to_string()
            }
        }
        other if is_user_key(other) => other.to_string(),
        other => mouse_key(other).ok_or_else(|| format!("unknown key name: {other}"))?,
    };
    Ok(crate::pane_keys::name_with_modifiers(&base, mods))
}

/// A mouse key's name as tmux writes it (`mousedown1pane` is `MouseDown1Pane`): an event
/// (`MouseDown`, `MouseUp`, `MouseDrag`, `MouseDragEnd` and the clicks with a button 1-3;
/// `WheelUp`, `WheelDown`, `MouseMove` without) and a place (`Pane`, `Border`, `Status`,
/// `StatusLeft`, `StatusRight`, `StatusDefault`).
fn mouse_key(name: &str) -> Option<String> {
    const WITH_BUTTON: &[&str] = &[
        "MouseDragEnd",
        "MouseDown",
        "MouseUp",
        "MouseDrag",
        "SecondClick",
        "DoubleClick",
        "TripleClick",
    ];
    const WITHOUT: &[&str] = &["WheelUp", "WheelDown", "MouseMove"];
    const PLACES: &[&str] = &[
        "Pane",
        "Border",
        "StatusLeft",
        "StatusRight",
        "StatusDefault",
        "Status",
    ];
    let starts = |word: &str, with: &str| {
        word.get(..with.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(with))
    };
    let (event, rest) = WITH_BUTTON
        .iter()
        .find(|e| starts(name, e))
        .and_then(|e| {
            let rest = &name[e.len()..];
            let button = rest.chars().next().filter(|b| ('1'..='3').contains(b))?;
            Some((format!("{e}{button}"), &rest[1..]))
        })
        .or_else(|| {
            WITHOUT
                .iter()
                .find(|e| starts(name, e))
                .map(|e| (e.to_string(), &name[e.len()..]))
        })?;
    let place = PLACES.iter().find(|p| p.eq_ignore_ascii_case(rest))?;
    Some(format!("{event}{place}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_names_normalize() {
        assert_eq!(normalize("C-B").unwrap(), "C-b");
        assert_eq!(normalize("^a").unwrap(), "C-a");
        assert_eq!(normalize("M-Left").unwrap(), "M-Left");
        assert_eq!(normalize("S-C-Left").unwrap(), "C-S-Left");
        assert_eq!(normalize("s-m-up").unwrap(), "M-S-Up");
        assert_eq!(normalize("M-C-b").unwrap(), "C-M-b");
        assert_eq!(normalize("super-a").unwrap(), "Super-a");
        assert_eq!(normalize("C-S-A").unwrap(), "C-S-a");
        assert_eq!(normalize("S-a").unwrap(), "A");
        assert_eq!(normalize("M-S-a").unwrap(), "M-A");
        assert_eq!(normalize("C-S-Left").unwrap(), "C-S-Left");
        assert!(normalize("C-Foo").is_err());
        // tmux's mouse keys, any case, with modifiers.
        assert_eq!(normalize("wheeluppane").unwrap(), "WheelUpPane");
        assert_eq!(normalize("M-MouseDown1Pane").unwrap(), "M-MouseDown1Pane");
        assert_eq!(normalize("MouseDragEnd1Pane").unwrap(), "MouseDragEnd1Pane");
        assert_eq!(
            normalize("DoubleClick3StatusLeft").unwrap(),
            "DoubleClick3StatusLeft"
        );
        assert!(normalize("MouseDown4Pane").is_err());
        assert!(normalize("MouseDownPane").is_err());
        assert!(normalize("WheelUpWindow").is_err());
    }
}
