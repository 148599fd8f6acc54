import Foundation

extension Store: CustomStringConvertible {
    public var description: String { report() }

    /// A one-line report of the store.
    func report() -> String {
        let sum = total()
        audit().record("report")
        return "total \(sum), max discount \(maxDiscount)"
    }

    private func audit() -> Audit { Audit() }
}
