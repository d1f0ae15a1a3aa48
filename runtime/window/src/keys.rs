//! winit's physical key codes to BT's [`Key`]s.

use bt::Key;
use winit::keyboard::KeyCode;

/// Both directions from one list: winit to BT, and (for the tests) BT to winit as a match with
/// no catch-all arm, so a key added to [`Key`] and not here does not compile.
macro_rules! same_names {
    ($($name:ident),* $(,)?; $($winit:ident => $bt:ident),* $(,)?) => {
        /// The BT key for a winit key code, or `None` for keys BT does not know (media keys,
        /// F13 ...).
        pub fn key_from_winit(code: KeyCode) -> Option<Key> {
            match code {
                $(KeyCode::$name => Some(Key::$name),)*
                $(KeyCode::$winit => Some(Key::$bt),)*
                _ => None,
            }
        }

        /// The winit key code of a BT key.
        #[cfg(test)]
        fn winit_code(key: Key) -> KeyCode {
            match key {
                $(Key::$name => KeyCode::$name,)*
                $(Key::$bt => KeyCode::$winit,)*
            }
        }
    };
}

same_names!(
        KeyA, KeyB, KeyC, KeyD, KeyE, KeyF, KeyG, KeyH, KeyI, KeyJ, KeyK, KeyL, KeyM,
        KeyN, KeyO, KeyP, KeyQ, KeyR, KeyS, KeyT, KeyU, KeyV, KeyW, KeyX, KeyY, KeyZ,
        Digit0, Digit1, Digit2, Digit3, Digit4, Digit5, Digit6, Digit7, Digit8, Digit9,
        F1, F2, F3, F4, F5, F6, F7, F8, F9, F10, F11, F12,
        ArrowUp, ArrowDown, ArrowLeft, ArrowRight,
        Space, Enter, Escape, Backspace, Tab, CapsLock,
        ShiftLeft, ShiftRight, ControlLeft, ControlRight, AltLeft, AltRight,
        Minus, Equal, BracketLeft, BracketRight, Backslash, Semicolon, Quote, Backquote,
        Comma, Period, Slash,
        Insert, Delete, Home, End, PageUp, PageDown,
        Numpad0, Numpad1, Numpad2, Numpad3, Numpad4, Numpad5, Numpad6, Numpad7, Numpad8, Numpad9,
        NumpadAdd, NumpadSubtract, NumpadMultiply, NumpadDivide, NumpadDecimal, NumpadEnter;
        // winit names the keys either side of the space bar after their symbol.
        SuperLeft => MetaLeft,
        SuperRight => MetaRight,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bt_key_has_a_winit_code() {
        for &key in Key::ALL {
            assert_eq!(key_from_winit(winit_code(key)), Some(key), "{}", key.code());
        }
        assert_eq!(key_from_winit(KeyCode::SuperRight), Some(Key::MetaRight));
        assert_eq!(key_from_winit(KeyCode::F13), None);
    }
}
