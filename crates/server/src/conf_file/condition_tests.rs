//! `%if`, `%elif`, `%else` and `%endif` as a file has them.

use super::*;

/// Which of `lines` run, by their text, through `%if` lines as a file has them.
fn running(lines: &[&str]) -> Vec<String> {
    let config = Config::default();
    let mut conditions = Conditions::default();
    let mut ran = Vec::new();
    for line in lines {
        if line.starts_with('%') {
            conditions.line(line, &config).unwrap();
        } else if conditions.running() {
            ran.push(line.to_string());
        }
    }
    ran
}

#[test]
fn if_elif_else_choose_one_branch_and_nest() {
    let ran = running(&[
        "%if \"#{==:a,b}\"",
        "one",
        "%elif \"#{version}\"",
        "two",
        "%if 0",
        "three",
        "%else",
        "four",
        "%endif",
        "%elif 1",
        "five",
        "%else",
        "six",
        "%endif",
        "seven",
    ]);
    assert_eq!(ran, ["two", "four", "seven"]);
    let ran = running(&[
        "%if 0", "%if 1", "a", "%else", "b", "%endif", "%else", "c", "%endif",
    ]);
    assert_eq!(ran, ["c"]);
}

#[test]
fn stray_and_malformed_lines_are_errors() {
    let config = Config::default();
    let mut c = Conditions::default();
    assert!(c.line("%endif", &config).is_err());
    assert!(c.line("%else", &config).is_err());
    assert!(c.line("%if", &config).is_err());
    assert!(c.line("%hidden x", &config).is_err());
}
