//! The TOML a Pyxel resource file is written in, read into a compact tree.
//!
//! Pyxel writes `key = value` lines under `[[images]]`-style headers, its values integers and
//! arrays of them, a 256 × 256 image as 65,536 integers. A general TOML reader keeps each value
//! with its place and layout (about 150 bytes a value: 227 MB and 2.5 s for a file with every
//! bank full); here an array of integers is one `Vec<i64>`, 8 bytes a value. Read: comments,
//! bare and quoted keys, `[[name]]` headers at the top level, integers (decimal with `_`,
//! `0x`, `0o`, `0b`), arrays over any number of lines with a trailing comma, and the other
//! scalars (text, floats, booleans, dates) as a description for messages. Not read, with a
//! message saying so: `[name]` headers, dotted keys, inline tables, multi-line text.

/// A value.
#[derive(Debug, PartialEq)]
pub(super) enum Node {
    /// An integer.
    Int(i64),
    /// An array whose items are all integers (an empty array is one too).
    Ints(Vec<i64>),
    /// Any other array.
    List(Vec<Node>),
    /// A table, from a `[[name]]` header.
    Table(Table),
    /// Any other value, as a message names it (`the text "16"`, `the number 1.5`).
    Other(String),
}

/// Keys and values, in file order.
pub(super) type Table = Vec<(String, Node)>;

/// Arrays nested deeper than this are refused, so a hostile file cannot exhaust the stack.
const MAX_DEPTH: usize = 32;
/// The most memory the tree may take, counted as it is allocated: Pyxel's fullest file (every
/// image and tilemap written out) takes about 10 MB, and a small value can cost far more than
/// its text (`[],` is three bytes and a 32-byte node), so the text's own limit bounds nothing.
pub(super) const MAX_KEPT: usize = 32 << 20;
/// The most keys a table holds and `[[name]]` headers a file names: Pyxel writes six and four.
/// Each new one is compared with those before it.
const MAX_KEYS: usize = 64;

/// Reads `text`.
///
/// # Errors
///
/// `line N: what is wrong`, for text that is not TOML or uses a part this reader does not take.
pub(super) fn parse(text: &str) -> Result<Table, String> {
    let mut p = Reader {
        s: text.as_bytes(),
        i: 0,
        line: 1,
        kept: 0,
    };
    let mut root: Table = Vec::new();
    // Tables of `[[name]]` headers, by name in the order first met; later lines fill the last.
    let mut headed: Vec<(String, Vec<Table>)> = Vec::new();
    let mut current: Option<usize> = None;
    loop {
        p.skip_blank_lines();
        let Some(c) = p.peek() else { break };
        if c == b'[' {
            if !p.eat(b"[[") {
                return Err(p.err(
                    "a [table] header is not read (Pyxel writes [[images]], [[tilemaps]], \
                     [[sounds]] and [[musics]])",
                ));
            }
            p.skip_spaces();
            let name = p.key()?;
            p.skip_spaces();
            if !p.eat(b"]]") {
                return Err(p.err("']]' expected after the header's name"));
            }
            p.end_of_line()?;
            if root.iter().any(|(k, _)| *k == name) {
                return Err(p.err(&format!("'{name}' is defined twice")));
            }
            let at = match headed.iter().position(|(k, _)| *k == name) {
                Some(at) => at,
                None => {
                    if headed.len() == MAX_KEYS {
                        return Err(p.err(&format!("more than {MAX_KEYS} [[…]] names")));
                    }
                    p.keep(name.len())?;
                    p.push(&mut headed, (name, Vec::new()))?;
                    headed.len() - 1
                }
            };
            // Each table becomes a node when the file is read.
            p.keep(size_of::<Node>())?;
            p.push(&mut headed[at].1, Vec::new())?;
            current = Some(at);
            continue;
        }
        let key = p.key()?;
        p.skip_spaces();
        if p.peek() == Some(b'.') {
            return Err(p.err("a dotted key is not read"));
        }
        if !p.eat(b"=") {
            return Err(p.err(&format!("'=' expected after '{key}'")));
        }
        p.skip_spaces();
        let value = p.value(0)?;
        p.end_of_line()?;
        let table = match current {
            None => &mut root,
            Some(at) => headed[at]
                .1
                .last_mut()
                .ok_or_else(|| p.err("a key outside any table"))?,
        };
        if table.iter().any(|(k, _)| *k == key) {
            return Err(p.err(&format!("'{key}' is defined twice")));
        }
        if table.len() == MAX_KEYS {
            return Err(p.err(&format!("more than {MAX_KEYS} keys in a table")));
        }
        p.keep(key.len())?;
        p.push(table, (key, value))?;
    }
    // Each table's node was counted with its header.
    p.keep(headed.len().saturating_mul(size_of::<(String, Node)>()))?;
    root.extend(headed.into_iter().map(|(name, tables)| {
        (
            name,
            Node::List(tables.into_iter().map(Node::Table).collect()),
        )
    }));
    Ok(root)
}

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
    line: usize,
    /// Bytes the tree has allocated so far, never more than [`MAX_KEPT`].
    kept: usize,
}

