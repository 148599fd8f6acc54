<?php

namespace Shop;

const CURRENCY = 'EUR';

/**
 * Formats an amount with the shop's currency.
 */
function money(float $amount): string
{
    return number_format($amount, 2) . ' ' . CURRENCY;
}
