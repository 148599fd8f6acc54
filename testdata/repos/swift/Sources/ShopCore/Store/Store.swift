/// A store of items, saved as they are added.
public final class Store: StoreBase {
    private var items: [Item] = []
    private let audit = Audit()

    public static let defaultDir = "data"

    /// Adds an item and saves it.
    public func add(_ item: Item) throws {
        guard item.cents >= 0 else { throw ItemError.negativePrice(item.cents) }
        items.append(item)
        try repo.save(item)
        audit.record(item.name)
        log("added \(item.name)")
    }

    public override func total() -> Int {
        func sumPrices() -> Int {
            items.reduce(0) { $0 + $1.price() }
        }
        let rate = Rates.rate()
        return applyDiscount(Int(Double(sumPrices()) * rate))
    }

    public func find(name: String) -> Item? {
        if name.isEmpty { return nil }
        return items.first { $0.name == name } ?? repo.load(name: name)
    }

    public static func create(dir: String = defaultDir) -> Store {
        Store(repo: FileRepository(dir: URL(fileURLWithPath: dir)))
    }
}

/// Remembers what happened.
final class Audit {
    private var lines: [String] = []

    func record(_ what: String) {
        lines.append(what)
    }
}
