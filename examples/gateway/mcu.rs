//! `--mcu`: the gateway's paths relayed by an emulated Cortex-M3 instead of the host.
//!
//! The firmware `uart-relay` of `examples/cortex-m` (`src/bin/uart-relay/`) runs under QEMU's
//! `lm3s6965evb`; its UART0 and UART1 are TCP connections to this process. For each path the
//! gateway opened, the bridge here feeds the path's bytes (after its channel) into UART0 and
//! mirrors UART1 onto the downstream connection; the firmware relays them cut-through with the
//! crate's `relay` (1 KiB chunk buffer, 512 KiB cap) and ends UART1 with a clean close or an
//! abort. The relay's end comes from the firmware's report line for the path, checked against
//! what the bridge saw and against a [`StreamPath`] replay of the bytes the firmware says it
//! read; then the gateway drives its [`Exchange`](diverge_frame::exchange::Exchange) with it
//! exactly as after a host relay.
//!
//! # The demo's serial framing
//!
//! RFC 1662 (PPP in HDLC-like framing) on both lines: `0x7E` and `0x7D` in a message are sent
//! as `0x7D, byte ^ 0x20`; the flag `0x7E` ends a message cleanly; `0x7D 0x7E` aborts it.
//!
//! ```text
//! UART0  host → MCU   'P' | the path's message, stuffed | 0x7E      upstream closed (FIN)
//!                                                      | 0x7D 0x7E  upstream reset, or the MCU
//!                                                                   aborted downstream first
//!                     ... one per path; 'Q' ends the run (the firmware exits 0).
//! UART1  MCU → host   the frame's bytes, stuffed, as relayed | 0x7E      → FIN downstream
//!                                                            | 0x7D 0x7E → RST downstream
//! semihosting (QEMU's stdout), MCU → host:
//!        READY uart-relay: buffer 1024 B, cap 524288 B, idle timeout 500 ms, relay state N B
//!        path N: OUTCOME; in N B; out N B; drained N B; state N B; stack N B   (one per path)
//!        done: N paths, N B in, N B out, 0 stray bytes; stack high-water N B
//! ```
//!
//! OUTCOME is `answered (result)`, `answered (error)`, `not served`, `unanswered (abort)`,
//! `unanswered (idle timeout 500 ms)`, `malformed (<the FrameError>)` or
//! `too large (<the TooLarge>)`. A path silent for 500 ms (QEMU's `SysTick`, which runs on the
//! host's clock) is aborted downstream by the firmware: an unanswered path.
//!
//! QEMU's UARTs pass some 0.01–0.1 MB/s (one byte per turn of its main loop), so this mode
//! scales the large cases down: a 256 KiB text and a 256 KiB blob (4× the MCU's RAM), a
//! 576 KiB text past the 512 KiB cap, a 256 KiB text that turns bad after 200 000 bytes; and
//! adds a path that stalls mid-message on the first ask.

