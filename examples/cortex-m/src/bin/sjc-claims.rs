//! What serde-json-core's `from_slice` checks, beside diverge-frame, on the Cortex-M3.
//!
//! The README's comparison says what each side of the same-job comparison checks; this firmware
//! holds every such claim against the two decoders. Each input is request JSON: serde-json-core
//! decodes it into a serde-derive mirror of rmcp's `ReadResourceRequestParams` (`uri` an
//! `EscapedStr`, unescaped with `fragments()` as in the same job, `_meta` `IgnoredAny`, other
//! members ignored), diverge-frame with `RequestView::decode`, which accepts exactly what
//! serde_json + rmcp (the reference) accepts (the library's tests; for these rows also checked
//! once on a host with serde_json 1.0.154 and a mirror of rmcp's struct). Last, the nesting depth
//! of an ignored member, with the stack each side takes for it (the stack's high-water mark, from
//! cortex-m-rt's `paint-stack`), and of `_meta`, which rmcp builds a `Value` of.
//!
//! It prints one line per claim and exits with status 0 only if every claim held:
//! `cargo run --release --bin sjc-claims --features claims`.

#![no_std]
#![no_main]

use core::fmt;
use core::ptr::{addr_of, read_volatile};

use cortex_m_rt::entry;
use cortex_m_semihosting::{debug, hprintln};
use diverge_frame::{BodyErrorKind, RequestView};
use panic_semihosting as _;
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json_core::str::{EscapedStr, EscapedStringFragment};

/// rmcp's `ReadResourceRequestParams`, the part the claims need (unknown members are ignored).
#[derive(Deserialize)]
struct Request<'a> {
    #[serde(borrow)]
    uri: EscapedStr<'a>,
    #[serde(rename = "_meta")]
    _meta: Option<IgnoredAny>,
}

