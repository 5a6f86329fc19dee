//! The wire between the grader's judge and subject processes (written into
//! both copies of a chapter by `grader grade`; never part of a learner's
//! build).
//!
//! A call is one frame from the judge, `(id, tag, arguments)`, and one frame
//! back, a `Reply`. A frame is a little-endian `u32` length and that many
//! bytes of postcard. Nothing the subject sends is trusted: a frame over
//! `MAX_FRAME`, a cut frame or bytes that do not decode end the call as a
//! protocol error, never as a verdict.

#![allow(dead_code, clippy::all)]

use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::os::unix::net::UnixStream;

/// The largest frame either side reads.
pub const MAX_FRAME: usize = 256 << 20;

/// Why the subject could not run a call (not a panic of the learner's code).
#[derive(Debug, Serialize, Deserialize)]
pub enum Fault {
    /// This file's dispatcher has no such function; ask the next.
    NotHere,
    /// No file has it.
    Unknown(String),
    /// A generic function called with a type the subject has no arm for.
    Type(String),
    Decode(String),
    Encode(String),
}

/// The subject's answer to one call.
#[derive(Debug, Serialize, Deserialize)]
pub enum Reply {
    /// The encoded `(return value, (new values of the &mut arguments,))`.
    Value(Vec<u8>),
    /// The learner's code panicked: the message and where.
    Panic {
        message: String,
        place: String,
    },
    Fault(String),
}

pub fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, Fault> {
    postcard::from_bytes(bytes).map_err(|e| Fault::Decode(e.to_string()))
}

pub fn encode<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, Fault> {
    postcard::to_stdvec(value).map_err(|e| Fault::Encode(e.to_string()))
}

pub fn write_frame(w: &mut UnixStream, bytes: &[u8]) -> std::io::Result<()> {
    let len =
        u32::try_from(bytes.len()).map_err(|_| std::io::Error::other("a frame over 4 GiB"))?;
    w.write_all(&len.to_le_bytes())?;
    w.write_all(bytes)?;
    w.flush()
}

/// One frame of at most `max` bytes; `Ok(None)` when the other side
/// closed before a new frame. The bytes are taken as they arrive, the
/// buffer growing with them: an announced length reserves nothing, so a
/// forged length costs the reader only what was really sent.
pub fn read_frame(r: &mut UnixStream, max: usize) -> Result<Option<Vec<u8>>, String> {
    let mut len = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match r.read(&mut len[got..]) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => return Err("a frame's length was cut short".into()),
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("the wire failed: {e}")),
        }
    }
    let len = u32::from_le_bytes(len) as usize;
    if len > max.min(MAX_FRAME) {
        return Err(format!(
            "a frame of {len} bytes was announced (the most is {})",
            max.min(MAX_FRAME)
        ));
    }
    let mut bytes = Vec::new();
    match r.take(len as u64).read_to_end(&mut bytes) {
        Ok(n) if n == len => Ok(Some(bytes)),
        _ => Err(format!("a frame of {len} bytes was cut short")),
    }
}

/// Arrays of any length as sequences: serde's own impls stop at 32 items
/// (a sudoku grid is 81). Used as `#[serde(with = ...)]` on such fields.
pub mod big_array {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer, T: Serialize, const N: usize>(
        items: &[T; N],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        items.as_slice().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>, const N: usize>(
        d: D,
    ) -> Result<[T; N], D::Error> {
        let items: Vec<T> = Vec::deserialize(d)?;
        let got = items.len();
        items
            .try_into()
            .map_err(|_| D::Error::custom(format!("an array of {N} items came as {got}")))
    }
}
