use std::collections::HashMap;
use std::fs;
use std::path::PathBuf;

use crate::model::Item;
use crate::Result;

/// A JSON file holding the items.
pub(super) struct Db {
    path: PathBuf,
}

impl Db {
    pub(super) fn new(path: &str) -> Db {
        Db { path: PathBuf::from(path) }
    }

    /// Reads all items; a missing file is an empty store.
    pub(super) fn load(&self) -> Result<HashMap<String, Item>> {
        if !self.path.exists() {
            return Ok(HashMap::new());
        }
        let text = fs::read_to_string(&self.path)?;
        Ok(parse(&text))
    }

    /// Writes all items to disk.
    pub(super) fn save(&self, items: &HashMap<String, Item>) -> Result<()> {
        let text = serde_json::to_string(items).expect("items serialize");
        fs::write(&self.path, text)?;
        Ok(())
    }
}

fn parse(text: &str) -> HashMap<String, Item> {
    serde_json::from_str(text).unwrap_or_default()
}
