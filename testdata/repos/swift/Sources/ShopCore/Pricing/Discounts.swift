import Foundation

/// The largest discount, in percent.
public let maxDiscount = 50

var discountsApplied = 0

/// Takes the discount off a total.
public func applyDiscount(_ total: Int, percent: Int = 10) -> Int {
    precondition(percent <= maxDiscount, "discount too large")
    discountsApplied += 1
    return total - total * percent / 100
}

public enum Rates {
    public static func rate() -> Double {
        ProcessInfo.processInfo.environment["SHOP_SALE"] != nil ? 0.9 : 1.0
    }
}
