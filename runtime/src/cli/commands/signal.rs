//! `bt signal`: the server web pages meet through to play together (`bt_net::signal`).

use std::net::SocketAddr;

use bt_net::signal::{SignalOptions, SignalServer};

use crate::cli::args::SignalArgs;

/// Listens, says where, and serves until the process is stopped.
pub(super) fn signal(args: SignalArgs) -> Result<(), String> {
    let listen = SocketAddr::new(args.address, args.port);
    let server = SignalServer::bind(&SignalOptions {
        listen,
        site: args.site.clone(),
    })
    .map_err(|e| e.to_string())?
    .log_to(Box::new(std::io::stdout()));
    let bound = server.local_addr().map_err(|e| e.to_string())?;
    // What a friend types: this machine's address on its network when listening on all of them.
    let host = if bound.ip().is_unspecified() {
        bt_net::this_machine().map_or_else(|| "localhost".to_string(), |ip| ip.to_string())
    } else {
        bound.ip().to_string()
    };
    let port = bound.port();
    match &args.site {
        Some(site) => println!(
            "serving {} and its rooms on port {port}; give a friend the link http://{host}:{port}/?room=NAME (any NAME; the first two to open it play)",
            site.display()
        ),
        None => println!(
            "rooms on ws://{host}:{port}/ROOM; open a page made by bt web with ?room=NAME&signal=ws://{host}:{port}"
        ),
    }
    println!("Ctrl-C stops it");
    server.serve();
    Ok(())
}
