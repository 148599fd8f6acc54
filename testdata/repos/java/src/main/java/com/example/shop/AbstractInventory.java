package com.example.shop;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import com.example.shop.model.Item;

/** Keeps items by name and tells subclasses about additions. */
public abstract class AbstractInventory implements Inventory {
    protected final Map<String, Item> items = new LinkedHashMap<>();

    @Override
    public void add(Item item) {
        Objects.requireNonNull(item, "item");
        if (items.containsKey(item.name())) {
            throw new DuplicateItemException(item.name());
        }
        if (items.size() >= MAX_ITEMS) {
            return;
        }
        items.put(item.name(), item);
        onAdd(item);
    }

    /** Called after an item was added. */
    protected abstract void onAdd(Item item);

    protected Item find(String name) {
        return items.get(name);
    }
}
