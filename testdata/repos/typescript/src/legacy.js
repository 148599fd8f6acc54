// A CommonJS helper the TypeScript code still imports.
function legacyTotal(prices) {
  return prices.reduce((a, b) => a + b, 0);
}

exports.legacyTotal = legacyTotal;
exports.VERSION = '1.0';
