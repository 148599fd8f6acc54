<?php

namespace Shop\Models;

/**
 * Free-form tags for a model.
 */
trait HasTags
{
    private array $tags = [];

    public function tag(string $tag): static
    {
        $this->tags[] = strtolower($tag);
        return $this;
    }

    public function tags(): array
    {
        return $this->tags;
    }
}
