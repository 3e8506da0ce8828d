/// A strict decoder for the CTAP2 canonical CBOR encoding (CTAP 2.2 §8).
///
/// It accepts definite lengths only, shortest-form heads, map keys in canonical order without duplicates,
/// no tags, valid UTF-8 text, and rejects input past the configured ``CBORLimits``.
public struct CBORDecoder: Sendable {
    public var limits: CBORLimits

    public init(limits: CBORLimits = .default) {
        self.limits = limits
    }

    /// Decodes exactly one item; trailing bytes are an error.
    public func decode(_ bytes: [UInt8]) throws(WebAuthnError) -> CBORValue {
        let (value, consumed) = try decodePrefix(bytes[...])
        guard consumed == bytes.count else {
            throw WebAuthnError(
                .malformedCBOR,
                "\(bytes.count - consumed) bytes follow the CBOR item; the structure must end there."
            )
        }
        return value
    }

    /// Decodes one item from the start of `bytes` and returns it with the number of bytes it took.
    public func decodePrefix(_ bytes: ArraySlice<UInt8>) throws(WebAuthnError) -> (CBORValue, Int) {
        guard bytes.count <= limits.maximumInputSize else {
            throw WebAuthnError(
                .inputTooLarge,
                "CBOR input of \(bytes.count) bytes exceeds the limit of \(limits.maximumInputSize)."
            )
        }
        var reader = Reader(bytes: bytes, limits: limits)
        let value = try reader.readItem(depth: 0)
        return (value, reader.position - bytes.startIndex)
    }
}

