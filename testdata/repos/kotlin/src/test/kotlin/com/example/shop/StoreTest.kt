package com.example.shop

import com.example.shop.model.Item
import com.example.shop.store.Repository
import com.example.shop.store.Store
import kotlin.test.Test
import kotlin.test.assertEquals

class MemoryRepository : Repository {
    private val items = mutableMapOf<String, Item>()
    override fun save(item: Item) { items[item.name] = item }
    override fun load(name: String): Item? = items[name]
}

class StoreTest {
    @Test
    fun addsItems() {
        val store = Store(MemoryRepository())
        store.add(Item("a", 100))
        assertEquals(90, store.total())
    }
}
