//! `--mcu-net`: the gateway itself on an emulated Cortex-M3, on TCP/IP.
//!
//! The firmware `net-gateway` of `examples/cortex-m` (`src/bin/net-gateway/`) runs under QEMU's
//! `lm3s6965evb` with smoltcp over the board's Ethernet MAC, reached through QEMU's user-mode
//! network, isolated: `-nic user,model=stellaris,restrict=on,…` lets the guest reach nothing but
//! the channels forwarded below, all on 127.0.0.1. This process plays everything around it, on
//! host sockets:
//!
//! * the **client** (this thread) connects in (`hostfwd` to 10.0.2.15:7000) and sends the
//!   firmware one ask per exchange; the firmware runs the exchange (asks, retries, outcome) and
//!   reports each path and each exchange on semihosting (QEMU's stdout), which this thread
//!   checks against what the scenario expects;
//! * the **provider** (the host gateway's, unchanged) serves `/requests` on a host listener that
//!   the firmware reaches by connecting out to 10.0.2.100:7100: QEMU's
//!   `guestfwd=tcp:10.0.2.100:7100-cmd:…` starts this very program as `--pipe ADDR` for each
//!   connection, which splices its stdin/stdout (the guest's connection) onto one connection to
//!   the provider and passes each end on as a close; the provider opens each path by
//!   connecting in (`hostfwd` to 10.0.2.15:7001);
//! * the **downstream client** connects in (`hostfwd` to 10.0.2.15:7002) once per attempt, reads
//!   the resource index and the relayed bytes to the end, and checks them as the host run's
//!   client does: a clean close must carry the provider's frame byte for byte (or nothing), a
//!   reset a valid prefix of it.
//!
//! QEMU's slirp turns the guest's reset into a plain `close()` of its host socket (libslirp 4.7,
//! `tcp_input` → `tcp_close` → `closesocket`): the host sees the end of the stream either way.
//! What differs is the socket: after a clean close slirp only shuts down its sending side, after
//! a reset the socket is gone. So at the end of the stream the client writes one probe byte: on
//! a socket that is gone the host's kernel answers with a reset, which the next read reports;
//! after a clean close the byte goes to the firmware, which drops it. The firmware's report of
//! each exchange counts the resets it sent; both counts are checked against the scenario.
//!
//! Where a trial `unshare --net` works (root, `unshare` and `ip`), the whole mode (QEMU, the
//! provider, the clients) runs in a network namespace of its own with only a loopback interface,
//! so even a mistake cannot reach beyond this machine; elsewhere `restrict=on` alone keeps the
//! guest in.

