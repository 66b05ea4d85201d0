//! The streaming encoders: a request, a result frame item by item, an error
//! frame. Typestates keep the reference's field order and make a frame
//! without its required fields impossible to finish.

use core::fmt;
use core::marker::PhantomData;

use crate::base64;

use super::error::EncodeError;
use super::sink::Sink;
use super::value::{JsonValue, Token};
use super::write::{Out, write_i64, write_u64};
use crate::check::{
    StrValue, check_base64, check_error_code, check_mime_type, check_result_type, check_uri,
};
use crate::frame::{ERROR_TAG, RESULT_TAG};
use crate::json::shape::CacheScope;
use crate::json::walk::MAX_DEPTH;

/// Nesting a top-level field's value may have, itself included: the
/// reference allows 127 open containers and the body object is one.
const FIELD_DEPTH: usize = MAX_DEPTH - 1;

/// Nesting a content item's `_meta` may have: the body, `contents` and the
/// item are three.
const ITEM_DEPTH: usize = MAX_DEPTH - 3;

/// Raw bytes per base64 step of a [`BlobWriter`] (64 characters).
const BLOB_BLOCK: usize = 48;

pub mod stage {
    //! Typestate markers: which fields an encoder has written, hence which
    //! it may still write. They are never constructed.

    mod sealed {
        pub trait Sealed {}
    }

    macro_rules! markers {
        ($($(#[$doc:meta])* $name:ident: $($bound:ident),*;)*) => {$(
            $(#[$doc])*
            #[derive(Debug)]
            pub enum $name {}
            impl sealed::Sealed for $name {}
            $(impl $bound for $name {})*
        )*};
    }

    /// Stages of a request that may still write `uri`.
    pub trait BeforeUri: sealed::Sealed {}
    /// Stages of a request that may still write `requestState`.
    pub trait BeforeRequestState: sealed::Sealed {}
    /// Stages of a request that has its `uri` and may finish.
    pub trait HasUri: sealed::Sealed {}
    /// Stages of a result that may still write `ttlMs`.
    pub trait BeforeTtlMs: sealed::Sealed {}
    /// Stages of a result that may still write `cacheScope`.
    pub trait BeforeCacheScope: sealed::Sealed {}
    /// Stages of a result before its `contents`.
    pub trait ResultHead: sealed::Sealed {}
    /// Stages of a content item that may still write `text` or `blob`.
    pub trait BeforeBody: sealed::Sealed {}
    /// Stages of a content item that has its `text` or `blob` and may end.
    pub trait HasBody: sealed::Sealed {}
    /// Stages of an error that may finish.
    pub trait ErrorComplete: sealed::Sealed {}

    markers! {
        /// Nothing but the opening written (and, for an error, `code` and `message`).
        Start: BeforeUri, BeforeTtlMs, BeforeCacheScope, ResultHead, ErrorComplete;
        /// A request's `_meta` written.
        AfterMeta: BeforeUri;
        /// A request's `uri` written.
        AfterUri: BeforeRequestState, HasUri;
        /// A request's `inputResponses` written.
        AfterInputResponses: BeforeRequestState, HasUri;
        /// A request's `requestState` written.
        AfterRequestState: HasUri;
        /// A result's `resultType` written.
        AfterResultType: BeforeTtlMs, BeforeCacheScope, ResultHead;
        /// A result's `ttlMs` written.
        AfterTtlMs: BeforeCacheScope, ResultHead;
        /// A result's `cacheScope` written.
        AfterCacheScope: ResultHead;
        /// A content item's `uri` written.
        ItemStart: BeforeBody;
        /// A content item's `mimeType` written.
        AfterMimeType: BeforeBody;
        /// A content item's `text` or `blob` written.
        AfterBody: HasBody;
        /// A content item's `_meta` written.
        AfterItemMeta: HasBody;
        /// An error's `data` written.
        AfterData: ErrorComplete;
    }
}

use stage::{
    AfterBody, AfterCacheScope, AfterData, AfterInputResponses, AfterItemMeta, AfterMeta,
    AfterMimeType, AfterRequestState, AfterResultType, AfterTtlMs, AfterUri, BeforeBody,
    BeforeCacheScope, BeforeRequestState, BeforeTtlMs, BeforeUri, ErrorComplete, HasBody, HasUri,
    ItemStart, ResultHead, Start,
};

// ----- request -----------------------------------------------------------

/// Writes the JSON of a read-resource request (rmcp's
/// `ReadResourceRequestParams`) in the reference's field order:
/// `_meta`, `uri`, `inputResponses`, `requestState`.
///
/// Every field but `uri` is optional; the typestate `St` allows each at most
/// once, in order, and [`finish`](Self::finish) only after `uri`.
///
/// # Examples
///
/// ```
/// use diverge_frame::encode::RequestEncoder;
/// use diverge_frame::RawJson;
///
/// let meta = RawJson::parse(br#"{"progressToken":7}"#)?;
/// let mut buf = [0u8; 64];
/// let n = RequestEncoder::new(&mut buf[..])?.meta(meta)?.uri("docs://x")?.finish()?;
/// assert_eq!(&buf[..n], br#"{"_meta":{"progressToken":7},"uri":"docs://x"}"#);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub struct RequestEncoder<S, St = Start> {
    out: Out<S>,
    first: bool,
    stage: PhantomData<St>,
}

impl<S: Sink> RequestEncoder<S, Start> {
    /// Starts a request (writes `{`).
    ///
    /// # Errors
    ///
    /// The sink's error ([`EncodeError::BufferFull`], [`EncodeError::Write`]).
    pub fn new(sink: S) -> Result<Self, EncodeError> {
        Self::start(sink, false)
    }

