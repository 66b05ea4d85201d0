//! Every prefix of every vector: the reference rejects almost all of them
//! (a few prefixes of requests end on a complete value), and so must we,
//! with an error offset inside the input and no panic.
#![allow(clippy::indexing_slicing, clippy::unwrap_used, clippy::panic)]

mod common;

use common::oracle::{check_frame, check_request, show};

#[test]
fn every_prefix_of_every_vector_agrees() {
    let dir = format!("{}/tests/vectors", env!("CARGO_MANIFEST_DIR"));
    let mut prefixes = 0usize;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let is_frame = path.extension().and_then(|e| e.to_str()) == Some("bin");
        // Long vectors: every prefix near the ends, a stride in the middle.
        let len = bytes.len();
        let step = if cfg!(miri) {
            (len / 16).max(1)
        } else if len > 4096 {
            7
        } else {
            1
        };
        for cut in (0..len).filter(|&c| c < 512 || c + 512 > len || c % step == 0) {
            let prefix = &bytes[..cut];
            let outcome = if is_frame {
                check_frame(prefix)
            } else {
                check_request(prefix)
            };
            if let Err(e) = outcome {
                panic!(
                    "{} cut at {cut}: {e}\n  input: {}",
                    path.display(),
                    show(prefix)
                );
            }
            prefixes += 1;
        }
    }
    assert!(prefixes > 1000);
}
