//! Fuzz the command language, the configuration files (TOML and tmux's syntax) and formats:
//! any text is a command or a sentence saying what is wrong with it, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut config = weft_server::Config::default();
    let vars = std::collections::HashMap::from([("session_name".to_string(), "s".to_string())]);
    for line in text.lines() {
        if let Err(e) = weft_server::cmd::parse_line_sequence(line) {
            assert!(!e.to_string().is_empty());
        }
        if let Ok(words) = weft_server::words::tokenize(line) {
            if let Err(e) = weft_server::cmd::config_lines::run_config_line(&mut config, &words) {
                assert!(!e.is_empty());
            }
        }
        let _ = weft_server::format::expand(line, &vars);
    }
    let _ = weft_server::Config::parse(text, "fuzz.toml", &weft_server::cmd::check);
});
