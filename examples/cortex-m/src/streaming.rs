//! The streaming step: a frame far larger than the 64 KiB of RAM, produced chunk by chunk,
//! validated by [`FrameValidator`](diverge_frame::stream::FrameValidator) and read by
//! [`Reader`](diverge_frame::stream::Reader), then an invalid copy of it rejected at the offset
//! of its bad byte.
//!
//! [`big`] is the frame's model: it writes any range of the frame into the chunk buffer, and
//! holds the expected values (the unescaped line, the blob's byte rule), which the checks use
//! without going through JSON.

use core::fmt;

use crate::Failure;
#[cfg(not(any(feature = "baseline", feature = "decode-only", feature = "no-stream")))]
use crate::{STACK_BOUND, ensure};

/// Most bytes the firmware hands the validator at once, and the size of its chunk buffer.
pub const CHUNK: usize = 2048;

/// Size of the [`Reader`](diverge_frame::stream::Reader)'s blob decode buffer.
#[cfg(not(any(feature = "baseline", feature = "decode-only", feature = "no-stream")))]
const READER_BUF: usize = 1536;

pub mod big {
    //! The large frame, generated: any byte range is written from its offset alone.
    //!
    //! ```text
    //! \x00{"resultType":"complete","contents":[{"uri":"docs://big","mimeType":"text/plain","text":"
    //!   LINE_JSON x LINES
    //! "},{"uri":"bin://blob","blob":"
    //!   base64 of BLOB bytes, byte j being j % 256 (padded)
    //! "}]}
    //! ```

    /// One line of the text as it is on the wire: escapes of every form (`\uXXXX`, a
    /// surrogate pair, `\"`, `\\`, `\t`, `\n`) and raw UTF-8 (2 and 4 bytes), so that chunk
    /// boundaries fall inside characters and escapes. 75 bytes: prime to the chunk size, so
    /// the cuts fall at every offset of the line.
    pub const LINE_JSON: &[u8] =
        r#"line: the quick brown fox \u00e9 caf\u00e9 \"q\" \\ é\t😀 \ud83d\ude00\n"#.as_bytes();

    /// The same line unescaped, written by hand: what the reader must hand out.
    pub const LINE: &str = "line: the quick brown fox é café \"q\" \\ é\t😀 😀\n";

    /// Lines of text: 768 000 bytes on the wire.
    pub const LINES: usize = 10_240;

    /// Bytes of the blob: 256 KiB, 349 528 characters of base64 (the last quad padded `==`).
    pub const BLOB: usize = 256 * 1024;

    const PREFIX: &[u8] = b"\x00{\"resultType\":\"complete\",\"contents\":[{\"uri\":\"docs://big\",\"mimeType\":\"text/plain\",\"text\":\"";
    const MIDDLE: &[u8] = b"\"},{\"uri\":\"bin://blob\",\"blob\":\"";
    const SUFFIX: &[u8] = b"\"}]}";
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    const TEXT_START: usize = PREFIX.len();
    const TEXT_END: usize = TEXT_START + LINES * LINE_JSON.len();
    const BLOB_START: usize = TEXT_END + MIDDLE.len();
    const BLOB_END: usize = BLOB_START + BLOB.div_ceil(3) * 4;

    /// Bytes of the frame, tag included.
    pub const LEN: usize = BLOB_END + SUFFIX.len();

    /// Where the invalid copy has a raw control byte (0x01) instead of the frame's byte: the
    /// `l` that starts the first line at or after 600 000, inside the text string.
    pub const BAD_AT: usize =
        TEXT_START + (600_000 - TEXT_START).div_ceil(LINE_JSON.len()) * LINE_JSON.len();

    const _: () = assert!(LEN >= 1024 * 1024, "the streamed frame is at least 1 MiB");
    const _: () = assert!(BAD_AT >= 512 * 1024 && BAD_AT < TEXT_END);
    const _: () = assert!(
        LINE_JSON.len() % 2 == 1,
        "the line length is prime to the chunk size"
    );

