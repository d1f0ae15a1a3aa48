//! X11 errors about a window that is already gone, kept away from winit.
//!
//! When something outside BT destroys the window (a window manager, `xdotool windowclose`), the
//! presenting thread may still send an image to it before the destroy reaches the event loop.
//! The X server answers that request with `BadDrawable`. Xlib hands the error to winit's
//! process-wide error handler, which keeps it as the connection's "latest error"; winit's next
//! check of its own request (releasing the window's input context when the destroy arrives)
//! then finds that stale error and panics with "Failed to destroy input context".
//!
//! winit lets a program mark errors as handled before it stores them. BT marks exactly the
//! errors that say one of its own windows no longer exists (`BadWindow`, `BadDrawable` naming
//! that window's id), which are expected on the way out and never worth stopping for; every
//! other error reaches winit as before.

#![allow(unsafe_code)]

use std::ffi::c_void;
use std::sync::{Mutex, Once};

use winit::platform::x11::register_xlib_error_hook;
use winit::raw_window_handle::{HasWindowHandle, RawWindowHandle};
use winit::window::Window;
use x11_dl::xlib::{BadDrawable, BadWindow, XErrorEvent};

/// The X ids of the windows this process made, whose disappearance is expected. Ids are never
/// taken off: a client's ids are not handed out twice, and a window BT closed itself is as gone
/// as one closed from outside.
static OWN_WINDOWS: Mutex<Vec<u64>> = Mutex::new(Vec::new());
static HOOK: Once = Once::new();

/// Treats errors naming `window` as gone as handled from now on. Does nothing for a window
/// that is not an X11 one (Wayland, other systems).
pub fn expect_loss_of(window: &Window) {
    let Some(id) = x_id(window) else {
        return;
    };
    own_windows().push(id);
    HOOK.call_once(|| register_xlib_error_hook(Box::new(on_error)));
}

// An X id is a `c_ulong`, as wide as `u64` here but 32 bits on some targets.
#[allow(clippy::useless_conversion)]
fn x_id(window: &Window) -> Option<u64> {
    match window.window_handle().ok()?.as_raw() {
        RawWindowHandle::Xlib(handle) => Some(u64::from(handle.window)),
        RawWindowHandle::Xcb(handle) => Some(u64::from(handle.window.get())),
        _ => None,
    }
}

fn own_windows() -> std::sync::MutexGuard<'static, Vec<u64>> {
    OWN_WINDOWS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// winit's hook: `true` when the error only says one of BT's windows is gone.
#[allow(clippy::useless_conversion)]
fn on_error(_display: *mut c_void, event: *mut c_void) -> bool {
    if event.is_null() {
        return false;
    }
    // SAFETY: winit calls its hooks from Xlib's error handler with the `XErrorEvent` Xlib
    // passed it, which stays valid and unshared for the length of the call; it is only read.
    let event = unsafe { &*(event as *const XErrorEvent) };
    is_loss_of_own_window(
        event.error_code,
        u64::from(event.resourceid),
        &own_windows(),
    )
}

fn is_loss_of_own_window(error_code: u8, resource: u64, own: &[u64]) -> bool {
    (error_code == BadWindow || error_code == BadDrawable) && own.contains(&resource)
}

#[cfg(test)]
mod tests {
    use super::*;
    use x11_dl::xlib::BadAlloc;

    #[test]
    fn only_a_missing_window_of_ours_counts_as_handled() {
        let own = [0x40_0001, 0x40_0007];
        assert!(is_loss_of_own_window(BadDrawable, 0x40_0001, &own));
        assert!(is_loss_of_own_window(BadWindow, 0x40_0007, &own));
        // Somebody else's window, or another kind of error about ours, still reaches winit.
        assert!(!is_loss_of_own_window(BadDrawable, 0x60_0001, &own));
        assert!(!is_loss_of_own_window(BadAlloc, 0x40_0001, &own));
        assert!(!is_loss_of_own_window(BadWindow, 0x40_0001, &[]));
    }

    #[test]
    fn a_null_event_is_left_to_winit() {
        assert!(!on_error(std::ptr::null_mut(), std::ptr::null_mut()));
    }
}
