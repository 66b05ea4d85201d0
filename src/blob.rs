//! A content item's `blob` ([`Blob`]) and its decoding from base64 into a
//! caller's buffer.

use core::fmt;

use crate::base64::{DecodeError, Decoder};
use crate::json::borrowed::JsonStr;

/// Why a blob did not decode.
///
/// # Examples
///
/// ```
/// use diverge_frame::{Base64Error, Body, ResultView};
///
/// let result = ResultView::decode(br#"{"contents":[{"uri":"bin://a","blob":"aGVsbG8="},{"uri":"bin://b","blob":"a*=="}]}"#)?;
/// let mut small = [0u8; 2];
/// for item in result.contents() {
///     let Body::Blob(blob) = item.body() else { panic!("expected a blob") };
///     match blob.decode_base64_into(&mut small) {
///         Err(Base64Error::BufferTooSmall { needed, available }) => assert_eq!((needed, available), (5, 2)),
///         Err(Base64Error::Invalid { offset }) => assert_eq!(offset, 1), // the `*`
///         Err(other) => panic!("unexpected {other}"),
///         Ok(n) => panic!("{n} bytes fit in two"),
///     }
/// }
/// # Ok::<(), diverge_frame::BodyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum Base64Error {
    /// Not valid standard base64; `offset` is the first bad character's index
    /// in the unescaped text (or its length, for a bad length).
    Invalid {
        /// Index of the offending character in the unescaped blob text.
        offset: usize,
    },
    /// The output buffer is too small.
    BufferTooSmall {
        /// Bytes the decoded blob needs.
        needed: usize,
        /// Bytes the buffer had.
        available: usize,
    },
}

impl fmt::Display for Base64Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Invalid { offset } => write!(f, "invalid base64 at character {offset}"),
            Self::BufferTooSmall { needed, available } => {
                write!(
                    f,
                    "buffer too small for blob: {needed} bytes needed, {available} available"
                )
            }
        }
    }
}

impl core::error::Error for Base64Error {}

/// A blob content item's `blob`: its base64 text, as the frame spells it
/// ([`text`](Self::text), a [`JsonStr`]), and its decoding. The base64
/// methods are a blob's alone, not every string's.
///
/// `==` and `Hash` are of the unescaped text, as [`JsonStr`]'s are.
///
/// # Examples
///
/// ```
/// use diverge_frame::{Body, ResultView};
///
/// let result = ResultView::decode(br#"{"contents":[{"uri":"bin://a","blob":"aGVsbG8="}]}"#)?;
/// let item = result.contents().next().unwrap();
/// let Body::Blob(blob) = item.body() else { panic!("expected a blob") };
/// assert!(blob == "aGVsbG8=");
/// assert_eq!(blob.text().raw(), b"aGVsbG8=");
/// let mut out = [0u8; 8];
/// let n = blob.decode_base64_into(&mut out)?;
/// assert_eq!(&out[..n], b"hello");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Blob<'a>(JsonStr<'a>);

impl<'a> Blob<'a> {
    /// The blob whose base64 text is `text`.
    pub(crate) const fn new(text: JsonStr<'a>) -> Self {
        Self(text)
    }

