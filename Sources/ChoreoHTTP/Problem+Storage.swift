import ChoreoStorage

extension Problem {
    /// A storage failure as the client sees it: 503 while the database cannot be reached, 404,
    /// 409 when another writer came first, 500 when what is stored cannot be read.
    static func storage(_ error: StorageError) -> Problem {
        switch error.kind {
        case .unavailable: .unavailable("Storage failed: \(error.message)")
        case .notFound: .notFound(error.message)
        case .conflict: .conflict(error.message)
        case .corrupt: .internalError("Stored data cannot be read: \(error.message)")
        }
    }
}
