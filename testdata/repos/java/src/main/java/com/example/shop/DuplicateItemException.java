package com.example.shop;

/** Thrown when an item is added twice. */
public class DuplicateItemException extends RuntimeException {
    public DuplicateItemException(String name) {
        super("duplicate item: " + name);
    }
}