    /// Writes the frame's bytes from offset `pos` into `out` (all of it, or up to the frame's
    /// end) and returns how many; `bad` puts the invalid copy's control byte in.
    ///
    /// One byte at a time, on purpose: a slice copy would link `memcpy` into the builds
    /// without the codec, and move it out of the codec's figure.
    pub fn fill(pos: usize, out: &mut [u8], bad: bool) -> usize {
        let n = out.len().min(LEN.saturating_sub(pos));
        for (i, b) in out.iter_mut().take(n).enumerate() {
            let at = pos + i;
            *b = if bad && at == BAD_AT {
                0x01
            } else {
                byte_at(at)
            };
        }
        n
    }

    /// Byte `at` of the frame.
    fn byte_at(at: usize) -> u8 {
        let of = |segment: &[u8], i: usize| segment.get(i).copied().unwrap_or(0);
        if at < TEXT_START {
            of(PREFIX, at)
        } else if at < TEXT_END {
            of(LINE_JSON, (at - TEXT_START) % LINE_JSON.len())
        } else if at < BLOB_START {
            of(MIDDLE, at - TEXT_END)
        } else if at < BLOB_END {
            base64_char(at - BLOB_START)
        } else {
            of(SUFFIX, at - BLOB_END)
        }
    }

    /// Byte `j` of the blob.
    pub const fn blob_byte(j: usize) -> u8 {
        (j % 256) as u8
    }

    /// Character `p` of the blob's base64 (standard alphabet, padded): the firmware's own
    /// encoder, one character at a time.
    fn base64_char(p: usize) -> u8 {
        let j = p / 4 * 3;
        let byte = |j: usize| if j < BLOB { blob_byte(j) } else { 0 };
        let (b0, b1, b2) = (byte(j), byte(j + 1), byte(j + 2));
        let six = match p % 4 {
            0 => b0 >> 2,
            1 => (b0 & 3) << 4 | b1 >> 4,
            2 if j + 1 < BLOB => (b1 & 15) << 2 | b2 >> 6,
            3 if j + 2 < BLOB => b2 & 63,
            _ => return b'=',
        };
        ALPHABET.get(usize::from(six)).copied().unwrap_or(b'?')
    }

    /// FNV-1a (32 bits) of `bytes`, continuing from `hash`.
    pub fn fnv1a(mut hash: u32, bytes: &[u8]) -> u32 {
        for &b in bytes {
            hash = (hash ^ u32::from(b)).wrapping_mul(0x0100_0193);
        }
        hash
    }

    /// FNV-1a's starting value.
    pub const FNV_START: u32 = 0x811c_9dc5;

    /// Length and FNV-1a of the unescaped text, from the model: [`LINE`] [`LINES`] times.
    pub fn expected_text() -> (usize, u32) {
        let mut hash = FNV_START;
        for _ in 0..LINES {
            hash = fnv1a(hash, LINE.as_bytes());
        }
        (LINES * LINE.len(), hash)
    }
}

/// What the streaming step measured, for its line of output.
#[cfg(not(any(feature = "baseline", feature = "decode-only", feature = "no-stream")))]
pub struct Report {
    /// Bytes of the frame.
    pub frame: usize,
    /// `size_of` the validator and the reader.
    pub validator: usize,
    pub reader: usize,
    /// Deepest stack of one `FrameValidator::feed` (valid and invalid frame) and of one
    /// `Reader::feed` (the checks' event handler included).
    pub validator_feed: usize,
    pub reader_feed: usize,
    /// Stack of `Reader::finish`.
    pub reader_finish: usize,
    /// Unescaped text: length and FNV-1a, as read (equal to the model's).
    pub text: (usize, u32),
    /// Decoded blob bytes.
    pub blob: usize,
    /// The invalid frame's error (at the expected offset, of the expected kind).
    pub rejected: diverge_frame::BodyError,
}

