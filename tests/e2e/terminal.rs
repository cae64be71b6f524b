//! The user's terminal: what weft asks it on attach and shows with `list-clients --json`,
//! programs' colour queries answered with its real colours (or not at all), colour scheme
//! reports, and frames at the colour depth it has. Each client runs on a scripted terminal
//! (`FakeTerminal`) that answers as a given terminal would.

use serde_json::Value;
use weft_testkit::{Color, FakeTerminal, TestTerminal};
use weft_tests::{json_list, TestServer, TEST_SHELL};

/// `TERM` and `COLORTERM` of a modern terminal that says it has truecolor.
const TRUECOLOR_ENV: &[(&str, &str)] = &[("TERM", "xterm-256color"), ("COLORTERM", "truecolor")];

/// A client of session `name` on a terminal answering as `fake`, at its prompt.
fn client_on(
    server: &TestServer,
    name: &str,
    env: &[(&str, &str)],
    fake: FakeTerminal,
) -> TestTerminal {
    let mut args = vec!["new", "-s", name, "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut client = server.client_answering(&args, 80, 24, env, fake);
    client.wait_for_text("$").expect("prompt");
    client
}

/// The one client `list-clients --json` lists, as JSON.
fn the_client(server: &TestServer) -> Value {
    let clients = json_list(server, &["list-clients", "--json"]);
    assert_eq!(clients.len(), 1, "{clients:?}");
    clients[0].clone()
}

/// Writes a script into the test's directory and returns its path.
fn script(server: &TestServer, name: &str, body: &str) -> String {
    let path = server.dir.join(name);
    std::fs::write(&path, body).unwrap();
    path.to_string_lossy().into_owned()
}

/// Asks the terminal it runs in for its background colour (OSC 11) and prints what came back
/// (nothing within a second: `bg<>`).
const ASK_BACKGROUND: &str = "stty -icanon -echo\n\
printf '\\033]11;?\\007'\n\
IFS= read -r -t 1 -d $'\\a' answer\n\
stty sane\n\
printf 'bg<%s>\\n' \"${answer#*;}\"\n";

fn background_seen_by_a_program(fake: FakeTerminal, name: &str) -> String {
    let server = TestServer::new(name);
    let mut client = client_on(&server, name, TRUECOLOR_ENV, fake);
    let path = script(&server, "ask.sh", ASK_BACKGROUND);
    client.send_text(&format!("bash {path}\r")).unwrap();
    client.wait_for_text("bg<").unwrap();
    client
        .wait_for(|s| {
            s.text()
                .lines()
                .any(|l| l.starts_with("bg<") && l.contains('>'))
        })
        .unwrap();
    let text = client.screen().text();
    let line = text.lines().find(|l| l.starts_with("bg<")).unwrap();
    line.trim_end().to_string()
}

#[test]
fn list_clients_shows_what_the_terminal_said() {
    let server = TestServer::new("term-list");
    let _client = client_on(&server, "t", TRUECOLOR_ENV, FakeTerminal::modern_dark());
    let c = the_client(&server);
    let t = &c["terminal"];
    assert_eq!(t["name"], "WezTerm", "{c}");
    assert_eq!(t["version"], "20240203-110809-5046fc22");
    assert_eq!(t["term"], "xterm-256color");
    assert_eq!(t["answered"], true);
    let features: Vec<&str> = t["features"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(
        features,
        [
            "truecolor",
            "sync",
            "graphemes",
            "color-scheme",
            "sgr-pixels",
            "kitty-keys",
            "styled-underlines",
            "hyperlinks"
        ]
    );
    assert_eq!(t["background"], "rgb:1010/1010/1818");
    assert_eq!(t["foreground"], "rgb:d0d0/d0d0/d0d0");
    assert_eq!(t["palette"][1], "rgb:cdcd/0000/0000");
    assert_eq!(t["dark"], true);
}

#[test]
fn a_client_that_carries_keys_over_its_socket_asks_its_terminal_too() {
    let server = TestServer::new("term-proxy");
    let env = [
        ("TERM", "xterm-256color"),
        ("COLORTERM", ""),
        ("WEFT_TTY_PROXY", "1"),
    ];
    let mut client = client_on(&server, "p", &env, FakeTerminal::modern_light());
    let t = the_client(&server)["terminal"].clone();
    assert_eq!(t["name"], "WezTerm", "{t}");
    assert_eq!(t["background"], "rgb:fafa/fafa/f5f5");
    let path = script(&server, "ask.sh", ASK_BACKGROUND);
    client.send_text(&format!("bash {path}\r")).unwrap();
    client
        .wait_for(|s| s.text().contains("bg<rgb:fafa/fafa/f5f5>"))
        .unwrap();
}

#[test]
fn xterm_and_kitty_are_told_apart() {
    let features = |t: &Value| -> Vec<String> {
        t["features"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|f| f.as_str().map(String::from))
            .collect()
    };
    let server = TestServer::new("term-xterm");
    let env = [("TERM", "xterm"), ("COLORTERM", "")];
    let _xterm = client_on(&server, "x", &env, FakeTerminal::xterm());
    let t = the_client(&server)["terminal"].clone();
    assert_eq!(
        (t["name"].as_str(), t["version"].as_str()),
        (Some("XTerm"), Some("390"))
    );
    assert_eq!(features(&t), ["256", "sgr-pixels"]);
    assert_eq!(t["dark"], false);
    let server = TestServer::new("term-kitty");
    let env = [("TERM", "xterm-kitty"), ("COLORTERM", "")];
    let _kitty = client_on(&server, "k", &env, FakeTerminal::kitty());
    let t = the_client(&server)["terminal"].clone();
    assert_eq!(
        (t["name"].as_str(), t["version"].as_str()),
        (Some("kitty"), Some("0.35.2"))
    );
    assert_eq!(
        features(&t),
        [
            "truecolor",
            "sync",
            "color-scheme",
            "sgr-pixels",
            "kitty-keys",
            "styled-underlines",
            "hyperlinks"
        ]
    );
    assert_eq!(t["dark"], true);
}

#[test]
fn a_terminal_that_answers_nothing_is_known_only_by_its_term() {
    let server = TestServer::new("term-silent");
    let env = [("TERM", "xterm"), ("COLORTERM", "")];
    let _client = client_on(&server, "t", &env, FakeTerminal::silent());
    let t = the_client(&server)["terminal"].clone();
    assert_eq!(t["answered"], false, "{t}");
    assert_eq!(t["name"], Value::Null);
    assert_eq!(t["features"], serde_json::json!(["16"]));
    assert_eq!(t["background"], Value::Null);
    assert_eq!(t["dark"], Value::Null);
}

#[test]
fn a_program_asking_the_background_gets_the_terminals_real_one() {
    assert_eq!(
        background_seen_by_a_program(FakeTerminal::modern_light(), "term-light"),
        "bg<rgb:fafa/fafa/f5f5>"
    );
    assert_eq!(
        background_seen_by_a_program(FakeTerminal::modern_dark(), "term-dark"),
        "bg<rgb:1010/1010/1818>"
    );
    // Nobody knows it: no answer at all, rather than an invented colour.
    assert_eq!(
        background_seen_by_a_program(FakeTerminal::silent(), "term-nothing"),
        "bg<>"
    );
}

/// Prints a truecolor word and waits until the client shows it; returns the client's
/// terminal's view of its first letter's colours, and whether any RGB SGR reached it.
fn truecolor_word_on(env: &[(&str, &str)], fake: FakeTerminal, name: &str) -> (Color, Color, bool) {
    let server = TestServer::new(name);
    let mut client = client_on(&server, name, env, fake);
    client
        .send_text("printf '\\033[38;2;250;10;10;48;2;10;10;250mTRUE\\033[0m\\n'\r")
        .unwrap();
    client
        .wait_for(|s| s.text().lines().any(|l| l.starts_with("TRUE")))
        .unwrap();
    let screen = client.screen();
    let row = (0..screen.rows())
        .find(|&r| screen.row(r).unwrap().text().starts_with("TRUE"))
        .unwrap();
    let cell = screen.cell(row, 0).unwrap();
    let (fg, bg) = (cell.fg(), cell.bg());
    let received = client.fake_terminal().unwrap().received().to_vec();
    (fg, bg, has_rgb_sgr(&received))
}

/// The parameters of every SGR in `bytes` (`38;2;250;10;10`). The typed command line's own
/// text (`printf '...38;2...'`) is not an SGR.
fn sgrs(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    text.split("\x1b[")
        .skip(1)
        .filter_map(|seq| {
            let params: String = seq
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == ';' || *c == ':')
                .collect();
            seq[params.len()..].starts_with('m').then_some(params)
        })
        .collect()
}

/// Whether any SGR in `bytes` sets an RGB colour (`38;2`, `48;2`, `58:2`).
fn has_rgb_sgr(bytes: &[u8]) -> bool {
    sgrs(bytes).iter().any(|params| {
        let fields: Vec<&str> = params.split([';', ':']).collect();
        fields
            .windows(2)
            .any(|w| matches!(w[0], "38" | "48" | "58") && w[1] == "2")
    })
}

#[test]
fn a_16_colour_terminal_never_receives_rgb_colours() {
    let env = [("TERM", "xterm"), ("COLORTERM", "")];
    let (fg, bg, rgb) = truecolor_word_on(&env, FakeTerminal::silent(), "term-16");
    assert!(!rgb, "38;2 or 48;2 reached a 16-colour terminal");
    assert_eq!((fg, bg), (Color::Indexed(9), Color::Indexed(4)));
}

#[test]
fn a_256_colour_terminal_gets_the_nearest_palette_colours() {
    let env = [("TERM", "xterm-256color"), ("COLORTERM", "")];
    let (fg, bg, rgb) = truecolor_word_on(&env, FakeTerminal::palette_256(), "term-256");
    assert!(!rgb, "38;2 or 48;2 reached a 256-colour terminal");
    assert_eq!((fg, bg), (Color::Indexed(196), Color::Indexed(21)));
}

#[test]
fn a_truecolor_terminal_gets_rgb_and_synchronized_frames_only_when_it_has_them() {
    let (fg, _, rgb) = truecolor_word_on(TRUECOLOR_ENV, FakeTerminal::modern_dark(), "term-rgb");
    assert!(rgb);
    assert_eq!(fg, Color::Rgb(weft_testkit::Rgb::new(250, 10, 10)));
    // Synchronized output: only to the terminal that said it has it.
    let server = TestServer::new("term-sync");
    let mut modern = client_on(&server, "a", TRUECOLOR_ENV, FakeTerminal::modern_dark());
    let mut old = client_on(&server, "b", TRUECOLOR_ENV, FakeTerminal::palette_256());
    // A screenful, one write: a frame too large to go out unwrapped.
    for c in [&mut modern, &mut old] {
        c.send_text("seq -s ' ' 1 400; echo dr''awn\r").unwrap();
        c.wait_for_text("drawn").unwrap();
    }
    let received = |c: &mut TestTerminal| {
        String::from_utf8_lossy(c.fake_terminal().unwrap().received()).into_owned()
    };
    assert!(received(&mut modern).contains("\x1b[?2026h"));
    assert!(!received(&mut old).contains("\x1b[?2026h"));
}

/// Turns on colour scheme reports, says `ready`, waits for one, and prints it; then asks for
/// the scheme with DSR 996 and prints the answer.
const FOLLOW_SCHEME: &str = "stty -icanon -echo\n\
printf '\\033[?2031h'\n\
echo ready\n\
IFS= read -r -t 5 -d n report\n\
printf '\\033[?996n'\n\
IFS= read -r -t 2 -d n asked\n\
stty sane\n\
printf 'scheme<%s><%s>\\n' \"${report#*;}\" \"${asked#*;}\"\n";

#[test]
fn a_program_hears_when_the_terminal_turns_light() {
    let server = TestServer::new("term-2031");
    let mut client = client_on(&server, "t", TRUECOLOR_ENV, FakeTerminal::modern_dark());
    let path = script(&server, "follow.sh", FOLLOW_SCHEME);
    client.send_text(&format!("bash {path}\r")).unwrap();
    client
        .wait_for(|s| s.text().lines().any(|l| l.trim_end() == "ready"))
        .unwrap();
    // The user's terminal turns light and says so (weft turned its reports on).
    assert!(
        String::from_utf8_lossy(client.fake_terminal().unwrap().received()).contains("\x1b[?2031h")
    );
    *client.fake_terminal().unwrap() = FakeTerminal::modern_light();
    client.send_bytes(b"\x1b[?997;2n").unwrap();
    client.wait_for_text("scheme<").unwrap();
    client
        .wait_for(|s| s.text().contains("scheme<2><2>"))
        .unwrap();
    // weft asked the terminal its colours again (before the frame that showed the report, in
    // order with it): programs now get the light ones.
    let path = script(&server, "ask.sh", ASK_BACKGROUND);
    client.send_text(&format!("bash {path}\r")).unwrap();
    client
        .wait_for(|s| s.text().contains("bg<rgb:fafa/fafa/f5f5>"))
        .unwrap();
}

#[test]
fn answers_never_reach_the_shell_and_keys_typed_while_weft_asks_are_kept() {
    // A terminal that answers everything (its answers held back until keys were typed, then
    // arriving between keys), and one that answers nothing: keys typed before any answer
    // reach the shell, and the answers do not.
    let mut modern = FakeTerminal::modern_light();
    modern.hold = true;
    for (name, fake) in [
        ("term-keys-modern", modern),
        ("term-keys-silent", FakeTerminal::silent()),
    ] {
        typed_while_asked(name, fake);
    }
}

fn typed_while_asked(name: &str, fake: FakeTerminal) {
    let server = TestServer::new(name);
    let mut args = vec!["new", "-s", "k", "--"];
    args.extend_from_slice(TEST_SHELL);
    // Typed before the terminal answered anything.
    let mut client = server.client_answering(&args, 80, 24, TRUECOLOR_ENV, fake);
    client.send_text("echo early-$((6*7))\r").unwrap();
    client.wait_for_text("early-42").unwrap();
    let answers = client.fake_terminal().unwrap().release();
    client.send_bytes(&answers).unwrap();
    client.send_text("echo late-$((6*7))\r").unwrap();
    client.wait_for_text("late-42").unwrap();
    let text = client.screen().text();
    let typed: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("echo "))
        .map(str::trim_end)
        .collect();
    // No answer bytes (`^[[?65;...c`, `rgb:...`) typed into the shell's lines (the early line
    // may also have been echoed by the pty before the shell printed its prompt).
    assert!(
        typed
            .iter()
            .all(|l| l.ends_with("echo early-$((6*7))") || l.ends_with("echo late-$((6*7))")),
        "{text}"
    );
    assert_eq!(typed.last(), Some(&"$ echo late-$((6*7))"), "{text}");
    for garbage in ["rgb:", "65;4", "^[", "WezTerm", "$y"] {
        assert!(!text.contains(garbage), "{garbage} in {text}");
    }
    // Taken in on their way, ahead of the keys that followed them.
    let answered = the_client(&server)["terminal"]["answered"] == true;
    assert_eq!(answered, !answers.is_empty());
}

