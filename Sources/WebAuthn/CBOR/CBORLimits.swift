/// Bounds applied while decoding CBOR, so that no input can cause deep recursion or a large allocation.
public struct CBORLimits: Sendable, Hashable {
    /// The largest encoded input accepted, in bytes.
    public var maximumInputSize: Int
    /// How deeply arrays and maps may nest.
    public var maximumDepth: Int
    /// How many data items the whole input may contain.
    public var maximumItemCount: Int

    /// Whether map keys must be in the CTAP2 canonical order. Duplicate keys are always rejected.
    public var requireCanonicalMapOrder: Bool

    public init(
        maximumInputSize: Int = 64 * 1024,
        maximumDepth: Int = 16,
        maximumItemCount: Int = 4096,
        requireCanonicalMapOrder: Bool = true
    ) {
        self.maximumInputSize = maximumInputSize
        self.maximumDepth = maximumDepth
        self.maximumItemCount = maximumItemCount
        self.requireCanonicalMapOrder = requireCanonicalMapOrder
    }

    public static let `default` = CBORLimits()
}
