fn main() {
    let name = std::env::args().nth(1).unwrap();
    let all = diverge_frame_benches::inputs::all();
    let v = if name == "request" {
        diverge_frame_benches::inputs::request()
    } else if name == "varied" {
        diverge_frame_benches::inputs::varied().concat()
    } else {
        all.into_iter().find(|(n, _)| *n == name).unwrap().1
    };
    use std::io::Write;
    std::io::stdout().write_all(&v).unwrap();
}
