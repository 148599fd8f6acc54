const http = require('http');

/** The request prototype the app extends. */
var req = Object.create(http.IncomingMessage.prototype);

/**
 * Returns the value of a request header.
 * @param {string} name
 * @returns {string|undefined}
 */
req.header = function header(name) {
  const lc = name.toLowerCase();
  return this.headers[lc];
};

req.accepts = function (type) {
  return (this.header('accept') || '').includes(type);
};

module.exports = req;
