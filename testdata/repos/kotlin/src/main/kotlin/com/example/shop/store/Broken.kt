package com.example.shop.store

class Broken(val store: Store) {
    fun fine(): Long = store.total()

    fun broken(: Int {
        return store.total(
    }

    fun after() {
        store.find("x")
    }
}
