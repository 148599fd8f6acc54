package com.example.shop;

import com.example.shop.model.Item;

/** Price arithmetic shared by the store and the command line. */
public final class Pricing {
    private Pricing() {
    }

    public static int sumGross(Iterable<Item> items) {
        int sum = 0;
        for (Item it : items) {
            sum += it.gross();
        }
        return sum;
    }

    public static String cents(int amount) {
        assert amount >= 0 : "negative amount";
        return amount / 100 + "." + String.format("%02d", amount % 100);
    }

    /** Renders one line per item. */
    public static String receipt(Iterable<Item> items) {
        class Line {
            final String text;

            Line(Item it) {
                text = it.label() + " " + cents(it.gross());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (Item it : items) {
            sb.append(new Line(it).text).append('\n');
        }
        return sb.toString();
    }
}
