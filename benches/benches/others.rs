//! sonic-rs and simd-json into the borrowed structs of
//! `diverge_frame_benches::competitors`, and into the rmcp types the reference
//! decodes to (dev-dependencies: only the criterion bench builds them).
//!
//! simd-json parses in place, so its timing includes copying the input into
//! a reused buffer; it reuses its scratch `Buffers` (its fastest mode:
//! `simd_json::serde::from_slice` is `from_slice_with_buffers` with new
//! buffers each call).
//!
//! The `*_rmcp` functions return what `competitors::reference` returns; the
//! `*_rmcp_frame` / `*_rmcp_request_value` ones, the same parse, return the
//! value for the equality checks against the reference.

use diverge_frame::rmcp::OwnedFrame;
use diverge_frame_benches::competitors::{BError, BRequest, BResult, result_len};
use rmcp::ErrorData;
use rmcp::model::{ReadResourceRequestParams, ReadResourceResult};

/// sonic-rs into the borrowed structs.
#[inline]
pub fn sonic_borrowed(bytes: &[u8]) -> usize {
    let (&tag, json) = bytes.split_first().unwrap();
    match tag {
        0 => result_len(&sonic_rs::from_slice::<BResult<'_>>(json).unwrap()),
        _ => sonic_rs::from_slice::<BError<'_>>(json)
            .unwrap()
            .message
            .0
            .len(),
    }
}

/// simd-json's reusable state: the in-place copy and its scratch buffers.
pub struct Simd {
    copy: Vec<u8>,
    buffers: simd_json::Buffers,
}

impl Simd {
    pub fn new(max_len: usize) -> Self {
        Self {
            copy: Vec::with_capacity(max_len),
            buffers: simd_json::Buffers::new(max_len),
        }
    }

    /// simd-json into the borrowed structs (copying the input first).
    #[inline]
    pub fn decode(&mut self, bytes: &[u8]) -> usize {
        let (&tag, json) = bytes.split_first().unwrap();
        self.copy.clear();
        self.copy.extend_from_slice(json);
        match tag {
            0 => result_len(
                &simd_json::serde::from_slice_with_buffers::<BResult<'_>>(
                    &mut self.copy,
                    &mut self.buffers,
                )
                .unwrap(),
            ),
            _ => simd_json::serde::from_slice_with_buffers::<BError<'_>>(
                &mut self.copy,
                &mut self.buffers,
            )
            .unwrap()
            .message
            .0
            .len(),
        }
    }

    /// simd-json into the rmcp types (copying the input first), returning
    /// what `competitors::reference` returns.
    #[inline]
    pub fn rmcp(&mut self, bytes: &[u8]) -> usize {
        let (&tag, json) = bytes.split_first().unwrap();
        self.copy.clear();
        self.copy.extend_from_slice(json);
        match tag {
            0 => simd_json::serde::from_slice_with_buffers::<ReadResourceResult>(
                &mut self.copy,
                &mut self.buffers,
            )
            .unwrap()
            .contents
            .len(),
            1 => simd_json::serde::from_slice_with_buffers::<ErrorData>(
                &mut self.copy,
                &mut self.buffers,
            )
            .unwrap()
            .message
            .len(),
            t => panic!("tag {t}"),
        }
    }

    /// The value [`Self::rmcp`] decodes, or simd-json's error.
    pub fn rmcp_frame(&mut self, bytes: &[u8]) -> Result<OwnedFrame, simd_json::Error> {
        let (&tag, json) = bytes.split_first().unwrap();
        self.copy.clear();
        self.copy.extend_from_slice(json);
        let (copy, buffers) = (&mut self.copy, &mut self.buffers);
        Ok(match tag {
            0 => OwnedFrame::Result(simd_json::serde::from_slice_with_buffers(copy, buffers)?),
            1 => OwnedFrame::Error(simd_json::serde::from_slice_with_buffers(copy, buffers)?),
            t => panic!("tag {t}"),
        })
    }

    /// simd-json request into `ReadResourceRequestParams`.
    #[inline]
    pub fn rmcp_request(&mut self, bytes: &[u8]) -> usize {
        self.copy.clear();
        self.copy.extend_from_slice(bytes);
        simd_json::serde::from_slice_with_buffers::<ReadResourceRequestParams>(
            &mut self.copy,
            &mut self.buffers,
        )
        .unwrap()
        .uri
        .len()
    }

    /// The value [`Self::rmcp_request`] decodes, or simd-json's error.
    pub fn rmcp_request_value(
        &mut self,
        bytes: &[u8],
    ) -> Result<ReadResourceRequestParams, simd_json::Error> {
        self.copy.clear();
        self.copy.extend_from_slice(bytes);
        simd_json::serde::from_slice_with_buffers(&mut self.copy, &mut self.buffers)
    }

    /// simd-json for a request.
    #[inline]
    pub fn request(&mut self, bytes: &[u8]) -> usize {
        self.copy.clear();
        self.copy.extend_from_slice(bytes);
        simd_json::serde::from_slice_with_buffers::<BRequest<'_>>(&mut self.copy, &mut self.buffers)
            .unwrap()
            .uri
            .0
            .len()
    }
}

/// sonic-rs request into the borrowed struct.
#[inline]
pub fn sonic_borrowed_request(bytes: &[u8]) -> usize {
    sonic_rs::from_slice::<BRequest<'_>>(bytes)
        .unwrap()
        .uri
        .0
        .len()
}

/// sonic-rs into the rmcp types, returning what `competitors::reference`
/// returns.
#[inline]
pub fn sonic_rmcp(bytes: &[u8]) -> usize {
    let (&tag, json) = bytes.split_first().unwrap();
    match tag {
        0 => sonic_rs::from_slice::<ReadResourceResult>(json)
            .unwrap()
            .contents
            .len(),
        1 => sonic_rs::from_slice::<ErrorData>(json)
            .unwrap()
            .message
            .len(),
        t => panic!("tag {t}"),
    }
}

/// The value [`sonic_rmcp`] decodes, or sonic-rs's error.
pub fn sonic_rmcp_frame(bytes: &[u8]) -> Result<OwnedFrame, sonic_rs::Error> {
    let (&tag, json) = bytes.split_first().unwrap();
    Ok(match tag {
        0 => OwnedFrame::Result(sonic_rs::from_slice(json)?),
        1 => OwnedFrame::Error(sonic_rs::from_slice(json)?),
        t => panic!("tag {t}"),
    })
}

/// sonic-rs request into `ReadResourceRequestParams`.
#[inline]
pub fn sonic_rmcp_request(bytes: &[u8]) -> usize {
    sonic_rs::from_slice::<ReadResourceRequestParams>(bytes)
        .unwrap()
        .uri
        .len()
}

/// The value [`sonic_rmcp_request`] decodes, or sonic-rs's error.
pub fn sonic_rmcp_request_value(
    bytes: &[u8],
) -> Result<ReadResourceRequestParams, sonic_rs::Error> {
    sonic_rs::from_slice(bytes)
}
