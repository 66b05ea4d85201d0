//! [`Reader`]: the streaming machine with its events handed out.

use super::validate::FrameValidator;
use crate::base64::{Carry, DecodeError, Decoder};
use crate::blob::Base64Error;
use crate::error::{BodyError, BodyErrorKind as K, FrameError};
use crate::frame::Tag;
use crate::json::event::{Dyn, Ev, Field};
use crate::json::shape::CacheScope;

/// Which body of a content item the reference keeps, told at the item's
/// end ([`Event::ItemEnd`]).
///
/// # Examples
///
/// ```
/// use diverge_frame::stream::{Event, Kept, Reader};
///
/// // A `text` that is not a string: the reference falls through to the blob.
/// let frame = b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":7,\"blob\":\"aGk=\"}]}";
/// let mut reader = Reader::new();
/// let mut kept = Vec::new();
/// let mut on = |e: Event<'_>| if let Event::ItemEnd(k) = e { kept.push(k) };
/// reader.feed(frame, &mut on)?;
/// reader.finish(&mut on)?;
/// assert_eq!(kept, [Kept::Blob]);
/// # Ok::<(), diverge_frame::FrameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Kept {
    /// The item is a text item: the [`Event::Text`] pieces since its one
    /// [`Event::TextStart`] are its body; any blob pieces are dropped.
    Text,
    /// The item is a blob item: the [`Event::Blob`] pieces since its one
    /// [`Event::BlobStart`] are its body; any text pieces are dropped (a
    /// `text` that was duplicated or not a string makes the reference fall
    /// through to the blob).
    Blob,
}