    /// Starts a request in strict mode: `uri` must also pass
    /// [`is_absolute_uri`](crate::spec::is_absolute_uri), else
    /// [`EncodeError::Spec`].
    ///
    /// # Errors
    ///
    /// The sink's error.
    pub fn strict(sink: S) -> Result<Self, EncodeError> {
        Self::start(sink, true)
    }

    /// Starts a request behind `prefix` (an ask's kind byte), which
    /// [`finish`](RequestEncoder::finish)'s count includes.
    pub(crate) fn prefixed(sink: S, prefix: &[u8]) -> Result<Self, EncodeError> {
        let mut out = Out::new(sink, false);
        out.try_extend(prefix)?;
        out.try_extend(b"{")?;
        Ok(Self {
            out,
            first: true,
            stage: PhantomData,
        })
    }

    fn start(sink: S, strict: bool) -> Result<Self, EncodeError> {
        let mut out = Out::new(sink, strict);
        out.try_extend(b"{")?;
        Ok(Self {
            out,
            first: true,
            stage: PhantomData,
        })
    }

    /// Writes `_meta` (first in the reference's order). It must be a JSON
    /// object; see [`JsonValue`] for what the value may be.
    ///
    /// # Errors
    ///
    /// [`EncodeError::NotAnObject`], [`EncodeError::TooDeep`],
    /// [`EncodeError::Serialize`], or the sink's error.
    pub fn meta(
        mut self,
        meta: impl JsonValue,
    ) -> Result<RequestEncoder<S, AfterMeta>, EncodeError> {
        self.out.key(&mut self.first, b"\"_meta\":")?;
        meta.write_json(&mut self.out, FIELD_DEPTH, true, Token(()))?;
        Ok(self.next())
    }
}

impl<S: Sink, St> RequestEncoder<S, St> {
    fn next<T>(self) -> RequestEncoder<S, T> {
        RequestEncoder {
            out: self.out,
            first: self.first,
            stage: PhantomData,
        }
    }
}

impl<S: Sink, St: BeforeUri> RequestEncoder<S, St> {
    /// Writes `uri`.
    ///
    /// # Errors
    ///
    /// In strict mode [`EncodeError::Spec`] for a URI that is not absolute;
    /// the sink's error.
    pub fn uri<'v>(
        mut self,
        uri: impl Into<StrValue<'v>>,
    ) -> Result<RequestEncoder<S, AfterUri>, EncodeError> {
        let uri = uri.into();
        if self.out.strict {
            check_uri(uri, None)?;
        }
        self.out.key(&mut self.first, b"\"uri\":")?;
        uri.write_quoted(&mut self.out)?;
        Ok(self.next())
    }
}