#[test]
fn a_plain_terminal_gets_plain_underlines_and_link_text_without_links() {
    let server = TestServer::new("term-plain");
    let env = [("TERM", "xterm"), ("COLORTERM", "")];
    let mut client = client_on(&server, "p", &env, FakeTerminal::silent());
    client
        .send_text(
            "printf '\\033[4:3mCURLY\\033[0m \\033]8;id=x;https://weft.test/\\033\\\\LINKED\\033]8;;\\033\\\\\\n'\r",
        )
        .unwrap();
    client
        .wait_for(|s| s.text().lines().any(|l| l.starts_with("CURLY LINKED")))
        .unwrap();
    let received = client.fake_terminal().unwrap().received().to_vec();
    let text = String::from_utf8_lossy(&received);
    assert!(
        !text.contains("\x1b]8;id"),
        "a link reached a plain terminal"
    );
    assert!(
        !sgrs(&received).iter().any(|p| p.contains("4:")),
        "a styled underline reached a plain terminal"
    );
    let screen = client.screen();
    let row = (0..screen.rows())
        .find(|&r| screen.row(r).unwrap().text().starts_with("CURLY"))
        .unwrap();
    assert_eq!(
        screen.cell(row, 0).unwrap().attrs().underline(),
        weft_testkit::UnderlineStyle::Single
    );
}

