package com.example.shop.store

/** What every store does. */
abstract class StoreBase(protected val repo: Repository) {
    protected fun log(msg: String) {
        println("[store] $msg")
    }

    abstract fun total(): Long
}
