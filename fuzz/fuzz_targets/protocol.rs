//! Fuzz the protocol decoder: arbitrary bytes from a peer, before and after its hello, are
//! decoded into messages or refused, never a panic; every message decoded encodes back to
//! bytes that decode to the same message.
#![no_main]

use bytes::BytesMut;
use libfuzzer_sys::fuzz_target;
use tokio_util::codec::{Decoder, Encoder};
use weft_protocol::FrameCodec;

fuzz_target!(|data: &[u8]| {
    for mut codec in [FrameCodec::before_hello(), FrameCodec::default()] {
        let mut buf = BytesMut::from(data);
        while let Ok(Some(message)) = codec.decode(&mut buf) {
            let mut encoded = BytesMut::new();
            let mut fresh = FrameCodec::default();
            fresh.encode(message.clone(), &mut encoded).expect("a decoded message encodes");
            let again = fresh.decode(&mut encoded).expect("it decodes").expect("whole");
            assert_eq!(again, message);
            assert!(encoded.is_empty());
        }
    }
});
