//! The shop crate: a catalogue of items kept in a store.
//!
//! Most users need only [`Store`] and [`Item`].

pub mod error;
pub mod model;
pub mod net;
pub mod store;
mod broken;

pub use crate::error::{Error, Result};
pub use model::{Category, Item, Priced};
pub use store::Store;

/// How many items a store holds at most.
pub const MAX_ITEMS: usize = 1000;

/// The default currency of prices.
pub(crate) static CURRENCY: &str = "EUR";

/// Builds an item from a name and a price in cents.
#[macro_export]
macro_rules! item {
    ($name:expr, $cents:expr) => {
        $crate::model::Item::new($name, $cents as f64 / 100.0)
    };
}

/// Opens the store named by SHOP_DB, or the default one.
pub fn open_default() -> Result<Store> {
    let path = std::env::var("SHOP_DB").unwrap_or_else(|_| "shop.db".to_string());
    Store::open(&path)
}