extension CBORDecoder {
    fileprivate struct Reader {
        let bytes: ArraySlice<UInt8>
        let limits: CBORLimits
        var position: Int
        var itemCount = 0

        init(bytes: ArraySlice<UInt8>, limits: CBORLimits) {
            self.bytes = bytes
            self.limits = limits
            self.position = bytes.startIndex
        }

        var remaining: Int { bytes.endIndex - position }

        static func fail(_ reason: String) -> WebAuthnError { WebAuthnError(.malformedCBOR, reason) }

        mutating func readByte() throws(WebAuthnError) -> UInt8 {
            guard position < bytes.endIndex else { throw Self.fail("The CBOR input ends in the middle of an item.") }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func readBytes(_ count: Int) throws(WebAuthnError) -> ArraySlice<UInt8> {
            guard count <= remaining else {
                throw Self.fail("A CBOR string claims \(count) bytes but only \(remaining) remain.")
            }
            defer { position += count }
            return bytes[position..<position + count]
        }

        /// Reads the argument of a head and checks that it used the shortest form.
        mutating func readArgument(_ additional: UInt8) throws(WebAuthnError) -> UInt64 {
            let value: UInt64
            let minimum: UInt64
            switch additional {
            case 0..<24: return UInt64(additional)
            case 24:
                value = UInt64(try readByte())
                minimum = 24
            case 25:
                value = try readUInt(2)
                minimum = 0x100
            case 26:
                value = try readUInt(4)
                minimum = 0x1_0000
            case 27:
                value = try readUInt(8)
                minimum = 0x1_0000_0000
            case 31: throw Self.fail("Indefinite-length CBOR items are not allowed in the CTAP2 canonical form.")
            default: throw Self.fail("Reserved CBOR additional information value \(additional).")
            }
            guard value >= minimum else {
                throw Self.fail("A CBOR head is not in its shortest form, as the CTAP2 canonical form requires.")
            }
            return value
        }

        mutating func readUInt(_ width: Int) throws(WebAuthnError) -> UInt64 {
            var value: UInt64 = 0
            for byte in try readBytes(width) { value = value << 8 | UInt64(byte) }
            return value
        }

        mutating func readLength(_ additional: UInt8) throws(WebAuthnError) -> Int {
            let length = try readArgument(additional)
            guard length <= UInt64(remaining) else {
                throw Self.fail("A CBOR item claims \(length) elements or bytes but only \(remaining) bytes remain.")
            }
            return Int(length)
        }

        mutating func readItem(depth: Int) throws(WebAuthnError) -> CBORValue {
            itemCount += 1
            guard itemCount <= limits.maximumItemCount else {
                throw WebAuthnError(.inputTooLarge, "The CBOR input has more than \(limits.maximumItemCount) items.")
            }
            let initial = try readByte()
            let major = initial >> 5
            let additional = initial & 0x1F
            switch major {
            case 0:
                return .unsigned(try readArgument(additional))
            case 1:
                return .negative(try readArgument(additional))
            case 2:
                return .bytes(Array(try readBytes(try readLength(additional))))
            case 3:
                let raw = try readBytes(try readLength(additional))
                guard let text = String(validating: raw, as: UTF8.self) else {
                    throw Self.fail("A CBOR text string is not valid UTF-8.")
                }
                return .text(text)
            case 4:
                let count = try readLength(additional)
                try checkDepth(depth)
                var items = [CBORValue]()
                items.reserveCapacity(count)
                for _ in 0..<count { items.append(try readItem(depth: depth + 1)) }
                return .array(items)
            case 5:
                let count = try readLength(additional)
                try checkDepth(depth)
                var entries = [CBORMapEntry]()
                entries.reserveCapacity(count)
                var encodedKeys = [ArraySlice<UInt8>]()
                for _ in 0..<count {
                    let keyStart = position
                    let key = try readItem(depth: depth + 1)
                    let encodedKey = bytes[keyStart..<position]
                    if limits.requireCanonicalMapOrder, let previousKey = encodedKeys.last {
                        guard Self.canonicalOrder(previousKey, encodedKey) else {
                            throw Self.fail(
                                previousKey.elementsEqual(encodedKey)
                                    ? "A CBOR map has a duplicate key."
                                    : "CBOR map keys are not in the CTAP2 canonical order."
                            )
                        }
                    } else if encodedKeys.contains(where: { $0.elementsEqual(encodedKey) }) {
                        throw Self.fail("A CBOR map has a duplicate key.")
                    }
                    encodedKeys.append(encodedKey)
                    entries.append(CBORMapEntry(key, try readItem(depth: depth + 1)))
                }
                return .map(entries)
            case 6:
                throw Self.fail("CBOR tags are not allowed in the CTAP2 canonical form.")
            default:
                return try readSimple(additional)
            }
        }

        mutating func readSimple(_ additional: UInt8) throws(WebAuthnError) -> CBORValue {
            switch additional {
            case 20: return .boolean(false)
            case 21: return .boolean(true)
            case 22: return .null
            case 23: return .undefined
            case 25:
                let bits = UInt16(try readUInt(2))
                return .float(Double(Float16Bits.decode(bits)))
            case 26: return .float(Double(Float(bitPattern: UInt32(try readUInt(4)))))
            case 27: return .float(Double(bitPattern: try readUInt(8)))
            case 31: throw Self.fail("A CBOR 'break' appears outside an indefinite-length item.")
            default: throw Self.fail("CBOR simple value \(additional) is not allowed.")
            }
        }

        func checkDepth(_ depth: Int) throws(WebAuthnError) {
            guard depth < limits.maximumDepth else {
                throw WebAuthnError(
                    .inputTooLarge,
                    "CBOR arrays and maps nest deeper than \(limits.maximumDepth) levels."
                )
            }
        }

        /// CTAP2 canonical key order: shorter encodings first, then bytewise lexicographic.
        /// (For the same major type this equals RFC 7049 §3.9 order; lower major types sort first.)
        static func canonicalOrder(_ lhs: ArraySlice<UInt8>, _ rhs: ArraySlice<UInt8>) -> Bool {
            let lhsMajor = lhs.first! >> 5
            let rhsMajor = rhs.first! >> 5
            if lhsMajor != rhsMajor { return lhsMajor < rhsMajor }
            if lhs.count != rhs.count { return lhs.count < rhs.count }
            return lhs.lexicographicallyPrecedes(rhs)
        }
    }
}

/// IEEE 754 half-precision decoding (no `Float16` on every platform we build for).
private enum Float16Bits {
    static func decode(_ bits: UInt16) -> Float {
        let sign: Float = bits & 0x8000 != 0 ? -1 : 1
        let exponent = Int((bits >> 10) & 0x1F)
        let fraction = Float(bits & 0x3FF)
        switch exponent {
        case 0: return sign * fraction * 0x1p-24
        case 31: return fraction == 0 ? sign * .infinity : .nan
        default: return sign * (1 + fraction / 1024) * Float(sign: .plus, exponent: exponent - 15, significand: 1)
        }
    }
}
