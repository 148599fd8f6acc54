package com.example.shop.model;

import java.util.Locale;

/**
 * An item on sale.
 *
 * @param name the display name
 * @param price the price in cents, VAT excluded
 */
public record Item(String name, int price, Category category) {

    /** The price below which an item is a bargain. */
    public static final int BARGAIN = 100;

    public Item {
        if (price < 0) {
            throw new IllegalArgumentException("negative price: " + price);
        }
        name = name.trim();
    }

    /** Makes an item from a "name:price" line. */
    public static Item parse(String line, Category category) {
        String[] parts = line.split(":");
        return new Item(parts[0], Integer.parseInt(parts[1]), category);
    }

    public int gross() {
        return price + category.tax(price);
    }

    public Item discounted(int percent) {
        return new Item(name, price - price * percent / 100, category);
    }

    public String label() {
        return String.format(Locale.ROOT, "%s (%d)", name.toUpperCase(Locale.ROOT), gross());
    }
}
