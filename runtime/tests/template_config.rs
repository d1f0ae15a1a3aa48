//! `bt new` writes the link settings of BT's own `.cargo/config.toml` into every new cart: the
//! two copies must say the same, or a new cart links differently from BT.

#[test]
fn a_new_carts_link_overrides_equal_bts_own() {
    let own: toml::Table = toml::from_str(include_str!("../../.cargo/config.toml")).unwrap();
    let template: toml::Table =
        toml::from_str(include_str!("../templates/starter/cargo-config.toml.in")).unwrap();
    let targets = |t: &toml::Table| t.get("target").cloned().expect("a [target] table");
    assert_eq!(targets(&template), targets(&own));
    // Everything else the template says is where to build: two folders inside the cart, so the
    // file names no path of the machine it was made on.
    let mut rest = template.clone();
    rest.remove("target");
    assert_eq!(rest.keys().collect::<Vec<_>>(), ["build"]);
    let build = rest["build"].as_table().unwrap();
    assert_eq!(build.len(), 2, "{build:?}");
    assert_eq!(build["target-dir"].as_str(), Some("target"));
    assert_eq!(build["build-dir"].as_str(), Some(".bt/build"));
}
