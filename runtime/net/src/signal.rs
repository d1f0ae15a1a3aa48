//! `bt signal`: the small server two web pages meet through before they talk directly.
//!
//! Two browsers cannot open a WebRTC connection to each other until each has the other's
//! session description and network candidates, and they have no way to send those but through
//! a server both can reach. This is that server, and nothing more: once the pages' data channel
//! is open, no game packet passes through it.
//!
//! It speaks the signalling protocol of matchbox (the signalling server bevy_ggrs games use),
//! so a page of BT's and any client written for matchbox can use it:
//!
//! - a client opens a WebSocket at `ws://HOST:PORT/ROOM`; every client of one room hears of
//!   the others;
//! - the server tells a new client its id, `{"IdAssigned":"<id>"}`, and tells every client
//!   already in the room `{"NewPeer":"<id>"}` (the one told makes the offer), and
//!   `{"PeerLeft":"<id>"}` when one leaves;
//! - a client sends `{"Signal":{"receiver":"<id>","data":…}}` and the receiver gets
//!   `{"Signal":{"sender":"<id>","data":…}}`, `data` passed on as it came; `"KeepAlive"`
//!   keeps a quiet connection open.
//!
//! With a site folder ([`SignalOptions::site`]) the same port also serves that folder's files
//! over plain HTTP, so one command hosts a page made by `bt web` and its signalling, and the
//! link to give a friend is `http://HOST:PORT/?room=NAME`.
//!
//! Every connection has a thread; the limits ([`MAX_CONNECTIONS`], [`MAX_ROOM`],
//! [`MAX_MESSAGE`], [`IDLE_TIMEOUT`]) keep what one misbehaving client can hold bounded.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs;
use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::protocol::WebSocketConfig;
use tungstenite::{Message, WebSocket};

/// The port `bt signal` listens on unless told another: matchbox's own server's, so a client
/// written for it finds this one where it looks.
pub const DEFAULT_PORT: u16 = 3536;

/// Connections open at once, WebSocket or HTTP: past it a new one is answered `503` and closed.
/// Each holds a thread; a few hundred is far more than friends meeting need.
pub const MAX_CONNECTIONS: usize = 256;

/// Clients in one room: BT plays at most four, and spectators come on top; past it a client is
/// refused before its WebSocket opens.
pub const MAX_ROOM: usize = 16;

/// The largest message a client may send: a session description with its candidates is a few
/// KiB. A larger one closes that client's connection.
pub const MAX_MESSAGE: usize = 64 * 1024;

/// The largest file of the site served: a page's module with its packed assets is at most
/// some 70 MiB (`bt web` packs at most 64 MiB of assets).
pub const MAX_SITE_FILE: u64 = 128 * 1024 * 1024;

/// The longest request head (its line and headers) read before a connection is refused.
const MAX_HEAD: usize = 16 * 1024;

/// A room's longest name: rooms are words a person types into a link.
pub const MAX_ROOM_NAME: usize = 64;

/// A client silent this long is closed: matchbox's clients send `"KeepAlive"` every 10 s, and
/// BT's page does the same.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// How long a connection's thread waits for the client before it passes on what others sent it:
/// short enough that signalling feels instant, long enough that an idle client costs nothing.
const POLL: Duration = Duration::from_millis(20);

/// Time a client has to send its request head, and to take a write, before it is dropped.
const IO_TIMEOUT: Duration = Duration::from_secs(10);

/// Where and what the server serves.
#[derive(Debug, Clone)]
pub struct SignalOptions {
    /// The address and port to listen on (`0.0.0.0:3536`: every network of this machine).
    pub listen: SocketAddr,
    /// A folder whose files are served over HTTP on the same port (a page made by `bt web`),
    /// or none: then only the WebSocket rooms are served.
    pub site: Option<PathBuf>,
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SignalError {
    /// The address could not be listened on (in use, or not this machine's).
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address asked for.
        addr: SocketAddr,
        /// What the system said.
        source: io::Error,
    },
    /// The site folder is not a folder that can be read.
    #[error("the site folder {path} cannot be served: {reason}")]
    Site {
        /// The folder named.
        path: PathBuf,
        /// Why not.
        reason: String,
    },
}

