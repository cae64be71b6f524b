//! Splitting a command line into words as tmux does: whitespace separates, quotes group, `\`
//! escapes. Used by the command parser and by configuration files.

use crate::outcome::CommandError;

/// Splits a command line into words: whitespace separates, quotes group, `\` escapes.
pub fn tokenize(line: &str) -> Result<Vec<String>, CommandError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"') | None, '\\') => {
                let next = chars.next().ok_or_else(|| {
                    CommandError::Syntax("a command may not end with a backslash".into())
                })?;
                word.push(next);
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(CommandError::Syntax(format!(
            "unterminated quote: add the closing {q}"
        )));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}
