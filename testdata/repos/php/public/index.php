<?php
require __DIR__ . '/../vendor/autoload.php';
require_once __DIR__ . '/../src/helpers.php';

use Monolog\Logger;
use Shop\Inventory\Repository;
use Shop\Inventory\Store;
use function Shop\money;

$store = new Store(new Repository('sqlite:shop.db'), new Logger('shop'));
if (!isset($_GET['item'])) {
    http_response_code(400);
    exit(1);
}
$name = $_GET['item'];
?>
<!doctype html>
<html>
<body>
  <h1><?= htmlspecialchars($store->describe()) ?></h1>
  <p><?= $name ?>: <?= $store->quote($name) ?></p>
  <p>Free delivery above <?= money(50.0) ?></p>
</body>
</html>
