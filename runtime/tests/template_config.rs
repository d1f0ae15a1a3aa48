//! `bt new` writes the link settings of BT's own `.cargo/config.toml` into every new cart: the
//! two copies must say the same, or a new cart links differently from BT.

#[test]
fn a_new_carts_link_overrides_equal_bts_own() {
    let own: toml::Table = toml::from_str(include_str!("../../.cargo/config.toml")).unwrap();
    let template: toml::Table =
        toml::from_str(include_str!("../templates/starter/cargo-config.toml.in")).unwrap();
    let targets = |t: &toml::Table| t.get("target").cloned().expect("a [target] table");
    assert_eq!(targets(&template), targets(&own));
    // Everything else the template says is where to build (BT's target folder).
    let mut rest = template.clone();
    rest.remove("target");
    assert_eq!(rest.keys().collect::<Vec<_>>(), ["build"]);
}