impl Reader<'_> {
    /// Counts `bytes` more of the tree, refusing the file past [`MAX_KEPT`].
    fn keep(&mut self, bytes: usize) -> Result<(), String> {
        self.kept = self.kept.saturating_add(bytes);
        if self.kept > MAX_KEPT {
            return Err(self.err(&format!(
                "the values read so far take more than {} MiB, past any Pyxel resource file",
                MAX_KEPT >> 20
            )));
        }
        Ok(())
    }

    /// Pushes `item`, counting the room `items` grows by before it grows (as a `Vec` does:
    /// doubling, at least four items), so no growth goes past [`MAX_KEPT`].
    fn push<T>(&mut self, items: &mut Vec<T>, item: T) -> Result<(), String> {
        if items.len() == items.capacity() {
            let more = items.capacity().max(4);
            self.keep(more.saturating_mul(size_of::<T>()))?;
            items.reserve_exact(more);
        }
        items.push(item);
        Ok(())
    }

    fn err(&self, what: &str) -> String {
        format!("line {}: {what}", self.line)
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn eat(&mut self, token: &[u8]) -> bool {
        if self
            .s
            .get(self.i..)
            .is_some_and(|rest| rest.starts_with(token))
        {
            self.i += token.len();
            true
        } else {
            false
        }
    }

    fn skip_spaces(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    fn skip_comment(&mut self) {
        if self.peek() == Some(b'#') {
            while !matches!(self.peek(), None | Some(b'\n')) {
                self.i += 1;
            }
        }
    }

    /// Spaces, comments and line ends, as between lines and inside arrays.
    fn skip_blank_lines(&mut self) {
        loop {
            self.skip_spaces();
            self.skip_comment();
            match self.peek() {
                Some(b'\n') => {
                    self.i += 1;
                    self.line += 1;
                }
                Some(b'\r') if self.s.get(self.i + 1) == Some(&b'\n') => self.i += 1,
                _ => return,
            }
        }
    }

    /// The rest of a line after a value or header: spaces and a comment at most.
    fn end_of_line(&mut self) -> Result<(), String> {
        self.skip_spaces();
        self.skip_comment();
        match self.peek() {
            None | Some(b'\n') => Ok(()),
            Some(b'\r') if self.s.get(self.i + 1) == Some(&b'\n') => Ok(()),
            Some(_) => Err(self.err(&format!(
                "'{}' after the value, where the line should end",
                self.excerpt()
            ))),
        }
    }

    /// What follows, to the line's end, for a message.
    fn excerpt(&self) -> String {
        let rest = self.s.get(self.i..).unwrap_or_default();
        let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        crate::quote::excerpt(String::from_utf8_lossy(&rest[..end]).trim_end())
    }

    fn key(&mut self) -> Result<String, String> {
        match self.peek() {
            Some(b'"' | b'\'') => match self.string()? {
                Some(text) => Ok(text),
                None => Err(self.err("a key is one line of text")),
            },
            _ => {
                let start = self.i;
                while matches!(
                    self.peek(),
                    Some(b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b'-')
                ) {
                    self.i += 1;
                }
                if self.i == start {
                    return Err(self.err(&format!("'{}' is not a key", self.excerpt())));
                }
                Ok(String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
            }
        }
    }

    /// A quoted string on one line (`"…"` with backslash escapes kept as written, or `'…'`);
    /// `None` for a multi-line one, which is not read.
    fn string(&mut self) -> Result<Option<String>, String> {
        let Some(quote) = self.peek() else {
            return Err(self.err("a value is missing"));
        };
        if self.eat(&[quote; 3]) {
            return Ok(None);
        }
        self.i += 1;
        let start = self.i;
        loop {
            match self.peek() {
                None | Some(b'\n') => return Err(self.err("text without its closing quote")),
                Some(b'\\') if quote == b'"' => self.i += 2,
                Some(c) if c == quote => break,
                Some(_) => self.i += 1,
            }
        }
        let text =
            String::from_utf8_lossy(self.s.get(start..self.i).unwrap_or_default()).into_owned();
        self.i += 1;
        Ok(Some(text))
    }

    fn value(&mut self, depth: usize) -> Result<Node, String> {
        match self.peek() {
            Some(b'[') => self.array(depth),
            Some(b'"' | b'\'') => match self.string()? {
                Some(text) => {
                    let what = format!("the text {}", crate::quote::quoted(&text));
                    self.keep(what.len())?;
                    Ok(Node::Other(what))
                }
                None => Err(self.err("multi-line text is not read")),
            },
            Some(b'{') => {
                Err(self.err("an inline table is not read (Pyxel writes [[images]] and the like)"))
            }
            None | Some(b'\n' | b'\r' | b'#') => Err(self.err("a value is missing")),
            Some(_) => self.scalar(),
        }
    }

    fn array(&mut self, depth: usize) -> Result<Node, String> {
        if depth >= MAX_DEPTH {
            return Err(self.err(&format!("arrays nested more than {MAX_DEPTH} deep")));
        }
        self.i += 1;
        let mut ints = Vec::new();
        let mut others: Option<Vec<Node>> = None;
        loop {
            self.skip_blank_lines();
            match self.peek() {
                Some(b']') => {
                    self.i += 1;
                    break;
                }
                None => return Err(self.err("an array without its closing ']'")),
                _ => {}
            }
            let item = self.value(depth + 1)?;
            match (&mut others, item) {
                (None, Node::Int(n)) => self.push(&mut ints, n)?,
                (None, item) => {
                    let ints = std::mem::take(&mut ints);
                    self.keep((ints.len() + 1).saturating_mul(size_of::<Node>()))?;
                    let mut list = Vec::with_capacity(ints.len() + 1);
                    list.extend(ints.into_iter().map(Node::Int));
                    list.push(item);
                    others = Some(list);
                }
                (Some(list), item) => self.push(list, item)?,
            }
            self.skip_blank_lines();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {}
                None => return Err(self.err("an array without its closing ']'")),
                _ => {
                    return Err(self.err(&format!(
                        "',' or ']' expected in an array, not '{}'",
                        self.excerpt()
                    )))
                }
            }
        }
        Ok(match others {
            None => Node::Ints(ints),
            Some(list) => Node::List(list),
        })
    }

    /// An integer, or another bare value (float, boolean, date) described for a message.
    fn scalar(&mut self) -> Result<Node, String> {
        let start = self.i;
        while matches!(
            self.peek(),
            Some(b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b'+' | b'-' | b'.' | b':')
        ) {
            self.i += 1;
        }
        let token =
            String::from_utf8_lossy(self.s.get(start..self.i).unwrap_or_default()).into_owned();
        if token.is_empty() {
            return Err(self.err(&format!("'{}' is not a value", self.excerpt())));
        }
        if let Some(n) = integer(&token) {
            return Ok(Node::Int(n));
        }
        let integer_like = token
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'_' | b'+' | b'-'))
            && token.bytes().any(|b| b.is_ascii_digit())
            && !token[1..].contains(['+', '-']);
        if integer_like {
            return Err(self.err(&format!(
                "'{}' is not an integer TOML reads (too large, or badly written)",
                crate::quote::excerpt(&token)
            )));
        }
        let plain = token.replace('_', "");
        let what = if token == "true" || token == "false" {
            token
        } else if plain.parse::<f64>().is_ok()
            || matches!(plain.trim_start_matches(['+', '-']), "inf" | "nan")
        {
            format!("the number {}", crate::quote::excerpt(&token))
        } else if token.as_bytes()[0].is_ascii_digit() && token.contains(['-', ':']) {
            format!("the date {}", crate::quote::excerpt(&token))
        } else {
            return Err(self.err(&format!(
                "'{}' is not a value",
                crate::quote::excerpt(&token)
            )));
        };
        self.keep(what.len())?;
        Ok(Node::Other(what))
    }
}

