import Foundation

/// Where items are kept.
public protocol Repository {
    func save(_ item: Item) throws
    func load(name: String) -> Item?
}

/// A repository of one file per item.
public final class FileRepository: Repository {
    private let dir: URL

    public init(dir: URL) {
        self.dir = dir
    }

    public func save(_ item: Item) throws {
        let data = try encode(item)
        FileManager.default.createFile(atPath: path(for: item.name), contents: data)
    }

    public func load(name: String) -> Item? {
        guard let data = FileManager.default.contents(atPath: path(for: name)) else { return nil }
        return decode(data)
    }

    private func path(for name: String) -> String {
        dir.appendingPathComponent(name).path
    }

    private func encode(_ item: Item) throws -> Data {
        try JSONEncoder().encode(item)
    }

    private func decode(_ data: Data) -> Item? {
        try? JSONDecoder().decode(Item.self, from: data)
    }
}
