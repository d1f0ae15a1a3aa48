//! Carts by name: the list a `bt` binary offers, and finding one in it forgivingly.
//!
//! The runtime bundles no cart. The gallery binary (`carts/gallery`) passes its list of example
//! carts to [`crate::cli::gallery`]; a cart crate's own binary offers just itself.

use bt::Cart;
use thiserror::Error;

/// A cart a binary can run, by name.
#[derive(Debug, Clone, Copy)]
pub struct CartEntry {
    /// The name used on the command line.
    pub name: &'static str,
    /// One line saying what it shows.
    pub description: &'static str,
    /// Builds a fresh instance.
    pub build: fn() -> Box<dyn Cart>,
    /// Left out of `bt list` and of the names offered in messages, though it runs by name: for
    /// carts that exist for tests. `false` for every cart a player should see.
    pub hidden: bool,
    /// The cart's asset folder (data files, maps, art it loads by path), as an absolute path
    /// known when the binary was built (`concat!(env!("CARGO_MANIFEST_DIR"), "/assets")`), or
    /// `None` for a cart that builds everything in. Loads and hot reload use it when it exists.
    pub assets: Option<&'static str>,
}

/// No cart has that name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("no cart named '{name}'{}; carts: {}", did_you_mean(.suggestion), .known.join(", "))]
pub struct UnknownCart {
    /// The name asked for (shortened and escaped when it is long or odd).
    pub name: String,
    /// The closest name, when one is close enough to be a likely typo.
    pub suggestion: Option<String>,
    /// Every name there is.
    pub known: Vec<String>,
}

fn did_you_mean(s: &Option<String>) -> String {
    s.as_ref()
        .map(|s| format!(" (did you mean '{s}'?)"))
        .unwrap_or_default()
}

/// The cart called `name` in `carts`, matched without regard to case. Hidden carts are found
/// by their exact name (any case) but never suggested or listed.
///
/// # Errors
/// [`UnknownCart`], with the closest name as a suggestion and every name there is.
pub fn find<'a>(carts: &'a [CartEntry], name: &str) -> Result<&'a CartEntry, UnknownCart> {
    if let Some(c) = carts.iter().find(|c| c.name.eq_ignore_ascii_case(name)) {
        return Ok(c);
    }
    let names = shown(carts);
    Err(UnknownCart {
        name: crate::quote::excerpt(name),
        suggestion: closest(name, &names).map(str::to_string),
        known: names.iter().map(|n| n.to_string()).collect(),
    })
}

/// The names of the carts that are not hidden, in order.
pub fn shown(carts: &[CartEntry]) -> Vec<&'static str> {
    carts.iter().filter(|c| !c.hidden).map(|c| c.name).collect()
}

/// The candidate nearest to `name` by edit distance (case ignored), when it is near enough to be
/// a typo: at most one edit in four characters, and at least one.
pub fn closest<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let wanted = name.to_ascii_lowercase();
    if wanted.len() > 64 {
        return None;
    }
    candidates
        .iter()
        .map(|c| (edit_distance(&wanted, &c.to_ascii_lowercase()), *c))
        .filter(|(d, c)| *d <= (c.len() / 4).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Nothing;
    impl Cart for Nothing {
        fn update(&mut self, _: &mut bt::Update<'_>) {}
        fn render(&self, _: &mut bt::Render<'_>) {}
    }
    fn nothing() -> Box<dyn Cart> {
        Box::new(Nothing)
    }
    const CARTS: &[CartEntry] = &[
        CartEntry {
            name: "hello",
            description: "",
            build: nothing,
            hidden: false,
            assets: None,
        },
        CartEntry {
            name: "snake",
            description: "",
            build: nothing,
            hidden: false,
            assets: None,
        },
    ];

    #[test]
    fn names_match_without_regard_to_case() {
        assert_eq!(find(CARTS, "Snake").unwrap().name, "snake");
        assert_eq!(find(CARTS, "HELLO").unwrap().name, "hello");
    }

    #[test]
    fn a_typo_gets_a_suggestion_and_the_list() {
        let err = find(CARTS, "helo").unwrap_err();
        assert_eq!(
            err.to_string(),
            "no cart named 'helo' (did you mean 'hello'?); carts: hello, snake"
        );
        assert_eq!(
            find(CARTS, "snak").unwrap_err().suggestion.as_deref(),
            Some("snake")
        );
    }

    #[test]
    fn a_hidden_cart_runs_by_name_but_is_never_offered() {
        const WITH_HIDDEN: &[CartEntry] = &[
            CartEntry {
                name: "hello",
                description: "",
                build: nothing,
                hidden: false,
                assets: None,
            },
            CartEntry {
                name: "panic",
                description: "",
                build: nothing,
                hidden: true,
                assets: None,
            },
        ];
        assert_eq!(find(WITH_HIDDEN, "PANIC").unwrap().name, "panic");
        assert_eq!(
            find(WITH_HIDDEN, "panix").unwrap_err().to_string(),
            "no cart named 'panix'; carts: hello"
        );
        assert_eq!(shown(WITH_HIDDEN), ["hello"]);
    }

    #[test]
    fn a_distant_name_gets_no_suggestion() {
        let err = find(CARTS, "tetris").unwrap_err();
        assert_eq!(
            err.to_string(),
            "no cart named 'tetris'; carts: hello, snake"
        );
    }

    #[test]
    fn edit_distance_counts_single_edits() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }
}
