/// What every store does.
open class StoreBase {
    let repo: Repository

    init(repo: Repository) {
        self.repo = repo
    }

    func log(_ msg: String) {
        print("[store] \(msg)")
    }

    func total() -> Int {
        fatalError("subclasses total")
    }
}
