package com.example.shop

import com.example.shop.model.Item
import com.example.shop.net.CatalogClient
import com.example.shop.store.Store
import kotlin.system.exitProcess

fun main(args: Array<String>) {
    val store = Store.create()
    val client = CatalogClient()
    for (item in client.fetch()) {
        store.add(item)
    }
    store.add(Item("pen", 150).withTag("office"))
    println(store.total())
    if (args.isNotEmpty()) exitProcess(1)
}
