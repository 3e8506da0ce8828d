import Foundation
import SwiftASN1
import X509

extension MetadataBLOBPayload {
    /// What is wrong with one value, naming its member. The payload turns it into `METADATA_INVALID`; an entry
    /// turns it into the reason it is set aside.
    struct Problem: Error {
        let reason: String

        init(_ reason: String) { self.reason = reason }
    }

    /// The checks of single values, each naming the member it checks.
    struct Checker {
        let limits: MetadataBLOB.Limits

        func text(_ text: String, _ path: String) throws(Problem) -> String {
            guard !text.isEmpty, text.utf8.count <= limits.maximumStringLength else {
                throw Problem("\(path) must be 1 to \(limits.maximumStringLength) bytes of text")
            }
            return text
        }

        func list<T>(_ items: [T], _ path: String) throws(Problem) -> [T] {
            guard items.count <= limits.maximumListLength else {
                throw Problem(
                    "\(path) has \(items.count) items; the limit is \(limits.maximumListLength)"
                )
            }
            return items
        }

        func date(_ text: String, _ path: String) throws(Problem) -> Date {
            guard let date = MetadataDate.parse(text) else {
                throw Problem("\(path) is not a date of the form YYYY-MM-DD")
            }
            return date
        }

        func aaguid(_ text: String, _ path: String) throws(Problem) -> AAGUID {
            guard let aaguid = AAGUID(uuidString: text) else {
                throw Problem("\(path) is not a UUID (8-4-4-4-12 hex digits)")
            }
            return aaguid
        }

        /// 20 bytes (a SHA-1) in hex; the specification asks for lower case, upper case is read as the same key.
        func keyIdentifier(_ text: String, _ path: String) throws(Problem) -> String {
            let isHex = text.utf8.allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
            }
            guard text.utf8.count == 40, isHex else {
                throw Problem("\(path) is not a key identifier (40 hex digits)")
            }
            return text.lowercased()
        }

        func certificate(_ text: String, _ path: String) throws(Problem) -> Certificate {
            guard text.utf8.count <= limits.maximumCertificateLength else {
                throw Problem(
                    "\(path) is longer than \(limits.maximumCertificateLength) characters"
                )
            }
            guard let der = Data(base64Encoded: text), let certificate = try? Certificate(derEncoded: Array(der))
            else {
                throw Problem("\(path) is not a standard base64 DER certificate")
            }
            return certificate
        }
    }
}