#[cfg(not(any(feature = "baseline", feature = "decode-only", feature = "no-stream")))]
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "stream: {} B frame (>= 1 MiB) in {CHUNK} B chunks (Reader: {}..{CHUNK} B): FrameValidator {} B state, Reader<{}> {} B; feed stack {} B (Reader::feed {} B; Reader::finish {} B); text {} B unescaped, FNV-1a {:#010x} ok; blob {} B decoded; invalid frame rejected at {} ({})",
            self.frame,
            CHUNK - 3,
            self.validator,
            READER_BUF,
            self.reader,
            self.validator_feed,
            self.reader_feed,
            self.reader_finish,
            self.text.0,
            self.text.1,
            self.blob,
            self.rejected.offset(),
            self.rejected.kind(),
        )
    }
}

/// Without the streaming step there is nothing to report (and no codec code to show it).
#[cfg(any(feature = "baseline", feature = "decode-only", feature = "no-stream"))]
pub enum Report {}

#[cfg(any(feature = "baseline", feature = "decode-only", feature = "no-stream"))]
impl fmt::Display for Report {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {}
    }
}

/// Length of the reader's chunk `i`: 2048, 2047, 2046, 2045, 2048, …, so that its cuts fall at
/// every offset of a base64 quad too (the validator's 2048-byte cuts are all at one).
#[cfg(not(any(feature = "baseline", feature = "decode-only", feature = "no-stream")))]
const fn reader_chunk(i: usize) -> usize {
    CHUNK - i % 4
}

/// The streaming step: validate the frame, read it, reject its invalid copy.
#[cfg(not(any(feature = "baseline", feature = "decode-only", feature = "no-stream")))]
pub fn run(
    g: &mut crate::stack::Gauge,
    chunk: &mut [u8; CHUNK],
) -> Result<Option<Report>, Failure> {
    use diverge_frame::stream::{FrameValidator, Reader};
    use diverge_frame::{BodyError, BodyErrorKind, FrameError, Tag};

    // 1. The valid frame through the validator, in 2048-byte chunks.
    let mut v = FrameValidator::new();
    let (mut pos, mut validator_feed) = (0, 0);
    while pos < big::LEN {
        let n = big::fill(pos, chunk, false);
        let piece = chunk.get(..n).unwrap_or_default();
        g.measure("FrameValidator::feed", || v.feed(piece))
            .map_err(Failure::Frame)?;
        validator_feed = validator_feed.max(g.last);
        pos += n;
    }
    ensure(v.fed() == big::LEN, "FrameValidator::fed")?;
    let tag = g
        .measure("FrameValidator::finish", || v.finish())
        .map_err(Failure::Frame)?;
    ensure(tag == Tag::Result, "tag (streamed)")?;

    // 2. The same frame through the reader, every piece checked against the model.
    let mut reader = Reader::<READER_BUF>::sized();
    let reader_size = core::mem::size_of_val(&reader);
    let mut check = Check::new();
    let mut on = |e: diverge_frame::stream::Event<'_>| check.on(e);
    let (mut pos, mut i, mut reader_feed) = (0, 0, 0);
    while pos < big::LEN {
        let out = chunk.get_mut(..reader_chunk(i)).unwrap_or_default();
        let n = big::fill(pos, out, false);
        let piece = out.get(..n).unwrap_or_default();
        g.measure("Reader::feed", || reader.feed(piece, &mut on))
            .map_err(Failure::Frame)?;
        reader_feed = reader_feed.max(g.last);
        pos += n;
        i += 1;
    }
    let tag = g
        .measure("Reader::finish", || reader.finish(&mut on))
        .map_err(Failure::Frame)?;
    let reader_finish = g.last;
    ensure(tag == Tag::Result, "tag (read)")?;
    let text = check.done()?;

    // 3. The invalid copy: the error of the feed whose chunk holds the bad byte, then again.
    let want = FrameError::Body(BodyError::new(
        BodyErrorKind::ControlCharacterInString,
        big::BAD_AT,
    ));
    let mut v = FrameValidator::new();
    let mut pos = 0;
    let (start, n, got) = loop {
        if pos >= big::LEN {
            return Err(Failure::Accepted);
        }
        let n = big::fill(pos, chunk, true);
        let piece = chunk.get(..n).unwrap_or_default();
        let fed = g.measure("FrameValidator::feed", || v.feed(piece));
        validator_feed = validator_feed.max(g.last);
        match fed {
            Ok(()) => pos += n,
            Err(got) => break (pos, n, got),
        }
    };
    let rejected = match got {
        FrameError::Body(e) if got == want => e,
        _ => return Err(Failure::WrongFrameError { got, want }),
    };
    ensure(
        (start..start + n).contains(&big::BAD_AT),
        "rejecting feed (not the one holding the bad byte)",
    )?;
    let n = big::fill(start + n, chunk, true);
    let again = v.feed(chunk.get(..n).unwrap_or_default());
    ensure(again.err() == Some(want), "error of a later feed")?;
    ensure(v.finish().err() == Some(want), "error of finish")?;
    ensure(
        validator_feed <= STACK_BOUND && reader_feed <= STACK_BOUND && reader_finish <= STACK_BOUND,
        "feed or finish stack (over the bound)",
    )?;

    Ok(Some(Report {
        frame: big::LEN,
        validator: core::mem::size_of::<FrameValidator>(),
        reader: reader_size,
        validator_feed,
        reader_feed,
        reader_finish,
        text,
        blob: check.blob,
        rejected,
    }))
}

