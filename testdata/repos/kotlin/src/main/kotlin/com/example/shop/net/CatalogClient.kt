package com.example.shop.net

import com.example.shop.model.Item
import java.net.URL

/** Fetches the catalog over HTTP. */
class CatalogClient(private val base: String = System.getenv("CATALOG_URL") ?: "http://localhost") {
    fun fetch(): List<Item> {
        val text = URL("$base/items").readText()
        return text.lines().filter { it.isNotBlank() }.map { parse(it) }
    }

    private fun parse(line: String): Item {
        val parts = line.split(",")
        return Item(parts[0], parts[1].toLong())
    }

    fun shutdown() {
        ProcessBuilder("pkill", "catalog-cache").start()
    }
}