/// vim's idea of the background (`:set bg?`) once it has asked the terminal, run by `client`.
/// vim takes the terminal's answer whenever it comes (on a loaded machine, after its first
/// screen), so the question is asked again, after vim falls quiet, until it says `want` or has
/// said something else five times.
fn vim_background(client: &mut TestTerminal, want: &str) -> String {
    client.wait_for_text("~").unwrap();
    let mut said = String::new();
    for _ in 0..5 {
        client.send_text(":set bg?\r").unwrap();
        client
            .wait_for(|s| s.text().contains("background="))
            .unwrap();
        let text = client.screen().text();
        said = text
            .lines()
            .find(|l| l.contains("background="))
            .unwrap()
            .trim()
            .to_string();
        if said == want {
            break;
        }
        client.send_text(":echo ''\r").unwrap();
        client
            .wait_for(|s| !s.text().contains("background="))
            .unwrap();
        client
            .wait_idle(std::time::Duration::from_millis(300))
            .unwrap();
    }
    said
}

const VIM: &[&str] = &["vim", "-u", "NONE", "-N", "-i", "NONE", "-n"];

#[test]
fn vim_inside_weft_picks_the_background_it_picks_on_the_bare_terminal() {
    if std::process::Command::new("vim")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("vim is not installed: skipped");
        return;
    }
    for (name, fake, want) in [
        (
            "term-vim-light",
            FakeTerminal::modern_light(),
            "background=light",
        ),
        (
            "term-vim-dark",
            FakeTerminal::modern_dark(),
            "background=dark",
        ),
    ] {
        let mut bare = TestTerminal::spawn(VIM.iter().copied())
            .env("TERM", "xterm-256color")
            .answering(fake.clone())
            .start()
            .unwrap();
        assert_eq!(
            vim_background(&mut bare, want),
            want,
            "vim on the bare terminal"
        );
        // Started from the shell once attached, as a user does: a program started with the
        // session may ask before the first client's terminal has answered.
        let server = TestServer::new(name);
        let mut inside = client_on(&server, "v", TRUECOLOR_ENV, fake);
        inside.send_text(&format!("{}\r", VIM.join(" "))).unwrap();
        assert_eq!(vim_background(&mut inside, want), want, "vim inside weft");
    }
}

