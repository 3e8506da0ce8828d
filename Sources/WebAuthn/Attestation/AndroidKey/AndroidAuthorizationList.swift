import SwiftASN1

/// One `AuthorizationList` of an Android key attestation record: a SEQUENCE of optional,
/// explicitly context-tagged entries (`purpose [1]`, `allApplications [600]`, `origin [702]`, …).
///
/// Only the entries WebAuthn §8.4 checks are decoded. Every other entry is skipped, but must still be
/// an explicit context-specific tag around exactly one value (the schema defines no other kind), and no
/// tag may occur twice. Entry order is not enforced: some devices emit the entries out of schema order.
struct AndroidAuthorizationList: Sendable, Hashable {
    /// Tag numbers of the entries this type decodes.
    enum Tag {
        static let purpose: UInt = 1
        static let allApplications: UInt = 600
        static let origin: UInt = 702
    }

    /// `KM_ORIGIN_GENERATED`: the key was generated in Keymaster/KeyMint.
    static let originGenerated = 0
    /// `KM_PURPOSE_SIGN`: the key may be used to sign.
    static let purposeSign = 2
    /// Bounds on what a list may hold.
    static let maximumEntries = 128
    static let maximumPurposes = 16

    /// `purpose [1] EXPLICIT SET OF INTEGER`, in encoded order; nil when absent.
    let purpose: [Int]?
    /// Whether `allApplications [600] EXPLICIT NULL` is present (the key is usable by every app).
    let allApplications: Bool
    /// `origin [702] EXPLICIT INTEGER`; nil when absent.
    let origin: Int?
    /// The tag numbers of every entry, in encoded order.
    let tags: [UInt]

    init(purpose: [Int]? = nil, allApplications: Bool = false, origin: Int? = nil, tags: [UInt] = []) {
        self.purpose = purpose
        self.allApplications = allApplications
        self.origin = origin
        self.tags = tags
    }

    /// Parses the SEQUENCE node. Throws `ASN1Error` when the structure is not as described above.
    init(node: ASN1Node) throws {
        guard node.identifier == .sequence, case .constructed(let entries) = node.content else {
            throw ASN1Error.unexpectedFieldType(node.identifier)
        }
        var purpose: [Int]?
        var allApplications = false
        var origin: Int?
        var tags = [UInt]()
        for entry in entries {
            guard tags.count < Self.maximumEntries else {
                throw ASN1Error.invalidASN1Object(
                    reason: "an authorization list has more than \(Self.maximumEntries) entries"
                )
            }
            let tag = entry.identifier
            guard tag.tagClass == .contextSpecific else {
                throw ASN1Error.invalidASN1Object(reason: "authorization list entry \(tag) is not context-specific")
            }
            guard !tags.contains(tag.tagNumber) else {
                throw ASN1Error.invalidASN1Object(reason: "authorization list entry [\(tag.tagNumber)] occurs twice")
            }
            tags.append(tag.tagNumber)
            // Every entry is EXPLICIT: a constructed tag around exactly one value.
            let value = try DER.explicitlyTagged(entry, tagNumber: tag.tagNumber, tagClass: .contextSpecific) { $0 }
            switch tag.tagNumber {
            case Tag.purpose:
                purpose = try Self.integerSet(value)
            case Tag.allApplications:
                _ = try ASN1Null(derEncoded: value)
                allApplications = true
            case Tag.origin:
                origin = try Int(derEncoded: value)
            default:
                continue
            }
        }
        self.init(purpose: purpose, allApplications: allApplications, origin: origin, tags: tags)
    }

    /// A `SET OF INTEGER`. Element order is not enforced (the meaning does not depend on it).
    private static func integerSet(_ node: ASN1Node) throws -> [Int] {
        guard node.identifier == .set, case .constructed(let elements) = node.content else {
            throw ASN1Error.unexpectedFieldType(node.identifier)
        }
        var values = [Int]()
        for element in elements {
            guard values.count < Self.maximumPurposes else {
                throw ASN1Error.invalidASN1Object(
                    reason: "a SET OF INTEGER has more than \(Self.maximumPurposes) elements"
                )
            }
            values.append(try Int(derEncoded: element))
        }
        return values
    }
}