/// A signalling server bound to its port, not yet serving ([`SignalServer::serve`] or
/// [`SignalServer::spawn`]).
pub struct SignalServer {
    listener: TcpListener,
    shared: Arc<Shared>,
}

/// What every connection's thread shares.
struct Shared {
    rooms: Mutex<HashMap<String, Vec<Member>>>,
    site: Option<PathBuf>,
    connections: AtomicUsize,
    next_id: AtomicUsize,
    /// Salt for the ids: two runs of the server hand out different ids.
    salt: u64,
    stop: AtomicBool,
    /// Where joins and leaves are told (standard output for `bt signal`).
    log: Mutex<Box<dyn Write + Send>>,
}

/// One client of a room: its id and the way to hand it a message.
struct Member {
    id: String,
    to: Sender<String>,
}

/// A server running on a thread of its own ([`SignalServer::spawn`]); [`Self::stop`] ends it.
pub struct SignalHandle {
    addr: SocketAddr,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl SignalServer {
    /// Binds the server's port and checks its site folder.
    ///
    /// # Errors
    /// [`SignalError::Listen`] when the address cannot be listened on, [`SignalError::Site`]
    /// when the site folder is missing or not a folder.
    pub fn bind(options: &SignalOptions) -> Result<SignalServer, SignalError> {
        if let Some(site) = &options.site {
            match fs::metadata(site) {
                Ok(meta) if meta.is_dir() => {}
                Ok(_) => {
                    return Err(SignalError::Site {
                        path: site.clone(),
                        reason: "it is not a folder".into(),
                    })
                }
                Err(e) => {
                    return Err(SignalError::Site {
                        path: site.clone(),
                        reason: e.to_string(),
                    })
                }
            }
        }
        let listener = TcpListener::bind(options.listen).map_err(|source| SignalError::Listen {
            addr: options.listen,
            source,
        })?;
        Ok(SignalServer {
            listener,
            shared: Arc::new(Shared {
                rooms: Mutex::new(HashMap::new()),
                site: options.site.clone(),
                connections: AtomicUsize::new(0),
                next_id: AtomicUsize::new(0),
                salt: salt(),
                stop: AtomicBool::new(false),
                log: Mutex::new(Box::new(io::sink())),
            }),
        })
    }

    /// Tells each client's arrival and departure to `log`, a line each.
    pub fn log_to(self, log: Box<dyn Write + Send>) -> SignalServer {
        *lock(&self.shared.log) = log;
        self
    }

    /// The address the server listens on (with the port the system chose for port 0).
    ///
    /// # Errors
    /// When the system cannot say (it always can for a bound socket).
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until the process ends, a thread for each connection.
    pub fn serve(self) {
        accept_loop(&self.listener, &self.shared);
    }

    /// Serves on a thread of its own, until [`SignalHandle::stop`].
    ///
    /// # Errors
    /// When the listening address cannot be read back.
    pub fn spawn(self) -> io::Result<SignalHandle> {
        let addr = self.listener.local_addr()?;
        let shared = Arc::clone(&self.shared);
        let thread = thread::Builder::new()
            .name("bt-signal".into())
            .spawn(move || accept_loop(&self.listener, &self.shared))?;
        Ok(SignalHandle {
            addr,
            shared,
            thread: Some(thread),
        })
    }
}

impl SignalHandle {
    /// The address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Clients connected now, in every room.
    pub fn clients(&self) -> usize {
        lock(&self.shared.rooms).values().map(Vec::len).sum()
    }

