const fs = require('fs');
const path = require('path');

exports.DEFAULTS = { port: 3000, env: 'development' };

/** readConfig loads app.json from the working directory, or nothing. */
exports.readConfig = function readConfig(file = path.join(process.cwd(), 'app.json')) {
  if (!fs.existsSync(file)) return {};
  const text = fs.readFileSync(file, 'utf8');
  return parse(text);
};

function parse(text) {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SyntaxError(`bad config: ${err.message}`);
  }
}

exports.writeConfig = (file, config) => fs.writeFileSync(file, JSON.stringify(config, null, 2));
