//! sonic-rs and simd-json into the borrowed structs of
//! `diverge_frame_benches::competitors` (dev-dependencies: only the criterion
//! bench builds them).
//!
//! simd-json parses in place, so its timing includes copying the input into
//! a reused buffer; it reuses its scratch `Buffers` (its fastest mode).

use diverge_frame_benches::competitors::{BError, BRequest, BResult, result_len};

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
