use shop::model::Item;
use shop::{Priced, Store};

fn temp_store(name: &str) -> Store {
    let path = std::env::temp_dir().join(name);
    let _ = std::fs::remove_file(&path);
    Store::open(path.to_str().unwrap()).unwrap()
}

#[test]
fn add_then_get() {
    let mut store = temp_store("shop-it-add");
    store.add(Item::new("Saw", 20.0)).unwrap();
    let saw = store.get("saw").unwrap();
    assert_eq!(saw.price_of(2), 40.0);
}

#[test]
fn full_store_rejects() {
    let store = temp_store("shop-it-full");
    assert!(store.food().is_empty());
}
