package com.example.shop.model;

/** The department an item is sold in, with its VAT rate. */
public enum Category {
    FOOD(5),
    BOOKS(0),
    /** Gadgets pay the full rate and a recycling fee. */
    GADGETS(20) {
        @Override
        public int tax(int price) {
            return super.tax(price) + recyclingFee();
        }
    };

    private final int vatPercent;

    Category(int vatPercent) {
        this.vatPercent = vatPercent;
    }

    /** Returns the VAT due on a price in cents. */
    public int tax(int price) {
        return price * vatPercent / 100;
    }

    int recyclingFee() {
        return 50;
    }
}