/// A TOML integer: decimal with an optional sign and single `_` between digits, no leading
/// zero; or `0x`, `0o`, `0b` with digits of that base.
fn integer(token: &str) -> Option<i64> {
    let digits_ok = |d: &str, radix: u32| {
        !d.is_empty()
            && !d.starts_with('_')
            && !d.ends_with('_')
            && !d.contains("__")
            && d.chars().all(|c| c == '_' || c.is_digit(radix))
    };
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(d) = token.strip_prefix(prefix) {
            return digits_ok(d, radix)
                .then(|| i64::from_str_radix(&d.replace('_', ""), radix).ok())
                .flatten();
        }
    }
    let unsigned = token.strip_prefix(['+', '-']).unwrap_or(token);
    if !digits_ok(unsigned, 10) || (unsigned.len() > 1 && unsigned.starts_with('0')) {
        return None;
    }
    token.replace('_', "").parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pyxels_layout_reads_into_tables_and_flat_integer_arrays() {
        let text = "format_version = 1 # a comment\r\nsounds = []\n\n[[images]]\nwidth = 0x10\n\
                    data = [[0, 8], [\n  7, # seven\n  1_000,\n],]\n\n[[images]]\n\"width\" = -3\n";
        let t = parse(text).unwrap();
        assert_eq!(t[0], ("format_version".into(), Node::Int(1)));
        assert_eq!(t[1], ("sounds".into(), Node::Ints(vec![])));
        let Node::List(images) = &t[2].1 else {
            panic!("{t:?}")
        };
        assert_eq!(
            images[0],
            Node::Table(vec![
                ("width".into(), Node::Int(16)),
                (
                    "data".into(),
                    Node::List(vec![Node::Ints(vec![0, 8]), Node::Ints(vec![7, 1000])])
                ),
            ])
        );
        assert_eq!(
            images[1],
            Node::Table(vec![("width".into(), Node::Int(-3))])
        );
    }

    #[test]
    fn other_values_are_described_for_messages() {
        let t = parse("a = \"16\"\nb = 1.5\nc = true\nd = 1979-05-27\ne = [1, 'x']\n").unwrap();
        assert_eq!(t[0].1, Node::Other("the text \"16\"".into()));
        assert_eq!(t[1].1, Node::Other("the number 1.5".into()));
        assert_eq!(t[2].1, Node::Other("true".into()));
        assert_eq!(t[3].1, Node::Other("the date 1979-05-27".into()));
        assert_eq!(
            t[4].1,
            Node::List(vec![Node::Int(1), Node::Other("the text \"x\"".into())])
        );
    }

    #[test]
    fn what_is_not_read_is_named_with_its_line() {
        let e = |text: &str| parse(text).unwrap_err();
        assert_eq!(e("a = 1\na = 2\n"), "line 2: 'a' is defined twice");
        assert_eq!(e("a = [1, 2\n"), "line 2: an array without its closing ']'");
        assert_eq!(
            e("a = [1 2]\n"),
            "line 1: ',' or ']' expected in an array, not '2]'"
        );
        assert_eq!(
            e("a = 1 2\n"),
            "line 1: '2' after the value, where the line should end"
        );
        assert!(e("[images]\n").starts_with("line 1: a [table] header is not read"));
        assert_eq!(e("a.b = 1\n"), "line 1: a dotted key is not read");
        assert!(e("a = {b = 1}\n").starts_with("line 1: an inline table is not read"));
        assert_eq!(e("a = \"x\n"), "line 1: text without its closing quote");
        assert_eq!(e("a =\n"), "line 1: a value is missing");
        assert_eq!(
            e("a = 99999999999999999999\n"),
            "line 1: '99999999999999999999' is not an integer TOML reads (too large, or badly written)"
        );
        assert_eq!(e("a = 1\n[[a]]\n"), "line 2: 'a' is defined twice");
        assert_eq!(
            e(&format!("a = {}1{}\n", "[".repeat(40), "]".repeat(40))),
            "line 1: arrays nested more than 32 deep"
        );
        // Each new key is compared with those before it: a table of a million keys would
        // take a million squared comparisons.
        let keys: String = (0..=MAX_KEYS).map(|k| format!("k{k} = 0\n")).collect();
        assert_eq!(e(&keys), "line 65: more than 64 keys in a table");
        let heads: String = (0..=MAX_KEYS).map(|k| format!("[[t{k}]]\n")).collect();
        assert_eq!(e(&heads), "line 65: more than 64 [[…]] names");
        assert_eq!(
            e(&format!("a = [{}]\n", "[],".repeat(2 << 20))),
            "line 1: the values read so far take more than 32 MiB, past any Pyxel resource file"
        );
        assert_eq!(integer("007"), None);
        assert_eq!(integer("1__0"), None);
        assert_eq!(integer("-0b101"), None);
        assert_eq!(integer("0b101"), Some(5));
        assert_eq!(integer("-12_345"), Some(-12345));
    }

    /// `value` as this reader gives it, from a general TOML reader's tree; tables sorted by key,
    /// as that reader keeps them.
    fn from_toml(value: &toml::Value) -> Node {
        match value {
            toml::Value::Integer(n) => Node::Int(*n),
            toml::Value::Array(items) => {
                let nodes: Vec<Node> = items.iter().map(from_toml).collect();
                match nodes.iter().all(|n| matches!(n, Node::Int(_))) {
                    true => Node::Ints(
                        nodes
                            .iter()
                            .filter_map(|n| match n {
                                Node::Int(i) => Some(*i),
                                _ => None,
                            })
                            .collect(),
                    ),
                    false => Node::List(nodes),
                }
            }
            toml::Value::Table(t) => {
                Node::Table(t.iter().map(|(k, v)| (k.clone(), from_toml(v))).collect())
            }
            other => Node::Other(format!("{other:?}")),
        }
    }

    fn sorted(node: Node) -> Node {
        match node {
            Node::Table(mut t) => {
                t.sort_by(|a, b| a.0.cmp(&b.0));
                Node::Table(t.into_iter().map(|(k, v)| (k, sorted(v))).collect())
            }
            Node::List(items) => Node::List(items.into_iter().map(sorted).collect()),
            other => other,
        }
    }

    #[test]
    fn pyxels_own_files_read_as_a_general_toml_reader_reads_them() {
        for bytes in [
            &include_bytes!("../../../../../tests/pyxres/platformer.pyxres")[..],
            &include_bytes!("../../../../../tests/pyxres/jump_game.pyxres")[..],
        ] {
            let zip = crate::cli::commands::import::zip::Zip::read(bytes).unwrap();
            let entry = zip.entry("pyxel_resource.toml", 1 << 24).unwrap().unwrap();
            let text = std::str::from_utf8(&entry).unwrap();
            let general: toml::Table = toml::from_str(text).unwrap();
            let want = from_toml(&toml::Value::Table(general));
            assert_eq!(sorted(Node::Table(parse(text).unwrap())), want);
        }
    }

    #[test]
    fn any_bytes_read_without_panicking() {
        let text = "format_version = 1\n[[images]]\nwidth = 8\ndata = [[0, 1], [2]] # c\n";
        for cut in 0..=text.len() {
            let _ = parse(&text[..cut]);
        }
        let mut rng = bt::Rng::new(7);
        let alphabet = b"[]{}=,#\"'\n\r\t .-+_0x19aeftrunl:";
        for _ in 0..20_000 {
            let len = rng.int_range(0, 40) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|_| alphabet[rng.int_range(0, alphabet.len() as i32 - 1) as usize])
                .collect();
            let _ = parse(&String::from_utf8_lossy(&bytes));
        }
    }
}
