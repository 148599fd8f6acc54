package com.example.shop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.example.shop.io.Database;
import com.example.shop.model.Category;
import com.example.shop.model.Item;

class StoreTest {
    @TempDir
    Path dir;

    private Store store;

    @BeforeEach
    void setUp() {
        store = new Store(new Database(dir.resolve("test.db")));
    }

    @Test
    void addsAndTotals() {
        store.add(new Item("tea", 300, Category.FOOD));
        assertEquals(315, store.total());
        assertEquals("3.15", Pricing.cents(store.total()));
    }

    @Test
    void rejectsDuplicates() {
        Item tea = Item.parse("tea:300", Category.FOOD);
        store.add(tea);
        assertThrows(DuplicateItemException.class, () -> store.add(tea));
    }

    private static Item book(String name) {
        return new Item(name, 1000, Category.BOOKS);
    }
}
