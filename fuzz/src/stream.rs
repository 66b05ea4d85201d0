//! The `stream` target: `diverge_frame::stream` fed in chunks against the
//! whole-buffer decoders and the reference.
//!
//! For every input and every way to cut it, `FrameValidator` (and
//! `RequestValidator`) must give exactly `Frame::decode`'s answer (and
//! `RequestView::decode`'s): the same tag, or the same error with the same
//! offset. The one documented deviation is allowed: an error of kind
//! `StreamDepthExceeded` at offset `o` where the whole-buffer decoder says
//! `Ok` or fails at an offset `>= o` (an ignored member nested deeper than
//! `stream::IGNORED_DEPTH`). `Reader` must give the validator's answer on the
//! same chunks and, for a valid frame, pieces that put together equal what
//! the views read. The whole-buffer answer is checked against the reference
//! (`serde_json` + rmcp, through [`crate::oracle`]) on the way.
//!
//! # Input layout
//!
//! ```text
//! byte 0      mode: bit 0       0 = response frame, 1 = request JSON
//!                   bits 1..=3  k, the number of explicit cuts (0..=7)
//!                   bits 4..=7  n: 0 = no periodic cut, else chunks of n bytes
//!                               (1 = one byte at a time)
//! 2k bytes    the cuts, u16 little-endian each, taken modulo (len + 1) and
//!             sorted (repeats give empty chunks)
//! the rest    the input (frame: tag byte + JSON; request: JSON)
//! ```
//!
//! When fewer than `2k` bytes follow the mode byte, only the whole pairs
//! there are cuts. Every input is also fed whole (one chunk) and, when
//! `n > 0`, in chunks of `n` bytes; the reader runs on the explicit cuts and
//! on the periodic ones. Build a seed with [`seed`].

use diverge_frame::stream::{Event, FrameValidator, Kept, Reader, RequestValidator};
use diverge_frame::{
    Base64Error, Body, BodyError, BodyErrorKind, CacheScope, Frame, FrameError, JsonStr,
    RequestView, Tag,
};

use crate::{hex, oracle};

/// The reader's blob buffer: small, so that blobs come in many pieces.
const BLOB_BUF: usize = 48;

/// The target's input split into its parts.
#[derive(Debug)]
pub struct Plan<'a> {
    /// Request JSON (`RequestValidator`) instead of a response frame.
    pub request: bool,
    /// Explicit cut positions, ascending, each in `0..=input.len()`.
    pub cuts: Vec<usize>,
    /// Periodic chunk size; 0 for none.
    pub every: usize,
    /// The bytes to validate.
    pub input: &'a [u8],
}

impl<'a> Plan<'a> {
    /// Reads the layout described in the module docs; `None` for no bytes.
    #[must_use]
    pub fn parse(data: &'a [u8]) -> Option<Self> {
        let (&mode, rest) = data.split_first()?;
        let request = mode & 1 == 1;
        let k = usize::from((mode >> 1) & 7).min(rest.len() / 2);
        let every = usize::from(mode >> 4);
        let (raw_cuts, input) = rest.split_at(2 * k);
        let mut cuts: Vec<usize> = raw_cuts
            .chunks_exact(2)
            .map(|c| usize::from(u16::from_le_bytes([c[0], c[1]])) % (input.len() + 1))
            .collect();
        cuts.sort_unstable();
        Some(Self {
            request,
            cuts,
            every,
            input,
        })
    }
}

/// A target input for `input`: the mode byte, the cuts (at most 7, each
/// below 65 536) and the input, in the layout [`Plan::parse`] reads.
///
/// # Panics
///
/// With more than 7 cuts or `every` above 15.
#[must_use]
pub fn seed(request: bool, cuts: &[u16], every: u8, input: &[u8]) -> Vec<u8> {
    assert!(
        cuts.len() <= 7 && every <= 15,
        "seed: at most 7 cuts, every <= 15"
    );
    let k = u8::try_from(cuts.len()).unwrap_or(7);
    let mut out = vec![u8::from(request) | k << 1 | every << 4];
    for c in cuts {
        out.extend_from_slice(&c.to_le_bytes());
    }
    out.extend_from_slice(input);
    out
}

/// The chunks of `bytes` cut at `cuts` (ascending, each in `0..=len`).
#[must_use]
pub fn pieces<'a>(bytes: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut out = Vec::with_capacity(cuts.len() + 1);
    let mut from = 0;
    for &c in cuts {
        out.push(&bytes[from..c]);
        from = c;
    }
    out.push(&bytes[from..]);
    out
}

