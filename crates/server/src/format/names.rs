//! The variable names a format can ask for, read from its text: a listing of many panes
//! then makes only those variables for each, not all of them (about a hundred strings in a
//! hash map per pane, most of a `list-panes -a -F` over hundreds of panes).

/// The names `formats` can ask for: every word written in them (runs of letters, digits,
/// `_`, `@` and `-`, so more than the names, never fewer) and the names of the aliases
/// (`#S`). `None` when they can ask for names not written in them: `E:` and `T:` expand a
/// value as a format, a `#(command)`'s output is expanded as one, and a status line's time
/// (`#%a`, made before the format is expanded) can put an alias after a `#`.
pub fn names_in(formats: &[&str]) -> Option<Vec<String>> {
    let mut names: Vec<String> = Vec::new();
    let mut add = |name: &str| {
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    };
    for format in formats {
        let mut rest = *format;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix('#') {
                let mut chars = after.chars();
                match chars.next() {
                    Some('(' | '%') => return None,
                    Some('#') => {
                        rest = chars.as_str();
                        continue;
                    }
                    Some(c) => {
                        if let Some(name) = super::alias(c) {
                            add(name);
                            rest = chars.as_str();
                            continue;
                        }
                    }
                    None => {}
                }
                rest = after;
                continue;
            }
            let word_len = rest
                .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '@' | '-')))
                .unwrap_or(rest.len());
            if word_len == 0 {
                let skip = rest.chars().next().map_or(1, char::len_utf8);
                rest = &rest[skip..];
                continue;
            }
            let word = &rest[..word_len];
            if word == "E" || word == "T" {
                return None;
            }
            add(word);
            rest = &rest[word_len..];
        }
    }
    Some(names)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{expand, Vars};
    use std::collections::HashMap;

    #[test]
    fn the_words_and_aliases_of_a_format_are_its_names() {
        let names = names_in(&["#S:#{window_index}.#P #{?pane_active,*,} ##D"]).unwrap();
        for name in ["session_name", "window_index", "pane_index", "pane_active"] {
            assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
        }
        assert!(!names.iter().any(|n| n == "pane_id"), "`##D` is text");
        let filter = names_in(&["#{pane_id}", "#{==:#{@mark},x}"]).unwrap();
        assert!(filter.iter().any(|n| n == "@mark") && filter.iter().any(|n| n == "pane_id"));
    }

    #[test]
    fn formats_that_expand_values_ask_for_anything() {
        assert_eq!(names_in(&["#{E:status-left}"]), None);
        assert_eq!(names_in(&["#{T:@clock}"]), None);
        assert_eq!(names_in(&["#(echo '#{pane_id}')"]), None);
        assert_eq!(names_in(&["#%b"]), None, "`#Dec` in December");
        assert_eq!(names_in(&["#{pane_id}", "#{E:@f}"]), None);
    }

    /// Variables that answer only the names they were made with: a format expanded over
    /// them must read as over all of them.
    struct Only(HashMap<String, String>);

    impl Vars for Only {
        fn get(&self, name: &str) -> Option<String> {
            self.0.get(name).cloned()
        }
    }

    #[test]
    fn a_format_over_only_its_names_reads_as_over_all() {
        let all: HashMap<String, String> = [
            ("session_name", "main"),
            ("window_index", "2"),
            ("pane_index", "1"),
            ("pane_active", "1"),
            ("pane_id", "%7"),
            ("pane_current_path", "/home/u/src"),
            ("window_name", "edit"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        for format in [
            "#S:#I.#P #{?pane_active,(active),} #D",
            "#{b:pane_current_path} #{=3:window_name} #{s/ma/MA/:session_name}",
            "#{?#{==:#{pane_index},1},first,other}-#{W:#{window_index}}",
        ] {
            let names = names_in(&[format]).unwrap();
            let only = all
                .iter()
                .filter(|(k, _)| names.contains(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            assert_eq!(
                expand(format, &Only(only)),
                expand(format, &Only(all.clone())),
                "{format}"
            );
        }
    }
}
