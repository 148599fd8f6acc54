<?php

declare(strict_types=1);

namespace Shop\Models;

/**
 * An item for sale.
 */
final class Item implements Priced, \JsonSerializable
{
    use HasTags;

    public const TAX = 0.2;

    public function __construct(
        public readonly string $name,
        private float $price,
    ) {
        if ($price < 0) {
            throw new \InvalidArgumentException("price must be positive");
        }
    }

    public function gross(): float
    {
        return round($this->price * (1 + self::TAX), 2);
    }

    /**
     * Makes an item from a decoded JSON object.
     */
    public static function fromArray(array $row): self
    {
        return new self($row['name'], (float) $row['price']);
    }

    public function jsonSerialize(): array
    {
        return ['name' => $this->name, 'price' => $this->price, 'tags' => $this->tags()];
    }
}
