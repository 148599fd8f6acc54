package com.example.shop.app;

import static com.example.shop.Pricing.*;

import java.io.IOException;

import com.example.shop.Inventory;
import com.example.shop.Store;
import com.example.shop.io.Database;
import com.example.shop.model.Category;
import com.example.shop.model.Item;

/** The shop's command line. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: shop ITEM...");
            System.exit(2);
        }
        Store store = new Store.Builder()
                .name("cli")
                .database(Database.fromEnv())
                .build();
        for (String a : args) {
            store.add(Item.parse(a, Category.BOOKS));
        }
        var cursor = store.cursor();
        while (cursor.hasMore()) {
            System.out.println(cursor.next().label());
        }
        System.out.println(cents(store.total()));
        Inventory inventory = store;
        if (inventory.isWorthless()) {
            System.out.println("nothing of value");
        }
        store.save();
        Runtime.getRuntime().exec(new String[] {"sync"});
    }
}