/// Cut positions every `n` bytes (none when `n` is 0).
fn every(len: usize, n: usize) -> Vec<usize> {
    if n == 0 {
        return Vec::new();
    }
    (1..len.div_ceil(n)).map(|i| i * n).collect()
}

/// The chunkings of `plan`'s input that the target feeds: whole, the
/// explicit cuts and the periodic ones (each once).
fn chunkings(plan: &Plan<'_>) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    for cuts in [plan.cuts.clone(), every(plan.input.len(), plan.every)] {
        if !out.contains(&cuts) {
            out.push(cuts);
        }
    }
    out
}

/// Panics with the input (readable and hex), the cuts and `what`.
#[track_caller]
fn fail(what: &str, input: &[u8], cuts: &[usize]) -> ! {
    panic!(
        "stream: {what}\n  cuts: {cuts:?}\n  input (readable): {}\n  input (hex): {}",
        oracle::show(input),
        hex(input)
    )
}

/// Offset an error names.
const fn frame_offset(e: &FrameError) -> usize {
    match e {
        FrameError::Body(b) => b.offset(),
        _ => 0, // Empty, UnknownTag: the first byte
    }
}

/// A validator's or reader's `Debug` says how many bytes it was fed (its
/// position), whatever state the input left it in.
fn shows_fed(v: &impl std::fmt::Debug, fed: usize, input: &[u8], cuts: &[usize]) {
    let shown = format!("{v:?}");
    if !shown.contains(&format!("fed: {fed},")) {
        fail(&format!("Debug {shown} after {fed} bytes"), input, cuts);
    }
}

/// The validator's answer on `input` cut at `cuts`, checking on the way that
/// `fed()` counts the bytes, that `tag()` is the first byte's, that an error
/// names a byte already fed (or the end) and that it sticks.
fn validate_frame(input: &[u8], cuts: &[usize]) -> Result<Tag, FrameError> {
    let chunks = pieces(input, cuts);
    let mut v = FrameValidator::default();
    let mut fed = 0;
    for (i, chunk) in chunks.iter().enumerate() {
        fed += chunk.len();
        if let Err(e) = v.feed(chunk) {
            if frame_offset(&e) > fed {
                fail(&format!("{e:?} reported after {fed} bytes"), input, cuts);
            }
            for rest in chunks.iter().skip(i + 1).copied().chain([&b"}"[..], b""]) {
                if v.feed(rest) != Err(e) {
                    fail(&format!("error {e:?} did not stick"), input, cuts);
                }
            }
            if v.finish() != Err(e) {
                fail(&format!("error {e:?} did not stick to finish"), input, cuts);
            }
            return Err(e);
        }
        if v.fed() != fed {
            fail(
                &format!("fed() = {} after {fed} bytes", v.fed()),
                input,
                cuts,
            );
        }
        shows_fed(&v, fed, input, cuts);
        let tag = input
            .first()
            .filter(|_| fed > 0)
            .and_then(|&b| Tag::from_byte(b));
        if v.tag() != tag {
            fail(
                &format!("tag() = {:?} after {fed} bytes", v.tag()),
                input,
                cuts,
            );
        }
    }
    let answer = v.finish();
    if let Err(e) = answer
        && frame_offset(&e) > input.len()
    {
        fail(&format!("{e:?} beyond the input"), input, cuts);
    }
    answer
}

fn validate_request(input: &[u8], cuts: &[usize]) -> Result<(), BodyError> {
    let chunks = pieces(input, cuts);
    let mut v = RequestValidator::default();
    let mut fed = 0;
    for (i, chunk) in chunks.iter().enumerate() {
        fed += chunk.len();
        if let Err(e) = v.feed(chunk) {
            if e.offset() > fed {
                fail(&format!("{e:?} reported after {fed} bytes"), input, cuts);
            }
            for rest in chunks.iter().skip(i + 1).copied().chain([&b"}"[..], b""]) {
                if v.feed(rest) != Err(e) {
                    fail(&format!("error {e:?} did not stick"), input, cuts);
                }
            }
            if v.finish() != Err(e) {
                fail(&format!("error {e:?} did not stick to finish"), input, cuts);
            }
            return Err(e);
        }
        if v.fed() != fed {
            fail(
                &format!("fed() = {} after {fed} bytes", v.fed()),
                input,
                cuts,
            );
        }
        shows_fed(&v, fed, input, cuts);
    }
    let answer = v.finish();
    if let Err(e) = answer
        && e.offset() > input.len()
    {
        fail(&format!("{e:?} beyond the input"), input, cuts);
    }
    answer
}

