/** A route: a path and its handler. */
class Layer {
  constructor(path, handler) {
    this.path = path;
    this.handler = handler;
  }

  match(path) {
    return this.path === path;
  }
}

class Router {
  #routes = [];
  static METHODS = ['GET', 'POST'];

  route(path, handler) {
    if (typeof handler !== 'function') {
      throw new TypeError('handler must be a function');
    }
    this.#routes.push(new Layer(path, handler));
    return this;
  }

  dispatch(path, ...args) {
    const layer = this.#find(path);
    return layer ? layer.handler(...args) : undefined;
  }

  #find(path) {
    return this.#routes.find((l) => l.match(path));
  }

  *[Symbol.iterator]() {
    yield* this.#routes;
  }
}

module.exports = Router;
module.exports.Layer = Layer;
