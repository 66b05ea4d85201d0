//! Numbers, where serde_json's rules are the most intricate: classification
//! (`u64` / `i64` / `f64`), its own float parse (not correctly rounded, so
//! the edge of the `f64` range is where it says it is), exponent overflow,
//! and the integer ranges of `code` (`i32`) and `ttlMs` (`i64`).
#![allow(clippy::indexing_slicing, clippy::unwrap_used, clippy::panic)]

mod common;

use common::generate::Rng;
use common::oracle::{check_frame, show};

fn numbers(rng: &mut Rng, n: usize) -> Vec<String> {
    let mut out: Vec<String> = [
        "0", "-0", "0.0", "-0.0", "1", "-1", "2147483647", "2147483648", "-2147483648", "-2147483649",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "-18446744073709551615", "-18446744073709551616",
        "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "17976931348623157e292",
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791", 
        "1e308", "1e309", "10e308", "0.1e309", "0.1e310", "1e-400", "0e400", "0.0e99999999999", "1e2147483647",
        "1e2147483648", "0e2147483648", "1e-2147483648", "1e-2147483649", "123456789012345678901234567890",
        "18446744073709551619.5", "1844674407370955161.95", "0.000000000000000000000000000000001e340",
        "-1e308", "-1e309", "1E3", "1e+3", "1e-3", "1.5", "-32002.5", "1.", "1.e3", "01", "-01", "00", "-", "1e",
        "1e+", ".5", "+1", "1.0e", "2e308", "1.8e308", "99999999999999999999e288", "9999999999999999999e289",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    for _ in 0..n {
        let mut s = String::new();
        if rng.one_in(3) {
            s.push('-');
        }
        let max = if rng.one_in(4) { 40 } else { 20 };
        let int_digits = 1 + rng.below(max);
        for i in 0..int_digits {
            let d = if i == 0 {
                1 + rng.below(9)
            } else {
                rng.below(10)
            };
            s.push(char::from(b'0' + d as u8));
        }
        if rng.one_in(2) {
            s.push('.');
            for _ in 0..1 + rng.below(25) {
                s.push(char::from(b'0' + rng.below(10) as u8));
            }
        }
        if rng.one_in(2) {
            s.push(if rng.one_in(2) { 'e' } else { 'E' });
            match rng.below(3) {
                0 => s.push('-'),
                1 => s.push('+'),
                _ => {}
            }
            let exp = match rng.below(4) {
                0 => rng.below(10),
                1 => 280 + rng.below(50),
                2 => 300 + rng.below(30),
                _ => rng.below(400),
            };
            s.push_str(&exp.to_string());
        }
        out.push(s);
    }
    out
}

#[test]
fn numbers_agree_in_every_typed_place() {
    let mut rng = Rng::new(42);
    let n = if cfg!(miri) { 10 } else { 20_000 };
    let mut accepted = 0usize;
    let nums = numbers(&mut rng, n);
    for num in &nums {
        let inputs = [
            format!("\x01{{\"code\":1,\"message\":\"m\",\"data\":{num}}}"),
            format!("\x01{{\"code\":1,\"message\":\"m\",\"data\":[{num},{{\"k\":{num}}}]}}"),
            format!("\x01{{\"code\":{num},\"message\":\"m\"}}"),
            format!("\x00{{\"contents\":[],\"ttlMs\":{num}}}"),
            format!("\x00{{\"contents\":[{{\"uri\":\"u\",\"text\":\"t\",\"n\":{num}}}]}}"),
            format!("\x00{{\"contents\":[],\"ignored\":{num}}}"),
        ];
        for input in &inputs {
            match check_frame(input.as_bytes()) {
                Ok(ok) => accepted += usize::from(ok),
                Err(e) => panic!("{e}\n  input: {}", show(input.as_bytes())),
            }
        }
    }
    eprintln!(
        "numbers: {} inputs, {accepted} accepted by both, 0 disagreements",
        nums.len() * 6
    );
}
