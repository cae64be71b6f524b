//! Framing: `[u32 LE length][u8 tag][payload]`, length counting tag and payload.

use crate::message::{ExitNotice, Hello, Message, Reply, Request};
use bytes::{Buf, BufMut, Bytes, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

/// Largest frame accepted: a full repaint of a very large terminal fits many times over; a
/// peer sending more is broken or hostile.
pub const MAX_FRAME_BYTES: usize = 16 << 20;
/// Largest frame accepted before the peer's hello: a hello is a few dozen bytes, so a peer
/// that has not said who it is cannot make the server hold more than this.
pub const MAX_HELLO_FRAME_BYTES: usize = 4 << 10;
/// Most buffer reserved ahead of a frame's bytes arriving: a frame announced as large grows the
/// buffer as its bytes come, not at its header.
const RESERVE_AHEAD_BYTES: usize = 64 << 10;

const TAG_HELLO: u8 = 1;
const TAG_REQUEST: u8 = 2;
const TAG_REPLY: u8 = 3;
const TAG_INPUT: u8 = 4;
const TAG_OUTPUT: u8 = 5;
const TAG_RESIZE: u8 = 6;
const TAG_EXIT: u8 = 7;

/// Why a frame could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ProtocolError {
    /// The socket failed.
    #[error("connection: {0}")]
    Io(#[from] std::io::Error),
    /// A frame longer than [`MAX_FRAME_BYTES`].
    #[error("frame of {0} bytes is larger than the limit")]
    TooLarge(usize),
    /// A tag this version does not know.
    #[error("unknown message tag {0}")]
    UnknownTag(u8),
    /// A payload that does not parse.
    #[error("malformed message: {0}")]
    Malformed(String),
}

/// Encodes and decodes [`Message`]s.
#[derive(Clone, Copy, Debug)]
pub struct FrameCodec {
    max_frame: usize,
}

impl Default for FrameCodec {
    /// A codec for a connection past its hello: frames up to [`MAX_FRAME_BYTES`].
    fn default() -> Self {
        FrameCodec {
            max_frame: MAX_FRAME_BYTES,
        }
    }
}

impl FrameCodec {
    /// A codec for a connection whose peer has not said hello yet: frames up to
    /// [`MAX_HELLO_FRAME_BYTES`]. Call [`FrameCodec::hello_done`] after the hello.
    pub fn before_hello() -> Self {
        FrameCodec {
            max_frame: MAX_HELLO_FRAME_BYTES,
        }
    }

    /// The peer said hello: frames up to [`MAX_FRAME_BYTES`] from now on.
    pub fn hello_done(&mut self) {
        self.max_frame = MAX_FRAME_BYTES;
    }
}

impl Decoder for FrameCodec {
    type Item = Message;
    type Error = ProtocolError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Message>, ProtocolError> {
        if src.len() < 4 {
            return Ok(None);
        }
        let len = u32::from_le_bytes([src[0], src[1], src[2], src[3]]) as usize;
        if len == 0 || len > self.max_frame {
            return Err(ProtocolError::TooLarge(len));
        }
        if src.len() < 4 + len {
            src.reserve((4 + len - src.len()).min(RESERVE_AHEAD_BYTES));
            return Ok(None);
        }
        src.advance(4);
        let tag = src.get_u8();
        let payload = src.split_to(len - 1).freeze();
        decode_message(tag, payload).map(Some)
    }
}

fn json<T: serde::de::DeserializeOwned>(payload: &[u8]) -> Result<T, ProtocolError> {
    serde_json::from_slice(payload).map_err(|e| ProtocolError::Malformed(e.to_string()))
}

fn decode_message(tag: u8, payload: Bytes) -> Result<Message, ProtocolError> {
    Ok(match tag {
        TAG_HELLO => Message::Hello(json::<Hello>(&payload)?),
        TAG_REQUEST => Message::Request(json::<Request>(&payload)?),
        TAG_REPLY => Message::Reply(json::<Reply>(&payload)?),
        TAG_INPUT => Message::Input(payload),
        TAG_OUTPUT => Message::Output(payload),
        TAG_RESIZE => {
            if payload.len() != 4 {
                return Err(ProtocolError::Malformed("resize needs 4 bytes".into()));
            }
            Message::Resize {
                cols: u16::from_le_bytes([payload[0], payload[1]]),
                rows: u16::from_le_bytes([payload[2], payload[3]]),
            }
        }
        TAG_EXIT => Message::Exit(json::<ExitNotice>(&payload)?),
        other => return Err(ProtocolError::UnknownTag(other)),
    })
}

impl Encoder<Message> for FrameCodec {
    type Error = ProtocolError;

    fn encode(&mut self, msg: Message, dst: &mut BytesMut) -> Result<(), ProtocolError> {
        let to_json = |v: &dyn erased::Json| v.to_vec();
        let (tag, payload): (u8, Bytes) = match &msg {
            Message::Hello(h) => (TAG_HELLO, to_json(h)?.into()),
            Message::Request(r) => (TAG_REQUEST, to_json(r)?.into()),
            Message::Reply(r) => (TAG_REPLY, to_json(r)?.into()),
            Message::Input(b) => (TAG_INPUT, b.clone()),
            Message::Output(b) => (TAG_OUTPUT, b.clone()),
            Message::Resize { cols, rows } => {
                let mut b = BytesMut::with_capacity(4);
                b.put_u16_le(*cols);
                b.put_u16_le(*rows);
                (TAG_RESIZE, b.freeze())
            }
            Message::Exit(e) => (TAG_EXIT, to_json(e)?.into()),
        };
        let len = payload.len() + 1;
        if len > MAX_FRAME_BYTES {
            return Err(ProtocolError::TooLarge(len));
        }
        dst.reserve(4 + len);
        dst.put_u32_le(len as u32);
        dst.put_u8(tag);
        dst.extend_from_slice(&payload);
        Ok(())
    }
}

/// JSON encoding behind a trait object, so the encoder's match stays flat.
mod erased {
    use super::ProtocolError;

    pub trait Json {
        fn to_vec(&self) -> Result<Vec<u8>, ProtocolError>;
    }

    impl<T: serde::Serialize> Json for T {
        fn to_vec(&self) -> Result<Vec<u8>, ProtocolError> {
            serde_json::to_vec(self).map_err(|e| ProtocolError::Malformed(e.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{Attach, PROTOCOL_VERSION};

    fn round_trip(msg: Message) {
        let mut buf = BytesMut::new();
        FrameCodec::default().encode(msg.clone(), &mut buf).unwrap();
        // Split anywhere: incomplete frames wait for more.
        let whole = buf.clone();
        for cut in 0..whole.len() {
            let mut part = BytesMut::from(&whole[..cut]);
            assert!(FrameCodec::default().decode(&mut part).unwrap().is_none());
        }
        assert_eq!(FrameCodec::default().decode(&mut buf).unwrap(), Some(msg));
        assert!(buf.is_empty());
    }

    #[test]
    fn every_message_round_trips() {
        round_trip(Message::Hello(Hello {
            protocol: PROTOCOL_VERSION,
            version: "0.1.0".into(),
        }));
        round_trip(Message::Request(Request::Attach(Attach {
            target: Some("main".into()),
            read_only: true,
            cols: 80,
            rows: 24,
            pass_tty: true,
            detach_others: true,
            env: vec![("SSH_AUTH_SOCK".into(), "/tmp/agent".into())],
        })));
        round_trip(Message::Reply(Reply::Error {
            message: "no".into(),
            code: 1,
        }));
        round_trip(Message::Input(Bytes::from_static(b"\x02d")));
        round_trip(Message::Output(Bytes::from_static(b"\x1b[H")));
        round_trip(Message::Resize {
            cols: 104,
            rows: 59,
        });
        round_trip(Message::Exit(ExitNotice::exited()));
        round_trip(Message::Exit(ExitNotice {
            resume: Some("work".into()),
            lock: Some("lock -np".into()),
            ..ExitNotice::default()
        }));
        round_trip(Message::Exit(ExitNotice {
            message: "[detached and SIGHUP (from session w)]".into(),
            hangup_parent: true,
            exec: Some("echo bye".into()),
            ..ExitNotice::default()
        }));
    }

    #[test]
    fn oversized_and_unknown_frames_are_errors() {
        let mut buf = BytesMut::from(&u32::MAX.to_le_bytes()[..]);
        assert!(matches!(
            FrameCodec::default().decode(&mut buf),
            Err(ProtocolError::TooLarge(_))
        ));
        let mut buf = BytesMut::from(&[1, 0, 0, 0, 99][..]);
        assert!(matches!(
            FrameCodec::default().decode(&mut buf),
            Err(ProtocolError::UnknownTag(99))
        ));
    }

    #[test]
    fn before_the_hello_only_small_frames_and_large_ones_grow_as_they_come() {
        let header = |len: u32| BytesMut::from(&len.to_le_bytes()[..]);
        let mut codec = FrameCodec::before_hello();
        let mut buf = header(16 << 20);
        assert!(matches!(
            codec.decode(&mut buf),
            Err(ProtocolError::TooLarge(_))
        ));
        let mut buf = header(100);
        assert!(codec.decode(&mut buf).unwrap().is_none());
        codec.hello_done();
        // A 16 MiB frame announced: the buffer is not grown to 16 MiB by the header alone.
        let mut buf = header(16 << 20);
        assert!(codec.decode(&mut buf).unwrap().is_none());
        assert!(buf.capacity() < 1 << 20, "{}", buf.capacity());
    }
}