    /// Stops taking connections and waits for the accepting thread; connections open now end
    /// within the 20 ms a connection waits for its client.
    pub fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        // The accepting thread waits in `accept`: a connection of our own wakes it.
        let _ = TcpStream::connect_timeout(&wake_addr(self.addr), IO_TIMEOUT);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for SignalHandle {
    fn drop(&mut self) {
        self.halt();
    }
}

/// The address that reaches a server listening on `addr` from this machine.
fn wake_addr(addr: SocketAddr) -> SocketAddr {
    let mut to = addr;
    if to.ip().is_unspecified() {
        to.set_ip(match addr {
            SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        });
    }
    to
}

/// A poisoned lock is still the server's state: a thread that panicked left it whole (no
/// update spans two statements), so the others carry on with it.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Bits that differ between two runs of the server: the ids it hands out are not guessable
/// from one run to the next (they name clients, they are no secret).
fn salt() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

fn accept_loop(listener: &TcpListener, shared: &Arc<Shared>) {
    for stream in listener.incoming() {
        if shared.stop.load(Ordering::SeqCst) {
            return;
        }
        let Ok(stream) = stream else { continue };
        if shared.connections.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            shared.connections.fetch_sub(1, Ordering::SeqCst);
            let _ = respond(&stream, "503 Service Unavailable", "text/plain", b"busy\n");
            continue;
        }
        let mine = Arc::clone(shared);
        let spawned = thread::Builder::new()
            .name("bt-signal-client".into())
            .spawn(move || {
                let _ = connection(stream, &mine);
                mine.connections.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            // No thread to be had: the connection was dropped with the closure.
            shared.connections.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// A request's head: its line and headers, as read.
struct Head {
    method: String,
    path: String,
    upgrade: bool,
    bytes: Vec<u8>,
}

/// Reads the request head, up to the blank line, or `None` for a client that sent none.
fn read_head(stream: &mut TcpStream) -> io::Result<Option<Head>> {
    let mut bytes = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    let end = loop {
        if let Some(at) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        if bytes.len() > MAX_HEAD {
            return Ok(None);
        }
        let n = stream.read(&mut chunk)?;
        if n == 0 {
            return Ok(None);
        }
        bytes.extend_from_slice(&chunk[..n]);
    };
    let text = String::from_utf8_lossy(&bytes[..end]);
    let mut lines = text.split("\r\n");
    let mut first = lines.next().unwrap_or("").split(' ');
    let method = first.next().unwrap_or("").to_string();
    let path = first.next().unwrap_or("").to_string();
    let upgrade = lines.any(|line| {
        line.split_once(':').is_some_and(|(name, value)| {
            name.trim().eq_ignore_ascii_case("upgrade")
                && value.trim().eq_ignore_ascii_case("websocket")
        })
    });
    Ok(Some(Head {
        method,
        path,
        upgrade,
        bytes,
    }))
}

fn connection(mut stream: TcpStream, shared: &Shared) -> io::Result<()> {
    stream.set_read_timeout(Some(IO_TIMEOUT))?;
    stream.set_write_timeout(Some(IO_TIMEOUT))?;
    let Some(head) = read_head(&mut stream)? else {
        return Ok(());
    };
    let (path, _query) = head.path.split_once('?').unwrap_or((&head.path, ""));
    if head.upgrade {
        let Some(room) = room_name(path) else {
            return respond(&stream, "400 Bad Request", "text/plain", b"bad room name\n");
        };
        return client(stream, head.bytes, room, shared);
    }
    if head.method != "GET" && head.method != "HEAD" {
        return respond(&stream, "405 Method Not Allowed", "text/plain", b"");
    }
    let body_too = head.method == "GET";
    match &shared.site {
        Some(site) => serve_file(&stream, site, path, body_too),
        None if path == "/" => {
            let text = b"bt signal: open a WebSocket at /ROOM to meet the other clients of ROOM\n";
            respond_with(&stream, "200 OK", "text/plain", text, body_too)
        }
        None => respond(&stream, "404 Not Found", "text/plain", b"not found\n"),
    }
}

/// The room a WebSocket's path names: the path without its `/`, percent-decoded, at most
/// [`MAX_ROOM_NAME`] bytes of printable text (`/` alone is the room named "").
fn room_name(path: &str) -> Option<String> {
    let name = percent_decode(path.strip_prefix('/')?)?;
    (name.len() <= MAX_ROOM_NAME && name.chars().all(|c| !c.is_control())).then_some(name)
}

/// `%XX` escapes turned back into bytes, as UTF-8; `None` for a broken escape or text.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn respond(stream: &TcpStream, status: &str, kind: &str, body: &[u8]) -> io::Result<()> {
    respond_with(stream, status, kind, body, true)
}

fn respond_with(
    mut stream: &TcpStream,
    status: &str,
    kind: &str,
    body: &[u8],
    body_too: bool,
) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Cache-Control: no-cache\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    if body_too {
        stream.write_all(body)?;
    }
    stream.flush()?;
    let _ = stream.shutdown(Shutdown::Write);
    Ok(())
}

/// The file of `site` a URL path names: percent-decoded, `/` for `index.html`, and nothing
/// outside the folder (no `..`) or hidden (a part starting with `.`).
fn site_file(site: &Path, path: &str) -> Option<PathBuf> {
    let path = percent_decode(path)?;
    let mut file = site.to_path_buf();
    for part in Path::new(path.trim_start_matches('/')).components() {
        match part {
            Component::Normal(name) if !name.to_string_lossy().starts_with('.') => file.push(name),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    Some(file)
}

/// The `Content-Type` of a page's files, by extension (WebAssembly must be named as such for
/// a browser to compile it while it downloads).
fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn serve_file(stream: &TcpStream, site: &Path, path: &str, body_too: bool) -> io::Result<()> {
    // Through the engine's file gate: a FIFO, a device or a file past the limit is refused at
    // once, never waited on or read whole.
    let read = |file: &Path| bt_engine::config::read::read_file(file, MAX_SITE_FILE);
    match site_file(site, path).map(|file| (read(&file), file)) {
        Some((Ok(body), file)) => {
            respond_with(stream, "200 OK", content_type(&file), &body, body_too)
        }
        _ => respond(stream, "404 Not Found", "text/plain", b"not found\n"),
    }
}

/// A stream that yields the bytes already read from it first: the request head read to tell a
/// WebSocket from a page's file is read again by the WebSocket handshake.
struct Replayed {
    read: io::Cursor<Vec<u8>>,
    stream: TcpStream,
}

impl Read for Replayed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.read.read(buf)? {
            0 => self.stream.read(buf),
            n => Ok(n),
        }
    }
}

impl Write for Replayed {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.stream.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.stream.flush()
    }
}

/// One WebSocket client, from its handshake to its leaving.
fn client(stream: TcpStream, head: Vec<u8>, room: String, shared: &Shared) -> io::Result<()> {
    if lock(&shared.rooms).get(&room).map_or(0, Vec::len) >= MAX_ROOM {
        return respond(
            &stream,
            "503 Service Unavailable",
            "text/plain",
            b"room full\n",
        );
    }
    let socket = stream.try_clone()?;
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE));
    let replayed = Replayed {
        read: io::Cursor::new(head),
        stream,
    };
    let Ok(mut ws) = tungstenite::accept_with_config(replayed, Some(config)) else {
        return Ok(());
    };
    socket.set_read_timeout(Some(POLL))?;