/// Whether a stream answer `got` that differs from the whole-buffer answer
/// is the documented deviation: `StreamDepthExceeded` at `o`, where the
/// whole-buffer decoder accepted (`want` is `None`) or failed at `>= o`.
fn deviation_allowed(got: Option<BodyError>, want: Option<usize>) -> bool {
    got.is_some_and(|e| {
        e.kind() == BodyErrorKind::StreamDepthExceeded && want.is_none_or(|w| w >= e.offset())
    })
}

/// Checks the validators on every chunking of `plan`'s input against the
/// whole-buffer decoder (and that decoder against the reference); returns
/// the validator's answer (the same on every chunking) for a frame.
fn frame_validators(plan: &Plan<'_>, chunkings: &[Vec<usize>]) -> Result<Tag, FrameError> {
    let input = plan.input;
    if let Err(e) = oracle::check_frame(input) {
        fail(
            &format!("Frame::decode against the reference: {e}"),
            input,
            &[],
        );
    }
    let want = Frame::decode(input).map(|f| f.tag());
    let mut first: Option<Result<Tag, FrameError>> = None;
    for cuts in chunkings {
        let got = validate_frame(input, cuts);
        if got != want {
            let body = match got {
                Err(FrameError::Body(e)) => Some(e),
                _ => None,
            };
            if !deviation_allowed(body, want.err().map(|e| frame_offset(&e))) {
                fail(
                    &format!("FrameValidator {got:?} != Frame::decode {want:?}"),
                    input,
                    cuts,
                );
            }
        }
        match first {
            None => first = Some(got),
            Some(a) if a != got => fail(
                &format!("FrameValidator {got:?} here, {a:?} fed whole"),
                input,
                cuts,
            ),
            Some(_) => {}
        }
    }
    first.unwrap_or(want)
}

fn request_validators(plan: &Plan<'_>, chunkings: &[Vec<usize>]) {
    let input = plan.input;
    if let Err(e) = oracle::check_request(input) {
        fail(
            &format!("RequestView::decode against the reference: {e}"),
            input,
            &[],
        );
    }
    let want = RequestView::decode(input).map(|_| ());
    let mut first: Option<Result<(), BodyError>> = None;
    for cuts in chunkings {
        let got = validate_request(input, cuts);
        if got != want && !deviation_allowed(got.err(), want.err().map(|e| e.offset())) {
            fail(
                &format!("RequestValidator {got:?} != RequestView::decode {want:?}"),
                input,
                cuts,
            );
        }
        match first {
            None => first = Some(got),
            Some(a) if a != got => fail(
                &format!("RequestValidator {got:?} here, {a:?} fed whole"),
                input,
                cuts,
            ),
            Some(_) => {}
        }
    }
}

// ----- the reader against the views ---------------------------------------

/// Everything a frame holds, as the views or the reader give it.
#[derive(Debug, Default, PartialEq)]
pub struct Read {
    result_type: Option<String>,
    ttl: Option<u64>,
    scope: Option<CacheScope>,
    meta: Option<Vec<u8>>,
    items: Vec<Item>,
    code: Option<i32>,
    message: Option<String>,
    data: Option<Vec<u8>>,
}

#[derive(Debug, PartialEq)]
struct Item {
    uri: String,
    mime: Option<String>,
    body: ItemBody,
    meta: Option<Vec<u8>>,
}

#[derive(Debug, PartialEq)]
enum ItemBody {
    Text(String),
    Blob(Result<Vec<u8>, Base64Error>),
}

fn unescaped(s: JsonStr<'_>) -> String {
    s.chars().collect()
}

/// What the views read from a frame `Frame::decode` accepted.
///
/// # Panics
///
/// When `Frame::decode` rejects `bytes`.
#[must_use]
pub fn views(bytes: &[u8]) -> Read {
    let mut read = Read::default();
    match Frame::decode(bytes).expect("views of a rejected frame") {
        Frame::Result(r) => {
            read.result_type = r.result_type().map(unescaped);
            read.ttl = r.ttl_ms();
            read.scope = r.cache_scope();
            read.meta = r.meta().map(|m| m.as_bytes().to_vec());
            for item in r.contents() {
                let body = match item.body() {
                    Body::Text(t) => ItemBody::Text(unescaped(t)),
                    Body::Blob(b) => {
                        let mut out = vec![0u8; b.text().raw().len()];
                        ItemBody::Blob(b.decode_base64_into(&mut out).map(|n| out[..n].to_vec()))
                    }
                };
                read.items.push(Item {
                    uri: unescaped(item.uri()),
                    mime: item.mime_type().map(unescaped),
                    body,
                    meta: item.meta().map(|m| m.as_bytes().to_vec()),
                });
            }
        }
        Frame::Error(e) => {
            read.code = Some(e.code());
            read.message = Some(unescaped(e.message()));
            read.data = e.data().map(|d| d.as_bytes().to_vec());
        }
    }
    read
}