/// Without the streaming step: the same chunks generated into the same buffer, each handed to
/// a trivial call where the validator and the reader were.
#[cfg(any(feature = "baseline", feature = "decode-only", feature = "no-stream"))]
pub fn run(
    g: &mut crate::stack::Gauge,
    chunk: &mut [u8; CHUNK],
) -> Result<Option<Report>, Failure> {
    let mut pos = 0;
    while pos < big::LEN {
        let n = big::fill(pos, chunk, false);
        let piece = chunk.get(..n).unwrap_or_default();
        g.measure("baseline", || core::hint::black_box(piece).len());
        pos += n;
    }
    core::hint::black_box(big::expected_text());
    Ok(None)
}

/// The reader's events checked as they come: the two items' fields, the text byte for byte
/// against the model (and its length and FNV-1a), the blob's bytes, and the verdicts.
#[cfg(not(any(feature = "baseline", feature = "decode-only", feature = "no-stream")))]
struct Check {
    /// `ItemStart`s so far: the item being read is number `items` (1 = text, 2 = blob).
    items: usize,
    result_type: heapless::String<16>,
    uri: heapless::String<16>,
    /// The item's `mimeType`, if it has one.
    mime: Option<heapless::String<16>>,
    text_starts: usize,
    text_len: usize,
    text_hash: u32,
    /// Offset in [`big::LINE`] of the next text byte.
    line_at: usize,
    blob_starts: usize,
    blob: usize,
    blob_end: Option<Result<usize, diverge_frame::Base64Error>>,
    frame_end: Option<diverge_frame::Tag>,
    /// The first thing that did not hold.
    bad: Option<&'static str>,
}

#[cfg(not(any(feature = "baseline", feature = "decode-only", feature = "no-stream")))]
impl Check {
    const fn new() -> Self {
        Self {
            items: 0,
            result_type: heapless::String::new(),
            uri: heapless::String::new(),
            mime: None,
            text_starts: 0,
            text_len: 0,
            text_hash: big::FNV_START,
            line_at: 0,
            blob_starts: 0,
            blob: 0,
            blob_end: None,
            frame_end: None,
            bad: None,
        }
    }

    fn on(&mut self, e: diverge_frame::stream::Event<'_>) {
        if let Err(what) = self.event(e) {
            self.bad.get_or_insert(what);
        }
    }