    let (to, inbox) = mpsc::channel();
    let id = peer_id(shared);
    let joined = {
        let mut rooms = lock(&shared.rooms);
        let members = rooms.entry(room.clone()).or_default();
        if members.len() >= MAX_ROOM {
            None
        } else {
            let new_peer = json!({ "NewPeer": id }).to_string();
            for member in members.iter() {
                let _ = member.to.send(new_peer.clone());
            }
            members.push(Member { id: id.clone(), to });
            Some(members.len())
        }
    };
    let Some(count) = joined else {
        let _ = ws.close(None);
        return Ok(());
    };
    tell(
        shared,
        format_args!("{id} joined room {room:?} ({count} in it)"),
    );

    let result = talk(&mut ws, &inbox, &id, &room, shared);

    let left = {
        let mut rooms = lock(&shared.rooms);
        let members = rooms.entry(room.clone()).or_default();
        members.retain(|m| m.id != id);
        let peer_left = json!({ "PeerLeft": id }).to_string();
        for member in members.iter() {
            let _ = member.to.send(peer_left.clone());
        }
        let count = members.len();
        if count == 0 {
            rooms.remove(&room);
        }
        count
    };
    tell(
        shared,
        format_args!("{id} left room {room:?} ({left} in it)"),
    );
    let _ = socket.shutdown(Shutdown::Both);
    result
}

