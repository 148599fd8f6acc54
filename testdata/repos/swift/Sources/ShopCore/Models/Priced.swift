/// Something with a price in cents.
public protocol Priced {
    func price() -> Int
    var label: String { get }
}

extension Priced {
    /// The price formatted for people.
    public var label: String { "\(price() / 100).\(price() % 100)" }
}