impl<S: Sink> RequestEncoder<S, AfterUri> {
    /// Writes the draft `inputResponses` object.
    ///
    /// # Errors
    ///
    /// [`EncodeError::NotAnObject`], [`EncodeError::TooDeep`],
    /// [`EncodeError::Serialize`], or the sink's error.
    pub fn input_responses(
        mut self,
        input_responses: impl JsonValue,
    ) -> Result<RequestEncoder<S, AfterInputResponses>, EncodeError> {
        self.out.key(&mut self.first, b"\"inputResponses\":")?;
        input_responses.write_json(&mut self.out, FIELD_DEPTH, true, Token(()))?;
        Ok(self.next())
    }
}

impl<S: Sink, St: BeforeRequestState> RequestEncoder<S, St> {
    /// Writes the draft `requestState` string.
    ///
    /// # Errors
    ///
    /// The sink's error.
    pub fn request_state<'v>(
        mut self,
        request_state: impl Into<StrValue<'v>>,
    ) -> Result<RequestEncoder<S, AfterRequestState>, EncodeError> {
        self.out.key(&mut self.first, b"\"requestState\":")?;
        request_state.into().write_quoted(&mut self.out)?;
        Ok(self.next())
    }
}

impl<S: Sink, St: HasUri> RequestEncoder<S, St> {
    /// Closes the request and returns the number of bytes written.
    ///
    /// # Errors
    ///
    /// The sink's error.
    pub fn finish(mut self) -> Result<usize, EncodeError> {
        self.out.try_extend(b"}")?;
        Ok(self.out.len())
    }
}

impl<S, St> fmt::Debug for RequestEncoder<S, St> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RequestEncoder")
            .field("written", &self.out.len())
            .finish_non_exhaustive()
    }
}

// ----- result frame ------------------------------------------------------

/// Writes a result frame (tag `0`, then rmcp's `ReadResourceResult`) field
/// by field and item by item, without holding the frame: `resultType`,
/// `ttlMs`, `cacheScope` (each optional, in that order), then
/// [`contents`](Self::contents) gives a [`ContentsEncoder`].
///
/// # Examples
///
/// ```
/// use diverge_frame::encode::ResultEncoder;
/// use diverge_frame::CacheScope;
///
/// let mut buf = [0u8; 160];
/// let n = ResultEncoder::new(&mut buf[..])?
///     .result_type("complete")?
///     .ttl_ms(0)?
///     .cache_scope(CacheScope::Private)?
///     .contents()?
///     .item("docs://a")?
///     .mime_type("text/plain")?
///     .text("hi\n")?
///     .end()?
///     .finish()?;
/// assert_eq!(
///     &buf[..n],
///     b"\x00{\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\",\"contents\":[{\"uri\":\"docs://a\",\"mimeType\":\"text/plain\",\"text\":\"hi\\n\"}]}"
/// );
/// # Ok::<(), diverge_frame::EncodeError>(())
/// ```
pub struct ResultEncoder<S, St = Start> {
    out: Out<S>,
    first: bool,
    stage: PhantomData<St>,
}

impl<S: Sink> ResultEncoder<S, Start> {
    /// Starts a result frame (writes the tag byte `0` and `{`).
    ///
    /// # Errors
    ///
    /// The sink's error.
    pub fn new(sink: S) -> Result<Self, EncodeError> {
        Self::start(sink, false)
    }

    /// Starts a result frame in strict mode: `resultType` must be known, each
    /// item's `uri` absolute, its `mimeType` a media type and a given base64
    /// `blob` valid, else [`EncodeError::Spec`] naming the item and field.
    /// (Exactly one of `text`/`blob` holds in either mode.)
    ///
    /// # Errors
    ///
    /// The sink's error.
    pub fn strict(sink: S) -> Result<Self, EncodeError> {
        Self::start(sink, true)
    }

