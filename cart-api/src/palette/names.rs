//! [`ColorNames`]: the built-in colour names plus the ones a cart adds.

use thiserror::Error;

use super::color::{Color32, ColorParseError};
use super::MAX_NAME_CHARS;

/// A table of colour names: [`Color32::NAMED`] plus the names a cart gives its own colours,
/// for reading colours out of a level file or a dialogue script (`"lava"`, `"#f80"`, `"navy"`).
///
/// BT has no global table a cart could change behind a replay's back: a cart keeps a
/// `ColorNames` of its own in its state and asks it. Names are matched ignoring ASCII case
/// and surrounding spaces, as [`Color32::named`] does; a name the cart adds hides a built-in
/// one of the same name. Looking a name up allocates nothing.
///
/// ```
/// use bt::{Color32, ColorNames};
///
/// let mut names = ColorNames::new();
/// names.set("lava", Color32::hex(0xff4400))?;
/// names.set("Navy", Color32::hex(0x223355))?; // the cart's navy, not CSS's
/// assert_eq!(names.get("LAVA"), Some(Color32::hex(0xff4400)));
/// assert_eq!(names.get("navy"), Some(Color32::hex(0x223355)));
/// assert_eq!(names.get("tomato"), Some(Color32::rgb(255, 99, 71)));
/// assert_eq!(names.parse(" lava ")?, Color32::hex(0xff4400));
/// assert_eq!(names.parse("#f80")?, Color32::rgb(255, 136, 0));
/// assert_eq!(names.remove("navy"), Some(Color32::hex(0x223355)));
/// assert_eq!(names.get("navy"), Some(Color32::rgb(0, 0, 128)));
/// assert!(names.set("", Color32::RED).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ColorNames {
    /// The cart's names, trimmed, in the order first given.
    added: Vec<(String, Color32)>,
}

/// A colour name [`ColorNames::set`] refused. It names the name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "colour name {} must be 1 to {MAX_NAME_CHARS} characters, without control characters, \
     and not begin with #",
    crate::quote::quoted(.name)
)]
pub struct ColorNameError {
    /// The name as given.
    pub name: String,
}

impl ColorNames {
    /// A table holding only the built-in names ([`Color32::NAMED`]).
    pub fn new() -> ColorNames {
        ColorNames::default()
    }

    /// Gives `color` the name `name` (surrounding spaces dropped). Setting a name again
    /// changes its colour; setting a built-in name hides the built-in colour.
    ///
    /// # Errors
    /// [`ColorNameError`] for a name that is empty once trimmed, longer than
    /// [`MAX_NAME_CHARS`] characters, holds a control character, or begins with `#`
    /// (which reads as a hex colour).
    pub fn set(&mut self, name: &str, color: Color32) -> Result<(), ColorNameError> {
        let trimmed = name.trim();
        let count = trimmed.chars().count();
        if count == 0
            || count > MAX_NAME_CHARS
            || trimmed.starts_with('#')
            || trimmed.chars().any(char::is_control)
        {
            return Err(ColorNameError {
                name: name.to_string(),
            });
        }
        match self
            .added
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(trimmed))
        {
            Some(entry) => entry.1 = color,
            None => self.added.push((trimmed.to_string(), color)),
        }
        Ok(())
    }

    /// Takes away a name the cart added and returns its colour; `None` when the cart added
    /// no such name (built-in names stay).
    pub fn remove(&mut self, name: &str) -> Option<Color32> {
        let name = name.trim();
        let i = self
            .added
            .iter()
            .position(|(n, _)| n.eq_ignore_ascii_case(name))?;
        Some(self.added.remove(i).1)
    }

    /// The colour called `name`: the cart's own first, then the built-in ones.
    pub fn get(&self, name: &str) -> Option<Color32> {
        let name = name.trim();
        self.added
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, c)| c)
            .or_else(|| Color32::named(name))
    }

    /// The names the cart added, with their colours, in the order first given.
    pub fn added(&self) -> impl Iterator<Item = (&str, Color32)> {
        self.added.iter().map(|(n, c)| (n.as_str(), *c))
    }

    /// Reads a colour as [`str::parse`] does for [`Color32`], with this table's names: a
    /// name first, then hex with or without the `#`.
    ///
    /// # Errors
    /// [`ColorParseError`] naming the text.
    pub fn parse(&self, text: &str) -> Result<Color32, ColorParseError> {
        let trimmed = text.trim();
        if !trimmed.starts_with('#') {
            if let Some(c) = self.get(trimmed) {
                return Ok(c);
            }
        }
        trimmed.parse().map_err(|_| ColorParseError {
            text: text.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_carts_names_come_before_the_built_in_ones_and_go_again() {
        let mut names = ColorNames::new();
        assert_eq!(names.get("red"), Some(Color32::RED));
        names.set(" Red ", Color32::hex(0x880000)).unwrap();
        names.set("RED", Color32::hex(0x990000)).unwrap();
        assert_eq!(names.get("red"), Some(Color32::hex(0x990000)));
        assert_eq!(
            names.added().collect::<Vec<_>>(),
            [("Red", Color32::hex(0x990000))]
        );
        assert_eq!(names.remove("tomato"), None, "built-in names stay");
        assert_eq!(names.remove(" red"), Some(Color32::hex(0x990000)));
        assert_eq!(names.get("red"), Some(Color32::RED));
        assert_eq!(names.get("lava"), None);
    }

    #[test]
    fn bad_names_are_refused_naming_the_name() {
        let mut names = ColorNames::new();
        for bad in ["", "   ", "#lava", "a\tb", &"x".repeat(MAX_NAME_CHARS + 1)] {
            assert_eq!(
                names.set(bad, Color32::RED),
                Err(ColorNameError {
                    name: bad.to_string()
                })
            );
        }
        assert_eq!(names, ColorNames::new(), "nothing was added");
        assert_eq!(
            names.set("#ff0000", Color32::RED).unwrap_err().to_string(),
            "colour name \"#ff0000\" must be 1 to 64 characters, without control characters, \
             and not begin with #"
        );
        names
            .set(&"é".repeat(MAX_NAME_CHARS), Color32::RED)
            .unwrap();
    }

    #[test]
    fn parse_reads_names_then_hex_and_names_the_text_it_cannot_read() {
        let mut names = ColorNames::new();
        names.set("bad", Color32::hex(0x123456)).unwrap();
        assert_eq!(
            names.parse("bad"),
            Ok(Color32::hex(0x123456)),
            "names first"
        );
        assert_eq!(names.parse("#bad"), Ok(Color32::hex(0xbbaadd)));
        assert_eq!(names.parse("ace"), Ok(Color32::hex(0xaaccee)));
        assert_eq!(names.parse("Cornflowerblue"), Ok(Color32::hex(0x6495ed)));
        assert_eq!(
            names.parse(" mauve").unwrap_err().text,
            " mauve",
            "the text as given"
        );
    }
}
