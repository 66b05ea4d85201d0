//! `Frame::split` on any bytes: O(1), exact, and consistent with `decode`.
#![no_main]

use diverge_frame::{Frame, FrameError, Tag};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match Frame::split(data) {
        Ok(raw) => {
            let (&first, rest) = data.split_first().expect("split accepted no bytes");
            assert_eq!(raw.tag().byte(), first);
            assert_eq!(Tag::from_byte(first), Some(raw.tag()));
            assert_eq!(raw.as_bytes(), data);
            assert_eq!(raw.json(), rest);
            let _ = format!("{raw:?}");
            assert_eq!(
                raw.decode(),
                Frame::decode(data),
                "split().decode() != decode()"
            );
        }
        Err(FrameError::Empty) => assert!(data.is_empty()),
        Err(FrameError::UnknownTag(tag)) => {
            assert_eq!(data.first(), Some(&tag));
            assert_eq!(Tag::from_byte(tag), None);
        }
        Err(e) => panic!("split gave more than Empty or UnknownTag: {e:?}"),
    }
});
