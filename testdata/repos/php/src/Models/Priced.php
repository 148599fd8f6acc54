<?php

namespace Shop\Models;

/**
 * Anything with a price.
 */
interface Priced
{
    /** The price with tax. */
    public function gross(): float;
}