    fn start(sink: S, strict: bool) -> Result<Self, EncodeError> {
        let mut out = Out::new(sink, strict);
        out.try_extend(&[RESULT_TAG, b'{'])?;
        Ok(Self {
            out,
            first: true,
            stage: PhantomData,
        })
    }

    /// Writes `resultType` (rmcp's constructors write `"complete"`; results
    /// from peers on older protocol revisions leave it out).
    ///
    /// # Errors
    ///
    /// In strict mode [`EncodeError::Spec`] for an unknown type; the sink's
    /// error.
    pub fn result_type<'v>(
        mut self,
        result_type: impl Into<StrValue<'v>>,
    ) -> Result<ResultEncoder<S, AfterResultType>, EncodeError> {
        let result_type = result_type.into();
        if self.out.strict {
            check_result_type(result_type)?;
        }
        self.out.key(&mut self.first, b"\"resultType\":")?;
        result_type.write_quoted(&mut self.out)?;
        Ok(self.next())
    }
}

impl<S: Sink, St> ResultEncoder<S, St> {
    fn next<T>(self) -> ResultEncoder<S, T> {
        ResultEncoder {
            out: self.out,
            first: self.first,
            stage: PhantomData,
        }
    }
}

impl<S: Sink, St: BeforeTtlMs> ResultEncoder<S, St> {
    /// Writes `ttlMs`.
    ///
    /// # Errors
    ///
    /// [`EncodeError::OutOfRange`] above `i64::MAX` (rmcp holds a `u64`
    /// but reads `ttlMs` back through `i64`, so the reference could not
    /// decode the frame); the sink's error.
    pub fn ttl_ms(mut self, ttl_ms: u64) -> Result<ResultEncoder<S, AfterTtlMs>, EncodeError> {
        if i64::try_from(ttl_ms).is_err() {
            return Err(EncodeError::OutOfRange);
        }
        self.out.key(&mut self.first, b"\"ttlMs\":")?;
        write_u64(&mut self.out, ttl_ms)?;
        Ok(self.next())
    }
}

impl<S: Sink, St: BeforeCacheScope> ResultEncoder<S, St> {
    /// Writes `cacheScope`.
    ///
    /// # Errors
    ///
    /// The sink's error.
    pub fn cache_scope(
        mut self,
        cache_scope: CacheScope,
    ) -> Result<ResultEncoder<S, AfterCacheScope>, EncodeError> {
        self.out.key(&mut self.first, b"\"cacheScope\":")?;
        self.out.try_extend(match cache_scope {
            CacheScope::Public => b"\"public\"",
            CacheScope::Private => b"\"private\"",
        })?;
        Ok(self.next())
    }
}

impl<S: Sink, St: ResultHead> ResultEncoder<S, St> {
    /// Opens `contents`, to be written item by item.
    ///
    /// # Errors
    ///
    /// The sink's error.
    pub fn contents(mut self) -> Result<ContentsEncoder<S>, EncodeError> {
        self.out.key(&mut self.first, b"\"contents\":[")?;
        Ok(ContentsEncoder {
            out: self.out,
            items: 0,
        })
    }
}

impl<S, St> fmt::Debug for ResultEncoder<S, St> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResultEncoder")
            .field("written", &self.out.len())
            .finish_non_exhaustive()
    }
}

/// The open `contents` array of a result frame: write items with
/// [`item`](Self::item), then [`finish`](Self::finish) (or
/// [`finish_with_meta`](Self::finish_with_meta) for the result's `_meta`).
pub struct ContentsEncoder<S> {
    out: Out<S>,
    items: usize,
}

