import Foundation

/// Writes JSON byte for byte as `JSONEncoder` does with the API's settings (`.sortedKeys`,
/// `.withoutEscapingSlashes`) for the values it supports, without building an intermediate tree.
///
/// The caller writes members in sorted order (UTF-8 byte order, as `.sortedKeys` sorts) and skips absent
/// optionals, as `encodeIfPresent` does. A value the writer does not reproduce exactly (a non-finite number, a
/// date outside the years 1970 to 9999) marks it ``isComplete`` false, and the caller encodes with
/// `JSONEncoder` instead, which gives the result or the error it always did.
struct JSONWriter {
    enum DateFormat {
        /// `JSONEncoder.DateEncodingStrategy.iso8601`: `2026-11-26T07:12:30Z`, whole seconds, UTC.
        case iso8601
        /// `.secondsSince1970`: the `Double`, as `JSONEncoder` writes numbers.
        case secondsSince1970
    }

    private(set) var bytes: [UInt8] = []
    let dates: DateFormat
    /// False once a value was met that only `JSONEncoder` writes exactly.
    private(set) var isComplete = true
    /// Whether the next member or element follows another.
    private var needsComma = false

    init(dates: DateFormat) {
        self.dates = dates
        bytes.reserveCapacity(512)
    }

    /// `value`'s JSON, or nil when the writer cannot reproduce `JSONEncoder`'s exactly.
    static func write(_ value: some JSONWritable, dates: DateFormat) -> [UInt8]? {
        var writer = JSONWriter(dates: dates)
        value.write(to: &writer)
        return writer.isComplete ? writer.bytes : nil
    }

    // MARK: Structure

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func array<Element>(_ elements: [Element], _ body: (inout JSONWriter, Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for element in elements { body(&self, element) }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Starts a member: its key, which must need no escaping (our keys are ASCII names).
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        literal(name)
        literal("\":")
        needsComma = false
    }

    private mutating func literal(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Starts a member whose key is a run-time string (a dictionary's).
    mutating func key(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    // MARK: Values

    mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var clean = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == 0x5C {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<index]))
                escape(byte)
                clean = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `JSONEncoder`'s escapes: the short forms for `"`, `\`, backspace, tab, newline, form feed and carriage
    /// return, `\u00xx` (lowercase hex) for the other control characters; everything else as it is.
    private mutating func escape(_ byte: UInt8) {
        let short: UInt8? =
            switch byte {
            case UInt8(ascii: "\""): UInt8(ascii: "\"")
            case 0x5C: 0x5C
            case 0x08: UInt8(ascii: "b")
            case 0x09: UInt8(ascii: "t")
            case 0x0A: UInt8(ascii: "n")
            case 0x0C: UInt8(ascii: "f")
            case 0x0D: UInt8(ascii: "r")
            default: nil
            }
        bytes.append(0x5C)
        if let short {
            bytes.append(short)
            return
        }
        literal("u00")
        for nibble in [byte >> 4, byte & 0xF] {
            bytes.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
        }
    }

    mutating func null() {
        separate()
        literal("null")
    }

    mutating func bool(_ value: Bool) {
        separate()
        literal(value ? "true" : "false")
    }

    mutating func integer(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// As `JSONEncoder` writes a `Double`: its description without a trailing `.0`.
    mutating func number(_ value: Double) {
        guard value.isFinite else {
            isComplete = false
            return
        }
        separate()
        let text = value.description
        bytes.append(contentsOf: text.hasSuffix(".0") ? text.utf8.dropLast(2) : text.utf8[...])
    }

    mutating func date(_ value: Date) {
        switch dates {
        case .secondsSince1970: number(value.timeIntervalSince1970)
        case .iso8601: iso8601(value)
        }
    }

    /// `yyyy-MM-ddTHH:mm:ssZ` in UTC, the fraction of the second dropped (rounded down, as `JSONEncoder` does).
    private mutating func iso8601(_ value: Date) {
        let interval = value.timeIntervalSince1970.rounded(.down)
        // Year 10000 and later have a fifth digit; before 1970 would need negative days.
        guard interval >= 0, interval < 253_402_300_800 else {
            isComplete = false
            return
        }
        separate()
        let seconds = Int(interval)
        let (year, month, day) = Self.civilDate(daysSince1970: seconds / 86_400)
        let time = seconds % 86_400
        bytes.append(UInt8(ascii: "\""))
        padded(year, width: 4)
        bytes.append(UInt8(ascii: "-"))
        padded(month, width: 2)
        bytes.append(UInt8(ascii: "-"))
        padded(day, width: 2)
        bytes.append(UInt8(ascii: "T"))
        padded(time / 3600, width: 2)
        bytes.append(UInt8(ascii: ":"))
        padded(time / 60 % 60, width: 2)
        bytes.append(UInt8(ascii: ":"))
        padded(time % 60, width: 2)
        literal("Z\"")
    }

    private mutating func padded(_ value: Int, width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (0 or later).
    static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        // Counted in 400-year eras from 0000-03-01, so that the leap day ends each year.
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
