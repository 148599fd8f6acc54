<?php

namespace Shop\Inventory;

use Psr\Log\LoggerInterface;
use Shop\Models\Item;
use function Shop\money;

/**
 * Keeps items by name.
 */
class Store extends StoreBase implements \Countable
{
    public const MAX_ITEMS = 100;

    /** @var array<string, Item> */
    private array $items = [];

    public function __construct(private Repository $repo, LoggerInterface $logger)
    {
        parent::__construct($logger);
    }

    public function add(Item $item): void
    {
        if (isset($this->items[$item->name])) {
            throw new DuplicateItem($item->name);
        }
        if (count($this->items) >= self::MAX_ITEMS) {
            return;
        }
        $this->items[$item->name] = $item->tag('new');
        $this->log('added ' . $item->name);
    }

    public function find(string $name): ?Item
    {
        return $this->items[$name] ?? null;
    }

    public function quote(string $name): string
    {
        $item = $this->find($name);
        if ($item === null) {
            return money(0.0);
        }
        return money($item->gross());
    }

    public function count(): int
    {
        return count($this->items);
    }

    public function save(): void
    {
        $this->repo->save(array_values($this->items));
        $this->log('saved');
    }

    public function describe(): string
    {
        return parent::describe() . " with {$this->count()} items";
    }
}