impl<S: Sink> ContentsEncoder<S> {
    /// Starts a content item with its `uri`.
    ///
    /// # Errors
    ///
    /// In strict mode [`EncodeError::Spec`] for a URI that is not absolute;
    /// the sink's error.
    pub fn item<'v>(
        mut self,
        uri: impl Into<StrValue<'v>>,
    ) -> Result<ItemEncoder<S, ItemStart>, EncodeError> {
        let uri = uri.into();
        if self.out.strict {
            check_uri(uri, Some(self.items))?;
        }
        self.out.try_extend(if self.items == 0 {
            b"{\"uri\":"
        } else {
            b",{\"uri\":"
        })?;
        uri.write_quoted(&mut self.out)?;
        Ok(ItemEncoder {
            contents: self,
            stage: PhantomData,
        })
    }

    /// The number of items written so far.
    #[must_use]
    pub const fn items(&self) -> usize {
        self.items
    }

    /// Closes `contents` and the frame; returns the number of bytes written.
    ///
    /// # Errors
    ///
    /// The sink's error.
    pub fn finish(mut self) -> Result<usize, EncodeError> {
        self.out.try_extend(b"]}")?;
        Ok(self.out.len())
    }

    /// Closes `contents`, writes the result's `_meta` (an object) and closes
    /// the frame; returns the number of bytes written.
    ///
    /// # Errors
    ///
    /// [`EncodeError::NotAnObject`], [`EncodeError::TooDeep`],
    /// [`EncodeError::Serialize`], or the sink's error.
    pub fn finish_with_meta(mut self, meta: impl JsonValue) -> Result<usize, EncodeError> {
        self.out.try_extend(b"],\"_meta\":")?;
        meta.write_json(&mut self.out, FIELD_DEPTH, true, Token(()))?;
        self.out.try_extend(b"}")?;
        Ok(self.out.len())
    }
}

impl<S> fmt::Debug for ContentsEncoder<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ContentsEncoder")
            .field("items", &self.items)
            .field("written", &self.out.len())
            .finish_non_exhaustive()
    }
}

/// One content item being written: `uri` (done), optional `mimeType`,
/// exactly one of `text` or `blob`, optional `_meta`, then
/// [`end`](Self::end).
pub struct ItemEncoder<S, St> {
    contents: ContentsEncoder<S>,
    stage: PhantomData<St>,
}

impl<S: Sink, St> ItemEncoder<S, St> {
    fn next<T>(self) -> ItemEncoder<S, T> {
        ItemEncoder {
            contents: self.contents,
            stage: PhantomData,
        }
    }

    fn out(&mut self) -> &mut Out<S> {
        &mut self.contents.out
    }

    fn index(&self) -> Option<usize> {
        Some(self.contents.items)
    }
}

impl<S: Sink> ItemEncoder<S, ItemStart> {
    /// Writes `mimeType`.
    ///
    /// # Errors
    ///
    /// In strict mode [`EncodeError::Spec`] for a value that is not a media
    /// type; the sink's error.
    pub fn mime_type<'v>(
        mut self,
        mime_type: impl Into<StrValue<'v>>,
    ) -> Result<ItemEncoder<S, AfterMimeType>, EncodeError> {
        let mime_type = mime_type.into();
        if self.out().strict {
            check_mime_type(mime_type, self.index())?;
        }
        self.out().try_extend(b",\"mimeType\":")?;
        mime_type.write_quoted(self.out())?;
        Ok(self.next())
    }
}

