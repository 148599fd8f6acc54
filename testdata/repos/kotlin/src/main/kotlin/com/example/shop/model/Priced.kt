package com.example.shop.model

/** Something with a price in cents. */
interface Priced {
    fun price(): Long

    /** The price formatted for people. */
    fun label(): String = "${price() / 100}.${price() % 100}"
}
