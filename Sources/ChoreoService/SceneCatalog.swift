import ChoreoFormat
import ChoreoStorage
import ChoreoTransport

/// Stored scenes (`/v1/scenes…`): a scene is stored only once it has run, read back as sent,
/// listed newest first a page at a time, deleted. Storage errors become ``ServiceError``s.
public struct SceneCatalog: Sendable {
    let store: any Storage

    public init(store: any Storage) { self.store = store }

    /// `POST /v1/scenes`: the document checked and run under `memory`
    /// (``RenderService/checkedForStorage(_:cancellation:memory:)``), then stored.
    public func store(
        _ document: [UInt8], cancellation: Cancellation?, memory: RenderMemory
    ) throws(ServiceError) -> SceneSummary {
        let (name, checked) = try RenderService.checkedForStorage(document, cancellation: cancellation, memory: memory)
        return try ServiceError.storing { () throws(StorageError) in try store.insert(name: name, document: checked) }
    }

    /// `GET /v1/scenes/{id}`, and the scene a frames request renders.
    public func scene(_ id: String) throws(ServiceError) -> SceneRecord {
        let record = try ServiceError.storing { () throws(StorageError) in try store.get(id) }
        guard let record else { throw ServiceError.notFound("No stored scene has the id \(id).") }
        return record
    }

    /// `DELETE /v1/scenes/{id}`.
    public func delete(_ id: String) throws(ServiceError) {
        let deleted = try ServiceError.storing { () throws(StorageError) in try store.delete(id) }
        guard deleted else { throw ServiceError.notFound("No stored scene has the id \(id).") }
    }

    /// `GET /v1/scenes`: a page of stored scenes, newest first: `limit` (1…500, 50 by default)
    /// of them after `cursor` (a previous page's `next`), and the next page's cursor.
    public func list(_ parameters: [(String, String)]) throws(ServiceError) -> (
        items: [SceneSummary], next: Int64?
    ) {
        var limit = 50
        var cursor: Int64?
        var errors: [FieldError] = []
        for (name, value) in parameters {
            switch name {
            case "limit":
                if let n = Int(value), (1...500).contains(n) {
                    limit = n
                } else {
                    errors.append(FieldError(path: "query.limit", message: "must be a whole number from 1 to 500"))
                }
            case "cursor":
                if let n = Int64(value), n > 0 {
                    cursor = n
                } else {
                    errors.append(FieldError(path: "query.cursor", message: "must be a cursor from a previous page"))
                }
            default:
                errors.append(FieldError(path: "query.\(name)", message: "unknown query parameter"))
            }
        }
        if !errors.isEmpty { throw ServiceError.invalidScene(ValidationFailure(errors)) }
        return try ServiceError.storing { () throws(StorageError) in try store.list(limit: limit, after: cursor) }
    }
}
