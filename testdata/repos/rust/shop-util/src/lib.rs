//! Small helpers shared by the shop crates.

/// Turns a display name into a lower-case, dash-separated key.
pub fn slugify(name: &str) -> String {
    name.trim()
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("-")
}

/// Rounds a price to whole cents.
pub fn round_cents(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}
