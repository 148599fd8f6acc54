<?php

namespace Shop\Net;

use GuzzleHttp\Client;
use Shop\Models\Item;

/**
 * Fetches the catalog from the shop's server.
 */
class CatalogClient
{
    private Client $http;

    public function __construct()
    {
        $this->http = new Client(['base_uri' => getenv('SHOP_URL') ?: 'http://localhost:8080']);
    }

    /** @return Item[] */
    public function fetch(string $category): array
    {
        $response = $this->http->get('/catalog/' . $category);
        $rows = json_decode((string) $response->getBody(), true);
        return array_map([Item::class, 'fromArray'], $rows);
    }

    public function openInBrowser(): void
    {
        exec('xdg-open ' . escapeshellarg(getenv('SHOP_URL')));
    }
}
