package com.example.shop.pricing

/** The largest discount, in percent. */
const val MAX_DISCOUNT = 50

internal var discountsApplied = 0

/** Takes the discount off a total. */
fun applyDiscount(total: Long, percent: Int = 10): Long {
    if (percent > MAX_DISCOUNT) throw IllegalArgumentException("discount too large")
    discountsApplied++
    return total - total * percent / 100
}

object Rates {
    fun rate(): Double = if (System.getenv("SHOP_SALE") != null) 0.9 else 1.0
}
