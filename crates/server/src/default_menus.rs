//! tmux's default menus (3.3's), bound as tmux binds them: `<` and `>` after the prefix for the
//! window's and the pane's, and the right mouse button over the status line (the session's
//! over `status-left`, a window's over its tab) and over a pane (unless its program takes the
//! mouse, which then gets the click).

/// The session menu's items.
const SESSION_MENU: &str = r##"'Next' 'n' {switch-client -n} 'Previous' 'p' {switch-client -p} '' 'Renumber' 'N' {move-window -r} 'Rename' 'n' {command-prompt -I "#S" "rename-session -- '%%'"} '' 'New Session' 's' {new-session} 'New Window' 'w' {new-window}"##;

/// The window menu's items.
const WINDOW_MENU: &str = r##"'#{?#{>:#{session_windows},1},,-}Swap Left' 'l' {swap-window -t:-1} '#{?#{>:#{session_windows},1},,-}Swap Right' 'r' {swap-window -t:+1} '#{?pane_marked_set,,-}Swap Marked' 's' {swap-window} '' 'Kill' 'X' {kill-window} 'Respawn' 'R' {respawn-window -k} '#{?pane_marked,Unmark,Mark}' 'm' {select-pane -m} 'Rename' 'n' {command-prompt -I "#W" "rename-window -t '#{window_id}' -- '%%'"} '' 'New After' 'w' {new-window -a} 'New At End' 'W' {new-window}"##;

/// The pane menu's items.
const PANE_MENU: &str = r##"'#{?#{m/r:(copy|view)-mode,#{pane_mode}},Go To Top,}' '<' {send -X history-top} '#{?#{m/r:(copy|view)-mode,#{pane_mode}},Go To Bottom,}' '>' {send -X history-bottom} '' '#{?mouse_word,Search For #[underscore]#{=/9/...:mouse_word},}' 'C-r' {if -F '#{?#{m/r:(copy|view)-mode,#{pane_mode}},0,1}' 'copy-mode -t='; send -Xt= search-backward "#{q:mouse_word}"} '#{?mouse_word,Type #[underscore]#{=/9/...:mouse_word},}' 'C-y' {copy-mode -q; send-keys -l -- "#{q:mouse_word}"} '#{?mouse_word,Copy #[underscore]#{=/9/...:mouse_word},}' 'c' {copy-mode -q; set-buffer -- "#{q:mouse_word}"} '#{?mouse_line,Copy Line,}' 'l' {copy-mode -q; set-buffer -- "#{q:mouse_line}"} '' 'Horizontal Split' 'h' {split-window -h} 'Vertical Split' 'v' {split-window -v} '' '#{?#{>:#{window_panes},1},,-}Swap Up' 'u' {swap-pane -U} '#{?#{>:#{window_panes},1},,-}Swap Down' 'd' {swap-pane -D} '#{?pane_marked_set,,-}Swap Marked' 's' {swap-pane} '' 'Kill' 'X' {kill-pane} 'Respawn' 'R' {respawn-pane -k} '#{?pane_marked,Unmark,Mark}' 'm' {select-pane -m} '#{?#{>:#{window_panes},1},,-}#{?window_zoomed_flag,Unzoom,Zoom}' 'z' {resize-pane -Z}"##;

/// The window menu's title.
const WINDOW_TITLE: &str = "'#[align=centre]#{window_index}:#{window_name}'";
/// The pane menu's title.
const PANE_TITLE: &str = "'#[align=centre]#{pane_index} (#{pane_id})'";

/// The prefix table's menu keys, with their command lines.
pub fn prefix_bindings() -> Vec<(&'static str, String)> {
    vec![
        (
            "<",
            format!("display-menu -xW -yW -T {WINDOW_TITLE} {WINDOW_MENU}"),
        ),
        (
            ">",
            format!("display-menu -xP -yP -T {PANE_TITLE} {PANE_MENU}"),
        ),
    ]
}

/// The root table's menu keys (the right mouse button), with their command lines.
pub fn root_bindings() -> Vec<(String, String)> {
    let session =
        format!("display-menu -t= -xM -yW -T '#[align=centre]#{{session_name}}' {SESSION_MENU}");
    let window = format!("display-menu -t= -xW -yW -T {WINDOW_TITLE} {WINDOW_MENU}");
    let pane = format!("display-menu -t= -xM -yM -T {PANE_TITLE} {PANE_MENU}");
    // A program that takes the mouse (or a pane in a mode other than copy mode) gets the
    // click instead.
    let pane_or_program = format!(
        "if -Ft= '#{{||:#{{mouse_any_flag}},#{{&&:#{{pane_in_mode}},#{{?#{{m/r:(copy|view)-mode,#{{pane_mode}}}},0,1}}}}}}' {{ select-pane -t=; send -M }} {{ {pane} }}"
    );
    let mut out = Vec::new();
    for held in ["", "M-"] {
        out.push((format!("{held}MouseDown3StatusLeft"), session.clone()));
        out.push((format!("{held}MouseDown3Status"), window.clone()));
    }
    out.push(("MouseDown3Pane".into(), pane_or_program));
    out.push(("M-MouseDown3Pane".into(), pane));
    out
}
