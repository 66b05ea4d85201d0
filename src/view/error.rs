//! [`ErrorView`]: the body of an error frame, rmcp's `ErrorData`.

use core::fmt;

use super::{Fields, RawFields};
use crate::error::{BodyError, Detail};
use crate::json::borrowed::{JsonStr, RawJson};
use crate::json::cursor::Cursor;
use crate::json::event::Field;
use crate::json::shape::{self, ERROR_KEYS};

/// A validated JSON-RPC error: `{"code": i32, "message": …, "data"?: …}`.
///
/// `==` compares the error's JSON text as it stands, byte for byte, as
/// [`RawJson`]'s does: two spellings of one value are two views. Compare
/// the accessors for values (a [`JsonStr`] compares its unescaped text).
///
/// # Examples
///
/// ```
/// use diverge_frame::Frame;
///
/// let frame = b"\x01{\"code\":-32002,\"message\":\"not found\",\"data\":{\"uri\":\"docs://x\"}}";
/// let Frame::Error(error) = Frame::decode(frame)? else { panic!("expected an error") };
/// assert_eq!(error.code(), -32002);
/// assert!(error.message() == "not found");
/// let uri = error.data().and_then(|data| data.get("uri")).map(|u| u.as_str());
/// assert_eq!(uri, Some("\"docs://x\""));
/// assert_eq!(error.json(), &frame[1..]);
/// # Ok::<(), diverge_frame::FrameError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct ErrorView<'a> {
    json: &'a [u8],
    code: i32,
    message: JsonStr<'a>,
    data: Option<RawJson<'a>>,
}

impl<'a> ErrorView<'a> {
    /// Validates error JSON (a frame's body, without its tag byte) exactly
    /// as `serde_json::from_slice::<rmcp::ErrorData>`, as
    /// [`RequestView::decode`](crate::RequestView::decode) does for a
    /// request. [`Frame::decode`](crate::Frame::decode) of the tag `1` and
    /// these bytes gives the same view, or the same error one byte further
    /// on.
    ///
    /// # Errors
    ///
    /// [`BodyError`] with the offset of the first defect **from the first
    /// byte of `json`**, for every input the reference rejects (and no
    /// other).
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::{BodyErrorKind, ErrorView};
    ///
    /// let view = ErrorView::decode(br#"{"code":-32002,"message":"not found"}"#)?;
    /// assert_eq!(view.code(), -32002);
    /// assert!(view.message() == "not found");
    ///
    /// let err = ErrorView::decode(br#"{"code":1.5,"message":"m"}"#).unwrap_err();
    /// assert_eq!(err.offset(), 8); // from the body's first byte
    /// assert_eq!(err.kind(), BodyErrorKind::InvalidType);
    /// # Ok::<(), diverge_frame::BodyError>(())
    /// ```
    #[inline(never)]
    pub fn decode(json: &'a [u8]) -> Result<Self, BodyError> {
        Self::decode_body(json)
    }

    /// [`decode`](Self::decode) for the crate's own callers, inlined into
    /// them; the public `decode` is a call of its own, as
    /// [`ResultView`](crate::ResultView)'s is (see its `decode_body`).
    #[inline(always)]
    pub(crate) fn decode_body(json: &'a [u8]) -> Result<Self, BodyError> {
        Self::decode_with(json, &mut ())
    }

    /// [`decode`](Self::decode), handing `data` to `raw` (the `alloc`
    /// builder builds its `Value` as it checks it).
    #[inline(always)]
    pub(crate) fn decode_with<R: RawFields<'a>>(
        json: &'a [u8],
        raw: &mut R,
    ) -> Result<Self, BodyError> {
        let mut s = Cursor::new(json);
        let mut code = None;
        let mut message = None;
        let mut data = None;
        let mut fields = Fields::open(&mut s, Detail::ERROR)?;
        while let Some(i) = fields.next(&mut s, ERROR_KEYS)? {
            match i {
                0 => code = Some(s.i32_field()?),
                1 => message = s.string_field(Field::Message)?,
                _ => data = raw.raw(&mut s, Field::Data)?,
            }
        }
        let (Some(code), Some(message)) = (code, message) else {
            let at = s.pos.saturating_sub(1);
            return Err(shape::missing(Detail::ERROR, fields.seen(), at));
        };
        s.end()?;
        Ok(Self {
            json,
            code,
            message,
            data,
        })
    }

    /// The JSON-RPC error code.
    #[must_use]
    pub const fn code(&self) -> i32 {
        self.code
    }

    /// The error message.
    #[must_use]
    pub const fn message(&self) -> JsonStr<'a> {
        self.message
    }

    /// The error's `data`, if present and not `null` (the reference reads
    /// `"data": null` as absent).
    #[must_use]
    pub const fn data(&self) -> Option<RawJson<'a>> {
        self.data
    }

    /// The error's JSON (the frame without its tag byte).
    #[must_use]
    pub const fn json(&self) -> &'a [u8] {
        self.json
    }
}

impl Cursor<'_> {
    /// `code`: a JSON integer literal in `i32` (serde_json's `deserialize_i32`).
    fn i32_field(&mut self) -> Result<i32, BodyError> {
        self.field_take(Field::Code)?;
        let at = self.pos;
        let num = self.number()?;
        shape::code(num, at)
    }
}

impl fmt::Debug for ErrorView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ErrorView")
            .field("code", &self.code)
            .field("message", &self.message)
            .field("data", &self.data)
            .finish()
    }
}

impl fmt::Display for ErrorView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error {}: {}", self.code, self.message)
    }
}
