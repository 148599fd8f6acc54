import Foundation

/// Fetches the catalog over HTTP.
public final class CatalogClient {
    private let base: URL
    private let session = URLSession.shared

    public init(base: URL) {
        self.base = base
    }

    public func fetch() async throws -> [Item] {
        let (data, _) = try await session.data(from: base.appendingPathComponent("items"))
        let text = String(decoding: data, as: UTF8.self)
        return text.split(separator: "\n").compactMap { parse(String($0)) }
    }

    private func parse(_ line: String) -> Item? {
        let parts = line.split(separator: ",")
        guard parts.count == 2, let cents = Int(parts[1]) else { return nil }
        return Item(name: String(parts[0]), cents: cents)
    }
}
