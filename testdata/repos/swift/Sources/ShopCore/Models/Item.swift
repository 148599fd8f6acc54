/// An item of the catalog.
public struct Item: Priced, Codable {
    public let name: String
    public let cents: Int
    public var tags: [String] = []

    public init(name: String, cents: Int) {
        self.name = name
        self.cents = cents
    }

    public func price() -> Int { cents }

    public func withTag(_ tag: String) throws -> Item {
        if tag.isEmpty { throw ItemError.emptyTag }
        var copy = self
        copy.tags.append(tag)
        return copy
    }

    public enum Kind { case food, tool }
}

public enum ItemError: Error {
    case emptyTag
    case negativePrice(Int)
}
