//! winit's physical key codes to BT's [`Key`]s.

use bt::Key;
use winit::keyboard::KeyCode;

macro_rules! same_names {
    ($code:expr; $($name:ident),* $(,)?; $($winit:ident => $bt:ident),* $(,)?) => {
        match $code {
            $(KeyCode::$name => Some(Key::$name),)*
            $(KeyCode::$winit => Some(Key::$bt),)*
            _ => None,
        }
    };
}

/// The BT key for a winit key code, or `None` for keys BT does not know (media keys, F13 ...).
pub fn key_from_winit(code: KeyCode) -> Option<Key> {
    same_names!(code;
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
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bt_key_has_a_winit_code() {
        let all = [
            KeyCode::KeyW,
            KeyCode::Backquote,
            KeyCode::SuperRight,
            KeyCode::NumpadEnter,
            KeyCode::F11,
        ];
        let got: Vec<Option<Key>> = all.iter().map(|&c| key_from_winit(c)).collect();
        assert_eq!(
            got,
            [
                Some(Key::KeyW),
                Some(Key::Backquote),
                Some(Key::MetaRight),
                Some(Key::NumpadEnter),
                Some(Key::F11)
            ]
        );
        assert_eq!(key_from_winit(KeyCode::F13), None);
    }
}
