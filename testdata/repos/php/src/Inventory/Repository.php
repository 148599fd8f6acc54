<?php

namespace Shop\Inventory;

use Shop\Models\Item;

/**
 * Keeps items in a database.
 */
class Repository
{
    private \PDO $pdo;

    public function __construct(string $dsn)
    {
        $this->pdo = new \PDO($dsn);
    }

    /**
     * @param Item[] $items
     */
    public function save(array $items): void
    {
        $stmt = $this->pdo->prepare('INSERT INTO items (name, price) VALUES (?, ?)');
        foreach ($items as $item) {
            $stmt->execute([$item->name, $item->gross()]);
        }
    }

    /** @return Item[] */
    public function loadFrom(string $file): array
    {
        $rows = json_decode(file_get_contents($file), true);
        return array_map(fn (array $row) => Item::fromArray($row), $rows);
    }
}
