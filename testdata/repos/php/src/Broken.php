<?php

namespace Shop;

use Shop\Models\Item;

/** A file in the middle of an edit. */
class Broken
{
    public function fine(Item $item): float
    {
        return $item->gross();
    }

    public function half(Item $item)
    {
        $x = $item->gross(;
    }

    public function after(): float
    {
        return $this->fine(new Item('x', 1.0));
    }
}
