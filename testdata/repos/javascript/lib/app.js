'use strict';

const EventEmitter = require('events');
const Router = require('./router');
const { readConfig, DEFAULTS: defaults } = require('./config');
const request = require('./request');

/**
 * createApp makes an application with a router and the given options.
 * @param {Object} [options] settings that override the config file
 * @returns {App}
 */
function createApp(options) {
  const config = Object.assign({}, defaults, readConfig(), options);
  const app = new App(config);
  app.init();
  if (config.env === 'development') {
    logRoutes();
  }
  return app;

  function logRoutes() {
    for (const layer of app.router) {
      console.log(layer.path);
    }
  }
}

class App extends EventEmitter {
  constructor(config) {
    super();
    this.config = config;
    this.router = new Router();
  }

  init() {
    this.router.route('/health', () => 'ok');
    this.emit('init');
  }

  /**
   * handle dispatches one request.
   * @param {Object} req
   */
  handle(req) {
    if (!req) {
      return null;
    }
    const accept = request.header.call(req, 'accept');
    return this.router.dispatch(req.path, accept);
  }
}

exports = module.exports = createApp;
exports.App = App;
