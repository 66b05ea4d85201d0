//! A `no_std`, zero-copy, allocation-free codec for MCP read-resource relay
//! frames, equivalent to `serde_json` + `rmcp`.
//!
//! A response frame is one tag byte (`0` result, `1` error) followed by the
//! JSON of rmcp's `ReadResourceResult` or `ErrorData`; a request is the JSON
//! of `ReadResourceRequestParams`. This crate checks, inspects and forwards
//! them without a heap.
//!
//! # Layers
//!
//! 1. **Split**: [`Frame::split`] gives the tag and the JSON slice in O(1).
//! 2. **Validate**: [`Frame::decode`] and [`RequestView::decode`] check the
//!    JSON in one pass with a bounded stack, accepting exactly what the
//!    reference decoder (`serde_json::from_slice` into the rmcp types)
//!    accepts, and report a [`BodyError`] with a byte offset otherwise.
//! 3. **Views**: [`ResultView`], [`Content`], [`ErrorView`], [`RequestView`]
//!    read the validated JSON lazily. Strings are [`JsonStr`] (escaped text,
//!    unescaped on demand into a caller's buffer); values the codec does not
//!    interpret are [`RawJson`].
//! 4. **Encode** ([`encode`]): the inverse, without a heap, byte for byte
//!    what `serde_json::to_vec` writes: streaming builders and whole-view
//!    re-emission into a buffer, a `heapless::Vec` or an `embedded_io::Write`.
//!    Opt-in checks of what the MCP spec asks beyond rmcp are in [`spec`].
//! 5. **Exchange**: [`exchange`] reads the one message of a
//!    `/mcp/read-resource/{channel}` path into a caller's buffer and tells
//!    answered, not served, unanswered (ask again) and too large apart; or
//!    relays it cut-through ([`exchange::StreamPath`]), closing downstream
//!    cleanly only after a valid frame.
//! 6. **Stream**: [`stream`] validates frames and requests fed in chunks of
//!    any size, in constant memory, with exactly [`Frame::decode`]'s answer
//!    on every way to cut the input, and reads them as events (text
//!    unescaped and blobs decoded piece by piece, each item's body told at
//!    its end).
//!
//! **Contract**: once `decode` returned `Ok`, no view accessor fails or
//! panics. The only fallible calls on views take a caller's buffer (which may
//! be too small) or decode base64 (which the reference never checks).
//!
//! Opt-in checks of what the MCP spec asks and the reference does not
//! enforce (`check_spec()`, strict encoders) live in [`spec`].
//!
//! # Example
//!
//! ```
//! use diverge_frame::{Body, Frame};
//!
//! let bytes = b"\x00{\"contents\":[{\"uri\":\"docs://a\",\"mimeType\":\"text/plain\",\"text\":\"caf\\u00e9\\n\"}]}";
//! match Frame::decode(bytes)? {
//!     Frame::Result(result) => {
//!         for item in result.contents() {
//!             assert!(item.uri() == "docs://a");
//!             let Body::Text(text) = item.body() else { unreachable!() };
//!             let mut buf = [0u8; 64];
//!             assert_eq!(text.unescape_into(&mut buf).unwrap(), "café\n");
//!         }
//!     }
//!     Frame::Error(error) => println!("error {}: {}", error.code(), error.message()),
//! }
//! # Ok::<(), diverge_frame::FrameError>(())
//! ```
//!
//! # Features
//!
//! No feature is on by default, and every feature but `alloc` builds for
//! bare metal. Without any, the whole codec is there: split, validate, views,
//! encoders into a buffer, the spec checks, the streaming validators and
//! reader, and the exchange's [`exchange::PathReader`] and
//! [`exchange::StreamPath`] (fed chunks you already have).
//!
//! * `defmt`: `defmt::Format` for the public types a firmware logs.
//! * `embedded-io`: over a blocking `embedded_io::Read`,
//!   `exchange::read_path` (a path's message into a buffer) and
//!   `exchange::relay` (cut-through into an `embedded_io::Write`, closing
//!   downstream cleanly only after a valid frame); and `encode::IoSink`,
//!   encoding into any `embedded_io::Write` (embedded-io 0.7).
//! * `embedded-io-async`: the same over `embedded_io_async`:
//!   `exchange::read_path_async` and `exchange::relay_async`.
//! * `alloc` (host-only: `rmcp` needs `std`): the `diverge_frame::rmcp` module,
//!   conversions to the `rmcp` types and the reference's owned decode. The
//!   equivalence is proven against rmcp 3.11.0 and serde_json 1.0.154 (the
//!   versions `Cargo.lock` holds); `Cargo.toml` asks for them by caret
//!   requirement, and CI also runs the differential tests against the newest
//!   versions cargo resolves.
//!
//! The minimum supported Rust version is the `rust-version` in `Cargo.toml`.

#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "alloc")]
extern crate alloc;

mod base64;
mod blob;
mod check;
#[cfg(feature = "defmt")]
mod defmt;
pub mod encode;
mod error;
pub mod exchange;
mod frame;
mod json;
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub mod rmcp;
pub mod spec;
pub mod stream;
mod view;

/// The dependencies whose types appear in this crate's public API,
/// re-exported so that a user names the versions this crate was built
/// with: `heapless` 0.9 (`encode::Sink` for its `Vec`, [`JsonStr::to_heapless`]),
/// `serde_json_core` 0.7 ([`RawJson::deserialize`]'s error), `embedded_io`
/// and `embedded_io_async` 0.7 (features `embedded-io`, `embedded-io-async`:
/// the exchange's readers and relays, `encode::IoSink`), `rmcp` 3 and
/// `serde_json` 1 (feature `alloc`: the conversions). A major version of any
/// of them is a major version of this crate; so is `serde` 1 (its
/// `Serialize` is what the encoders embed, [`encode::JsonValue`], and its
/// `Deserialize` what [`RawJson::deserialize`] fills), though serde 1 is
/// meant to stay.
pub mod deps {
    #[cfg(feature = "embedded-io")]
    #[doc(no_inline)]
    pub use embedded_io;
    #[cfg(feature = "embedded-io-async")]
    #[doc(no_inline)]
    pub use embedded_io_async;
    #[doc(no_inline)]
    pub use heapless;
    #[cfg(feature = "alloc")]
    #[doc(no_inline)]
    pub use rmcp;
    #[doc(no_inline)]
    pub use serde;
    #[cfg(feature = "alloc")]
    #[doc(no_inline)]
    pub use serde_json;
    #[doc(no_inline)]
    pub use serde_json_core;
}

pub use blob::{Base64Error, Blob};
pub use error::{BodyError, BodyErrorKind, FrameError, InInput};
pub use frame::{ERROR_TAG, Frame, RESULT_TAG, RawFrame, Tag};
pub use json::borrowed::{CapacityError, Chars, Fragment, Fragments, JsonStr, RawJson};
pub use json::shape::CacheScope;
pub use view::error::ErrorView;
pub use view::members::Members;
pub use view::request::RequestView;
pub use view::result::{Body, Content, Contents, ParseCacheScopeError, ResultView};

#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
