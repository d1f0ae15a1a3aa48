//! This machine's address as a friend on its network would reach it.

use std::net::{IpAddr, Ipv4Addr, UdpSocket};

/// The address the system would send from to the wider network (found without sending a
/// packet), or `None` on a machine with no network but its own.
pub fn this_machine() -> Option<IpAddr> {
    let probe = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)).and_then(|s| {
        // A documentation address (TEST-NET-1): connecting a UDP socket only picks a route.
        s.connect((Ipv4Addr::new(192, 0, 2, 1), 9))?;
        s.local_addr()
    });
    probe
        .ok()
        .map(|addr| addr.ip())
        .filter(|ip| !ip.is_unspecified())
}
