package com.example.shop.store

import com.example.shop.model.Item
import java.io.File

/** Where items are kept. */
interface Repository {
    fun save(item: Item)
    fun load(name: String): Item?
}

/** A repository of one file per item. */
class FileRepository(private val dir: String) : Repository {
    override fun save(item: Item) {
        val file = File(dir, item.name)
        file.writeText(encode(item))
    }

    override fun load(name: String): Item? {
        val file = File(dir, name)
        if (!file.exists()) return null
        return decode(file.readText())
    }

    private fun encode(item: Item): String = "${item.name};${item.cents}"

    private fun decode(text: String): Item {
        val (name, cents) = text.split(";")
        return Item(name, cents.toLong())
    }
}