/// A content item as the reader's events build it.
#[derive(Default)]
struct Building {
    uri: Option<String>,
    mime: Option<String>,
    text: Option<String>,
    blob: Option<Vec<u8>>,
    blob_end: Option<Result<usize, Base64Error>>,
    meta: Option<Vec<u8>>,
}

/// Puts the reader's events together, checking their order as documented;
/// `Err` names the first event out of place.
#[derive(Default)]
struct Collect {
    read: Read,
    item: Option<Building>,
    ended: Option<Tag>,
    broken: Option<String>,
}

impl Collect {
    fn on(&mut self, e: Event<'_>) {
        if self.broken.is_none()
            && let Err(why) = self.take(e)
        {
            self.broken = Some(format!("{why} (event {e:?})"));
        }
    }

    fn take(&mut self, e: Event<'_>) -> Result<(), &'static str> {
        if self.ended.is_some() {
            return Err("an event after FrameEnd");
        }
        let read = &mut self.read;
        let empty = match e {
            Event::ResultType(p)
            | Event::Uri(p)
            | Event::MimeType(p)
            | Event::Text(p)
            | Event::Message(p) => p.is_empty(),
            Event::Meta(p) | Event::ItemMeta(p) | Event::Data(p) | Event::Blob(p) => p.is_empty(),
            _ => false,
        };
        if empty {
            return Err("an empty piece");
        }
        match e {
            Event::ResultTypeStart => read.result_type = Some(String::new()),
            Event::ResultType(p) => read
                .result_type
                .as_mut()
                .ok_or("ResultType before ResultTypeStart")?
                .push_str(p),
            Event::TtlMs(v) => read.ttl = v,
            Event::CacheScope(v) => read.scope = v,
            Event::Meta(p) => read.meta.get_or_insert_default().extend_from_slice(p),
            Event::Code(v) => read.code = Some(v),
            Event::MessageStart => read.message = Some(String::new()),
            Event::Message(p) => read
                .message
                .as_mut()
                .ok_or("Message before MessageStart")?
                .push_str(p),
            Event::Data(p) => read.data.get_or_insert_default().extend_from_slice(p),
            Event::ItemStart => {
                if self.item.is_some() {
                    return Err("ItemStart inside an item");
                }
                self.item = Some(Building::default());
            }
            Event::ItemEnd(kept) => {
                let b = self.item.take().ok_or("ItemEnd without ItemStart")?;
                let body = match kept {
                    Kept::Text => ItemBody::Text(b.text.ok_or("kept text never started")?),
                    Kept::Blob => {
                        let bytes = b.blob.ok_or("kept blob never started")?;
                        match b.blob_end.ok_or("kept blob never ended")? {
                            Ok(n) if n == bytes.len() => ItemBody::Blob(Ok(bytes)),
                            Ok(_) => return Err("BlobEnd length is not the bytes handed out"),
                            Err(e) => ItemBody::Blob(Err(e)),
                        }
                    }
                };
                read.items.push(Item {
                    uri: b.uri.ok_or("item without uri")?,
                    mime: b.mime,
                    body,
                    meta: b.meta,
                });
            }
            Event::FrameEnd(tag) => self.ended = Some(tag),
            other => {
                let b = self.item.as_mut().ok_or("item event outside an item")?;
                match other {
                    Event::UriStart => b.uri = Some(String::new()),
                    Event::Uri(p) => b.uri.as_mut().ok_or("Uri before UriStart")?.push_str(p),
                    Event::MimeTypeStart => b.mime = Some(String::new()),
                    Event::MimeType(p) => b
                        .mime
                        .as_mut()
                        .ok_or("MimeType before MimeTypeStart")?
                        .push_str(p),
                    Event::TextStart => b.text = Some(String::new()),
                    Event::Text(p) => b.text.as_mut().ok_or("Text before TextStart")?.push_str(p),
                    Event::BlobStart => {
                        b.blob = Some(Vec::new());
                        b.blob_end = None;
                    }
                    Event::Blob(p) => {
                        if p.len() > BLOB_BUF - 3 {
                            return Err("a Blob piece longer than N - 3");
                        }
                        if b.blob_end.is_some() {
                            return Err("Blob after BlobEnd");
                        }
                        b.blob
                            .as_mut()
                            .ok_or("Blob before BlobStart")?
                            .extend_from_slice(p);
                    }
                    Event::BlobEnd(r) => {
                        if b.blob.is_none() || b.blob_end.is_some() {
                            return Err("BlobEnd without BlobStart");
                        }
                        b.blob_end = Some(r);
                    }
                    Event::ItemMeta(p) => b.meta.get_or_insert_default().extend_from_slice(p),
                    _ => return Err("an event this check does not know"),
                }
            }
        }
        Ok(())
    }
}

/// The reader on `input` cut at `cuts`: its answer and its events put
/// together.
fn read(input: &[u8], cuts: &[usize]) -> (Result<Tag, FrameError>, Collect) {
    let mut c = Collect::default();
    let mut r = Reader::<BLOB_BUF>::default();
    let mut answer = Ok(());
    let mut fed = 0;
    for chunk in pieces(input, cuts) {
        fed += chunk.len();
        answer = r.feed(chunk, |e| c.on(e));
        if answer.is_err() {
            break;
        }
        let tag = input
            .first()
            .filter(|_| fed > 0)
            .and_then(|&b| Tag::from_byte(b));
        if r.tag() != tag {
            fail(
                &format!("Reader::tag() = {:?} after {fed} bytes", r.tag()),
                input,
                cuts,
            );
        }
        shows_fed(&r, fed, input, cuts);
    }
    let answer = match answer {
        Ok(()) => r.finish(|e| c.on(e)),
        Err(e) => Err(e),
    };
    after_the_end(&mut r, answer, input, cuts);
    (answer, c)
}

/// After its answer a reader gives it again: `finish` returns it, `feed`
/// returns its error, or for a frame that ended, accepts an empty chunk and
/// calls a byte more a trailing character at the frame's end. No event comes.
fn after_the_end(
    r: &mut Reader<BLOB_BUF>,
    answer: Result<Tag, FrameError>,
    input: &[u8],
    cuts: &[usize],
) {
    let mut none = |_: Event<'_>| fail("an event after the answer", input, cuts);
    if r.finish(&mut none) != answer {
        fail("finish after the answer gave another", input, cuts);
    }
    let empty = r.feed(b"", &mut none);
    let more = r.feed(b" ", &mut none);
    let agrees = match answer {
        Ok(_) => {
            empty.is_ok()
                && matches!(more, Err(FrameError::Body(e))
                    if e.kind() == BodyErrorKind::TrailingCharacters && e.offset() == input.len())
        }
        Err(e) => empty == Err(e) && more == Err(e),
    };
    if !agrees {
        fail(
            &format!("after {answer:?}: feed(\"\") = {empty:?}, feed(\" \") = {more:?}"),
            input,
            cuts,
        );
    }
}

/// The reader on `cuts` gives the validator's answer on the same cuts and,
/// for a valid frame, the views' values.
fn reader_agrees(input: &[u8], cuts: &[usize], validator: Result<Tag, FrameError>) {
    let (answer, c) = read(input, cuts);
    if answer != validator {
        fail(
            &format!("Reader {answer:?} != FrameValidator {validator:?}"),
            input,
            cuts,
        );
    }
    if let Some(why) = &c.broken {
        fail(&format!("Reader events: {why}"), input, cuts);
    }
    match answer {
        Ok(tag) => {
            if c.ended != Some(tag) {
                fail(
                    &format!("Ok({tag:?}) but FrameEnd {:?}", c.ended),
                    input,
                    cuts,
                );
            }
            if c.item.is_some() {
                fail("FrameEnd inside an item", input, cuts);
            }
            let views = views(input);
            if c.read != views {
                fail(
                    &format!(
                        "Reader pieces != views\n  reader: {:?}\n  views:  {views:?}",
                        c.read
                    ),
                    input,
                    cuts,
                );
            }
        }
        Err(_) => {
            if c.ended.is_some() {
                fail("FrameEnd for a rejected frame", input, cuts);
            }
        }
    }
}

/// The `stream` target (layout in the module docs).
pub fn stream(data: &[u8]) {
    let Some(plan) = Plan::parse(data) else {
        return;
    };
    let chunkings = chunkings(&plan);
    if plan.request {
        request_validators(&plan, &chunkings);
        return;
    }
    let answer = frame_validators(&plan, &chunkings);
    // The reader on the cuts the fuzzer chose (and fed whole when it chose
    // none), where the validator gave `answer`.
    for cuts in chunkings.iter().skip(usize::from(chunkings.len() > 1)) {
        reader_agrees(plan.input, cuts, answer);
    }
}
