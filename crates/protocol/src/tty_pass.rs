//! Handing the client's terminal to the server (`SCM_RIGHTS`), as tmux and screen do.
//!
//! With the terminal's descriptor the server reads keys from it and writes frames to it
//! itself, so a keystroke and its echo each cross one process less: the client only forwards
//! size changes and waits for the end of the attachment. The descriptor travels with a single
//! byte, [`TTY_MARKER`], right after the server's `Attached` reply; nothing else is sent in
//! between, so the server reads it with no frame half-read.

use rustix::net::{
    recvmsg, sendmsg, RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags, SendAncillaryBuffer,
    SendAncillaryMessage, SendFlags,
};
use std::io::{IoSlice, IoSliceMut};
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, OwnedFd};
use tokio::io::Interest;
use tokio::net::UnixStream;

/// The byte that carries the descriptor.
pub const TTY_MARKER: u8 = b'T';

/// Sends `tty` over `stream`.
pub async fn send_tty(stream: &UnixStream, tty: &impl AsFd) -> std::io::Result<()> {
    loop {
        stream.writable().await?;
        let sent = stream.try_io(Interest::WRITABLE, || {
            let fds = [tty.as_fd()];
            let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(1))];
            let mut control = SendAncillaryBuffer::new(&mut space);
            if !control.push(SendAncillaryMessage::ScmRights(&fds)) {
                return Err(std::io::Error::other("no room for the descriptor"));
            }
            let marker = [TTY_MARKER];
            sendmsg(
                stream,
                &[IoSlice::new(&marker)],
                &mut control,
                SendFlags::NOSIGNAL,
            )
            .map_err(std::io::Error::from)
        });
        match sent {
            Ok(1) => return Ok(()),
            Ok(_) => return Err(std::io::ErrorKind::WriteZero.into()),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Receives the terminal [`send_tty`] sent; an error when the peer closed, sent something
/// else, or sent no descriptor.
pub async fn recv_tty(stream: &UnixStream) -> std::io::Result<OwnedFd> {
    loop {
        stream.readable().await?;
        let received = stream.try_io(Interest::READABLE, || {
            let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(1))];
            let mut control = RecvAncillaryBuffer::new(&mut space);
            let mut byte = [0u8; 1];
            let msg = recvmsg(
                stream,
                &mut [IoSliceMut::new(&mut byte)],
                &mut control,
                RecvFlags::CMSG_CLOEXEC,
            )
            .map_err(std::io::Error::from)?;
            // Every descriptor that came is owned here, and closed unless it is the one.
            let mut fds: Vec<OwnedFd> = Vec::new();
            for message in control.drain() {
                if let RecvAncillaryMessage::ScmRights(received) = message {
                    fds.extend(received);
                }
            }
            if msg.bytes == 0 {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "the client left before handing over its terminal",
                ));
            }
            if byte[0] != TTY_MARKER || fds.len() != 1 {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    "the client did not hand over a terminal",
                ));
            }
            fds.pop()
                .ok_or_else(|| std::io::Error::other("no descriptor"))
        });
        match received {
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            other => return other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    #[tokio::test]
    async fn a_descriptor_arrives_and_refers_to_the_same_file() {
        let (client, server) = UnixStream::pair().expect("socket pair");
        let (mut ours, theirs) = std::os::unix::net::UnixStream::pair().expect("pair");
        send_tty(&client, &theirs).await.expect("sent");
        let fd = recv_tty(&server).await.expect("received");
        let mut passed = std::fs::File::from(fd);
        passed
            .write_all(b"hi")
            .expect("write through the passed descriptor");
        let mut got = [0u8; 2];
        ours.read_exact(&mut got).expect("read");
        assert_eq!(&got, b"hi");
    }

    #[tokio::test]
    async fn plain_bytes_or_a_closed_peer_are_refused() {
        let (client, server) = UnixStream::pair().expect("socket pair");
        client.try_write(b"X").expect("write");
        let err = recv_tty(&server).await.expect_err("no descriptor");
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
        drop(client);
        let err = recv_tty(&server).await.expect_err("closed");
        assert_eq!(err.kind(), std::io::ErrorKind::UnexpectedEof);
    }
}