/// What serde-json-core does with an input.
#[derive(Clone, Copy)]
enum Sjc {
    /// `from_slice` fails.
    Rejects,
    /// `from_slice` succeeds, and the `uri` unescapes to this text.
    Accepts(&'static [u8]),
    /// `from_slice` succeeds, but `fragments()` fails on the `uri`.
    CannotUnescape,
}

/// What diverge-frame does with it.
#[derive(Clone, Copy)]
enum Ours {
    Rejects(BodyErrorKind),
    Accepts(&'static str),
}

struct Claim {
    what: &'static str,
    input: &'static [u8],
    sjc: Sjc,
    ours: Ours,
}

use BodyErrorKind as K;

static CLAIMS: &[Claim] = &[
    Claim {
        what: "raw control character (0x01) in a string",
        input: b"{\"uri\":\"a\x01b\"}",
        sjc: Sjc::Accepts(b"a\x01b"),
        ours: Ours::Rejects(K::ControlCharacterInString),
    },
    Claim {
        what: "ignored member `tru`",
        input: br#"{"uri":"x","k":tru}"#,
        sjc: Sjc::Accepts(b"x"),
        ours: Ours::Rejects(K::InvalidLiteral),
    },
    Claim {
        what: "ignored member `01`",
        input: br#"{"uri":"x","k":01}"#,
        sjc: Sjc::Accepts(b"x"),
        ours: Ours::Rejects(K::InvalidNumber),
    },
    Claim {
        what: "ignored member of bytes that are not UTF-8 (0xff 0xfe)",
        input: b"{\"uri\":\"x\",\"k\":\xff\xfe}",
        sjc: Sjc::Accepts(b"x"),
        ours: Ours::Rejects(K::ExpectedValue),
    },
    Claim {
        what: "ignored member `[1,]` (trailing comma)",
        input: br#"{"uri":"x","k":[1,]}"#,
        sjc: Sjc::Rejects,
        ours: Ours::Rejects(K::TrailingComma),
    },
    Claim {
        // serde_json does not check the UTF-8 of a string it skips; serde-json-core does.
        what: "ignored string that is not UTF-8 (0xff)",
        input: b"{\"uri\":\"x\",\"k\":\"\xff\"}",
        sjc: Sjc::Rejects,
        ours: Ours::Accepts("x"),
    },
    Claim {
        what: "ignored string with a bad escape `\\q`",
        input: br#"{"uri":"x","k":"\q"}"#,
        sjc: Sjc::Accepts(b"x"),
        ours: Ours::Rejects(K::InvalidEscape),
    },
    Claim {
        what: "bad escape `\\q` in the uri",
        input: br#"{"uri":"a\qb"}"#,
        sjc: Sjc::CannotUnescape,
        ours: Ours::Rejects(K::InvalidEscape),
    },
    Claim {
        what: "lone surrogate `\\ud800` in the uri",
        input: br#"{"uri":"\ud800"}"#,
        sjc: Sjc::CannotUnescape,
        ours: Ours::Rejects(K::LoneSurrogate),
    },
    Claim {
        what: "valid surrogate pair `\\ud83d\\ude00` in the uri",
        input: br#"{"uri":"\ud83d\ude00"}"#,
        sjc: Sjc::CannotUnescape,
        ours: Ours::Accepts("\u{1f600}"),
    },
    Claim {
        what: "escaped key `\"\\u0075ri\"` (is \"uri\")",
        input: br#"{"\u0075ri":"x"}"#,
        sjc: Sjc::Rejects,
        ours: Ours::Accepts("x"),
    },
];

/// What `from_slice` and `fragments()` did.
enum Got {
    Rejects,
    /// Accepted; the `uri` unescaped is the first this many bytes of the text buffer.
    Accepts(usize),
    CannotUnescape,
}

fn sjc(input: &[u8], text: &mut [u8]) -> Got {
    let Ok((r, _)) = serde_json_core::from_slice::<Request<'_>>(input) else {
        return Got::Rejects;
    };
    let mut n = 0;
    for fragment in r.uri.fragments() {
        let mut utf8 = [0u8; 4];
        let piece = match fragment {
            Ok(EscapedStringFragment::NotEscaped(run)) => run.as_bytes(),
            Ok(EscapedStringFragment::Escaped(c)) => c.encode_utf8(&mut utf8).as_bytes(),
            Err(_) => return Got::CannotUnescape,
        };
        match text.get_mut(n..n + piece.len()) {
            Some(dst) => dst.copy_from_slice(piece),
            None => return Got::CannotUnescape,
        }
        n += piece.len();
    }
    Got::Accepts(n)
}

/// Whether diverge-frame does what `want` says, and what it did.
fn ours(input: &[u8], want: Ours) -> (bool, OursGot) {
    match RequestView::decode(input) {
        Ok(r) => {
            let held = matches!(want, Ours::Accepts(uri) if r.uri() == uri);
            (held, OursGot::Accepts(held))
        }
        Err(e) => (
            matches!(want, Ours::Rejects(kind) if e.kind() == kind),
            OursGot::Rejects(e.kind()),
        ),
    }
}

enum OursGot {
    /// Accepted; whether the `uri` unescaped to the expected text.
    Accepts(bool),
    Rejects(BodyErrorKind),
}

impl fmt::Display for OursGot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Accepts(true) => f.write_str("accepts, uri unescaped as expected"),
            Self::Accepts(false) => f.write_str("accepts, uri NOT unescaped as expected"),
            Self::Rejects(kind) => write!(f, "rejects ({kind})"),
        }
    }
}

impl fmt::Display for Got {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Rejects => f.write_str("rejects"),
            Self::Accepts(_) => f.write_str("accepts"),
            Self::CannotUnescape => f.write_str("accepts, but fragments() fails on the uri"),
        }
    }
}

/// Nesting depths tried (serde_json stops at 128 levels where it builds a `Value`, as for
/// `_meta`; an unknown member it skips at any depth, and so does diverge-frame).
const DEPTHS: [usize; 2] = [200, 400];