impl<S: Sink, St: BeforeBody> ItemEncoder<S, St> {
    /// Writes the whole `text`.
    ///
    /// # Errors
    ///
    /// The sink's error.
    pub fn text<'v>(
        self,
        text: impl Into<StrValue<'v>>,
    ) -> Result<ItemEncoder<S, AfterBody>, EncodeError> {
        let mut writer = self.text_writer()?;
        writer.write(text)?;
        writer.end()
    }

    /// Opens `text`, to be written in chunks, each escaped on the way.
    ///
    /// # Errors
    ///
    /// The sink's error.
    pub fn text_writer(mut self) -> Result<TextWriter<S>, EncodeError> {
        self.out().try_extend(b",\"text\":\"")?;
        Ok(TextWriter {
            contents: self.contents,
            failed: None,
        })
    }

    /// Writes `blob` as the base64 (standard alphabet, padded) of `bytes`.
    ///
    /// # Errors
    ///
    /// The sink's error.
    pub fn blob(self, bytes: &[u8]) -> Result<ItemEncoder<S, AfterBody>, EncodeError> {
        let mut writer = self.blob_writer()?;
        writer.write(bytes)?;
        writer.end()
    }

    /// Opens `blob`, to be written from raw bytes in chunks, base64-encoded
    /// on the way.
    ///
    /// # Errors
    ///
    /// The sink's error.
    pub fn blob_writer(mut self) -> Result<BlobWriter<S>, EncodeError> {
        self.out().try_extend(b",\"blob\":\"")?;
        Ok(BlobWriter {
            contents: self.contents,
            carry: [0; 3],
            carried: 0,
            failed: None,
        })
    }

    /// Writes `blob` from text that already is base64 (as relayed from a
    /// decoded frame). Outside strict mode the text is not checked, as the
    /// reference does not check it.
    ///
    /// # Errors
    ///
    /// In strict mode [`EncodeError::Spec`] for text that is not base64; the
    /// sink's error.
    pub fn blob_base64<'v>(
        mut self,
        base64: impl Into<StrValue<'v>>,
    ) -> Result<ItemEncoder<S, AfterBody>, EncodeError> {
        let base64 = base64.into();
        if self.out().strict {
            check_base64(base64, self.index())?;
        }
        self.out().try_extend(b",\"blob\":")?;
        base64.write_quoted(self.out())?;
        Ok(self.next())
    }
}

impl<S: Sink> ItemEncoder<S, AfterBody> {
    /// Writes the item's `_meta` (an object).
    ///
    /// # Errors
    ///
    /// [`EncodeError::NotAnObject`], [`EncodeError::TooDeep`],
    /// [`EncodeError::Serialize`], or the sink's error.
    pub fn meta(
        mut self,
        meta: impl JsonValue,
    ) -> Result<ItemEncoder<S, AfterItemMeta>, EncodeError> {
        self.out().try_extend(b",\"_meta\":")?;
        meta.write_json(self.out(), ITEM_DEPTH, true, Token(()))?;
        Ok(self.next())
    }
}

impl<S: Sink, St: HasBody> ItemEncoder<S, St> {
    /// Closes the item and returns to `contents`.
    ///
    /// # Errors
    ///
    /// The sink's error.
    pub fn end(mut self) -> Result<ContentsEncoder<S>, EncodeError> {
        self.out().try_extend(b"}")?;
        self.contents.items += 1;
        Ok(self.contents)
    }
}

impl<S, St> fmt::Debug for ItemEncoder<S, St> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ItemEncoder")
            .field("item", &self.contents.items)
            .finish_non_exhaustive()
    }
}

/// A content item's `text`, being written in chunks.
///
/// Each chunk is escaped serde_json's way as it is written; chunks must be
/// whole UTF-8 (`&str`). Also a [`core::fmt::Write`], so `write!` can format
/// straight into the frame. After any failed write every later write fails
/// too, and [`end`](Self::end) returns the first error, so a frame with a
/// gap cannot be finished.
///
/// # Examples
///
/// ```
/// use core::fmt::Write as _;
/// use diverge_frame::encode::ResultEncoder;
///
/// let mut buf = [0u8; 96];
/// let mut text = ResultEncoder::new(&mut buf[..])?.contents()?.item("sensor://t")?.text_writer()?;
/// text.write("temp=")?;
/// write!(text, "{:.1}\n", 21.5).ok();
/// let n = text.end()?.end()?.finish()?;
/// assert_eq!(&buf[..n], b"\x00{\"contents\":[{\"uri\":\"sensor://t\",\"text\":\"temp=21.5\\n\"}]}");
/// # Ok::<(), diverge_frame::EncodeError>(())
/// ```
pub struct TextWriter<S> {
    contents: ContentsEncoder<S>,
    failed: Option<EncodeError>,
}

