import XCTest
@testable import ShopCore

final class MemoryRepository: Repository {
    private var items: [String: Item] = [:]
    func save(_ item: Item) throws { items[item.name] = item }
    func load(name: String) -> Item? { items[name] }
}

final class StoreTests: XCTestCase {
    func testAddsItems() throws {
        let store = Store(repo: MemoryRepository())
        try store.add(Item(name: "a", cents: 100))
        XCTAssertEqual(store.total(), 90)
    }
}
