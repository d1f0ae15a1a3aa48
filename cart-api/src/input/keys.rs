//! Physical keys, named by where they sit on a US keyboard (the names web browsers use for key
//! codes: `KeyA`, `Digit5`, `ArrowUp`, `Backquote`), whatever the user's layout prints on them.

macro_rules! keys {
    ($($(#[$doc:meta])* $name:ident,)*) => {
        /// A physical key. The variant names double as the key codes of key-map files.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        #[allow(missing_docs)]
        pub enum Key {
            $($(#[$doc])* $name,)*
        }

        impl Key {
            /// Every key, in code order.
            pub const ALL: &'static [Key] = &[$(Key::$name,)*];

            /// The key's code, e.g. `"KeyW"` or `"ArrowLeft"`.
            pub fn code(self) -> &'static str {
                match self {
                    $(Key::$name => stringify!($name),)*
                }
            }
        }
    };
}

keys! {
    KeyA, KeyB, KeyC, KeyD, KeyE, KeyF, KeyG, KeyH, KeyI, KeyJ, KeyK, KeyL, KeyM,
    KeyN, KeyO, KeyP, KeyQ, KeyR, KeyS, KeyT, KeyU, KeyV, KeyW, KeyX, KeyY, KeyZ,
    Digit0, Digit1, Digit2, Digit3, Digit4, Digit5, Digit6, Digit7, Digit8, Digit9,
    F1, F2, F3, F4, F5, F6, F7, F8, F9, F10, F11, F12,
    ArrowUp, ArrowDown, ArrowLeft, ArrowRight,
    Space, Enter, Escape, Backspace, Tab, CapsLock,
    ShiftLeft, ShiftRight, ControlLeft, ControlRight, AltLeft, AltRight, MetaLeft, MetaRight,
    Minus, Equal, BracketLeft, BracketRight, Backslash, Semicolon, Quote, Backquote,
    Comma, Period, Slash,
    Insert, Delete, Home, End, PageUp, PageDown,
    Numpad0, Numpad1, Numpad2, Numpad3, Numpad4, Numpad5, Numpad6, Numpad7, Numpad8, Numpad9,
    NumpadAdd, NumpadSubtract, NumpadMultiply, NumpadDivide, NumpadDecimal, NumpadEnter,
}

/// How many keys BT knows.
pub const KEY_COUNT: usize = Key::ALL.len();

// Key state is kept in one `u128` bit set.
const _: () = assert!(KEY_COUNT <= 128);

impl Key {
    /// The key whose code is `code` (exact spelling, e.g. `"KeyW"`), if there is one.
    pub fn from_code(code: &str) -> Option<Key> {
        Key::ALL.iter().copied().find(|k| k.code() == code)
    }

    /// The key's bit in a 128-bit key set.
    pub(crate) fn bit(self) -> u128 {
        1u128 << (self as u8)
    }
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

impl std::str::FromStr for Key {
    type Err = UnknownKey;

    fn from_str(s: &str) -> Result<Key, UnknownKey> {
        Key::from_code(s).ok_or_else(|| UnknownKey(s.to_string()))
    }
}

/// A key code BT does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown key code '{0}' (codes look like KeyW, Digit5, ArrowUp, Space, Numpad1)")]
pub struct UnknownKey(pub String);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_are_distinct() {
        for (i, &k) in Key::ALL.iter().enumerate() {
            assert_eq!(k as usize, i);
            assert_eq!(k.code().parse::<Key>(), Ok(k));
        }
        assert_eq!(KEY_COUNT, 99);
        assert_eq!("Backquote".parse::<Key>(), Ok(Key::Backquote));
        let err = "keyw".parse::<Key>().unwrap_err();
        assert!(err.to_string().contains("'keyw'"), "{err}");
    }
}
