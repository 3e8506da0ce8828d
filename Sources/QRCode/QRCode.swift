/// A QR code symbol (ISO/IEC 18004) that holds a payload in byte mode, versions 1–10.
///
/// The encoder picks the smallest version that holds the payload at the requested error correction level,
/// computes the Reed–Solomon codewords, places them, and applies whichever of the eight masks scores the lowest
/// penalty. Render the result with ``svg(moduleSize:quietZone:title:)`` or read it module by module with
/// ``isDark(row:column:)``.
///
/// ```swift
/// let code = try QRCode(text: "https://example.com/approve#pkh_…")
/// let svg = code.svg()
/// ```
public struct QRCode: Sendable, Hashable {
    /// The largest version this encoder produces: 57 × 57 modules, 213 bytes at level M.
    public static let maximumVersion = 10

    /// The symbol's version, 1–10: its size is 17 + 4 × version modules.
    public let version: Int
    /// The error correction level the symbol was encoded with.
    public let errorCorrection: ErrorCorrection
    /// The number of modules on each side, 21 for version 1 up to 57 for version 10, without the quiet zone.
    public var size: Int { matrix.size }
    /// The data mask pattern chosen, 0–7 (§7.8.2).
    public var maskPattern: Int { mask.rawValue }

    let mask: MaskPattern
    let matrix: Matrix

    /// Encodes `bytes` in byte mode.
    ///
    /// - Throws: ``QRCodeError/Code/payloadTooLarge`` when the bytes do not fit in a version 10 symbol at
    ///   `errorCorrection` (213 bytes at level M).
    public init(bytes: [UInt8], errorCorrection: ErrorCorrection = .medium) throws(QRCodeError) {
        try self.init(bytes: bytes, errorCorrection: errorCorrection, mask: nil)
    }

    /// Encodes `bytes` with `mask` when given, else with the mask of lowest penalty.
    init(bytes: [UInt8], errorCorrection: ErrorCorrection, mask forcedMask: MaskPattern?) throws(QRCodeError) {
        guard let version = Self.smallestVersion(holding: bytes.count, errorCorrection: errorCorrection) else {
            let capacity = Self.byteCapacity(version: Self.maximumVersion, errorCorrection: errorCorrection)
            throw QRCodeError(
                .payloadTooLarge,
                "The payload is \(bytes.count) bytes; a version \(Self.maximumVersion) QR code holds at most "
                    + "\(capacity) bytes at error correction level \(errorCorrection.letter). Shorten the payload "
                    + "(for example put an identifier in the link and keep the rest on the server) or choose a "
                    + "lower level."
            )
        }
        let structure = BlockStructure(version: version, level: errorCorrection)
        let data = Codewords.data(bytes, version: version, level: errorCorrection)
        var unmasked = Matrix(version: version)
        unmasked.placeData(Codewords.interleaved(data: data, structure: structure))

        // Every mask is tried; the first with the lowest penalty wins.
        var chosen = (mask: MaskPattern(rawValue: 0), matrix: unmasked, penalty: Int.max)
        for mask in forcedMask.map({ [$0] }) ?? MaskPattern.allCases {
            var candidate = unmasked
            candidate.apply(mask)
            candidate.drawFormatInformation(FormatInformation.bits(level: errorCorrection, mask: mask))
            let penalty = Penalty.score(candidate)
            if penalty < chosen.penalty { chosen = (mask, candidate, penalty) }
        }
        self.version = version
        self.errorCorrection = errorCorrection
        self.mask = chosen.mask
        self.matrix = chosen.matrix
    }

    /// Encodes the UTF-8 bytes of `text` in byte mode (most readers, zbar among them, recognise UTF-8).
    ///
    /// - Throws: ``QRCodeError/Code/payloadTooLarge`` when the text's UTF-8 form does not fit.
    public init(text: String, errorCorrection: ErrorCorrection = .medium) throws(QRCodeError) {
        try self.init(bytes: Array(text.utf8), errorCorrection: errorCorrection)
    }

    /// Whether the module at `row`, `column` (0-based from the top-left corner, both less than ``size``) is dark.
    /// Positions outside the symbol, such as its quiet zone, are light.
    public func isDark(row: Int, column: Int) -> Bool {
        guard (0..<size).contains(row), (0..<size).contains(column) else { return false }
        return matrix[row, column]
    }

    /// How many bytes a symbol of `version` (1–10) holds in byte mode at `errorCorrection`; 0 for other versions.
    public static func byteCapacity(version: Int, errorCorrection: ErrorCorrection = .medium) -> Int {
        guard (1...maximumVersion).contains(version) else { return 0 }
        return Codewords.byteCapacity(version: version, level: errorCorrection)
    }

    /// The smallest version that holds `count` bytes at `errorCorrection`, or nil when none up to 10 does.
    static func smallestVersion(holding count: Int, errorCorrection: ErrorCorrection) -> Int? {
        (1...maximumVersion).first { byteCapacity(version: $0, errorCorrection: errorCorrection) >= count }
    }
}
