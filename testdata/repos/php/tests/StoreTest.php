<?php

namespace Shop\Tests;

use PHPUnit\Framework\TestCase;
use Psr\Log\NullLogger;
use Shop\Inventory\Repository;
use Shop\Inventory\Store;
use Shop\Models\Item;

class StoreTest extends TestCase
{
    private Store $store;

    protected function setUp(): void
    {
        $this->store = new Store(new Repository('sqlite::memory:'), new NullLogger());
    }

    public function testAddThenFind(): void
    {
        $this->store->add(new Item('pen', 2.0));
        $this->assertNotNull($this->store->find('pen'));
    }

    public function testQuoteUnknownIsZero(): void
    {
        $this->assertSame('0.00 EUR', $this->store->quote('nothing'));
    }
}
