//! Items of the catalogue.

use serde::{Deserialize, Serialize};
use shop_util::{round_cents, slugify};

/// What kind of thing an item is.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Category {
    Food,
    Tool,
    Other,
}

/// Anything with a unit price.
pub trait Priced {
    /// The price of one unit.
    fn unit_price(&self) -> f64;

    /// The price of n units, rounded to cents.
    fn price_of(&self, n: u32) -> f64 {
        round_cents(self.unit_price() * n as f64)
    }
}

/// A priced thing that can be sold at a discount.
pub trait Discounted: Priced {
    /// The unit price after the discount.
    fn discounted(&self) -> f64 {
        round_cents(self.unit_price() * 0.9)
    }
}

/// A line in the catalogue.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Item {
    pub id: String,
    pub name: String,
    pub price: f64,
    pub qty: u32,
    pub(crate) category: Category,
}

impl Item {
    /// Makes an item of one unit; its id is the slug of its name.
    pub fn new(name: &str, price: f64) -> Self {
        Item {
            id: slugify(name),
            name: name.to_string(),
            price,
            qty: 1,
            category: Category::Other,
        }
    }

    /// Sets the category, builder style.
    pub fn with_category(mut self, category: Category) -> Self {
        self.category = category;
        self
    }

    /// The price of all units of the item.
    pub fn total(&self) -> f64 {
        self.price_of(self.qty)
    }

    pub(super) fn is_food(&self) -> bool {
        self.category == Category::Food
    }
}

impl Priced for Item {
    fn unit_price(&self) -> f64 {
        self.price
    }
}

impl Discounted for Item {}

/// The value of all units of some items.
pub fn total_of<'a, I>(items: I) -> f64
where
    I: IntoIterator<Item = &'a Item>,
{
    items.into_iter().map(|i| i.total()).sum()
}

impl std::fmt::Display for Item {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} x{} @ {:.2} {}", self.name, self.qty, self.price, crate::CURRENCY)
    }
}