#[test]
fn answers_that_come_late_still_count() {
    let server = TestServer::new("term-late");
    let mut slow = FakeTerminal::modern_dark();
    slow.hold = true;
    // Nothing answered yet: drawn with what TERM says.
    let env = [("TERM", "xterm"), ("COLORTERM", "")];
    let mut client = client_on(&server, "l", &env, slow);
    let t = the_client(&server)["terminal"].clone();
    assert_eq!(
        (t["answered"].as_bool(), t["name"].as_str()),
        (Some(false), None)
    );
    let late = client.fake_terminal().unwrap().release();
    client.send_bytes(&late).unwrap();
    // Taken out of the keys and taken in: the shell saw nothing, list-clients says more.
    client.send_text("echo after-$((6*7))\r").unwrap();
    client.wait_for_text("after-42").unwrap();
    let t = the_client(&server)["terminal"].clone();
    assert_eq!(t["name"], "WezTerm", "{t}");
    assert_eq!(t["features"][0], "truecolor");
    assert!(!client.screen().text().contains("rgb:"));
    // The renderer was told: RGB colours now reach the terminal, and 2031 was turned on.
    client
        .send_text("printf '\\033[38;2;250;10;10mLATE\\033[0m\\n'\r")
        .unwrap();
    client
        .wait_for(|s| s.text().lines().any(|l| l.starts_with("LATE")))
        .unwrap();
    let received = client.fake_terminal().unwrap().received().to_vec();
    assert!(has_rgb_sgr(&received));
    assert!(String::from_utf8_lossy(&received).contains("\x1b[?2031h"));
}