use std::io::{self, BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use diverge_frame::Tag;
use diverge_frame::exchange::{RelayEnd, StreamPath};

use super::{
    Options, Outcome, Relayed, Resource, Serve, base64, long_text, noise, result_frame, text,
};

/// The firmware's workspace, and its binary (built with the feature of the same name).
const FIRMWARE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/cortex-m");
const FIRMWARE_BIN: &str = "uart-relay";
const TARGET: &str = "thumbv7m-none-eabi";
/// The RFC 1662 flag (a clean close) and escape (before the flag: an abort).
const FLAG: u8 = 0x7E;
const ESCAPE: u8 = 0x7D;
/// The commands between messages on UART0.
const PATH: u8 = b'P';
const QUIT: u8 = b'Q';
/// How long one path may take through the MCU, whatever happens (the largest path is
/// 576 KiB: under a minute even at 0.01 MB/s).
const PATH_LIMIT: Duration = Duration::from_secs(90);
/// Longest wait for QEMU to connect, announce READY, report a path, or exit.
const QEMU_WAIT: Duration = Duration::from_secs(20);
/// Bytes of the path read at a time: small, so that the bridge stops feeding soon after the
/// MCU gave up on a path.
const FEED_CHUNK: usize = 4096;
/// Most message bytes the bridge feeds ahead of what came out of UART1: without this window the
/// kernel's socket buffers would take the whole path at once, and after the MCU gave up on a
/// path it would have to drain all of it at the UART's pace.
const WINDOW: usize = 16 << 10;
/// Good bytes before the bad one in `docs://turns-bad`.
const GOOD_BYTES: usize = 200_000;

/// The scenario of `--mcu`: the gateway's, with its large frames scaled to QEMU's UARTs, and a
/// path that stalls on the first ask (the MCU's idle timeout aborts it; answered on the retry).
/// Takes the started MCU only so that no table of this mode exists without one.
pub(super) fn resources(_mcu: &Mcu) -> Vec<Resource> {
    let mut table = super::resources();
    for r in &mut table {
        match r.uri {
            "docs://big" => r.message = result_frame(vec![text(r.uri, long_text(256 << 10))]),
            "blob://large" => {
                // 192 KiB of bytes: a 256 KiB base64 blob.
                r.message = result_frame(vec![
                    rmcp::model::ResourceContents::blob(base64(&noise(192 << 10)), r.uri)
                        .with_mime_type("application/octet-stream"),
                ]);
            }
            // A valid frame past the 512 KiB cap.
            "docs://huge" => r.message = result_frame(vec![text(r.uri, long_text(576 << 10))]),
            "docs://turns-bad" => {
                let mut frame = result_frame(vec![text(r.uri, long_text(256 << 10))]);
                if let Some(at) = (GOOD_BYTES..frame.len()).find(|&i| frame[i].is_ascii_digit()) {
                    frame[at] = 0x01;
                }
                r.message = frame;
            }
            _ => {}
        }
    }
    table.push(Resource {
        uri: "docs://stalls",
        serve: Serve::StallOnce,
        message: result_frame(vec![text(
            "docs://stalls",
            "answered on the retry, after a path that stalled mid-message",
        )]),
        kind: Outcome::Result,
    });
    table
}

/// QEMU, killed and reaped when dropped (every failure path of the run).
pub(super) struct Qemu(pub(super) Child);

impl Drop for Qemu {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The emulated MCU and the bridge onto its UARTs.
pub(super) struct Mcu {
    qemu: Option<Qemu>,
    uart0: TcpStream,
    uart1: TcpStream,
    /// QEMU's stdout (the firmware's semihosting), a line at a time.
    lines: Receiver<String>,
    /// QEMU's stderr so far, shown when something fails.
    stderr: Arc<Mutex<String>>,
    /// The firmware's chunk buffer, cap and relay state, from its READY line.
    buffer: usize,
    cap: usize,
    state: usize,
    paths: u32,
    failed: bool,
    /// Bytes through the MCU (in, out) and the time the paths took, for the throughput.
    bytes: (usize, usize),
    busy: Duration,
}

pub(super) fn io_err(what: impl Into<String>) -> io::Error {
    io::Error::other(what.into())
}

/// Checks that the firmware can be built and run here; says what `mode` is missing otherwise.
pub(super) fn check_tools(mode: &str) -> io::Result<()> {
    let mut missing = Vec::new();
    if Command::new("qemu-system-arm")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_err()
    {
        missing.push(
            "qemu-system-arm is not installed (Debian: apt-get install qemu-system-arm)".into(),
        );
    }
    let sysroot = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    match sysroot {
        Ok(root) if root.join("lib/rustlib").join(TARGET).is_dir() => {}
        _ => missing.push(format!(
            "the {TARGET} target is not installed (rustup target add {TARGET})"
        )),
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(io_err(format!("{mode} needs: {}", missing.join("; "))))
    }
}

/// Builds the firmware `bin` (with the feature of the same name); returns its ELF.
pub(super) fn build_firmware(bin: &str) -> io::Result<PathBuf> {
    let dir = Path::new(FIRMWARE_DIR);
    let target_dir = dir.join("target");
    println!("mcu: building the {bin} firmware in {}", dir.display());
    // From the firmware's folder, so that its .cargo/config.toml (linker script) applies.
    let status = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .current_dir(dir)
        .args(["build", "--release", "--locked", "--target", TARGET])
        .args(["--features", bin, "--bin", bin])
        .arg("--target-dir")
        .arg(&target_dir)
        .status()?;
    if !status.success() {
        return Err(io_err(format!("building the firmware failed ({status})")));
    }
    Ok(target_dir.join(TARGET).join("release").join(bin))
}

/// Accepts one connection within [`QEMU_WAIT`], unless QEMU exits first.
fn accept(listener: &TcpListener, qemu: &mut Qemu, which: &str) -> io::Result<TcpStream> {
    listener.set_nonblocking(true)?;
    let deadline = Instant::now() + QEMU_WAIT;
    loop {
        match listener.accept() {
            Ok((conn, _)) => {
                conn.set_nonblocking(false)?;
                conn.set_nodelay(true)?;
                return Ok(conn);
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {}
            Err(e) => return Err(e),
        }
        if let Some(status) = qemu.0.try_wait()? {
            return Err(io_err(format!(
                "QEMU exited ({status}) before connecting {which}"
            )));
        }
        if Instant::now() > deadline {
            return Err(io_err(format!(
                "QEMU did not connect {which} within {QEMU_WAIT:?}"
            )));
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// The number before `unit` in `field` ("in 123 B" → 123).
pub(super) fn number(field: &str, name: &str) -> Option<usize> {
    field
        .strip_prefix(name)?
        .trim()
        .strip_suffix(" B")?
        .parse()
        .ok()
}

impl Mcu {
    /// Builds the firmware, starts QEMU with the UARTs on two ephemeral ports and waits for
    /// the firmware's READY.
    pub(super) fn start() -> io::Result<Self> {
        check_tools("--mcu")?;
        let elf = build_firmware(FIRMWARE_BIN)?;
        let localhost = SocketAddr::from(([127, 0, 0, 1], 0));
        let (l0, l1) = (TcpListener::bind(localhost)?, TcpListener::bind(localhost)?);
        let (p0, p1) = (l0.local_addr()?.port(), l1.local_addr()?.port());
        let mut qemu = Command::new("qemu-system-arm");
        qemu.args(["-cpu", "cortex-m3", "-machine", "lm3s6965evb", "-nographic"])
            .args(["-monitor", "none"])
            .args(["-semihosting-config", "enable=on,target=native", "-kernel"])
            .arg(&elf)
            .args([
                "-chardev",
                &format!("socket,id=u0,host=127.0.0.1,port={p0}"),
            ])
            .args(["-serial", "chardev:u0"])
            .args([
                "-chardev",
                &format!("socket,id=u1,host=127.0.0.1,port={p1}"),
            ])
            .args(["-serial", "chardev:u1"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        println!("mcu: {qemu:?}");
        let mut child = Qemu(qemu.spawn()?);
        let (stdout, stderr_pipe) = (child.0.stdout.take(), child.0.stderr.take());
        let (tx, lines) = mpsc::channel();
        if let Some(out) = stdout {
            thread::spawn(move || {
                for line in BufReader::new(out).lines() {
                    let Ok(line) = line else { return };
                    if tx.send(line).is_err() {
                        return;
                    }
                }
            });
        }
        let stderr = Arc::new(Mutex::new(String::new()));
        if let Some(mut pipe) = stderr_pipe {
            let stderr = Arc::clone(&stderr);
            thread::spawn(move || {
                let mut buf = [0u8; 512];
                while let Ok(n @ 1..) = pipe.read(&mut buf) {
                    if let Ok(mut s) = stderr.lock() {
                        s.push_str(&String::from_utf8_lossy(&buf[..n]));
                    }
                }
            });
        }
        let uart0 = accept(&l0, &mut child, "UART0")?;
        let uart1 = accept(&l1, &mut child, "UART1")?;
        let mut mcu = Self {
            qemu: Some(child),
            uart0,
            uart1,
            lines,
            stderr,
            buffer: 0,
            cap: 0,
            state: 0,
            paths: 0,
            failed: false,
            bytes: (0, 0),
            busy: Duration::ZERO,
        };
        let ready = mcu.line()?;
        println!("mcu: {ready}");
        // READY uart-relay: buffer 1024 B, cap 524288 B, idle timeout 500 ms, relay state N B
        let fields: Vec<&str> = ready
            .strip_prefix("READY uart-relay: ")
            .map(|r| r.split(", ").collect())
            .unwrap_or_default();
        match fields[..] {
            [buffer, cap, _, state] => {
                let parsed = (
                    number(buffer, "buffer"),
                    number(cap, "cap"),
                    number(state, "relay state"),
                );
                if let (Some(buffer), Some(cap), Some(state)) = parsed {
                    (mcu.buffer, mcu.cap, mcu.state) = (buffer, cap, state);
                    return Ok(mcu);
                }
                Err(mcu.fail(format!("a READY line I cannot read: {ready}")))
            }
            _ => Err(mcu.fail(format!("expected READY, got: {ready}"))),
        }
    }

    /// The gateway's options with the firmware's buffer and cap.
    pub(super) const fn options(&self, options: &Options) -> Options {
        Options {
            buffer: self.buffer,
            cap: self.cap,
            ..*options
        }
    }

    /// What the relay holds on the MCU: `size_of::<StreamPath>()` there.
    pub(super) const fn state(&self) -> usize {
        self.state
    }

    /// The firmware's next line on semihosting.
    fn line(&mut self) -> io::Result<String> {
        match self.lines.recv_timeout(QEMU_WAIT) {
            Ok(line) => Ok(line),
            Err(_) => Err(self.fail(format!("no line from the firmware within {QEMU_WAIT:?}"))),
        }
    }

    /// Kills QEMU and says why, with what QEMU wrote on stderr.
    fn fail(&mut self, why: String) -> io::Error {
        self.failed = true;
        let status = self.qemu.take().map(|mut q| {
            let status = q.0.try_wait();
            drop(q);
            status
        });
        let stderr = self
            .stderr
            .lock()
            .map(|s| s.trim().to_owned())
            .unwrap_or_default();
        io_err(format!("{why} (QEMU: {status:?}; stderr: {stderr:?})"))
    }

    /// Relays one path through the MCU: feeds `up` into UART0, mirrors UART1 onto `down`, and
    /// returns the relay's end as the firmware reports it. Downstream is left for the caller to
    /// close or reset as [`RelayEnd::downstream`] says, which the bridge checked against the
    /// end the firmware put on UART1.
    pub(super) fn relay(
        &mut self,
        up: &mut TcpStream,
        down: &mut TcpStream,
    ) -> Result<Relayed, String> {
        let result = if self.failed {
            Err(io_err("the MCU failed on an earlier path"))
        } else {
            let started = Instant::now();
            let result = self.bridge(up, down);
            self.busy += started.elapsed();
            result
        };
        result.map_err(|e| {
            // Whatever went down is not known to be a frame: the caller's drop resets it.
            let _ = socket2::SockRef::from(&*down).set_linger(Some(Duration::ZERO));
            if !self.failed {
                let _ = self.fail(String::new());
            }
            format!("mcu: {e}")
        })
    }

    fn bridge(&mut self, up: &mut TcpStream, down: &mut TcpStream) -> io::Result<Relayed> {
        self.paths += 1;
        let deadline = Instant::now() + PATH_LIMIT;
        let stop = Arc::new(AtomicBool::new(false));
        // However this returns, the feeder stops within one read of the path.
        let _stop = StopOnDrop(Arc::clone(&stop));
        // Message bytes out of UART1 so far: the feeder keeps within WINDOW of them.
        let came_out = Arc::new(AtomicUsize::new(0));
        let feeder = {
            let (mut up, mut uart0) = (up.try_clone()?, self.uart0.try_clone()?);
            let (stop, came_out) = (Arc::clone(&stop), Arc::clone(&came_out));
            thread::spawn(move || feed(&mut up, &mut uart0, &stop, &came_out, deadline))
        };

        // UART1 → downstream, unstuffed, each chunk as it comes, up to the flag or the abort.
        self.uart1
            .set_read_timeout(Some(Duration::from_millis(100)))?;
        let (mut buf, mut out) = ([0u8; 4096], Vec::new());
        let (mut forwarded, mut escaped, mut down_err) = (Vec::new(), false, None);
        let line_end = 'read: loop {
            if Instant::now() > deadline {
                return Err(self.fail(format!("path {}: no end on UART1 in time", self.paths)));
            }
            let n = match self.uart1.read(&mut buf) {
                Ok(0) => return Err(self.fail("UART1 closed: QEMU is gone".into())),
                Ok(n) => n,
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    continue;
                }
                Err(e) => return Err(self.fail(format!("UART1: {e}"))),
            };
            out.clear();
            let mut end = None;
            for (i, &byte) in buf[..n].iter().enumerate() {
                match (escaped, byte) {
                    (e, FLAG) => {
                        end = Some((!e, i + 1 < n));
                        break;
                    }
                    (false, ESCAPE) => escaped = true,
                    (true, b) => {
                        out.push(b ^ 0x20);
                        escaped = false;
                    }
                    (false, b) => out.push(b),
                }
            }
            if down_err.is_none()
                && let Err(e) = down.write_all(&out)
            {
                down_err = Some(e);
            }
            forwarded.extend_from_slice(&out);
            came_out.store(forwarded.len(), Ordering::SeqCst);
            if let Some((clean, trailing)) = end {
                if trailing {
                    return Err(self.fail("bytes on UART1 after the end of a message".into()));
                }
                break 'read clean;
            }
        };
        if !line_end {
            // The MCU aborted downstream: if upstream is still open, stop feeding it; the
            // feeder then aborts UART0, which ends the MCU's drain.
            stop.store(true, Ordering::SeqCst);
        }
        let fed = feeder
            .join()
            .map_err(|_| io_err("the UART0 feeder panicked"))??;
        if fed.end == Fed::Stopped {
            // Reset upstream: the path was refused or timed out mid-message.
            socket2::SockRef::from(&*up).set_linger(Some(Duration::ZERO))?;
            let _ = up.shutdown(Shutdown::Both);
        }

        let report = self.line()?;
        println!("  mcu {report}");
        let end = self.check(&report, &fed, &forwarded, line_end)?;
        if let Some(e) = down_err {
            return Ok(Relayed {
                end: RelayEnd::Downstream(e),
                read: fed.bytes.len(),
                forwarded: forwarded.len(),
            });
        }
        self.bytes.0 += fed.bytes.len();
        self.bytes.1 += forwarded.len();
        Ok(Relayed {
            end,
            read: fed.bytes.len(),
            forwarded: forwarded.len(),
        })
    }

    /// The relay's end from the firmware's report line, checked against what the bridge saw:
    /// the end on UART1, the bytes forwarded (a prefix of the bytes fed), the bytes the
    /// firmware read, and a [`StreamPath`] replay of those bytes with the firmware's cap.
    fn check(
        &mut self,
        report: &str,
        fed: &Feed,
        forwarded: &[u8],
        line_end_clean: bool,
    ) -> io::Result<RelayEnd<io::Error, io::Error>> {
        let wrong = |why: String| io_err(format!("{why}; report: {report}"));
        // path N: OUTCOME; in N B; out N B; drained N B; state N B; stack N B
        let want = format!("path {}: ", self.paths);
        let Some(rest) = report.strip_prefix(&want) else {
            return Err(wrong(format!("expected a report starting {want:?}")));
        };
        let mut fields: Vec<&str> = rest.rsplitn(6, "; ").collect();
        fields.reverse();
        let [outcome, bytes_in, bytes_out, _drained, state, _stack] = fields[..] else {
            return Err(wrong("a report I cannot read".into()));
        };
        let (Some(bytes_in), Some(bytes_out), Some(state)) = (
            number(bytes_in, "in"),
            number(bytes_out, "out"),
            number(state, "state"),
        ) else {
            return Err(wrong("a report I cannot read".into()));
        };
        if state != self.state {
            return Err(wrong(format!(
                "relay state {state} B, READY said {} B",
                self.state
            )));
        }
        if bytes_out != forwarded.len() {
            return Err(wrong(format!("{} B came out of UART1", forwarded.len())));
        }
        let Some(read) = fed.bytes.get(..bytes_in) else {
            return Err(wrong(format!("only {} B were fed", fed.bytes.len())));
        };
        if !read.starts_with(forwarded) {
            return Err(wrong(
                "UART1 carried bytes that are not what was fed".into(),
            ));
        }
        // What the crate's relay makes of exactly those bytes (one chunk: the cap is checked
        // before the frame, as in the firmware's last chunk).
        let mut path = StreamPath::with_cap(self.cap);
        let replay: RelayEnd = match path.push(read) {
            Err(refused) => refused.into(),
            Ok(()) if fed.end == Fed::Closed && bytes_in == fed.bytes.len() => path.close().widen(),
            // Upstream ended abruptly (`StreamPath::abort`'s end).
            Ok(()) => RelayEnd::Unanswered(()),
        };
        let (end, agrees) = match (outcome, replay) {
            ("answered (result)", RelayEnd::Answered(Tag::Result)) => {
                (RelayEnd::Answered(Tag::Result), true)
            }
            ("answered (error)", RelayEnd::Answered(Tag::Error)) => {
                (RelayEnd::Answered(Tag::Error), true)
            }
            ("not served", RelayEnd::NotServed) => (RelayEnd::NotServed, true),
            ("unanswered (abort)", RelayEnd::Unanswered(())) => match &fed.end {
                Fed::Reset(kind, what) => (
                    RelayEnd::Unanswered(io::Error::new(*kind, what.clone())),
                    true,
                ),
                _ => (RelayEnd::NotServed, false),
            },
            (timeout, RelayEnd::Unanswered(()))
                if timeout.starts_with("unanswered (idle timeout") =>
            {
                let what = timeout
                    .trim_start_matches("unanswered (")
                    .trim_end_matches(')');
                let cause = io::Error::new(ErrorKind::TimedOut, format!("{what} on the MCU"));
                (RelayEnd::Unanswered(cause), fed.end == Fed::Stopped)
            }
            (o, RelayEnd::Malformed(e)) if o == format!("malformed ({e})") => {
                (RelayEnd::Malformed(e), true)
            }
            (o, RelayEnd::TooLarge(e)) if o == format!("too large ({e})") => {
                (RelayEnd::TooLarge(e), true)
            }
            (_, replay) => {
                return Err(wrong(format!(
                    "the host's replay of the {bytes_in} B read says {replay}"
                )));
            }
        };
        if !agrees {
            return Err(wrong(format!(
                "the bridge saw upstream end as {:?}",
                fed.end
            )));
        }
        let clean = matches!(end.downstream(), diverge_frame::exchange::Downstream::Close);
        if clean != line_end_clean {
            return Err(wrong(format!(
                "UART1 ended with {}",
                if line_end_clean {
                    "the flag"
                } else {
                    "the abort"
                }
            )));
        }
        if clean && bytes_in != fed.bytes.len() {
            return Err(wrong(format!("{} B were fed", fed.bytes.len())));
        }
        Ok(end)
    }

    /// Ends the run: 'Q', the firmware's last line, and QEMU's exit status, which must be 0.
    pub(super) fn finish(&mut self) -> io::Result<()> {
        if self.failed {
            return Err(io_err("the MCU failed earlier"));
        }
        self.uart0.write_all(&[QUIT])?;
        let done = self.line()?;
        println!("mcu: {done}");
        let Some(mut qemu) = self.qemu.take() else {
            return Err(io_err("QEMU is gone"));
        };
        let deadline = Instant::now() + QEMU_WAIT;
        let status = loop {
            if let Some(status) = qemu.0.try_wait()? {
                break status;
            }
            if Instant::now() > deadline {
                return Err(self.fail("QEMU did not exit after the run".into()));
            }
            thread::sleep(Duration::from_millis(10));
        };
        let secs = self.busy.as_secs_f64();
        println!(
            "mcu: QEMU exited with {status}; {} paths, {:.3} MB fed to UART0, {:.3} MB out of \
             UART1 in {secs:.1} s of paths = {:.3} MB/s through QEMU's UARTs",
            self.paths,
            self.bytes.0 as f64 / 1e6,
            self.bytes.1 as f64 / 1e6,
            self.bytes.0 as f64 / 1e6 / secs,
        );
        if !status.success() || !done.starts_with("done: ") {
            return Err(io_err(format!("the firmware ended with {status}: {done}")));
        }
        Ok(())
    }
}

/// Sets the flag when dropped.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// How upstream ended, as the feeder saw it, and what it put on UART0.
#[derive(Debug, PartialEq, Eq)]
enum Fed {
    /// Upstream closed cleanly: the flag.
    Closed,
    /// Upstream ended abruptly: the abort.
    Reset(ErrorKind, String),
    /// The MCU ended the path first (aborted downstream): the abort; upstream to be reset.
    Stopped,
}

/// What the feeder fed.
struct Feed {
    bytes: Vec<u8>,
    end: Fed,
}

/// The path's bytes into UART0: 'P', the message stuffed, then the flag or the abort.
fn feed(
    up: &mut TcpStream,
    uart0: &mut TcpStream,
    stop: &AtomicBool,
    came_out: &AtomicUsize,
    deadline: Instant,
) -> io::Result<Feed> {
    up.set_read_timeout(Some(Duration::from_millis(50)))?;
    uart0.set_write_timeout(Some(PATH_LIMIT))?;
    uart0.write_all(&[PATH])?;
    let (mut buf, mut stuffed, mut bytes) = (vec![0u8; FEED_CHUNK], Vec::new(), Vec::new());
    let end = loop {
        if stop.load(Ordering::SeqCst) {
            break Fed::Stopped;
        }
        if Instant::now() > deadline {
            return Err(io_err("the path took too long"));
        }
        if bytes.len() > came_out.load(Ordering::SeqCst) + WINDOW {
            thread::sleep(Duration::from_millis(1));
            continue;
        }
        match up.read(&mut buf) {
            Ok(0) => break Fed::Closed,
            Ok(n) => {
                stuffed.clear();
                for &b in &buf[..n] {
                    if b == FLAG || b == ESCAPE {
                        stuffed.extend_from_slice(&[ESCAPE, b ^ 0x20]);
                    } else {
                        stuffed.push(b);
                    }
                }
                // Whole escapes only: the abort below can never follow a lone escape.
                uart0.write_all(&stuffed)?;
                bytes.extend_from_slice(&buf[..n]);
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => break Fed::Reset(e.kind(), e.to_string()),
        }
    };
    match end {
        Fed::Closed => uart0.write_all(&[FLAG])?,
        Fed::Reset(..) | Fed::Stopped => uart0.write_all(&[ESCAPE, FLAG])?,
    }
    Ok(Feed { bytes, end })
}
