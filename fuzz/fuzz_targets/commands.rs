//! Fuzz the command language and the configuration file: any text is a command or a sentence
//! saying what is wrong with it, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for line in text.lines() {
        if let Err(e) = weft_server::cmd::parse_line(line) {
            assert!(!e.to_string().is_empty());
        }
    }
    let _ = weft_server::Config::parse(text, "fuzz.toml", &weft_server::cmd::check);
});