impl<S: Sink> TextWriter<S> {
    /// Writes a chunk of text, escaped.
    ///
    /// # Errors
    ///
    /// The sink's error (then, and after any earlier failure, every write
    /// fails).
    pub fn write<'v>(&mut self, chunk: impl Into<StrValue<'v>>) -> Result<(), EncodeError> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        let result = chunk.into().write_contents(&mut self.contents.out);
        if let Err(e) = result {
            self.failed = Some(e);
        }
        result
    }

    /// Closes `text`.
    ///
    /// # Errors
    ///
    /// The first failed write's error, or the sink's error.
    pub fn end(mut self) -> Result<ItemEncoder<S, AfterBody>, EncodeError> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        self.contents.out.try_extend(b"\"")?;
        Ok(ItemEncoder {
            contents: self.contents,
            stage: PhantomData,
        })
    }
}

impl<S: Sink> fmt::Write for TextWriter<S> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.write(s).map_err(|_| fmt::Error)
    }
}

impl<S> fmt::Debug for TextWriter<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TextWriter")
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}

/// A content item's `blob`, being written from raw bytes in chunks and
/// base64-encoded (standard alphabet, padded) on the way; 0 to 2 bytes are
/// carried between chunks. A failed write poisons the writer as for
/// [`TextWriter`].
///
/// # Examples
///
/// ```
/// use diverge_frame::encode::ResultEncoder;
///
/// let mut buf = [0u8; 96];
/// let mut blob = ResultEncoder::new(&mut buf[..])?.contents()?.item("bin://x")?.blob_writer()?;
/// blob.write(&[0])?;
/// blob.write(&[1])?;
/// let n = blob.end()?.end()?.finish()?;
/// assert_eq!(&buf[..n], b"\x00{\"contents\":[{\"uri\":\"bin://x\",\"blob\":\"AAE=\"}]}");
/// # Ok::<(), diverge_frame::EncodeError>(())
/// ```
pub struct BlobWriter<S> {
    contents: ContentsEncoder<S>,
    carry: [u8; 3],
    carried: usize,
    failed: Option<EncodeError>,
}

impl<S: Sink> BlobWriter<S> {
    /// Writes a chunk of raw bytes.
    ///
    /// # Errors
    ///
    /// The sink's error (then, and after any earlier failure, every write
    /// fails).
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        let result = self.write_inner(bytes);
        if let Err(e) = result {
            self.failed = Some(e);
        }
        result
    }

    fn write_inner(&mut self, mut bytes: &[u8]) -> Result<(), EncodeError> {
        if self.carried > 0 {
            while self.carried < 3 {
                let Some((&b, rest)) = bytes.split_first() else {
                    return Ok(());
                };
                if let Some(slot) = self.carry.get_mut(self.carried) {
                    *slot = b;
                }
                self.carried += 1;
                bytes = rest;
            }
            let carry = self.carry;
            self.emit(&carry)?;
            self.carried = 0;
        }
        let (whole, tail) = bytes.split_at(bytes.len() / 3 * 3);
        for block in whole.chunks(BLOB_BLOCK) {
            self.emit(block)?;
        }
        for &b in tail {
            if let Some(slot) = self.carry.get_mut(self.carried) {
                *slot = b;
            }
            self.carried += 1;
        }
        Ok(())
    }

    /// Encodes up to [`BLOB_BLOCK`] bytes (padded if not whole groups).
    fn emit(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        let mut buf = [0u8; BLOB_BLOCK / 3 * 4];
        let n = base64::encode(bytes, &mut buf).ok_or(EncodeError::BufferFull)?;
        self.contents
            .out
            .try_extend(buf.get(..n).unwrap_or_default())
    }

    /// Writes the carried bytes with padding and closes `blob`.
    ///
    /// # Errors
    ///
    /// The first failed write's error, or the sink's error.
    pub fn end(mut self) -> Result<ItemEncoder<S, AfterBody>, EncodeError> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        if self.carried > 0 {
            let carry = self.carry;
            self.emit(carry.get(..self.carried).unwrap_or_default())?;
        }
        self.contents.out.try_extend(b"\"")?;
        Ok(ItemEncoder {
            contents: self.contents,
            stage: PhantomData,
        })
    }
}

