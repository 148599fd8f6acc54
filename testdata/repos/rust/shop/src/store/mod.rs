//! The store: items by id, persisted in a database file.

mod db;

use std::collections::HashMap;

use crate::model::*;
use crate::{Error, Result, MAX_ITEMS};
use self::db::Db;

/// Items by id, saved to disk on every change.
pub struct Store {
    db: Db,
    items: HashMap<String, Item>,
}

impl Store {
    /// Opens the store kept in the file at path.
    pub fn open(path: &str) -> Result<Self> {
        let db = Db::new(path);
        let items = db.load()?;
        Ok(Store { db, items })
    }

    /// Adds an item and saves the store.
    pub fn add(&mut self, item: Item) -> Result<()> {
        if self.items.len() >= MAX_ITEMS {
            return Err(Error::Full(MAX_ITEMS));
        }
        self.items.insert(item.id.clone(), item);
        self.db.save(&self.items)
    }

    /// The item with that id.
    pub fn get(&self, id: &str) -> Result<&Item> {
        let Some(item) = self.items.get(id) else {
            return Err(Error::NotFound { id: id.to_string() });
        };
        Ok(item)
    }

    /// The value of everything in the store.
    pub fn value(&self) -> f64 {
        let mut ids = self.sorted_ids();
        ids.dedup();
        ids.iter().map(|id| self.items[id].total()).sum()
    }

    /// The food items, cheapest first.
    pub fn food(&self) -> Vec<&Item> {
        let mut out: Vec<&Item> = self.items.values().filter(|i| i.is_food()).collect();
        out.sort_by(|a, b| a.unit_price().total_cmp(&b.unit_price()));
        out
    }

    fn sorted_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self.items.keys().cloned().collect();
        ids.sort();
        ids
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Item {
        Item::new("Hammer", 12.5).with_category(Category::Tool)
    }

    #[test]
    fn value_counts_units() {
        let dir = std::env::temp_dir().join("shop-test-value");
        let mut store = Store::open(dir.to_str().unwrap()).unwrap();
        store.add(sample()).unwrap();
        assert_eq!(store.value(), 12.5);
    }

    #[test]
    fn price_of_rounds() {
        struct Fixed(f64);
        impl Priced for Fixed {
            fn unit_price(&self) -> f64 {
                self.0
            }
        }
        assert_eq!(Fixed(0.333).price_of(3), 1.0);
        assert_eq!(sample().discounted(), 11.25);
    }
}
