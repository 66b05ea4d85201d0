//! The oracle for blobs: the `base64` crate's engine as the crate's decoder
//! is specified against it.

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

/// Standard alphabet, `DecodePaddingMode::Indifferent`, no trailing bits.
pub const ENGINE: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// The engine's answer: the bytes, or the offset its `DecodeError` names
/// (the one `Base64Error::Invalid` carries; 0 for `InvalidPadding`).
pub fn oracle(text: &str) -> Result<Vec<u8>, usize> {
    ENGINE.decode(text).map_err(|e| match e {
        base64::DecodeError::InvalidByte(at, _)
        | base64::DecodeError::InvalidLastSymbol(at, _)
        | base64::DecodeError::InvalidLength(at) => at,
        base64::DecodeError::InvalidPadding => 0,
    })
}