    /// The base64 text, as a string of the frame.
    #[must_use]
    pub const fn text(&self) -> JsonStr<'a> {
        self.0
    }

    /// The exact size of the decoded blob, assuming it is valid base64
    /// (length without the trailing `=` padding, times 3/4).
    #[must_use]
    pub fn base64_decoded_len(&self) -> usize {
        let raw = self.0.raw();
        if !self.0.is_escaped() && raw.is_ascii() {
            // One character per byte.
            let pad = raw.iter().rev().take_while(|&&b| b == b'=').count();
            return (raw.len() - pad) * 3 / 4;
        }
        let mut len = 0usize;
        let mut trailing_pad = 0usize;
        for c in self.0.chars() {
            len += 1;
            trailing_pad = if c == '=' { trailing_pad + 1 } else { 0 };
        }
        (len - trailing_pad) * 3 / 4
    }

    /// Decodes the string as standard base64 (padding optional) into `out`
    /// and returns the number of bytes written.
    ///
    /// Accepts exactly what the `base64` crate's standard engine accepts with
    /// optional padding (`DecodePaddingMode::Indifferent`, so `AA=` too) and
    /// no stray bits in the last character. Invalid text is reported as such
    /// whatever the size of `out`; for valid text,
    /// [`Base64Error::BufferTooSmall`] carries the exact size needed (which
    /// [`base64_decoded_len`](Self::base64_decoded_len) also gives). An
    /// escaped blob decodes as its unescaped text.
    ///
    /// # Errors
    ///
    /// [`Base64Error::Invalid`] for text that is not base64 (the reference
    /// does not check blobs, so a frame can carry one), with the offset the
    /// `base64` crate reports for the unescaped text;
    /// [`Base64Error::BufferTooSmall`] when `out` cannot hold the result.
    pub fn decode_base64_into(&self, out: &mut [u8]) -> Result<usize, Base64Error> {
        let available = out.len();
        let mut decoder = Decoder::new(out);
        self.feed_base64(&mut decoder);
        decoder.finish().map_err(|e| match e {
            DecodeError::Invalid(offset) => Base64Error::Invalid { offset },
            DecodeError::TooSmall(needed) => Base64Error::BufferTooSmall { needed, available },
        })
    }

    /// Feeds the unescaped text to a base64 decoder: the raw text at once
    /// when there is no escape, else run by run.
    pub(crate) fn feed_base64(&self, decoder: &mut Decoder<'_>) {
        if !self.0.is_escaped() {
            decoder.feed(self.0.raw());
            return;
        }
        let mut pieces = self.0.pieces();
        while let Some(piece) = pieces.next() {
            decoder.feed(piece);
        }
    }
}

impl fmt::Debug for Blob<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl PartialEq<str> for Blob<'_> {
    fn eq(&self, other: &str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<&str> for Blob<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.0 == **other
    }
}

impl<'a> From<Blob<'a>> for JsonStr<'a> {
    fn from(blob: Blob<'a>) -> Self {
        blob.0
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    extern crate std;
    use std::vec;

    use super::*;

    fn blob(text: &str) -> Blob<'_> {
        Blob::new(JsonStr::new(text.as_bytes(), text.contains('\\')))
    }

    #[test]
    fn valid_blobs_decode_with_or_without_padding() {
        let mut out = [0u8; 8];
        assert_eq!(blob("AAE=").decode_base64_into(&mut out), Ok(2));
        assert_eq!(blob("AAE").decode_base64_into(&mut out), Ok(2));
        assert_eq!(blob("YQ==").base64_decoded_len(), 1);
        assert_eq!(blob(r"\u0059Q==").decode_base64_into(&mut out), Ok(1));
        assert_eq!(out[0], b'a');
    }

    #[test]
    fn invalid_text_is_invalid_whatever_the_buffer() {
        // Inner padding used to read as "buffer too small" (fuzz finding F1).
        for text in ["=====", "=====AAA", "AA=====", "AA==AAAA"] {
            for room in [0usize, 1, 2, 64] {
                let mut out = vec![0u8; room];
                let got = blob(text).decode_base64_into(&mut out);
                assert!(
                    matches!(got, Err(Base64Error::Invalid { .. })),
                    "{text} with {room}: {got:?}"
                );
            }
        }
    }

    #[test]
    fn escaped_and_plain_blobs_decode_alike() {
        // Padding at the end of a 256-character chunk is padding in the middle
        // of the blob (fuzz finding F2).
        let plain = std::format!("{}AA==AAAA", "A".repeat(252));
        let escaped = std::format!("\\u0041{}", &plain[1..]);
        let mut a = vec![0u8; 300];
        let mut b = vec![0u8; 300];
        let pa = blob(&plain).decode_base64_into(&mut a);
        let pb = blob(&escaped).decode_base64_into(&mut b);
        assert!(
            matches!(pa, Err(Base64Error::Invalid { offset: 254 })),
            "{pa:?}"
        );
        assert_eq!(pa, pb);
        let long = "QUJD".repeat(200);
        let long_escaped = std::format!("\\u0051{}", &long[1..]);
        assert_eq!(
            blob(&long).decode_base64_into(&mut a),
            Err(Base64Error::BufferTooSmall {
                needed: 600,
                available: 300
            })
        );
        assert_eq!(
            blob(&long_escaped).decode_base64_into(&mut b),
            Err(Base64Error::BufferTooSmall {
                needed: 600,
                available: 300
            })
        );
        let mut big = vec![0u8; 600];
        assert_eq!(blob(&long_escaped).decode_base64_into(&mut big), Ok(600));
        assert_eq!(&big[..6], b"ABCABC");
    }
}
