const Router = require('../lib/router');
const { Layer } = require('../lib/router');

function makeRouter() {
  return new Router().route('/a', () => 1);
}

describe('Router', () => {
  test('dispatches to the handler', () => {
    const r = makeRouter();
    expect(r.dispatch('/a')).toBe(1);
    expect(new Layer('/b', () => 2).match('/b')).toBe(true);
  });
});
