//! Editing a paste buffer in the user's editor, as tmux's `choose-buffer` does with `e`: the
//! buffer is written to a file only the user can read, tmux's `editor` option (else
//! `$VISUAL`, `$EDITOR`, `/usr/bin/vi`, as tmux picks it at start) runs on it in a popup over
//! nine tenths of the window, and when the editor exits successfully the file's text becomes
//! the buffer again. The file is removed either way.

use super::ui::ClientLoop;
use crate::buffers::{Buffers, MAX_BUFFER_BYTES};
use crate::session::popup::{CloseWhen, PopupAction, PopupRequest};
use bytes::Bytes;
use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Files tried before giving up when names are taken (another edit, a stale file).
const NAME_ATTEMPTS: u32 = 16;

impl ClientLoop {
    /// Opens buffer `name` in the editor; its text comes back when the editor exits with 0.
    pub(super) async fn edit_buffer(&mut self, name: &str) {
        let Ok(buffer) = self.ctx.buffers.get(Some(name)) else {
            return;
        };
        let path = match write_private_file(&buffer.data) {
            Ok(path) => path,
            Err(e) => {
                self.message(format!(
                    "cannot write buffer {name} for the editor ({e}); check that $TMPDIR is \
                     writable"
                ))
                .await;
                return;
            }
        };
        let editor = editor_of(&self.options());
        let (tx, rx) = tokio::sync::oneshot::channel();
        let request = PopupRequest {
            command: vec![format!("{editor} {}", shell_quoted(&path))],
            cwd: path.parent().map(|d| d.to_string_lossy().into_owned()),
            env: Vec::new(),
            width: Some("90%".into()),
            height: Some("90%".into()),
            x: Some("C".into()),
            y: Some("C".into()),
            title: None,
        };
        self.popup_request(PopupAction::Open {
            request: Box::new(request),
            close: CloseWhen::Exited,
            any_key: false,
            lines: None,
            style: None,
            border_style: None,
            target: None,
            closed: Some(tx),
        })
        .await;
        let buffers = self.ctx.buffers.clone();
        let name = name.to_string();
        self.server.spawn(async move {
            // No popup (one was open already) or the client left: nothing was edited.
            let code = rx.await.ok().flatten();
            take_back(&buffers, &name, &buffer.data, &path, code);
            if let Err(e) = std::fs::remove_file(&path) {
                tracing::warn!("cannot remove {}: {e}", path.display());
            }
        });
    }
}

/// tmux's `editor`, else the server's `$VISUAL` or `$EDITOR`, else `/usr/bin/vi`.
fn editor_of(config: &crate::config::Config) -> String {
    if config.options.contains_key("editor") {
        if let Some(editor) = config.option_value("editor").filter(|e| !e.is_empty()) {
            return editor;
        }
    }
    ["VISUAL", "EDITOR"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|e| !e.trim().is_empty()))
        .unwrap_or_else(|| "/usr/bin/vi".to_string())
}

/// `path` in single quotes for a shell line (a `'` inside written as `'\''`).
fn shell_quoted(path: &Path) -> String {
    format!("'{}'", path.to_string_lossy().replace('\'', "'\\''"))
}

/// Writes `data` to a new file that only its owner can read, under an unguessable name in
/// the temporary directory (made absolute: the popup starts there).
fn write_private_file(data: &[u8]) -> std::io::Result<PathBuf> {
    use std::hash::{BuildHasher, Hasher};
    let dir = std::env::temp_dir();
    let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
    let mut last = None;
    for _ in 0..NAME_ATTEMPTS {
        // std's hasher keys are random per process and per call: a name another user
        // cannot create first (and `create_new` refuses one that exists, or a symlink).
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u32(std::process::id());
        let path = dir.join(format!("weft-buffer-{:016x}", hasher.finish()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)
        {
            Ok(mut file) => {
                if let Err(e) = file.write_all(data) {
                    let _ = std::fs::remove_file(&path);
                    return Err(e);
                }
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free name")))
}

/// The edited file's text as buffer `name`, as tmux takes it back: only after an exit code of
/// 0, not when the file is empty or the buffer is gone, and without a final newline the
/// editor added to a text that had none.
fn take_back(buffers: &Arc<Buffers>, name: &str, before: &[u8], path: &Path, code: Option<i64>) {
    if code != Some(0) {
        return;
    }
    let mut text = Vec::new();
    let read = std::fs::File::open(path)
        .and_then(|f| f.take(MAX_BUFFER_BYTES as u64 + 1).read_to_end(&mut text));
    if let Err(e) = read {
        tracing::warn!("cannot read back {}: {e}", path.display());
        return;
    }
    if text.is_empty() || text.len() > MAX_BUFFER_BYTES {
        return;
    }
    if !before.is_empty() && !before.ends_with(b"\n") && text.ends_with(b"\n") {
        text.pop();
    }
    // Gone or changed meanwhile: the edit is dropped, as tmux drops it.
    if let Err(e) = buffers.replace_if_unchanged(name, before, Bytes::from(text)) {
        tracing::warn!("cannot take back buffer {name}: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_comes_back_only_after_success_and_keeps_the_ending() {
        let buffers = Arc::new(Buffers::new(10));
        let automatic = buffers.add(Bytes::from_static(b"old"), None).unwrap();
        buffers.set("b", Bytes::from_static(b"old")).unwrap();
        assert_eq!(shell_quoted(Path::new("/t/it's")), "'/t/it'\\''s'");
        let path = write_private_file(b"old").unwrap();
        std::fs::write(&path, b"new text\n").unwrap();
        take_back(&buffers, "b", b"old", &path, Some(1));
        assert_eq!(&buffers.get(Some("b")).unwrap().data[..], b"old");
        take_back(&buffers, "b", b"old", &path, Some(0));
        assert_eq!(&buffers.get(Some("b")).unwrap().data[..], b"new text");
        std::fs::write(&path, b"").unwrap();
        take_back(&buffers, "b", b"new text", &path, Some(0));
        assert_eq!(&buffers.get(Some("b")).unwrap().data[..], b"new text");
        // An automatic buffer stays automatic and in its place; one changed meanwhile is
        // left as it is.
        std::fs::write(&path, b"edited").unwrap();
        take_back(&buffers, &automatic, b"old", &path, Some(0));
        let names: Vec<_> = buffers
            .list()
            .into_iter()
            .map(|b| (b.name, b.automatic))
            .collect();
        assert_eq!(names, [("b".to_string(), false), (automatic.clone(), true)]);
        assert_eq!(&buffers.get(Some(&automatic)).unwrap().data[..], b"edited");
        take_back(&buffers, "b", b"something else", &path, Some(0));
        assert_eq!(&buffers.get(Some("b")).unwrap().data[..], b"new text");
        let mode = std::os::unix::fs::PermissionsExt::mode(
            &std::fs::metadata(&path).unwrap().permissions(),
        );
        assert_eq!(mode & 0o777, 0o600);
        std::fs::remove_file(&path).unwrap();
    }
}