    fn event(&mut self, e: diverge_frame::stream::Event<'_>) -> Result<(), &'static str> {
        use diverge_frame::stream::{Event, Kept};

        match e {
            Event::ResultTypeStart => need(self.items == 0, "resultType (inside contents)"),
            Event::ResultType(s) => {
                need(self.items == 0, "resultType (inside contents)")?;
                push(&mut self.result_type, s, "resultType")
            }
            Event::ItemStart => {
                self.items += 1;
                self.uri.clear();
                self.mime = None;
                need(self.items <= 2, "content items (one too many)")
            }
            Event::UriStart => {
                self.uri.clear();
                Ok(())
            }
            Event::Uri(s) => push(&mut self.uri, s, "uri"),
            Event::MimeTypeStart => {
                self.mime = Some(Default::default());
                Ok(())
            }
            Event::MimeType(s) => push(self.mime.get_or_insert_default(), s, "mimeType"),
            Event::TextStart => {
                self.text_starts += 1;
                need(self.items == 1, "text (in the blob item)")
            }
            Event::Text(s) => {
                need(self.items == 1, "text (in the blob item)")?;
                self.text(s.as_bytes())
            }
            Event::BlobStart => {
                self.blob_starts += 1;
                need(self.items == 2, "blob (in the text item)")
            }
            Event::Blob(bytes) => {
                need(self.items == 2, "blob (in the text item)")?;
                let start = self.blob;
                self.blob += bytes.len();
                need(
                    bytes
                        .iter()
                        .enumerate()
                        .all(|(i, &b)| b == big::blob_byte(start + i)),
                    "blob bytes",
                )
            }
            Event::BlobEnd(end) => {
                self.blob_end = Some(end);
                need(self.items == 2, "blob end (in the text item)")
            }
            Event::ItemEnd(kept) => {
                let mime = self.mime.as_ref().map(|m| m.as_str());
                match self.items {
                    1 => {
                        need(self.uri == "docs://big", "uri (text item)")?;
                        need(mime == Some("text/plain"), "mimeType (text item)")?;
                        need(kept == Kept::Text, "kept body (text item)")?;
                        need(
                            self.text_starts == 1 && self.blob_starts == 0,
                            "bodies (text item)",
                        )
                    }
                    2 => {
                        need(self.uri == "bin://blob", "uri (blob item)")?;
                        need(mime.is_none(), "mimeType (blob item)")?;
                        need(kept == Kept::Blob, "kept body (blob item)")?;
                        need(
                            self.text_starts == 1 && self.blob_starts == 1,
                            "bodies (blob item)",
                        )?;
                        need(self.blob_end == Some(Ok(big::BLOB)), "blob end")
                    }
                    _ => Err("item end (no item)"),
                }
            }
            Event::FrameEnd(tag) => {
                need(self.frame_end.is_none(), "frame end (twice)")?;
                self.frame_end = Some(tag);
                Ok(())
            }
            _ => Err("event (a field the frame does not have)"),
        }
    }

    /// A piece of text: each byte the model's next one.
    fn text(&mut self, bytes: &[u8]) -> Result<(), &'static str> {
        let line = big::LINE.as_bytes();
        self.text_len += bytes.len();
        self.text_hash = big::fnv1a(self.text_hash, bytes);
        for &b in bytes {
            need(line.get(self.line_at) == Some(&b), "text bytes")?;
            self.line_at += 1;
            if self.line_at == line.len() {
                self.line_at = 0;
            }
        }
        Ok(())
    }

    /// After the frame's end: everything seen, and the text's length and FNV-1a are the model's.
    fn done(&self) -> Result<(usize, u32), Failure> {
        if let Some(what) = self.bad {
            return Err(Failure::Mismatch(what));
        }
        ensure(self.result_type == "complete", "resultType")?;
        ensure(self.items == 2, "number of content items")?;
        ensure(
            self.frame_end == Some(diverge_frame::Tag::Result),
            "frame end",
        )?;
        let text = (self.text_len, self.text_hash);
        ensure(text.0 == big::expected_text().0, "text length")?;
        ensure(text == big::expected_text(), "text FNV-1a")?;
        ensure(self.blob == big::BLOB, "blob length")?;
        Ok(text)
    }
}

#[cfg(not(any(feature = "baseline", feature = "decode-only", feature = "no-stream")))]
fn need(ok: bool, what: &'static str) -> Result<(), &'static str> {
    if ok { Ok(()) } else { Err(what) }
}

#[cfg(not(any(feature = "baseline", feature = "decode-only", feature = "no-stream")))]
fn push<const N: usize>(
    s: &mut heapless::String<N>,
    piece: &str,
    what: &'static str,
) -> Result<(), &'static str> {
    s.push_str(piece).map_err(|_| what)
}
