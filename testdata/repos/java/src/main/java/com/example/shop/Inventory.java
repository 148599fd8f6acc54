package com.example.shop;

import com.example.shop.model.Item;

/** Something that holds items. */
public interface Inventory {
    int MAX_ITEMS = 1000;

    void add(Item item);

    int total();

    /** Reports whether the inventory holds nothing of value. */
    default boolean isWorthless() {
        return total() == 0;
    }
}
