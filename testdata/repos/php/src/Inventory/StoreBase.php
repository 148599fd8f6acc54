<?php

namespace Shop\Inventory;

use Psr\Log\LoggerInterface;

/**
 * What every store does: logging and a description.
 */
abstract class StoreBase
{
    public function __construct(protected LoggerInterface $logger)
    {
    }

    protected function log(string $message): void
    {
        $this->logger->info($message);
    }

    public function describe(): string
    {
        return 'store ' . static::class;
    }
}