/// `{"uri":"x","k":[[…]]}` with `depth` arrays, or `{"uri":"x","_meta":{"k":[[…]]}}`.
fn nested(depth: usize, in_meta: bool, buf: &mut [u8; 1024]) -> &[u8] {
    let (head, tail): (&[u8], &[u8]) = if in_meta {
        (br#"{"uri":"x","_meta":{"k":"#, b"}}")
    } else {
        (br#"{"uri":"x","k":"#, b"}")
    };
    let len = head.len() + 2 * depth + tail.len();
    for (i, b) in buf.iter_mut().take(len).enumerate() {
        *b = if i < head.len() {
            head.get(i).copied().unwrap_or(b' ')
        } else if i < head.len() + depth {
            b'['
        } else if i < head.len() + 2 * depth {
            b']'
        } else {
            tail.get(i - head.len() - 2 * depth)
                .copied()
                .unwrap_or(b' ')
        };
    }
    buf.get(..len).unwrap_or_default()
}

unsafe extern "C" {
    static _stack_start: u32;
    static _stack_end: u32;
}

/// The stack's high-water mark so far (cortex-m-rt paints the stack before `main`).
fn stack_high_water() -> usize {
    let start = addr_of!(_stack_start) as usize;
    let mut p = addr_of!(_stack_end) as usize;
    // SAFETY: reads of the stack region, below anything in use.
    while p < start && unsafe { read_volatile(p as *const u32) } == 0xCCCC_CCCC {
        p += 4;
    }
    start - p
}

#[entry]
fn main() -> ! {
    let mut failures = 0;
    let mut text = [0u8; 64];
    hprintln!("serde-json-core 0.7.0 from_slice beside diverge-frame RequestView::decode");
    for c in CLAIMS {
        let got = sjc(c.input, &mut text);
        let sjc_held = match (&got, c.sjc) {
            (Got::Rejects, Sjc::Rejects) | (Got::CannotUnescape, Sjc::CannotUnescape) => true,
            (Got::Accepts(n), Sjc::Accepts(want)) => text.get(..*n) == Some(want),
            _ => false,
        };
        let (ours_held, ours_got) = ours(c.input, c.ours);
        let held = sjc_held && ours_held;
        if !held {
            failures += 1;
        }
        hprintln!(
            "{} {}: serde-json-core {}, diverge-frame {}",
            if held { "ok  " } else { "FAIL" },
            c.what,
            got,
            ours_got
        );
    }
    let mut buf = [0u8; 1024];
    let [shallow, deep] = DEPTHS;
    // diverge-frame first: the high-water mark only grows.
    let base = stack_high_water();
    let (held, got) = ours(nested(deep, false, &mut buf), Ours::Accepts("x"));
    let ours_used = stack_high_water() - base;
    let mut sjc_used = [0usize; 2];
    let mut sjc_held = true;
    for (depth, used) in DEPTHS.iter().zip(&mut sjc_used) {
        sjc_held &= matches!(
            sjc(nested(*depth, false, &mut buf), &mut text),
            Got::Accepts(1)
        );
        *used = stack_high_water() - base;
    }
    let per_level = (sjc_used[1] - sjc_used[0]) / (deep - shallow);
    let held = held && sjc_held && per_level > 0 && ours_used < sjc_used[0];
    if !held {
        failures += 1;
    }
    hprintln!(
        "{} unknown member nested {} / {} deep: serde-json-core {}, stack +{} / +{} B ({} B a level, no limit: ~{} levels fill 64 KiB); diverge-frame {} at {}, stack +{} B (over the rows above)",
        if held { "ok  " } else { "FAIL" },
        shallow,
        deep,
        if sjc_held { "accepts" } else { "REJECTS" },
        sjc_used[0],
        sjc_used[1],
        per_level,
        64 * 1024 / per_level.max(1),
        got,
        deep,
        ours_used
    );
    let input = nested(shallow, true, &mut buf);
    let got_sjc = sjc(input, &mut text);
    let (ours_held, got) = ours(input, Ours::Rejects(K::RecursionLimitExceeded));
    let held = matches!(got_sjc, Got::Accepts(1)) && ours_held;
    if !held {
        failures += 1;
    }
    hprintln!(
        "{} _meta nested {} deep (rmcp builds a Value: serde_json's limit is 128): serde-json-core {} (IgnoredAny), diverge-frame {}",
        if held { "ok  " } else { "FAIL" },
        shallow,
        got_sjc,
        got
    );
    if failures == 0 {
        hprintln!("PASS");
        debug::exit(debug::EXIT_SUCCESS);
    } else {
        hprintln!("FAILED: {} claim(s)", failures);
        debug::exit(debug::EXIT_FAILURE);
    }
    loop {
        cortex_m::asm::wfi();
    }
}
