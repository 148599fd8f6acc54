package com.example.shop.model

/**
 * An item of the catalog.
 */
data class Item(val name: String, val cents: Long, val tags: List<String> = emptyList()) : Priced {
    override fun price(): Long = cents

    fun withTag(tag: String): Item {
        if (tag.isBlank()) throw IllegalArgumentException("empty tag")
        return copy(tags = tags + tag)
    }

    enum class Kind { FOOD, TOOL }
}
