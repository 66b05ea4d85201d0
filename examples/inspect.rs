//! Inspect a read-resource frame or request.
//!
//! ```text
//! cargo run --example inspect -- FILE        # a frame (tag byte + JSON) or a request (JSON)
//! cargo run --example inspect -- - < FILE    # the same, from stdin
//! cargo run --example inspect -- --request FILE | --frame FILE
//! ```
//!
//! Prints what the input is, every content item (uri, mime type, text length
//! and first line, blob decoded size) or the error (code, message); on bad
//! input, the error (what is wrong, naming the field where there is one, and
//! its byte offset) and an excerpt around it.
//! Exit code: 0 valid, 1 invalid, 2 usage error.

use std::io::Read;
use std::process::ExitCode;

use diverge_frame::{Body, BodyError, Frame, FrameError, JsonStr, RequestView};

fn usage(msg: &str) -> ExitCode {
    eprintln!("inspect: {msg}");
    eprintln!("usage: inspect [--frame | --request] FILE   (FILE may be - for stdin)");
    ExitCode::from(2)
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Auto,
    Frame,
    Request,
}

fn main() -> ExitCode {
    let mut kind = Kind::Auto;
    let mut path = None;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--frame" => kind = Kind::Frame,
            "--request" => kind = Kind::Request,
            "-h" | "--help" => {
                println!("usage: inspect [--frame | --request] FILE   (FILE may be - for stdin)");
                return ExitCode::SUCCESS;
            }
            _ if path.is_none() => path = Some(arg),
            _ => return usage("more than one input given"),
        }
    }
    let Some(path) = path else {
        return usage("no input given");
    };
    let bytes = if path == "-" {
        let mut buf = Vec::new();
        if let Err(e) = std::io::stdin().read_to_end(&mut buf) {
            return usage(&format!("cannot read stdin: {e}"));
        }
        buf
    } else {
        match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => return usage(&format!("cannot read {path}: {e}")),
        }
    };
    // A request is bare JSON; a frame starts with its tag byte.
    let is_request = match kind {
        Kind::Request => true,
        Kind::Frame => false,
        Kind::Auto => matches!(
            bytes.first(),
            Some(b'{' | b'[' | b' ' | b'\t' | b'\n' | b'\r')
        ),
    };
    let ok = if is_request {
        inspect_request(&bytes)
    } else {
        inspect_frame(&bytes)
    };
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Unescapes into a fixed buffer (no heap on this path), or says how long it is.
fn show(s: JsonStr<'_>) -> String {
    let mut buf = [0u8; 256];
    match s.unescape_into(&mut buf) {
        Ok(text) => format!("{text:?}"),
        Err(e) => format!("<{} bytes>", e.needed()),
    }
}

fn first_line(s: JsonStr<'_>) -> String {
    let line: String = s.chars().take_while(|&c| c != '\n').take(72).collect();
    let more = s.chars().count() > line.chars().count();
    format!("{line:?}{}", if more { " …" } else { "" })
}

fn inspect_frame(bytes: &[u8]) -> bool {
    match Frame::decode(bytes) {
        Ok(Frame::Result(r)) => {
            println!(
                "result frame: {} bytes, {} content item(s)",
                bytes.len(),
                r.contents().len()
            );
            if let Some(t) = r.result_type() {
                println!("  resultType: {}", show(t));
            }
            if let Some(ttl) = r.ttl_ms() {
                println!("  ttlMs: {ttl}");
            }
            if let Some(scope) = r.cache_scope() {
                println!("  cacheScope: {}", scope.as_str());
            }
            if let Some(meta) = r.meta() {
                println!(
                    "  _meta: {} bytes, {} key(s)",
                    meta.as_bytes().len(),
                    meta.members().count()
                );
            }
            for (i, item) in r.contents().enumerate() {
                println!("  [{i}] uri: {}", show(item.uri()));
                if let Some(m) = item.mime_type() {
                    println!("      mimeType: {}", show(m));
                }
                match item.body() {
                    Body::Text(t) => {
                        println!(
                            "      text: {} bytes, first line {}",
                            t.unescaped_len(),
                            first_line(t)
                        );
                    }
                    Body::Blob(b) => {
                        let mut out = vec![0u8; b.base64_decoded_len()];
                        match b.decode_base64_into(&mut out) {
                            Ok(n) => println!(
                                "      blob: {} base64 chars, {n} bytes decoded",
                                b.text().unescaped_len()
                            ),
                            Err(e) => println!(
                                "      blob: {} base64 chars, not valid base64: {e}",
                                b.text().unescaped_len()
                            ),
                        }
                    }
                }
                if let Some(meta) = item.meta() {
                    println!("      _meta: {} bytes", meta.as_bytes().len());
                }
            }
            true
        }
        Ok(Frame::Error(e)) => {
            println!("error frame: {} bytes", bytes.len());
            println!("  code: {}{}", e.code(), code_name(e.code()));
            println!("  message: {}", show(e.message()));
            if let Some(data) = e.data() {
                let text = String::from_utf8_lossy(data.as_bytes());
                let cut: String = text.chars().take(120).collect();
                println!(
                    "  data: {cut}{}",
                    if cut.len() < text.len() { " …" } else { "" }
                );
            }
            true
        }
        Err(FrameError::Body(e)) => {
            report("frame", bytes, e);
            false
        }
        Err(e) => {
            println!("invalid frame: {e}");
            false
        }
    }
}

fn inspect_request(bytes: &[u8]) -> bool {
    match RequestView::decode(bytes) {
        Ok(r) => {
            println!("read-resource request: {} bytes", bytes.len());
            println!("  uri: {}", show(r.uri()));
            if let Some(meta) = r.meta() {
                println!("  _meta: {}", String::from_utf8_lossy(meta.as_bytes()));
            }
            if let Some(ir) = r.input_responses() {
                println!("  inputResponses: {} key(s)", ir.members().count());
            }
            if let Some(state) = r.request_state() {
                println!("  requestState: {}", show(state));
            }
            true
        }
        Err(e) => {
            report("request", bytes, e);
            false
        }
    }
}

fn code_name(code: i32) -> &'static str {
    match code {
        -32002 => " (resource not found, legacy)",
        -32602 => " (invalid params / resource not found)",
        -32603 => " (internal error)",
        -32601 => " (method not found)",
        -32600 => " (invalid request)",
        -32700 => " (parse error)",
        _ => "",
    }
}

/// The error, its offset, and the bytes around it with a caret under the
/// spot (`BodyError::in_input`).
fn report(what: &str, bytes: &[u8], e: BodyError) {
    // The error's own words name the field, the struct expected or the
    // content item's fault, and the offset.
    println!("invalid {what}: {}", e.in_input(bytes));
}
