package com.example.shop;

import static com.example.shop.Pricing.sumGross;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import com.example.shop.io.Database;
import com.example.shop.model.*;

/**
 * A store: an inventory that saves itself to a database.
 */
public class Store extends AbstractInventory {
    /** Default name of a store. */
    public static final String DEFAULT_NAME = "corner shop";
    static int opened;

    private final String name;
    private final Database db;
    private final List<Consumer<Item>> listeners = new ArrayList<>();

    public Store(String name, Database db) {
        super();
        this.name = name;
        this.db = db;
        opened++;
    }

    public Store(Database db) {
        this(DEFAULT_NAME, db);
    }

    @Override
    public void add(Item item) {
        super.add(item);
        log("added " + item.label());
    }

    @Override
    protected void onAdd(Item item) {
        listeners.forEach(l -> l.accept(item));
    }

    @Override
    public int total() {
        return sumGross(items.values());
    }

    public int netTotal() {
        return items.values().stream().mapToInt(Item::price).sum();
    }

    /** Saves every item, one line each. */
    public synchronized void save() throws IOException {
        List<String> lines = new ArrayList<>();
        for (Item it : items.values()) {
            lines.add(it.name() + ":" + it.price());
        }
        db.save(lines);
    }

    /** Labels of every item; the lambda's parameter has no declared type. */
    public List<String> labels() {
        List<String> out = new ArrayList<>();
        items.values().forEach(it -> out.add(it.label()));
        return out;
    }

    public void onChange(Consumer<Item> listener) {
        listeners.add(listener);
    }

    public Cursor cursor() {
        return new Cursor();
    }

    public Runnable reporter() {
        return new Runnable() {
            @Override
            public void run() {
                log(name + ": " + Pricing.cents(total()));
            }
        };
    }

    private void log(String message) {
        System.out.println(message);
    }

    /** Walks the items in insertion order. */
    public class Cursor {
        private int pos;

        public boolean hasMore() {
            return pos < items.size();
        }

        public Item next() {
            Item it = new ArrayList<>(items.values()).get(pos++);
            log("cursor at " + it.name());
            return it;
        }
    }

    /** Builds a store step by step. */
    public static class Builder {
        private String name = DEFAULT_NAME;
        private Database db;
        private final List<Item> initial = new ArrayList<>();

        public Builder name(String name) {
            this.name = name;
            return this;
        }

        public Builder database(Database db) {
            this.db = db;
            return this;
        }

        public Builder with(String line) {
            initial.add(Item.parse(line, Category.FOOD));
            return this;
        }

        public Store build() {
            if (db == null) {
                throw new IllegalStateException("no database");
            }
            Store s = new Store(name, db);
            initial.forEach(s::add);
            return s;
        }
    }
}
