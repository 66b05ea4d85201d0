//! The job both decoders do: six golden vectors and every value they must read in them.
//!
//! Written by hand from the vectors (`tests/vectors/`), independent of either decoder, so the
//! baseline keeps all of it: the vectors' bytes and the expected values are in every build.

/// Capacity of the one text buffer every text is unescaped into.
pub const TEXT_CAP: usize = 512;

/// A golden vector and what the job must find in it.
pub struct Vector {
    pub name: &'static str,
    pub bytes: &'static [u8],
    pub want: Want,
}

/// The values of a vector, every field of the rmcp struct it decodes to.
pub enum Want {
    /// A result frame (tag 0, then rmcp's `ReadResourceResult`).
    Result(ResultWant),
    /// An error frame (tag 1, then rmcp's `ErrorData`).
    Error(ErrorWant),
    /// Request JSON (rmcp's `ReadResourceRequestParams`).
    Request(RequestWant),
}

pub struct ResultWant {
    pub result_type: Option<&'static str>,
    pub ttl_ms: Option<u64>,
    pub cache_scope: Option<Scope>,
    /// Whether `_meta` is present.
    pub meta: bool,
    pub items: &'static [Item],
}

/// `cacheScope`, the decoders' own enums mapped to this one.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Public,
    Private,
}

pub struct Item {
    pub uri: &'static str,
    pub mime_type: Option<&'static str>,
    pub body: Body,
    /// Whether the item's `_meta` is present.
    pub meta: bool,
}

pub enum Body {
    /// Text, compared after unescaping into the text buffer.
    Text(&'static str),
    /// A blob: its base64 text is checked (standard alphabet, padding optional, no stray bits),
    /// not decoded; this is the length it decodes to.
    Blob(usize),
}

pub struct ErrorWant {
    pub code: i32,
    pub message: &'static str,
    /// Whether `data` is present.
    pub data: bool,
}

pub struct RequestWant {
    pub uri: &'static str,
    /// Whether `_meta` is present.
    pub meta: bool,
    /// Whether `inputResponses` is present.
    pub input_responses: bool,
    pub request_state: Option<&'static str>,
}

macro_rules! vector {
    ($file:literal, $want:expr) => {
        Vector {
            name: $file,
            bytes: include_bytes!(concat!("../../../../../tests/vectors/", $file)),
            want: $want,
        }
    };
}

const fn item(uri: &'static str, mime_type: &'static str, body: Body) -> Item {
    Item {
        uri,
        mime_type: Some(mime_type),
        body,
        meta: false,
    }
}

const fn items(items: &'static [Item]) -> ResultWant {
    ResultWant {
        result_type: None,
        ttl_ms: None,
        cache_scope: None,
        meta: false,
        items,
    }
}

pub static VECTORS: [Vector; 6] = [
    vector!(
        "result_small.bin",
        Want::Result(ResultWant {
            result_type: Some("complete"),
            ttl_ms: Some(0),
            cache_scope: Some(Scope::Private),
            ..items(&[item(
                "docs://getting-started",
                "text/markdown",
                Body::Text("# Getting started\n\nWelcome to this server."),
            )])
        })
    ),
    vector!(
        "result_spec_example.bin",
        Want::Result(items(&[item(
            "file:///project/src/main.rs",
            "text/x-rust",
            Body::Text("fn main() {\n    println!(\"Hello world!\");\n}"),
        )]))
    ),
    vector!(
        "result_blob.bin",
        Want::Result(items(&[item(
            "images://logo.png",
            "image/png",
            Body::Blob(2048),
        )]))
    ),
    vector!(
        "result_text_and_blob_items.bin",
        Want::Result(ResultWant {
            meta: true,
            ..items(&[
                item(
                    "reports://latest",
                    "text/plain",
                    Body::Text("Report complete."),
                ),
                item(
                    "reports://latest/data",
                    "application/octet-stream",
                    Body::Blob(1),
                ),
            ])
        })
    ),
    vector!(
        "error_not_found.bin",
        Want::Error(ErrorWant {
            code: -32602,
            message: "Resource not found",
            data: true,
        })
    ),
    vector!(
        "request_meta.json",
        Want::Request(RequestWant {
            uri: "file:///project/src/main.rs",
            meta: true,
            input_responses: false,
            request_state: None,
        })
    ),
];

/// `Err(what)` unless `ok`.
pub fn ensure(ok: bool, what: &'static str) -> Result<(), &'static str> {
    if ok { Ok(()) } else { Err(what) }
}