/// A new client's id: unique in this run, in the form of a UUID as matchbox's clients expect.
fn peer_id(shared: &Shared) -> String {
    let n = shared.next_id.fetch_add(1, Ordering::SeqCst) as u64;
    let mixed = shared.salt ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let (a, b) = (mixed, n.rotate_left(17) ^ shared.salt.rotate_left(29));
    let mut id = String::with_capacity(36);
    let _ = write!(
        id,
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        b >> 52,
        b & 0xffff_ffff_ffff
    );
    id
}

fn tell(shared: &Shared, line: std::fmt::Arguments<'_>) {
    let mut log = lock(&shared.log);
    let _ = writeln!(log, "{line}");
    let _ = log.flush();
}

/// Passes messages both ways until the client leaves, goes quiet for [`IDLE_TIMEOUT`], breaks
/// the protocol's framing or sends more than [`MAX_MESSAGE`] at once, or the server stops.
fn talk(
    ws: &mut WebSocket<Replayed>,
    inbox: &Receiver<String>,
    id: &str,
    room: &str,
    shared: &Shared,
) -> io::Result<()> {
    ws.send(Message::text(json!({ "IdAssigned": id }).to_string()))
        .map_err(io::Error::other)?;
    let mut heard = Instant::now();
    loop {
        if shared.stop.load(Ordering::SeqCst) || heard.elapsed() > IDLE_TIMEOUT {
            let _ = ws.close(None);
            return Ok(());
        }
        match ws.read() {
            Ok(Message::Text(text)) => {
                heard = Instant::now();
                pass_on(text.as_str(), id, room, shared);
            }
            Ok(Message::Close(_)) => return Ok(()),
            Ok(_) => heard = Instant::now(),
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return Ok(()),
        }
        while let Ok(message) = inbox.try_recv() {
            if ws.send(Message::text(message)).is_err() {
                return Ok(());
            }
        }
    }
}

/// One request from a client: a signal is handed to its receiver if that client is in the same
/// room; a keep-alive, and anything this protocol does not know, is dropped.
fn pass_on(text: &str, sender: &str, room: &str, shared: &Shared) {
    let Ok(request) = serde_json::from_str::<Value>(text) else {
        return;
    };
    let Some(signal) = request.get("Signal") else {
        return;
    };
    let (Some(receiver), Some(data)) = (
        signal.get("receiver").and_then(Value::as_str),
        signal.get("data"),
    ) else {
        return;
    };
    let rooms = lock(&shared.rooms);
    if let Some(member) = rooms
        .get(room)
        .and_then(|members| members.iter().find(|m| m.id == receiver))
    {
        let event = json!({ "Signal": { "sender": sender, "data": data } });
        let _ = member.to.send(event.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_room_is_the_path_without_its_slash_decoded() {
        assert_eq!(room_name("/snake").as_deref(), Some("snake"));
        assert_eq!(room_name("/").as_deref(), Some(""));
        assert_eq!(room_name("/two%20words").as_deref(), Some("two words"));
        assert_eq!(room_name("/bad%2"), None);
        assert_eq!(room_name(&format!("/{}", "r".repeat(65))), None);
        assert_eq!(room_name("/a%0Ab"), None);
    }

    #[test]
    fn a_site_path_never_leaves_the_folder_nor_shows_hidden_files() {
        let site = Path::new("/srv/site");
        assert_eq!(
            site_file(site, "/bt.js"),
            Some(PathBuf::from("/srv/site/bt.js"))
        );
        assert_eq!(site_file(site, "/../etc/passwd"), None);
        assert_eq!(site_file(site, "/a/%2e%2e/%2e%2e/x"), None);
        assert_eq!(site_file(site, "/.git/config"), None);
    }

    #[test]
    fn ids_differ_and_look_like_uuids() {
        let server = SignalServer::bind(&SignalOptions {
            listen: "127.0.0.1:0".parse().unwrap(),
            site: None,
        })
        .unwrap();
        let a = peer_id(&server.shared);
        let b = peer_id(&server.shared);
        assert_ne!(a, b);
        for id in [a, b] {
            let parts: Vec<usize> = id.split('-').map(str::len).collect();
            assert_eq!(parts, [8, 4, 4, 4, 12], "{id}");
        }
    }
}