#[test]
fn kitty_keys_are_turned_on_where_the_terminal_has_them_and_decoded() {
    let server = TestServer::new("kittyon");
    let env = [("TERM", "xterm-kitty"), ("COLORTERM", "truecolor")];
    let mut client = client_on(&server, "k", &env, FakeTerminal::kitty());
    client
        .wait_for(|s| s.keyboard_mode().kitty_flags == 1)
        .unwrap();
    // C-c as kitty sends it with "disambiguate" on reaches the (legacy) shell as ^C.
    client.send_text("sleep 100\r").unwrap();
    // sleep in the foreground first: a C-c before that goes to the shell instead.
    let foreground = || {
        let out = server.weft(&[
            "display-message",
            "-p",
            "-t",
            "k",
            "#{pane_current_command}",
        ]);
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while foreground() != "sleep" {
        assert!(std::time::Instant::now() < deadline, "sleep never ran");
    }
    client.send_bytes(b"\x1b[99;5u").unwrap();
    client
        .wait_for(|s| s.text().lines().any(|l| l.trim_end() == "$"))
        .unwrap();
    client.send_text("echo back-$((6+6))\r").unwrap();
    client.wait_for_text("back-12").unwrap();

    // A terminal that did not answer `CSI ? u` is left alone.
    let server = TestServer::new("kittyoff");
    let client = client_on(&server, "x", &[("TERM", "xterm")], FakeTerminal::xterm());
    assert_eq!(client.screen().keyboard_mode().kitty_flags, 0);
}

#[test]
fn terminal_overrides_tc_gives_a_256_colour_terminal_rgb_colours() {
    let server = TestServer::new("term-tc");
    let conf = server.dir.join("tc.conf");
    std::fs::write(&conf, "set -ga terminal-overrides \",xterm-256color:Tc\"\n").unwrap();
    let conf = conf.to_str().unwrap().to_string();
    let mut args = vec!["-f", &conf, "new", "-s", "tc", "--"];
    args.extend_from_slice(TEST_SHELL);
    let env = [("TERM", "xterm-256color"), ("COLORTERM", "")];
    let mut client = server.client_answering(&args, 80, 24, &env, FakeTerminal::palette_256());
    client.wait_for_text("$").unwrap();
    client
        .send_text("printf '\\033[38;2;250;10;10mTRUE\\033[0m\\n'\r")
        .unwrap();
    client
        .wait_for(|s| s.text().lines().any(|l| l.starts_with("TRUE")))
        .unwrap();
    let received = client.fake_terminal().unwrap().received().to_vec();
    assert!(
        has_rgb_sgr(&received),
        "Tc in terminal-overrides: RGB colours go out"
    );
    let features = the_client(&server)["terminal"]["features"].to_string();
    assert!(features.contains("truecolor"), "{features}");
}
