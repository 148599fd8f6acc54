final class Broken {
    let store: Store

    init(store: Store) { self.store = store }

    func fine() -> Int { store.total() }

    func broken( -> Int {
        return store.total(
    }

    func after() {
        _ = store.find(name: "x")
    }
}