use std::io::{self, BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::os::fd::AsFd;
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use diverge_frame::exchange::ask_encoder;
use diverge_frame::stream::FrameValidator;

use super::mcu::{Qemu, build_firmware, check_tools, io_err, number};
use super::{
    Checked, END_OF_RUN, MAX_RETRIES, Notes, Options, Outcome, Report, Resource, Seen, Serve,
    Tally, Want, provider, result_frame, summary, text,
};

/// The firmware and the feature that builds it.
const FIRMWARE_BIN: &str = "net-gateway";
/// The guest's ports (see the firmware's docs) and the provider's forwarded address.
const CLIENT_PORT: u16 = 7000;
const PATH_PORT: u16 = 7001;
const DOWN_PORT: u16 = 7002;
const PROVIDER_GUEST: &str = "10.0.2.100:7100";
/// Longest wait for QEMU's READY, for a report line, or for QEMU to exit.
const QEMU_WAIT: Duration = Duration::from_secs(20);
/// Longest wait for one exchange's report: the 8 MiB frame is refused at the 4 MiB cap, which
/// takes a few seconds even on a loaded machine.
const EXCHANGE_WAIT: Duration = Duration::from_secs(60);
/// Set in the environment of the program re-run inside its own network namespace.
const IN_NAMESPACE: &str = "DIVERGE_MCU_NET_NAMESPACE";
/// The firmware's ELF, handed to the program re-run in the namespace (which cannot build it:
/// the namespace has no network for cargo).
const ELF_VAR: &str = "DIVERGE_MCU_NET_ELF";

/// The scenario of `--mcu-net`: the host gateway's, at full size, and a path that stalls on
/// the first ask (the MCU's idle timeout aborts it; answered on the retry).
fn resources() -> Vec<Resource> {
    let mut table = super::resources();
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

/// `--pipe ADDR`: the program QEMU's `guestfwd=…-cmd:` starts for each connection the
/// firmware opens to the provider. Its stdin and stdout are that connection; it connects to
/// ADDR and copies both ways, each end passed on as a shutdown (the provider closing /requests
/// becomes a FIN to the firmware, and the firmware's close the provider's end of stream).
pub(super) fn pipe(addr: &str) -> ExitCode {
    match pipe_io(addr) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gateway --pipe {addr}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn pipe_io(addr: &str) -> io::Result<()> {
    let provider = TcpStream::connect(addr)?;
    provider.set_nodelay(true)?;
    // The guest's connection, unbuffered: std's stdout would hold bytes back until a newline.
    let mut guest_in = std::fs::File::from(io::stdin().as_fd().try_clone_to_owned()?);
    let mut guest_out = std::fs::File::from(io::stdout().as_fd().try_clone_to_owned()?);
    let mut to_provider = provider.try_clone()?;
    let upward = thread::spawn(move || -> io::Result<()> {
        let _ = io::copy(&mut guest_in, &mut to_provider);
        to_provider.shutdown(Shutdown::Write)
    });
    let mut from_provider = provider;
    let _ = io::copy(&mut from_provider, &mut guest_out);
    // The guest's connection is a socket: only a shutdown sends its FIN (stdin, the same
    // socket, stays open).
    let _ = socket2::SockRef::from(&io::stdout()).shutdown(Shutdown::Write);
    upward
        .join()
        .map_err(|_| io_err("the upward copy panicked"))?
}

/// Waits until QEMU has read everything the provider wrote on `path` (at most 10 s).
///
/// A reset that reaches slirp's host socket before slirp read the data in front of it reaches
/// the guest as that data and a clean close (QEMU 7.2, libslirp 4.7, Linux; about one reset in
/// ten without this wait, one in a hundred when waiting only for slirp's `accept`): the scenario's
/// abrupt end would become a truncated answer. The host's side of the connection is a line of
/// `/proc/net/tcp` (local port: QEMU's `hostfwd` port; remote: the provider's), whose
/// `rx_queue` is what slirp has not read yet; once it is empty, slirp reads the reset itself
/// and resets the guest's connection.
fn read_by_slirp(path: &TcpStream) {
    let (Ok(local), Ok(peer)) = (path.local_addr(), path.peer_addr()) else {
        return;
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        let Ok(table) = std::fs::read_to_string("/proc/net/tcp") else {
            // No such table: a fixed grace instead.
            thread::sleep(Duration::from_millis(50));
            return;
        };
        // sl local_address rem_address st tx_queue:rx_queue …, addresses as HEXIP:HEXPORT.
        let port = |field: Option<&&str>| {
            let hex = field?.rsplit_once(':')?.1;
            u16::from_str_radix(hex, 16).ok()
        };
        let unread = table.lines().skip(1).find_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let ours = port(fields.get(1)) == Some(peer.port())
                && port(fields.get(2)) == Some(local.port());
            ours.then(|| {
                let rx = fields.get(4).and_then(|q| q.split_once(':')).map(|q| q.1);
                rx.and_then(|rx| u32::from_str_radix(rx, 16).ok())
                    .unwrap_or(0)
            })
        });
        // Gone (slirp already closed it) or read to the end.
        if unread.unwrap_or(0) == 0 {
            return;
        }
        thread::sleep(Duration::from_millis(1));
    }
}

/// Whether this process can re-run itself in a network namespace of its own: not already in
/// one, and a trial namespace with its loopback brought up works (root, `unshare` and `ip`,
/// and a container that allows it).
fn namespace_possible() -> bool {
    std::env::var_os(IN_NAMESPACE).is_none()
        && Command::new("unshare")
            .args(["--net", "--", "sh", "-c", "ip link set lo up"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
}

/// Runs `--mcu-net`: builds the firmware, then runs the cases (in a network namespace of
/// their own where possible); whether every case was as expected.
pub(super) fn run(options: &Options) -> io::Result<bool> {
    let elf = match std::env::var_os(ELF_VAR) {
        Some(elf) => PathBuf::from(elf),
        None => {
            check_tools("--mcu-net")?;
            build_firmware(FIRMWARE_BIN)?
        }
    };
    if namespace_possible() {
        // The same program, the same arguments, in a new network namespace whose loopback
        // interface is brought up first: QEMU and every host socket of the run live there.
        let exe = std::env::current_exe()?;
        println!("mcu-net: re-running in a network namespace of its own (unshare --net)");
        let status = Command::new("unshare")
            .args([
                "--net",
                "--",
                "sh",
                "-c",
                "ip link set lo up && exec \"$0\" \"$@\"",
            ])
            .arg(&exe)
            .args(std::env::args_os().skip(1))
            .env(IN_NAMESPACE, "1")
            .env(ELF_VAR, &elf)
            .status()?;
        return Ok(status.success());
    }
    if std::env::var_os(IN_NAMESPACE).is_none() {
        println!(
            "mcu-net: no network namespace (needs root, unshare, ip and a system that allows \
             it): QEMU's restrict=on alone keeps the guest to its forwarded channels"
        );
    }
    run_here(options, &elf)
}

/// A free port on 127.0.0.1 for QEMU to listen on (in the namespace nobody else takes it).
fn free_port() -> io::Result<u16> {
    Ok(TcpListener::bind(("127.0.0.1", 0))?.local_addr()?.port())
}

/// QEMU, its semihosting lines and its stderr.
struct Guest {
    qemu: Option<Qemu>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
}

impl Guest {
    /// The firmware's next line on semihosting, within `wait`.
    fn line(&mut self, wait: Duration) -> io::Result<String> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(_) => Err(self.fail(&format!("no line from the firmware within {wait:?}"))),
        }
    }

    /// Kills QEMU and says why, with what it wrote on stderr.
    fn fail(&mut self, why: &str) -> io::Error {
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
}

/// Starts QEMU on `elf` with the isolated network: three channels into the guest and one out
/// of it, every host end on 127.0.0.1.
fn start_qemu(elf: &PathBuf, ports: [u16; 3], provider: SocketAddr) -> io::Result<Guest> {
    let exe = std::env::current_exe()?;
    // QEMU's option syntax: a comma inside a value is written twice.
    let exe = exe.to_string_lossy().replace(',', ",,");
    let [client, path, down] = ports;
    let nic = format!(
        "user,model=stellaris,restrict=on,\
         hostfwd=tcp:127.0.0.1:{client}-10.0.2.15:{CLIENT_PORT},\
         hostfwd=tcp:127.0.0.1:{path}-10.0.2.15:{PATH_PORT},\
         hostfwd=tcp:127.0.0.1:{down}-10.0.2.15:{DOWN_PORT},\
         guestfwd=tcp:{PROVIDER_GUEST}-cmd:{exe} --pipe {provider}"
    );
    let mut qemu = Command::new("qemu-system-arm");
    qemu.args(["-cpu", "cortex-m3", "-machine", "lm3s6965evb", "-nographic"])
        .args(["-monitor", "none", "-serial", "none"])
        .args(["-semihosting-config", "enable=on,target=native", "-kernel"])
        .arg(elf)
        .args(["-nic", &nic])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    println!("mcu-net: {qemu:?}");
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
    Ok(Guest {
        qemu: Some(child),
        lines,
        stderr,
    })
}

/// What the firmware's READY line says.
struct Ready {
    buffer: usize,
    cap: usize,
    state: usize,
}

/// READY net-gateway: ip 10.0.2.15/24, buffer N B, cap N B, idle timeout N ms, relay state N B, …
fn parse_ready(line: &str) -> Option<Ready> {
    let rest = line.strip_prefix("READY net-gateway: ")?;
    let field = |name: &str| {
        rest.split(", ")
            .find_map(|f| number(f, name).filter(|_| f.starts_with(name)))
    };
    Some(Ready {
        buffer: field("buffer")?,
        cap: field("cap")?,
        state: field("relay state")?,
    })
}

/// The outcome named in an exchange line.
fn outcome_named(name: &str) -> Outcome {
    Outcome::ALL
        .into_iter()
        .find(|o| o.name() == name)
        .unwrap_or(Outcome::Failed)
}

fn run_here(options: &Options, elf: &PathBuf) -> io::Result<bool> {
    let table: Arc<[Resource]> = resources().into();
    let localhost = SocketAddr::from(([127, 0, 0, 1], 0));
    let requests_listener = TcpListener::bind(localhost)?;
    let provider_addr = requests_listener.local_addr()?;
    let ports = [free_port()?, free_port()?, free_port()?];
    let [client_port, path_port, down_port] = ports;
    let mut guest = start_qemu(elf, ports, provider_addr)?;
    let ready = guest.line(QEMU_WAIT)?;
    println!("mcu-net: {ready}");
    let Some(Ready { buffer, cap, state }) = parse_ready(&ready) else {
        return Err(guest.fail(&format!("expected READY, got: {ready}")));
    };
    let options = Options {
        buffer,
        cap,
        ..*options
    };
    let wants: Vec<Want> = table
        .iter()
        .map(|r| r.expected(options.buffer, options.cap))
        .collect();

    let stop = Arc::new(AtomicBool::new(false));
    let path_addr = SocketAddr::from(([127, 0, 0, 1], path_port));
    let provider_thread = {
        let (table, stop) = (Arc::clone(&table), Arc::clone(&stop));
        thread::spawn(move || provider(&requests_listener, path_addr, &table, &stop, read_by_slirp))
    };
    let down_addr = SocketAddr::from(([127, 0, 0, 1], down_port));
    let downstream_thread = {
        let table = Arc::clone(&table);
        thread::spawn(move || downstream(down_addr, &table))
    };
    let mut client = TcpStream::connect(("127.0.0.1", client_port))?;
    client.set_nodelay(true)?;

    println!(
        "gateway on the MCU: client 127.0.0.1:{client_port}, provider {provider_addr} \
         (guest 10.0.2.100:7100), paths 127.0.0.1:{path_port}, downstream \
         127.0.0.1:{down_port}; buffer {} bytes, cap {} bytes, {} resources x {} rounds, at \
         most {MAX_RETRIES} retries",
        options.buffer,
        options.cap,
        table.len(),
        options.count
    );
    let mut tally = Tally::default();
    let started = Instant::now();
    for round in 1..=options.count {
        for (index, (resource, want)) in table.iter().zip(&wants).enumerate() {
            let report = exchange(&mut guest, &mut client, index, resource, options.quiet)?;
            tally.record(round, resource, want, &report, options.quiet);
        }
    }
    let elapsed = started.elapsed();

    // The end: the provider may stop at the end of /requests; the firmware closes it, tells the
    // downstream client, reports and exits.
    stop.store(true, Ordering::SeqCst);
    let mut end = END_OF_RUN.to_be_bytes().to_vec();
    end.extend_from_slice(&0u32.to_be_bytes());
    client.write_all(&end)?;
    let done = guest.line(QEMU_WAIT)?;
    println!("mcu-net: {done}");
    let Some(mut qemu) = guest.qemu.take() else {
        return Err(io_err("QEMU is gone"));
    };
    let deadline = Instant::now() + QEMU_WAIT;
    let status = loop {
        if let Some(status) = qemu.0.try_wait()? {
            break status;
        }
        if Instant::now() > deadline {
            return Err(io_err("QEMU did not exit after the run"));
        }
        thread::sleep(Duration::from_millis(10));
    };
    println!("mcu-net: QEMU exited with {status}");
    let mcu_ok = status.success() && done.starts_with("done: ");
    if !mcu_ok {
        println!("mcu-net: FAILED: the firmware ended with {status}: {done}");
    }
    let checked = downstream_thread
        .join()
        .map_err(|_| io_err("downstream panicked"))??;
    provider_thread
        .join()
        .map_err(|_| io_err("provider panicked"))??;
    let downstream_ok = summary(&options, &table, &wants, checked, &tally, elapsed, state);
    Ok(tally.unexpected == 0 && downstream_ok && mcu_ok)
}

/// Sends the client's ask for resource `index` and reads the firmware's lines up to its report
/// of the exchange.
fn exchange(
    guest: &mut Guest,
    client: &mut TcpStream,
    index: usize,
    resource: &Resource,
    quiet: bool,
) -> io::Result<Report> {
    let start = Instant::now();
    // index u32 | length u32 | the ask: kind 3, then the request JSON.
    let mut ask = vec![0u8; 8 + 1 + 16 + 6 * resource.uri.len()];
    let (head, body) = ask.split_at_mut(8);
    let n = ask_encoder(body)
        .and_then(|request| request.uri(resource.uri))
        .and_then(|request| request.finish())
        .map_err(io::Error::other)?;
    let index32 = u32::try_from(index).map_err(io::Error::other)?;
    head[..4].copy_from_slice(&index32.to_be_bytes());
    head[4..].copy_from_slice(&u32::try_from(n).map_err(io::Error::other)?.to_be_bytes());
    ask.truncate(8 + n);
    client.write_all(&ask)?;

    let mut notes = Notes::default();
    loop {
        let line = guest.line(EXCHANGE_WAIT)?;
        if let Some(path) = line.strip_prefix("path ") {
            if !quiet {
                println!("  mcu path {path}");
            }
            // path N: OUTCOME; in N B; out N B; state N B; stack N B; N ms
            let fields: Vec<&str> = path.split("; ").collect();
            if let [outcome, bytes_in, bytes_out, ..] = fields[..] {
                notes.read += number(bytes_in, "in").unwrap_or(0);
                notes.relayed += number(bytes_out, "out").unwrap_or(0);
                // The attempts reset downstream, as the host run notes them.
                if !outcome.contains(": answered") && !outcome.contains(": not served") {
                    notes.detail.push(format!(
                        "path {outcome}; reset downstream after {} B",
                        number(bytes_out, "out").unwrap_or(0)
                    ));
                }
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("exchange ") {
            // exchange N: OUTCOME; index N; asks N; reset downstream N
            let fields: Vec<&str> = rest.split("; ").collect();
            let [head, index_field, asks, resets] = fields[..] else {
                return Err(guest.fail(&format!("an exchange line I cannot read: {line}")));
            };
            let outcome = head.split_once(": ").map_or("", |(_, o)| o);
            let parsed = (
                index_field
                    .strip_prefix("index ")
                    .and_then(|v| v.parse::<usize>().ok()),
                asks.strip_prefix("asks ").and_then(|v| v.parse().ok()),
                resets
                    .strip_prefix("reset downstream ")
                    .and_then(|v| v.parse().ok()),
            );
            let (Some(got_index), Some(asks), Some(aborted)) = parsed else {
                return Err(guest.fail(&format!("an exchange line I cannot read: {line}")));
            };
            if got_index != index {
                return Err(guest.fail(&format!("the report of another exchange: {line}")));
            }
            notes.aborted = aborted;
            return Ok(Report {
                outcome: outcome_named(outcome),
                asks,
                elapsed: start.elapsed(),
                notes,
            });
        }
        // Anything else is the firmware failing (FAIL …, a panic): the run cannot go on.
        return Err(guest.fail(&format!("the firmware said: {line}")));
    }
}

/// How one downstream attempt ended.
enum End {
    /// The firmware closed it cleanly.
    Clean,
    /// The firmware reset it.
    Reset,
}

/// Reads one attempt to its end; the bytes after the index, and how it ended (see the module
/// docs for the probe that tells a reset from a clean close through slirp).
fn read_attempt(conn: &mut TcpStream, got: &mut Vec<u8>) -> io::Result<End> {
    got.clear();
    match conn.read_to_end(got) {
        Ok(_) => {}
        Err(e) if e.kind() == ErrorKind::ConnectionReset => return Ok(End::Reset),
        Err(e) => return Err(e),
    }
    // The end of the stream: probe whether slirp's socket is still there.
    if let Err(e) = conn.write_all(&[0]) {
        return match e.kind() {
            ErrorKind::BrokenPipe | ErrorKind::ConnectionReset => Ok(End::Reset),
            _ => Err(e),
        };
    }
    // The kernel answers a byte sent to a closed socket with a reset at once (loopback); a few
    // reads a few milliseconds apart see it.
    for _ in 0..5 {
        match conn.read(&mut [0u8; 1]) {
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::ConnectionReset => return Ok(End::Reset),
            Err(e) => return Err(e),
        }
        match conn.write(&[0]) {
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::BrokenPipe | ErrorKind::ConnectionReset) => {
                return Ok(End::Reset);
            }
            Err(e) => return Err(e),
        }
        thread::sleep(Duration::from_millis(2));
    }
    Ok(End::Clean)
}

/// The downstream client: connects in for each attempt, reads it to its end and checks it
/// against the provider's bytes, until the firmware says the run is over.
fn downstream(addr: SocketAddr, table: &[Resource]) -> io::Result<Checked> {
    let mut checked = Checked {
        seen: vec![Seen::default(); table.len()],
        frame_bytes: 0,
        aborted_bytes: 0,
        mismatches: Vec::new(),
    };
    let mut got = Vec::new();
    loop {
        let mut conn = TcpStream::connect(addr)?;
        conn.set_read_timeout(Some(Duration::from_secs(300)))?;
        let mut head = [0u8; 4];
        if let Err(e) = conn.read_exact(&mut head) {
            let m = format!("an attempt that ended before naming its resource ({e})");
            checked.mismatches.push(m);
            if checked.mismatches.len() > 100 {
                return Ok(checked);
            }
            thread::sleep(Duration::from_millis(10));
            continue;
        }
        let index = u32::from_be_bytes(head);
        if index == END_OF_RUN {
            return Ok(checked);
        }
        let entry = usize::try_from(index)
            .ok()
            .and_then(|i| table.get(i).zip(checked.seen.get_mut(i)));
        let Some((r, seen)) = entry else {
            checked
                .mismatches
                .push(format!("an attempt for unknown resource #{index}"));
            continue;
        };
        match read_attempt(&mut conn, &mut got)? {
            // FIN: an answer the client may use.
            End::Clean if got.is_empty() => seen.empty += 1,
            End::Clean if got == r.message => {
                seen.frames += 1;
                checked.frame_bytes += got.len() as u64;
            }
            End::Clean => checked.mismatches.push(format!(
                "{}: a clean close after {} bytes that are not the provider's frame",
                r.uri,
                got.len()
            )),
            // RST: not an answer. What came before it must still be bytes the firmware had
            // validated: a valid prefix of the frame.
            End::Reset => {
                seen.aborted += 1;
                checked.aborted_bytes += got.len() as u64;
                let prefix = r.message.starts_with(&got);
                if !prefix || FrameValidator::new().feed(&got).is_err() {
                    checked.mismatches.push(format!(
                        "{}: a reset after {} bytes that are not a valid prefix of the frame",
                        r.uri,
                        got.len()
                    ));
                }
            }
        }
    }
}
