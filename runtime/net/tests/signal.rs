//! `bt signal` as clients meet it: matchbox's signalling protocol over real WebSockets on
//! 127.0.0.1, rooms kept apart, the site folder served beside them, and the limits that keep a
//! misbehaving client from holding more than its share.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use bt_net::signal::{SignalHandle, SignalOptions, SignalServer, MAX_MESSAGE, MAX_ROOM};
use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

type Client = WebSocket<MaybeTlsStream<TcpStream>>;

/// Nothing in these tests waits longer than this for a message.
const WAIT: Duration = Duration::from_secs(10);

fn server(site: Option<&std::path::Path>) -> SignalHandle {
    SignalServer::bind(&SignalOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        site: site.map(Into::into),
    })
    .unwrap()
    .spawn()
    .unwrap()
}

fn connect(addr: SocketAddr, room: &str) -> Client {
    let stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    let (ws, _) = tungstenite::client(format!("ws://{addr}/{room}"), MaybeTlsStream::Plain(stream))
        .expect("the WebSocket handshake");
    ws
}

/// The next JSON message, failing the test after [`WAIT`].
fn next(ws: &mut Client) -> Value {
    loop {
        match ws.read().expect("a message within the wait") {
            Message::Text(text) => return serde_json::from_str(text.as_str()).unwrap(),
            Message::Ping(_) | Message::Pong(_) => {}
            other => panic!("expected text, got {other:?}"),
        }
    }
}

fn send(ws: &mut Client, value: &Value) {
    ws.send(Message::text(value.to_string())).unwrap();
}

fn id_of(ws: &mut Client) -> String {
    let assigned = next(ws);
    assigned["IdAssigned"]
        .as_str()
        .unwrap_or_else(|| panic!("expected IdAssigned first, got {assigned}"))
        .to_string()
}

/// True when no message arrives within `quiet`.
fn hears_nothing(ws: &mut Client, quiet: Duration) -> bool {
    if let MaybeTlsStream::Plain(s) = ws.get_mut() {
        s.set_read_timeout(Some(quiet)).unwrap();
    }
    let heard = ws.read().is_ok();
    if let MaybeTlsStream::Plain(s) = ws.get_mut() {
        s.set_read_timeout(Some(WAIT)).unwrap();
    }
    !heard
}

fn wait_for(mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < WAIT, "the server never got there");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn two_clients_of_a_room_hear_of_each_other_and_pass_signals_through() {
    let server = server(None);
    let mut first = connect(server.addr(), "snake");
    let a = id_of(&mut first);
    let mut second = connect(server.addr(), "snake");
    let b = id_of(&mut second);
    assert_ne!(a, b);

    // The client already in the room is told, and it makes the offer.
    assert_eq!(next(&mut first), json!({ "NewPeer": b }));
    let offer = json!({ "Offer": "v=0 an offer" });
    send(
        &mut first,
        &json!({ "Signal": { "receiver": b, "data": offer } }),
    );
    assert_eq!(
        next(&mut second),
        json!({ "Signal": { "sender": a, "data": offer } })
    );
    let candidate = json!({ "IceCandidate": "{\"candidate\":\"c\"}" });
    send(
        &mut second,
        &json!({ "Signal": { "receiver": a, "data": candidate } }),
    );
    assert_eq!(
        next(&mut first),
        json!({ "Signal": { "sender": b, "data": candidate } })
    );

    // A keep-alive and a message the protocol does not know change nothing.
    send(&mut second, &json!("KeepAlive"));
    second.send(Message::text("not json")).unwrap();
    assert!(hears_nothing(&mut first, Duration::from_millis(300)));

    second.close(None).unwrap();
    assert_eq!(next(&mut first), json!({ "PeerLeft": b }));
    wait_for(|| server.clients() == 1);
}

#[test]
fn rooms_are_apart_and_a_signal_never_crosses_between_them() {
    let server = server(None);
    let mut here = connect(server.addr(), "one");
    let _ = id_of(&mut here);
    let mut there = connect(server.addr(), "two");
    let there_id = id_of(&mut there);
    assert!(hears_nothing(&mut here, Duration::from_millis(300)));

    send(
        &mut here,
        &json!({ "Signal": { "receiver": there_id, "data": { "Offer": "x" } } }),
    );
    assert!(hears_nothing(&mut there, Duration::from_millis(300)));
}

#[test]
fn a_message_over_the_limit_closes_that_client_and_the_room_goes_on() {
    let server = server(None);
    let mut good = connect(server.addr(), "r");
    let _ = id_of(&mut good);
    let mut big = connect(server.addr(), "r");
    let big_id = id_of(&mut big);
    assert_eq!(next(&mut good), json!({ "NewPeer": big_id }));

    let _ = big.send(Message::text("x".repeat(MAX_MESSAGE + 1)));
    assert_eq!(next(&mut good), json!({ "PeerLeft": big_id }));
    wait_for(|| server.clients() == 1);
}

#[test]
fn a_full_room_refuses_the_next_client_before_its_websocket_opens() {
    let server = server(None);
    let mut members: Vec<Client> = (0..MAX_ROOM)
        .map(|_| connect(server.addr(), "full"))
        .collect();
    for ws in &mut members {
        let _ = id_of(ws);
    }
    let stream = TcpStream::connect(server.addr()).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    let refused = tungstenite::client(
        format!("ws://{}/full", server.addr()),
        MaybeTlsStream::Plain(stream),
    );
    match refused {
        Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(response))) => {
            assert_eq!(response.status(), 503)
        }
        Err(e) => panic!("expected 503, got {e}"),
        Ok(_) => panic!("a client past the room's limit was let in"),
    }
    // Another room is still open.
    let mut other = connect(server.addr(), "another");
    let _ = id_of(&mut other);
}

fn get(addr: SocketAddr, path: &str) -> (String, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).unwrap();
    let split = bytes.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8(bytes[..split].to_vec()).unwrap();
    (head, bytes[split + 4..].to_vec())
}

#[test]
fn the_site_folder_is_served_on_the_same_port_and_nothing_outside_it() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    std::fs::create_dir(&site).unwrap();
    std::fs::write(site.join("index.html"), "<canvas></canvas>").unwrap();
    std::fs::write(site.join("cart.wasm"), b"\0asm").unwrap();
    std::fs::write(site.join(".hidden"), "no").unwrap();
    std::fs::write(dir.path().join("secret"), "no").unwrap();
    // A FIFO nobody writes to: served, it would hold the connection for ever.
    let fifo = site.join("pipe.js");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let server = server(Some(&site));

    let (head, body) = get(server.addr(), "/?room=r");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains("text/html"), "{head}");
    assert_eq!(body, b"<canvas></canvas>");
    let (head, body) = get(server.addr(), "/cart.wasm");
    assert!(head.contains("application/wasm"), "{head}");
    assert_eq!(body, b"\0asm");
    for path in [
        "/../secret",
        "/%2e%2e/secret",
        "/.hidden",
        "/missing.js",
        "/pipe.js",
    ] {
        let (head, _) = get(server.addr(), path);
        assert!(head.starts_with("HTTP/1.1 404"), "{path}: {head}");
    }

    // The WebSocket rooms are on the same port.
    let mut ws = connect(server.addr(), "r");
    let _ = id_of(&mut ws);
}

#[test]
fn a_missing_site_folder_is_refused_naming_it() {
    let err = SignalServer::bind(&SignalOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        site: Some("/no/such/site".into()),
    })
    .err()
    .expect("a missing folder");
    let text = err.to_string();
    assert!(text.contains("/no/such/site"), "{text}");
}
