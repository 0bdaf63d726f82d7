/// What a render produces: a body (whole, or a stream produced piece by piece), its media
/// type, and the render memory it holds until it has been sent.
/// What `UIGraphicsImageRenderer`'s `pngData()` is to a picture, for any of choreo's formats.
public struct RenderOutput: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        case stream(BodyStream)
    }

    public var body: Body
    /// `application/json`, `application/x-ndjson`, `image/png` or `image/apng`.
    public let contentType: String
    /// Render memory the body holds (``RenderMemory``): kept until the body has been sent,
    /// then returned to the budget.
    public var reservation: RenderMemory.Reservation?

    public init(
        body: Body, contentType: String, reservation: RenderMemory.Reservation? = nil
    ) {
        self.body = body
        self.contentType = contentType
        self.reservation = reservation
    }
}