/// What a [`Reader`] hands out, in wire order, borrowed from the chunk being
/// fed (or from the reader, for decoded blob bytes and characters made by
/// an escape).
///
/// **Everything is provisional until [`Event::FrameEnd`]**: a frame can turn
/// out invalid at its last byte, and then the reference has no value at all.
/// **Within a content item, text and blob pieces are provisional until
/// [`Event::ItemEnd`]**, which names the body the reference keeps: an item
/// may carry both (`text` wins), or a broken or duplicated `text` that
/// falls through to its `blob`.
///
/// Pieces of one string concatenated give its unescaped text (a piece never
/// ends inside a character). **A piece is never empty**: every piece event
/// (`ResultType`, `Uri`, `MimeType`, `Text`, `Message`, `Blob`, `Meta`,
/// `ItemMeta`, `Data`) holds at least one byte. Each string field opens with
/// a start event of its own ([`Event::ResultTypeStart`],
/// [`Event::UriStart`], [`Event::MimeTypeStart`], [`Event::TextStart`],
/// [`Event::MessageStart`]; blobs have [`Event::BlobStart`]), so an empty
/// string (a start, no pieces) is told from an absent one (no start). Pieces
/// of a raw value give its JSON bytes as on the wire.
///
/// # Examples
///
/// ```
/// use diverge_frame::stream::{Event, Reader};
/// use diverge_frame::Tag;
///
/// let frame = b"\x01{\"code\":-32002,\"message\":\"not \\\"found\\\"\"}";
/// let mut reader = Reader::new();
/// let (mut code, mut message, mut end) = (None, String::new(), None);
/// let mut on = |e: Event<'_>| match e {
///     Event::Code(c) => code = Some(c),
///     Event::Message(piece) => message.push_str(piece), // unescaped
///     Event::FrameEnd(tag) => end = Some(tag),
///     _ => {}
/// };
/// for chunk in frame.chunks(4) {
///     reader.feed(chunk, &mut on)?;
/// }
/// reader.finish(&mut on)?;
/// assert_eq!((code, message.as_str(), end), (Some(-32002), "not \"found\"", Some(Tag::Error)));
/// # Ok::<(), diverge_frame::FrameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event<'e> {
    /// The result's `resultType` begins (its pieces follow).
    ResultTypeStart,
    /// A piece of the result's `resultType`.
    ResultType(&'e str),
    /// The result's `ttlMs` (`null` is `None`; negative is 0, as the
    /// reference reads it).
    TtlMs(Option<u64>),
    /// The result's `cacheScope` (`null` and `""` are `None`).
    CacheScope(Option<CacheScope>),
    /// A piece of the result's `_meta` object, raw JSON.
    Meta(&'e [u8]),
    /// A content item begins.
    ItemStart,
    /// The item's `uri` begins (its pieces follow).
    UriStart,
    /// A piece of the item's `uri`.
    Uri(&'e str),
    /// The item's `mimeType` begins (its pieces follow; a `null` one has
    /// neither start nor pieces).
    MimeTypeStart,
    /// A piece of the item's `mimeType`.
    MimeType(&'e str),
    /// A `text` member begins (an item can have more than one: see
    /// [`Kept::Blob`]).
    TextStart,
    /// A piece of a `text` member, unescaped. Provisional until
    /// [`Event::ItemEnd`].
    Text(&'e str),
    /// A `blob` member begins.
    BlobStart,
    /// Bytes of a `blob` member, decoded from base64. Provisional until
    /// [`Event::ItemEnd`].
    Blob(&'e [u8]),
    /// The `blob` member ended: the decoded length, or why its text is not
    /// base64 (which the reference does not check: the frame stays valid).
    BlobEnd(Result<usize, Base64Error>),
    /// A piece of the item's `_meta` object, raw JSON.
    ItemMeta(&'e [u8]),
    /// The item ended and is valid; the reference keeps this body.
    ItemEnd(Kept),
    /// The error's `code`.
    Code(i32),
    /// The error's `message` begins (its pieces follow).
    MessageStart,
    /// A piece of the error's `message`.
    Message(&'e str),
    /// A piece of the error's `data` value, raw JSON (`null` gives none).
    Data(&'e [u8]),
    /// The frame is valid: everything handed out stands.
    FrameEnd(Tag),
}

/// Reads a response frame fed in chunks, handing out [`Event`]s, with the
/// validation (and the answer) of [`FrameValidator`].
///
/// `N` is the size of the buffer blobs are decoded through: each
/// [`Event::Blob`] holds at most `N - 3` bytes. It must be at least 48.
///
/// # Examples
///
/// ```
/// use diverge_frame::stream::{Event, Kept, Reader};
///
/// // {"contents":[{"uri":"u","blob":"aGk=","text":"h\u00e9"}]}: text wins.
/// let frame = b"\x00{\"contents\":[{\"uri\":\"u\",\"blob\":\"aGk=\",\"text\":\"h\\u00e9\"}]}";
/// let mut reader = Reader::<64>::sized();
/// let (mut text, mut blob, mut kept) = (String::new(), Vec::new(), None);
/// let mut on = |e: Event<'_>| match e {
///     Event::Text(piece) => text.push_str(piece),
///     Event::Blob(bytes) => blob.extend_from_slice(bytes),
///     Event::ItemEnd(k) => kept = Some(k),
///     _ => {}
/// };
/// for chunk in frame.chunks(7) {
///     reader.feed(chunk, &mut on)?;
/// }
/// reader.finish(&mut on)?;
/// assert_eq!((text.as_str(), blob.as_slice(), kept), ("hé", &b"hi"[..], Some(Kept::Text)));
/// # Ok::<(), diverge_frame::FrameError>(())
/// ```
///
/// `Debug` shows where it stands (the tag, the bytes fed, the blob
/// buffer's size and the verdict once finished), not the machine or the
/// blob buffer's bytes, which are left over from pieces already handed out.
#[derive(Clone)]
pub struct Reader<const N: usize = 256> {
    validator: FrameValidator,
    blob: BlobState<N>,
    /// The answer of [`finish`](Self::finish), once called.
    done: Option<Result<Tag, FrameError>>,
}

#[derive(Debug, Clone)]
struct BlobState<const N: usize> {
    buf: [u8; N],
    carry: Carry,
    total: usize,
}

impl<const N: usize> core::fmt::Debug for Reader<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Reader")
            .field("tag", &self.validator.tag())
            .field("fed", &self.validator.fed())
            .field("blob_buffer", &N)
            .field("done", &self.done)
            .finish()
    }
}

impl<const N: usize> Default for Reader<N> {
    fn default() -> Self {
        Self::sized()
    }
}

impl Reader {
    /// A reader with the default 256-byte blob buffer, before the frame's
    /// first byte: `let mut r = Reader::new();` needs no annotation. For
    /// another size, [`Reader::<N>::sized`](Reader::sized).
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::stream::{Event, Reader};
    ///
    /// let mut reader = Reader::new();
    /// let mut uri = String::new();
    /// let mut on = |e: Event<'_>| if let Event::Uri(piece) = e { uri.push_str(piece) };
    /// reader.feed(b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"\"}]}", &mut on)?;
    /// reader.finish(&mut on)?;
    /// assert_eq!(uri, "u");
    /// # Ok::<(), diverge_frame::FrameError>(())
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        Self::sized()
    }
}

impl<const N: usize> Reader<N> {
    /// Base64 characters fed to the decoder at once, so that its output
    /// (with a held quad completed) fits the buffer.
    const PIECE: usize = {
        assert!(N >= 48, "a Reader's blob buffer holds at least 48 bytes");
        N / 3 * 4 - 4
    };

    /// A reader whose blob buffer holds `N` bytes (at least 48; smaller
    /// fails to compile), before the frame's first byte:
    /// `Reader::<64>::sized()`. [`Reader::new`] is the default size.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::encode::ResultEncoder;
    /// use diverge_frame::stream::{Event, Reader};
    ///
    /// // A 48-byte blob buffer (the smallest): blob bytes come in pieces of at most 45.
    /// let mut reader = Reader::<48>::sized();
    /// let blob = [7u8; 100];
    /// let mut frame = [0u8; 256];
    /// let n = ResultEncoder::new(&mut frame[..])?
    ///     .contents()?
    ///     .item("bin://a")?
    ///     .blob(&blob)?
    ///     .end()?
    ///     .finish()?;
    /// let (mut pieces, mut bytes) = (0, Vec::new());
    /// let mut on = |e: Event<'_>| if let Event::Blob(piece) = e {
    ///     assert!(piece.len() <= 45);
    ///     pieces += 1;
    ///     bytes.extend_from_slice(piece);
    /// };
    /// reader.feed(&frame[..n], &mut on)?;
    /// reader.finish(&mut on)?;
    /// assert!(pieces > 1);
    /// assert_eq!(bytes, blob);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[must_use]
    pub const fn sized() -> Self {
        let _ = Self::PIECE;
        Self {
            validator: FrameValidator::new(),
            blob: BlobState {
                buf: [0; N],
                carry: Carry::new(),
                total: 0,
            },
            done: None,
        }
    }

    /// The frame's tag, once its first byte was fed.
    #[must_use]
    pub const fn tag(&self) -> Option<Tag> {
        self.validator.tag()
    }

    /// Feeds the next bytes of the frame; `on` is called for every event
    /// they complete.
    ///
    /// # Errors
    ///
    /// As [`FrameValidator::feed`]: the frame's error as soon as these bytes
    /// decide it, then again from every later call.
    pub fn feed(&mut self, chunk: &[u8], on: impl FnMut(Event<'_>)) -> Result<(), FrameError> {
        match self.done {
            None => {}
            Some(Err(e)) => return Err(e),
            // The frame ended: bytes after it are trailing characters.
            Some(Ok(_)) if chunk.is_empty() => return Ok(()),
            Some(Ok(_)) => {
                let at = self.validator.fed();
                return Err(FrameError::Body(BodyError::new(K::TrailingCharacters, at)));
            }
        }
        let mut events = Events {
            blob: &mut self.blob,
            on,
        };
        let mut on = |ev: Ev<'_>| events.event(ev);
        self.validator.step(chunk, false, &mut Dyn(Some(&mut on)))
    }

    /// Ends the frame: the last events, then [`Event::FrameEnd`] if it is
    /// valid.
    ///
    /// It takes the reader by reference, so that finishing does not move
    /// the reader (and its `N`-byte buffer) on a microcontroller's stack (the
    /// [module docs](super) say why it differs from the validators). Every
    /// later `finish` returns the same answer and hands out nothing; a
    /// later `feed` returns its error, or, after a valid frame, bytes fed
    /// after the end are trailing characters.
    ///
    /// # Errors
    ///
    /// As [`FrameValidator::finish`].
    pub fn finish(&mut self, on: impl FnMut(Event<'_>)) -> Result<Tag, FrameError> {
        if let Some(done) = self.done {
            return done;
        }
        let mut events = Events {
            blob: &mut self.blob,
            on,
        };
        let mut on = |ev: Ev<'_>| events.event(ev);
        let answer = self
            .validator
            .step(&[], true, &mut Dyn(Some(&mut on)))
            .and_then(|()| self.validator.tag().ok_or(FrameError::Empty));
        if let Ok(tag) = answer {
            (events.on)(Event::FrameEnd(tag));
        }
        self.done = Some(answer);
        answer
    }
}

/// The machine's events made public: blob text decoded on the way.
struct Events<'r, const N: usize, F> {
    blob: &'r mut BlobState<N>,
    on: F,
}

impl<const N: usize, F: FnMut(Event<'_>)> Events<'_, N, F> {
    /// The machine's event `ev`, made public.
    fn event(&mut self, ev: Ev<'_>) {
        let event = match ev {
            // Each string field opens with a start event, so that an empty
            // string (no pieces) is seen too.
            Ev::Start(Field::ItemText) => Event::TextStart,
            Ev::Start(Field::ResultType) => Event::ResultTypeStart,
            Ev::Start(Field::ItemUri) => Event::UriStart,
            Ev::Start(Field::ItemMime) => Event::MimeTypeStart,
            Ev::Start(Field::Message) => Event::MessageStart,
            // Pieces only with bytes in them.
            Ev::Str(_, "") | Ev::Raw(_, []) => return,
            Ev::Start(Field::ItemBlob) => {
                self.blob.carry = Carry::new();
                self.blob.total = 0;
                Event::BlobStart
            }
            Ev::Str(Field::ItemBlob, text) => {
                for piece in text.as_bytes().chunks(Reader::<N>::PIECE) {
                    let mut decoder = Decoder::resume(&mut self.blob.buf, self.blob.carry);
                    decoder.feed(piece);
                    let (n, carry) = decoder.suspend();
                    self.blob.carry = carry;
                    self.blob.total += n;
                    if let Some(bytes) = self.blob.buf.get(..n).filter(|b| !b.is_empty()) {
                        (self.on)(Event::Blob(bytes));
                    }
                }
                return;
            }
            Ev::End(Field::ItemBlob) => {
                let decoder = Decoder::resume(&mut self.blob.buf, self.blob.carry);
                let end = match decoder.finish() {
                    Ok(n) => {
                        if let Some(bytes) = self.blob.buf.get(..n).filter(|b| !b.is_empty()) {
                            (self.on)(Event::Blob(bytes));
                        }
                        Ok(self.blob.total + n)
                    }
                    Err(DecodeError::Invalid(offset)) => Err(Base64Error::Invalid { offset }),
                    Err(DecodeError::TooSmall(needed)) => Err(Base64Error::BufferTooSmall {
                        needed,
                        available: N,
                    }),
                };
                Event::BlobEnd(end)
            }
            Ev::Str(Field::ResultType, s) => Event::ResultType(s),
            Ev::Str(Field::ItemUri, s) => Event::Uri(s),
            Ev::Str(Field::ItemMime, s) => Event::MimeType(s),
            Ev::Str(Field::ItemText, s) => Event::Text(s),
            Ev::Str(Field::Message, s) => Event::Message(s),
            Ev::Raw(Field::ResultMeta, b) => Event::Meta(b),
            Ev::Raw(Field::ItemMeta, b) => Event::ItemMeta(b),
            Ev::Raw(Field::Data, b) => Event::Data(b),
            Ev::Ttl(v) => Event::TtlMs(v),
            Ev::Scope(v) => Event::CacheScope(v),
            Ev::Code(v) => Event::Code(v),
            Ev::ItemStart => Event::ItemStart,
            Ev::ItemEnd(text) => Event::ItemEnd(if text { Kept::Text } else { Kept::Blob }),
            Ev::Start(_) | Ev::End(_) | Ev::Str(..) | Ev::Raw(..) => return,
        };
        (self.on)(event);
    }
}
