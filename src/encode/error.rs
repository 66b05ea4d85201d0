//! [`EncodeError`]: why encoding failed.

use core::fmt;

use crate::check::SpecError;

/// Why encoding failed. Encoding never panics and never leaves a cut frame
/// that looks whole: on error, the bytes written so far must be discarded.
///
/// # Examples
///
/// ```
/// use diverge_frame::encode::{ErrorEncoder, ResultEncoder};
/// use diverge_frame::RawJson;
/// use diverge_frame::encode::EncodeError;
///
/// let mut small = [0u8; 16];
/// let err = ResultEncoder::new(&mut small[..])?.contents()?.item("docs://readme").unwrap_err();
/// assert_eq!(err, EncodeError::BufferFull);
///
/// let mut buf = [0u8; 64];
/// let not_an_object = RawJson::parse(b"[1,2]")?;
/// // `data` takes any JSON value; `_meta` must be an object.
/// assert!(ErrorEncoder::new(&mut buf[..], -32603, "m")?.data(not_an_object).is_ok());
/// let err = ResultEncoder::new(&mut buf[..])?.contents()?.finish_with_meta(not_an_object).unwrap_err();
/// match err {
///     EncodeError::NotAnObject => {}
///     EncodeError::BufferFull | EncodeError::Write => panic!("the buffer is large enough"),
///     other => panic!("unexpected {other}"),
/// }
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum EncodeError {
    /// The output buffer is full.
    BufferFull,
    /// The underlying writer failed (its error is kept by the sink, e.g.
    /// `IoSink::error`).
    Write,
    /// A `serde::Serialize` impl failed, or produced a map key serde_json
    /// cannot write (not a string, number, bool or char; a non-finite float).
    Serialize,
    /// A `_meta` or `inputResponses` value that is not a JSON object, which
    /// the reference could not decode back.
    NotAnObject,
    /// A value nested deeper than the reference decodes (127 open arrays and
    /// objects, counting the frame's own).
    TooDeep,
    /// A number the reference could not decode back (`ttlMs` above
    /// `i64::MAX`).
    OutOfRange,
    /// Strict mode: a spec check failed. Prints as the [`SpecError`] alone.
    Spec(SpecError),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::BufferFull => f.write_str("output buffer full"),
            Self::Write => f.write_str("the output writer failed"),
            Self::Serialize => f.write_str("the value failed to serialize as JSON"),
            Self::NotAnObject => f.write_str("value must be a JSON object here"),
            Self::TooDeep => f.write_str("value nested deeper than the reference decodes"),
            Self::OutOfRange => f.write_str("number out of the range the reference decodes"),
            // Transparent: the spec error names the item and the field.
            Self::Spec(err) => fmt::Display::fmt(err, f),
        }
    }
}

impl core::error::Error for EncodeError {
    /// Transparent for [`Spec`](Self::Spec) (its `Display` is the spec
    /// error's): the spec error's own `source()`, which is `None`.
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Self::Spec(err) => core::error::Error::source(err),
            Self::BufferFull
            | Self::Write
            | Self::Serialize
            | Self::NotAnObject
            | Self::TooDeep
            | Self::OutOfRange => None,
        }
    }
}

impl From<SpecError> for EncodeError {
    fn from(err: SpecError) -> Self {
        Self::Spec(err)
    }
}
