//! A panic in a page's module: the hook `bt_boot` installs hands its message to the page as
//! one line, with where it happened. (Its own test binary: the hook is the process's.)

use std::sync::Mutex;

static SAID: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn keep(line: &str) {
    SAID.lock().unwrap().push(line.to_string());
}

#[test]
fn a_panic_reaches_the_page_as_one_line_naming_its_place() {
    bt_web::abi::report_panics(keep);
    let line = line!() + 1;
    let caught = std::panic::catch_unwind(|| panic!("boom {}\nand more", 7));
    let late = std::panic::catch_unwind(|| std::panic::panic_any(7_u8));
    drop(std::panic::take_hook());
    assert!(caught.is_err() && late.is_err());
    let said = SAID.lock().unwrap().clone();
    assert_eq!(
        said,
        [
            format!("boom 7 / and more ({}:{line})", file!()),
            format!("a panic with no message ({}:{})", file!(), line + 1),
        ]
    );
}
