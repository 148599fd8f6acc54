import Foundation
import ShopCore

let store = Store.create()
let client = CatalogClient(base: URL(fileURLWithPath: "/tmp/catalog"))

func run() async throws {
    let items = try await client.fetch()
    for item in items {
        try store.add(item)
    }
    try store.add(Item(name: "pen", cents: 150).withTag("office"))
    print(store.total())
    if CommandLine.arguments.count > 1 {
        exit(1)
    }
}
