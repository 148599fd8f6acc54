<?php

namespace Shop\Inventory;

/** Thrown when an item is added twice. */
class DuplicateItem extends \RuntimeException
{
}
