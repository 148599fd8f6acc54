package com.example.shop;

import com.example.shop.model.Item;

/** A half-edited file: the parser must still find what it can. */
public class Broken {
    public int fine(Item item) {
        return item.gross();
    }

    public void broken( {
        int x = ;
        fine(null);
    }

    public String after() {
        return Pricing.cents(fine(null));
    }
}
