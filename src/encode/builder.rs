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
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::encode::stage::{AfterUri, BeforeUri};
    /// use diverge_frame::encode::RequestEncoder;
    /// use diverge_frame::RawJson;
    /// use diverge_frame::encode::EncodeError;
    ///
    /// // Writes `uri` at any stage that may still write it: with or without `_meta`.
    /// fn with_uri<St: BeforeUri>(
    ///     request: RequestEncoder<&mut [u8], St>,
    /// ) -> Result<RequestEncoder<&mut [u8], AfterUri>, EncodeError> {
    ///     request.uri("docs://a")
    /// }
    /// let mut buf = [0u8; 64];
    /// let n = with_uri(RequestEncoder::new(&mut buf[..])?)?.finish()?;
    /// assert_eq!(&buf[..n], br#"{"uri":"docs://a"}"#);
    /// let meta = RawJson::parse(br#"{"progressToken":1}"#)?;
    /// let n = with_uri(RequestEncoder::new(&mut buf[..])?.meta(meta)?)?.finish()?;
    /// assert_eq!(&buf[..n], br#"{"_meta":{"progressToken":1},"uri":"docs://a"}"#);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub trait BeforeUri: sealed::Sealed {}
    /// Stages of a request that may still write `requestState`.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::encode::stage::{AfterRequestState, BeforeRequestState};
    /// use diverge_frame::encode::RequestEncoder;
    /// use diverge_frame::RawJson;
    /// use diverge_frame::encode::EncodeError;
    ///
    /// // Writes `requestState` after `uri`, with or without `inputResponses`.
    /// fn with_state<St: BeforeRequestState>(
    ///     request: RequestEncoder<&mut [u8], St>,
    /// ) -> Result<RequestEncoder<&mut [u8], AfterRequestState>, EncodeError> {
    ///     request.request_state("s1")
    /// }
    /// let mut buf = [0u8; 96];
    /// let n = with_state(RequestEncoder::new(&mut buf[..])?.uri("docs://a")?)?.finish()?;
    /// assert_eq!(&buf[..n], br#"{"uri":"docs://a","requestState":"s1"}"#);
    /// let answers = RawJson::parse(br#"{"q1":"yes"}"#)?;
    /// let request = RequestEncoder::new(&mut buf[..])?.uri("docs://a")?.input_responses(answers)?;
    /// let n = with_state(request)?.finish()?;
    /// assert_eq!(&buf[..n], br#"{"uri":"docs://a","inputResponses":{"q1":"yes"},"requestState":"s1"}"#);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub trait BeforeRequestState: sealed::Sealed {}
    /// Stages of a request that has its `uri` and may finish.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::encode::stage::HasUri;
    /// use diverge_frame::encode::RequestEncoder;
    /// use diverge_frame::encode::EncodeError;
    ///
    /// // Any request that has its `uri` may finish.
    /// fn finish<St: HasUri>(request: RequestEncoder<&mut [u8], St>) -> Result<usize, EncodeError> {
    ///     request.finish()
    /// }
    /// let mut buf = [0u8; 64];
    /// let n = finish(RequestEncoder::new(&mut buf[..])?.uri("docs://a")?)?;
    /// assert_eq!(&buf[..n], br#"{"uri":"docs://a"}"#);
    /// let request = RequestEncoder::new(&mut buf[..])?.uri("docs://a")?.request_state("s")?;
    /// let n = finish(request)?;
    /// assert_eq!(&buf[..n], br#"{"uri":"docs://a","requestState":"s"}"#);
    /// # Ok::<(), EncodeError>(())
    /// ```
    pub trait HasUri: sealed::Sealed {}
    /// Stages of a result that may still write `ttlMs`.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::encode::stage::{AfterTtlMs, BeforeTtlMs};
    /// use diverge_frame::encode::ResultEncoder;
    /// use diverge_frame::encode::EncodeError;
    ///
    /// // Writes `ttlMs` first, or after `resultType`.
    /// fn with_ttl<St: BeforeTtlMs>(
    ///     result: ResultEncoder<&mut [u8], St>,
    /// ) -> Result<ResultEncoder<&mut [u8], AfterTtlMs>, EncodeError> {
    ///     result.ttl_ms(60_000)
    /// }
    /// let mut buf = [0u8; 96];
    /// let n = with_ttl(ResultEncoder::new(&mut buf[..])?)?.contents()?.finish()?;
    /// assert_eq!(&buf[..n], b"\x00{\"ttlMs\":60000,\"contents\":[]}");
    /// let result = ResultEncoder::new(&mut buf[..])?.result_type("complete")?;
    /// let n = with_ttl(result)?.contents()?.finish()?;
    /// assert_eq!(&buf[..n], b"\x00{\"resultType\":\"complete\",\"ttlMs\":60000,\"contents\":[]}");
    /// # Ok::<(), EncodeError>(())
    /// ```
    pub trait BeforeTtlMs: sealed::Sealed {}
    /// Stages of a result that may still write `cacheScope`.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::encode::stage::{AfterCacheScope, BeforeCacheScope};
    /// use diverge_frame::encode::ResultEncoder;
    /// use diverge_frame::CacheScope;
    /// use diverge_frame::encode::EncodeError;
    ///
    /// // Writes `cacheScope` at any stage before it: here after `ttlMs`.
    /// fn private<St: BeforeCacheScope>(
    ///     result: ResultEncoder<&mut [u8], St>,
    /// ) -> Result<ResultEncoder<&mut [u8], AfterCacheScope>, EncodeError> {
    ///     result.cache_scope(CacheScope::Private)
    /// }
    /// let mut buf = [0u8; 96];
    /// let n = private(ResultEncoder::new(&mut buf[..])?.ttl_ms(0)?)?.contents()?.finish()?;
    /// assert_eq!(&buf[..n], b"\x00{\"ttlMs\":0,\"cacheScope\":\"private\",\"contents\":[]}");
    /// # Ok::<(), EncodeError>(())
    /// ```
    pub trait BeforeCacheScope: sealed::Sealed {}
    /// Stages of a result before its `contents`.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::encode::stage::ResultHead;
    /// use diverge_frame::encode::ResultEncoder;
    /// use diverge_frame::CacheScope;
    /// use diverge_frame::encode::EncodeError;
    ///
    /// // Ends the head, whichever optional fields it has, with no items.
    /// fn empty<St: ResultHead>(result: ResultEncoder<&mut [u8], St>) -> Result<usize, EncodeError> {
    ///     result.contents()?.finish()
    /// }
    /// let mut buf = [0u8; 96];
    /// assert_eq!(empty(ResultEncoder::new(&mut buf[..])?)?, b"\x00{\"contents\":[]}".len());
    /// let head = ResultEncoder::new(&mut buf[..])?.cache_scope(CacheScope::Public)?;
    /// let n = empty(head)?;
    /// assert_eq!(&buf[..n], b"\x00{\"cacheScope\":\"public\",\"contents\":[]}");
    /// # Ok::<(), EncodeError>(())
    /// ```
    pub trait ResultHead: sealed::Sealed {}
    /// Stages of a content item that may still write `text` or `blob`.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::encode::stage::{AfterBody, BeforeBody};
    /// use diverge_frame::encode::{ItemEncoder, ResultEncoder};
    /// use diverge_frame::encode::EncodeError;
    ///
    /// // Writes the body, with or without a `mimeType` before it.
    /// fn hello<St: BeforeBody>(
    ///     item: ItemEncoder<&mut [u8], St>,
    /// ) -> Result<ItemEncoder<&mut [u8], AfterBody>, EncodeError> {
    ///     item.text("hello")
    /// }
    /// let mut buf = [0u8; 128];
    /// let contents = ResultEncoder::new(&mut buf[..])?.contents()?;
    /// let contents = hello(contents.item("docs://a")?)?.end()?;
    /// let n = hello(contents.item("docs://b")?.mime_type("text/plain")?)?.end()?.finish()?;
    /// assert_eq!(
    ///     &buf[..n],
    ///     b"\x00{\"contents\":[{\"uri\":\"docs://a\",\"text\":\"hello\"},\
    ///       {\"uri\":\"docs://b\",\"mimeType\":\"text/plain\",\"text\":\"hello\"}]}"
    /// );
    /// # Ok::<(), EncodeError>(())
    /// ```
    pub trait BeforeBody: sealed::Sealed {}
    /// Stages of a content item that has its `text` or `blob` and may end.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::encode::stage::HasBody;
    /// use diverge_frame::encode::{ContentsEncoder, ItemEncoder, ResultEncoder};
    /// use diverge_frame::RawJson;
    /// use diverge_frame::encode::EncodeError;
    ///
    /// // Any item with its body may end, with or without its `_meta`.
    /// fn end<St: HasBody>(
    ///     item: ItemEncoder<&mut [u8], St>,
    /// ) -> Result<ContentsEncoder<&mut [u8]>, EncodeError> {
    ///     item.end()
    /// }
    /// let mut buf = [0u8; 128];
    /// let contents = ResultEncoder::new(&mut buf[..])?.contents()?;
    /// let contents = end(contents.item("docs://a")?.text("a")?)?;
    /// let meta = RawJson::parse(br#"{"v":2}"#)?;
    /// let contents = end(contents.item("docs://b")?.text("b")?.meta(meta)?)?;
    /// assert_eq!(contents.items(), 2);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub trait HasBody: sealed::Sealed {}
    /// Stages of an error that may finish.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::encode::stage::ErrorComplete;
    /// use diverge_frame::encode::ErrorEncoder;
    /// use diverge_frame::RawJson;
    /// use diverge_frame::encode::EncodeError;
    ///
    /// // An error may finish with or without its `data`.
    /// fn finish<St: ErrorComplete>(error: ErrorEncoder<&mut [u8], St>) -> Result<usize, EncodeError> {
    ///     error.finish()
    /// }
    /// let mut buf = [0u8; 96];
    /// let n = finish(ErrorEncoder::new(&mut buf[..], -32002, "gone")?)?;
    /// assert_eq!(&buf[..n], b"\x01{\"code\":-32002,\"message\":\"gone\"}");
    /// let data = RawJson::parse(br#"{"uri":"docs://a"}"#)?;
    /// let n = finish(ErrorEncoder::new(&mut buf[..], -32002, "gone")?.data(data)?)?;
    /// assert_eq!(&buf[..n], b"\x01{\"code\":-32002,\"message\":\"gone\",\"data\":{\"uri\":\"docs://a\"}}");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub trait ErrorComplete: sealed::Sealed {}

    markers! {
        /// Nothing but the opening written (and, for an error, `code` and `message`).
        ///
        /// # Examples
        ///
        /// ```
        /// use diverge_frame::encode::stage::Start;
        /// use diverge_frame::encode::{ErrorEncoder, RequestEncoder, ResultEncoder};
        ///
        /// let mut buf = [0u8; 64];
        /// // Every encoder begins here: each optional field is still allowed.
        /// let request: RequestEncoder<_, Start> = RequestEncoder::new(&mut buf[..])?;
        /// let n = request.uri("docs://a")?.finish()?;
        /// assert_eq!(&buf[..n], br#"{"uri":"docs://a"}"#);
        /// let result: ResultEncoder<_, Start> = ResultEncoder::new(&mut buf[..])?;
        /// let n = result.contents()?.finish()?;
        /// assert_eq!(&buf[..n], b"\x00{\"contents\":[]}");
        /// let error: ErrorEncoder<_, Start> = ErrorEncoder::new(&mut buf[..], -32603, "busy")?;
        /// let n = error.finish()?;
        /// assert_eq!(&buf[..n], b"\x01{\"code\":-32603,\"message\":\"busy\"}");
        /// # Ok::<(), diverge_frame::encode::EncodeError>(())
        /// ```
        Start: BeforeUri, BeforeTtlMs, BeforeCacheScope, ResultHead, ErrorComplete;
        /// A request's `_meta` written.
        ///
        /// # Examples
        ///
        /// ```
        /// use diverge_frame::encode::stage::AfterMeta;
        /// use diverge_frame::encode::RequestEncoder;
        /// use diverge_frame::RawJson;
        ///
        /// let mut buf = [0u8; 64];
        /// let meta = RawJson::parse(br#"{"progressToken":7}"#)?;
        /// let request: RequestEncoder<_, AfterMeta> = RequestEncoder::new(&mut buf[..])?.meta(meta)?;
        /// // Next only `uri`: no second `_meta`, and no `finish` without a `uri`.
        /// let n = request.uri("docs://a")?.finish()?;
        /// assert_eq!(&buf[..n], br#"{"_meta":{"progressToken":7},"uri":"docs://a"}"#);
        /// # Ok::<(), Box<dyn core::error::Error>>(())
        /// ```
        AfterMeta: BeforeUri;
        /// A request's `uri` written.
        ///
        /// # Examples
        ///
        /// ```
        /// use diverge_frame::encode::stage::AfterUri;
        /// use diverge_frame::encode::RequestEncoder;
        ///
        /// let mut buf = [0u8; 64];
        /// let request: RequestEncoder<_, AfterUri> = RequestEncoder::new(&mut buf[..])?.uri("docs://a")?;
        /// // It may finish now, or write `inputResponses` or `requestState` first.
        /// let n = request.finish()?;
        /// assert_eq!(&buf[..n], br#"{"uri":"docs://a"}"#);
        /// # Ok::<(), diverge_frame::encode::EncodeError>(())
        /// ```
        AfterUri: BeforeRequestState, HasUri;
        /// A request's `inputResponses` written.
        ///
        /// # Examples
        ///
        /// ```
        /// use diverge_frame::encode::stage::AfterInputResponses;
        /// use diverge_frame::encode::RequestEncoder;
        /// use diverge_frame::RawJson;
        ///
        /// let mut buf = [0u8; 96];
        /// let answers = RawJson::parse(br#"{"q1":"yes"}"#)?;
        /// let request: RequestEncoder<_, AfterInputResponses> =
        ///     RequestEncoder::new(&mut buf[..])?.uri("docs://a")?.input_responses(answers)?;
        /// let n = request.request_state("s1")?.finish()?;
        /// assert_eq!(&buf[..n], br#"{"uri":"docs://a","inputResponses":{"q1":"yes"},"requestState":"s1"}"#);
        /// # Ok::<(), Box<dyn core::error::Error>>(())
        /// ```
        AfterInputResponses: BeforeRequestState, HasUri;
        /// A request's `requestState` written.
        ///
        /// # Examples
        ///
        /// ```
        /// use diverge_frame::encode::stage::AfterRequestState;
        /// use diverge_frame::encode::RequestEncoder;
        ///
        /// let mut buf = [0u8; 64];
        /// let request: RequestEncoder<_, AfterRequestState> =
        ///     RequestEncoder::new(&mut buf[..])?.uri("docs://a")?.request_state("s1")?;
        /// // The last field: only `finish` is left.
        /// let n = request.finish()?;
        /// assert_eq!(&buf[..n], br#"{"uri":"docs://a","requestState":"s1"}"#);
        /// # Ok::<(), diverge_frame::encode::EncodeError>(())
        /// ```
        AfterRequestState: HasUri;
        /// A result's `resultType` written.
        ///
        /// # Examples
        ///
        /// ```
        /// use diverge_frame::encode::stage::AfterResultType;
        /// use diverge_frame::encode::ResultEncoder;
        ///
        /// let mut buf = [0u8; 64];
        /// let result: ResultEncoder<_, AfterResultType> =
        ///     ResultEncoder::new(&mut buf[..])?.result_type("complete")?;
        /// let n = result.contents()?.finish()?;
        /// assert_eq!(&buf[..n], b"\x00{\"resultType\":\"complete\",\"contents\":[]}");
        /// # Ok::<(), diverge_frame::encode::EncodeError>(())
        /// ```
        AfterResultType: BeforeTtlMs, BeforeCacheScope, ResultHead;
        /// A result's `ttlMs` written.
        ///
        /// # Examples
        ///
        /// ```
        /// use diverge_frame::encode::stage::AfterTtlMs;
        /// use diverge_frame::encode::ResultEncoder;
        /// use diverge_frame::CacheScope;
        ///
        /// let mut buf = [0u8; 64];
        /// let result: ResultEncoder<_, AfterTtlMs> = ResultEncoder::new(&mut buf[..])?.ttl_ms(1000)?;
        /// // `resultType` is behind it now; `cacheScope` and `contents` are ahead.
        /// let n = result.cache_scope(CacheScope::Public)?.contents()?.finish()?;
        /// assert_eq!(&buf[..n], b"\x00{\"ttlMs\":1000,\"cacheScope\":\"public\",\"contents\":[]}");
        /// # Ok::<(), diverge_frame::encode::EncodeError>(())
        /// ```
        AfterTtlMs: BeforeCacheScope, ResultHead;
        /// A result's `cacheScope` written.
        ///
        /// # Examples
        ///
        /// ```
        /// use diverge_frame::encode::stage::AfterCacheScope;
        /// use diverge_frame::encode::ResultEncoder;
        /// use diverge_frame::CacheScope;
        ///
        /// let mut buf = [0u8; 64];
        /// let result: ResultEncoder<_, AfterCacheScope> =
        ///     ResultEncoder::new(&mut buf[..])?.cache_scope(CacheScope::Private)?;
        /// // Only `contents` is left in the head.
        /// let n = result.contents()?.finish()?;
        /// assert_eq!(&buf[..n], b"\x00{\"cacheScope\":\"private\",\"contents\":[]}");
        /// # Ok::<(), diverge_frame::encode::EncodeError>(())
        /// ```
        AfterCacheScope: ResultHead;
        /// A content item's `uri` written.
        ///
        /// # Examples
        ///
        /// ```
        /// use diverge_frame::encode::stage::ItemStart;
        /// use diverge_frame::encode::{ItemEncoder, ResultEncoder};
        ///
        /// let mut buf = [0u8; 96];
        /// let item: ItemEncoder<_, ItemStart> = ResultEncoder::new(&mut buf[..])?.contents()?.item("docs://a")?;
        /// // No `end` yet: an item needs its `text` or `blob`.
        /// let n = item.mime_type("text/plain")?.text("hi")?.end()?.finish()?;
        /// assert_eq!(&buf[..n], b"\x00{\"contents\":[{\"uri\":\"docs://a\",\"mimeType\":\"text/plain\",\"text\":\"hi\"}]}");
        /// # Ok::<(), diverge_frame::encode::EncodeError>(())
        /// ```
        ItemStart: BeforeBody;
        /// A content item's `mimeType` written.
        ///
        /// # Examples
        ///
        /// ```
        /// use diverge_frame::encode::stage::AfterMimeType;
        /// use diverge_frame::encode::{ItemEncoder, ResultEncoder};
        ///
        /// let mut buf = [0u8; 96];
        /// let item: ItemEncoder<_, AfterMimeType> =
        ///     ResultEncoder::new(&mut buf[..])?.contents()?.item("bin://a")?.mime_type("image/png")?;
        /// let n = item.blob(b"\x89PNG")?.end()?.finish()?;
        /// assert_eq!(&buf[..n], b"\x00{\"contents\":[{\"uri\":\"bin://a\",\"mimeType\":\"image/png\",\"blob\":\"iVBORw==\"}]}");
        /// # Ok::<(), diverge_frame::encode::EncodeError>(())
        /// ```
        AfterMimeType: BeforeBody;
        /// A content item's `text` or `blob` written.
        ///
        /// # Examples
        ///
        /// ```
        /// use diverge_frame::encode::stage::AfterBody;
        /// use diverge_frame::encode::{ItemEncoder, ResultEncoder};
        ///
        /// let mut buf = [0u8; 96];
        /// let item: ItemEncoder<_, AfterBody> =
        ///     ResultEncoder::new(&mut buf[..])?.contents()?.item("docs://a")?.text("hi")?;
        /// // No second body; `_meta` or `end` next.
        /// let n = item.end()?.finish()?;
        /// assert_eq!(&buf[..n], b"\x00{\"contents\":[{\"uri\":\"docs://a\",\"text\":\"hi\"}]}");
        /// # Ok::<(), diverge_frame::encode::EncodeError>(())
        /// ```
        AfterBody: HasBody;
        /// A content item's `_meta` written.
        ///
        /// # Examples
        ///
        /// ```
        /// use diverge_frame::encode::stage::AfterItemMeta;
        /// use diverge_frame::encode::{ItemEncoder, ResultEncoder};
        /// use diverge_frame::RawJson;
        ///
        /// let mut buf = [0u8; 96];
        /// let meta = RawJson::parse(br#"{"v":1}"#)?;
        /// let item: ItemEncoder<_, AfterItemMeta> =
        ///     ResultEncoder::new(&mut buf[..])?.contents()?.item("docs://a")?.text("hi")?.meta(meta)?;
        /// let n = item.end()?.finish()?;
        /// assert_eq!(&buf[..n], b"\x00{\"contents\":[{\"uri\":\"docs://a\",\"text\":\"hi\",\"_meta\":{\"v\":1}}]}");
        /// # Ok::<(), Box<dyn core::error::Error>>(())
        /// ```
        AfterItemMeta: HasBody;
        /// An error's `data` written.
        ///
        /// # Examples
        ///
        /// ```
        /// use diverge_frame::encode::stage::AfterData;
        /// use diverge_frame::encode::ErrorEncoder;
        /// use diverge_frame::RawJson;
        ///
        /// let mut buf = [0u8; 96];
        /// let data = RawJson::parse(br#"{"retryAfterMs":50}"#)?;
        /// let error: ErrorEncoder<_, AfterData> = ErrorEncoder::new(&mut buf[..], -32603, "busy")?.data(data)?;
        /// // Only `finish` is left.
        /// let n = error.finish()?;
        /// assert_eq!(&buf[..n], b"\x01{\"code\":-32603,\"message\":\"busy\",\"data\":{\"retryAfterMs\":50}}");
        /// # Ok::<(), Box<dyn core::error::Error>>(())
        /// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::RequestView;
    /// use diverge_frame::encode::RequestEncoder;
    ///
    /// let mut buf = [0u8; 64];
    /// let n = RequestEncoder::new(&mut buf[..])?.uri("docs://readme")?.request_state("s1")?.finish()?;
    /// assert_eq!(&buf[..n], br#"{"uri":"docs://readme","requestState":"s1"}"#);
    /// assert!(RequestView::decode(&buf[..n])?.uri() == "docs://readme");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::encode::EncodeError;
    /// use diverge_frame::encode::RequestEncoder;
    ///
    /// let mut buf = [0u8; 64];
    /// let n = RequestEncoder::strict(&mut buf[..])?.uri("docs://readme")?.finish()?;
    /// assert_eq!(&buf[..n], br#"{"uri":"docs://readme"}"#);
    /// // Not an absolute URI (no scheme): refused in strict mode.
    /// let refused = RequestEncoder::strict(&mut buf[..])?.uri("readme");
    /// assert!(matches!(refused, Err(EncodeError::Spec(_))));
    /// # Ok::<(), EncodeError>(())
    /// ```
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
/// # Ok::<(), diverge_frame::encode::EncodeError>(())
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
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::encode::ResultEncoder;
    /// use diverge_frame::deps::heapless;
    ///
    /// let mut frame = heapless::Vec::<u8, 64>::new();
    /// ResultEncoder::new(&mut frame)?.contents()?.item("docs://a")?.text("hi")?.end()?.finish()?;
    /// assert_eq!(frame, b"\x00{\"contents\":[{\"uri\":\"docs://a\",\"text\":\"hi\"}]}");
    /// # Ok::<(), diverge_frame::encode::EncodeError>(())
    /// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::encode::EncodeError;
    /// use diverge_frame::encode::ResultEncoder;
    ///
    /// let mut buf = [0u8; 128];
    /// let n = ResultEncoder::strict(&mut buf[..])?
    ///     .contents()?
    ///     .item("docs://readme")?
    ///     .mime_type("text/markdown")?
    ///     .text("# Hi")?
    ///     .end()?
    ///     .finish()?;
    /// assert_eq!(
    ///     &buf[..n],
    ///     b"\x00{\"contents\":[{\"uri\":\"docs://readme\",\"mimeType\":\"text/markdown\",\"text\":\"# Hi\"}]}"
    /// );
    /// // A relative URI passes in the default mode and not in strict mode.
    /// assert!(ResultEncoder::new(&mut buf[..])?.contents()?.item("readme").is_ok());
    /// let refused = ResultEncoder::strict(&mut buf[..])?.contents()?.item("readme");
    /// assert!(matches!(refused, Err(EncodeError::Spec(_))));
    /// # Ok::<(), EncodeError>(())
    /// ```
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
///
/// # Examples
///
/// ```
/// use diverge_frame::encode::ResultEncoder;
/// use diverge_frame::{Frame, RawJson};
///
/// let mut buf = [0u8; 128];
/// let mut contents = ResultEncoder::new(&mut buf[..])?.contents()?;
/// for (uri, text) in [("docs://a", "one"), ("docs://b", "two")] {
///     contents = contents.item(uri)?.text(text)?.end()?;
/// }
/// assert_eq!(contents.items(), 2);
/// let n = contents.finish_with_meta(RawJson::parse(br#"{"page":1}"#)?)?;
/// let Frame::Result(result) = Frame::decode(&buf[..n])? else { panic!("expected a result") };
/// assert_eq!(result.contents().len(), 2);
/// assert_eq!(result.meta().map(|m| m.as_bytes()), Some(&br#"{"page":1}"#[..]));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
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
///
/// # Examples
///
/// ```
/// use diverge_frame::RawJson;
/// use diverge_frame::encode::ResultEncoder;
///
/// let mut buf = [0u8; 128];
/// let item = ResultEncoder::new(&mut buf[..])?.contents()?.item("bin://logo")?; // `uri` written
/// let n = item
///     .mime_type("image/png")?
///     .blob(&[0x89, b'P', b'N', b'G'])?
///     .meta(RawJson::parse(br#"{"v":1}"#)?)?
///     .end()? // back to `contents`
///     .finish()?;
/// assert_eq!(
///     &buf[..n],
///     b"\x00{\"contents\":[{\"uri\":\"bin://logo\",\"mimeType\":\"image/png\",\"blob\":\"iVBORw==\",\"_meta\":{\"v\":1}}]}"
/// );
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
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
/// # Ok::<(), diverge_frame::encode::EncodeError>(())
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
/// # Ok::<(), diverge_frame::encode::EncodeError>(())
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
/// # Ok::<(), diverge_frame::encode::EncodeError>(())
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
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::encode::ErrorEncoder;
    /// use diverge_frame::{Frame, RawJson};
    ///
    /// let mut buf = [0u8; 96];
    /// let data = RawJson::parse(br#"{"uri":"docs://gone"}"#)?;
    /// let n = ErrorEncoder::new(&mut buf[..], -32002, "Resource not found")?.data(data)?.finish()?;
    /// let Frame::Error(error) = Frame::decode(&buf[..n])? else { panic!("expected an error") };
    /// assert_eq!(error.code(), -32002);
    /// assert!(error.message() == "Resource not found");
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::encode::EncodeError;
    /// use diverge_frame::encode::ErrorEncoder;
    ///
    /// let mut buf = [0u8; 64];
    /// let n = ErrorEncoder::strict(&mut buf[..], -32002, "Resource not found")?.finish()?;
    /// assert_eq!(&buf[..n], b"\x01{\"code\":-32002,\"message\":\"Resource not found\"}");
    /// // 7 is no JSON-RPC or MCP error code: refused before anything is written.
    /// assert!(matches!(ErrorEncoder::strict(&mut buf[..], 7, "odd"), Err(EncodeError::Spec(_))));
    /// # Ok::<(), EncodeError>(())
    /// ```
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