impl<S> fmt::Debug for BlobWriter<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlobWriter")
            .field("carried", &self.carried)
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}

// ----- error frame -------------------------------------------------------

/// Writes an error frame (tag `1`, then rmcp's `ErrorData`): `code` and
/// `message` at once, then optional `data`, then [`finish`](Self::finish).
///
/// # Examples
///
/// ```
/// use diverge_frame::encode::ErrorEncoder;
/// use diverge_frame::spec::RESOURCE_NOT_FOUND;
///
/// #[derive(serde::Serialize)]
/// struct Data<'a> {
///     uri: &'a str,
/// }
///
/// let mut buf = [0u8; 96];
/// let n = ErrorEncoder::new(&mut buf[..], RESOURCE_NOT_FOUND, "Resource not found")?
///     .data(&Data { uri: "file:///nonexistent.txt" })?
///     .finish()?;
/// assert_eq!(
///     &buf[..n],
///     b"\x01{\"code\":-32002,\"message\":\"Resource not found\",\"data\":{\"uri\":\"file:///nonexistent.txt\"}}"
/// );
/// # Ok::<(), diverge_frame::EncodeError>(())
/// ```
pub struct ErrorEncoder<S, St = Start> {
    out: Out<S>,
    stage: PhantomData<St>,
}

impl<S: Sink> ErrorEncoder<S, Start> {
    /// Starts an error frame with its `code` and `message`.
    ///
    /// # Errors
    ///
    /// The sink's error.
    pub fn new<'v>(
        sink: S,
        code: i32,
        message: impl Into<StrValue<'v>>,
    ) -> Result<Self, EncodeError> {
        Self::start(sink, code, message.into(), false)
    }

    /// Starts an error frame in strict mode: `code` must pass
    /// [`is_known_error_code`](crate::spec::is_known_error_code), else
    /// [`EncodeError::Spec`].
    ///
    /// # Errors
    ///
    /// [`EncodeError::Spec`]; the sink's error.
    pub fn strict<'v>(
        sink: S,
        code: i32,
        message: impl Into<StrValue<'v>>,
    ) -> Result<Self, EncodeError> {
        check_error_code(code)?;
        Self::start(sink, code, message.into(), true)
    }

    fn start(sink: S, code: i32, message: StrValue<'_>, strict: bool) -> Result<Self, EncodeError> {
        let mut out = Out::new(sink, strict);
        out.try_extend(&[ERROR_TAG])?;
        out.try_extend(b"{\"code\":")?;
        write_i64(&mut out, i64::from(code))?;
        out.try_extend(b",\"message\":")?;
        message.write_quoted(&mut out)?;
        Ok(Self {
            out,
            stage: PhantomData,
        })
    }

    /// Writes `data` (any JSON value; a `null` here reads back as absent).
    ///
    /// # Errors
    ///
    /// [`EncodeError::TooDeep`], [`EncodeError::Serialize`], or the sink's
    /// error.
    pub fn data(mut self, data: impl JsonValue) -> Result<ErrorEncoder<S, AfterData>, EncodeError> {
        self.out.try_extend(b",\"data\":")?;
        data.write_json(&mut self.out, FIELD_DEPTH, false, Token(()))?;
        Ok(ErrorEncoder {
            out: self.out,
            stage: PhantomData,
        })
    }
}

impl<S: Sink, St: ErrorComplete> ErrorEncoder<S, St> {
    /// Closes the frame and returns the number of bytes written.
    ///
    /// # Errors
    ///
    /// The sink's error.
    pub fn finish(mut self) -> Result<usize, EncodeError> {
        self.out.try_extend(b"}")?;
        Ok(self.out.len())
    }
}

impl<S, St> fmt::Debug for ErrorEncoder<S, St> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ErrorEncoder")
            .field("written", &self.out.len())
            .finish_non_exhaustive()
    }
}
