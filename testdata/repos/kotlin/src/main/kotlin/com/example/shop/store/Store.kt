package com.example.shop.store

import com.example.shop.model.Item
import com.example.shop.pricing.applyDiscount
import com.example.shop.pricing.Rates as R

/** A store of items, saved as they are added. */
class Store(repo: Repository) : StoreBase(repo) {
    private val items = mutableListOf<Item>()
    private val audit = Audit()

    /** Adds an item and saves it. */
    fun add(item: Item) {
        require(item.cents >= 0) { "negative price" }
        items.add(item)
        repo.save(item)
        audit.record(item.name)
        log("added ${item.name}")
    }

    override fun total(): Long {
        fun sumPrices(): Long = items.sumOf { it.price() }
        val rate = R.rate()
        return applyDiscount((sumPrices() * rate).toLong())
    }

    fun find(name: String): Item? {
        if (name.isEmpty()) return null
        return items.firstOrNull { it.name == name } ?: repo.load(name)
    }

    companion object {
        const val DEFAULT_DIR = "data"

        fun create(dir: String = DEFAULT_DIR): Store = Store(FileRepository(dir))
    }
}

/** Remembers what happened. */
class Audit {
    private val lines = mutableListOf<String>()

    fun record(what: String) {
        lines.add(what)
    }
}
