//! Decoding `blob` payloads from base64 into a caller's buffer.

use core::fmt;

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

use crate::json::str::{Fragment, JsonStr};

/// Standard alphabet; padding optional, as MCP servers differ on it.
const ENGINE: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Why a blob did not decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
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
                write!(f, "buffer too small for blob: {needed} bytes needed, {available} available")
            }
        }
    }
}

impl core::error::Error for Base64Error {}

/// Characters unescaped and decoded per step when a blob has escapes.
const CHUNK: usize = 256;

fn map_err(e: base64::DecodeSliceError, base: usize, needed: usize, available: usize) -> Base64Error {
    match e {
        base64::DecodeSliceError::OutputSliceTooSmall => Base64Error::BufferTooSmall { needed, available },
        base64::DecodeSliceError::DecodeError(e) => Base64Error::Invalid {
            offset: base
                + match e {
                    base64::DecodeError::InvalidByte(at, _) | base64::DecodeError::InvalidLastSymbol(at, _) => at,
                    base64::DecodeError::InvalidLength(at) => at,
                    base64::DecodeError::InvalidPadding => 0,
                },
        },
    }
}

impl JsonStr<'_> {
    /// The exact size of the decoded blob, assuming it is valid base64.
    #[must_use]
    pub fn base64_decoded_len(&self) -> usize {
        let raw = self.raw();
        if !self.is_escaped() && raw.is_ascii() {
            // One character per byte: count the `=` with memchr.
            let pad = memchr::memchr_iter(b'=', raw).count();
            return (raw.len() - pad) * 3 / 4;
        }
        let mut len = 0usize;
        let mut pad = 0usize;
        for c in self.chars() {
            len += 1;
            if c == '=' {
                pad += 1;
            }
        }
        (len - pad) * 3 / 4
    }

    /// Decodes the string as standard base64 (padding optional) into `out`
    /// and returns the number of bytes written.
    ///
    /// # Errors
    ///
    /// [`Base64Error::Invalid`] for text that is not base64 (the reference
    /// does not check blobs, so a frame can carry one);
    /// [`Base64Error::BufferTooSmall`] when `out` cannot hold the result.
    pub fn decode_base64_into(&self, out: &mut [u8]) -> Result<usize, Base64Error> {
        let needed = self.base64_decoded_len();
        let available = out.len();
        if needed > available {
            return Err(Base64Error::BufferTooSmall { needed, available });
        }
        if !self.is_escaped() {
            // The raw text is the text (validated UTF-8); decode its bytes.
            return ENGINE.decode_slice(self.raw(), out).map_err(|e| map_err(e, 0, needed, available));
        }
        // Escaped text: unescape a chunk at a time (a multiple of 4 characters,
        // so every chunk but the last is whole quads) and decode each.
        let mut chunk = [0u8; CHUNK];
        let mut filled = 0usize;
        let mut read = 0usize;
        let mut written = 0usize;
        let mut flush = |chunk: &[u8], read: usize, written: &mut usize| -> Result<(), Base64Error> {
            let dst = out.get_mut(*written..).unwrap_or_default();
            let n = ENGINE.decode_slice(chunk, dst).map_err(|e| map_err(e, read - chunk.len(), needed, available))?;
            *written += n;
            Ok(())
        };
        for fragment in self.fragments() {
            let mut tmp = [0u8; 4];
            let bytes = match fragment {
                Fragment::Str(s) => s.as_bytes(),
                Fragment::Char(c) => c.encode_utf8(&mut tmp).as_bytes(),
            };
            for &b in bytes {
                if let Some(slot) = chunk.get_mut(filled) {
                    *slot = b;
                }
                filled += 1;
                read += 1;
                if filled == CHUNK {
                    flush(&chunk, read, &mut written)?;
                    filled = 0;
                }
            }
        }
        flush(chunk.get(..filled).unwrap_or_default(), read, &mut written)?;
        Ok(written)
    }
}
