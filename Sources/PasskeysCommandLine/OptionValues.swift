import Foundation
import SwiftASN1
import WebAuthn
import X509

/// Parsers for option values. Each throws ``OptionValueError`` with a sentence that says what is wrong;
/// ArgumentParser reports it as bad usage.
enum OptionValues {
    /// A COSE algorithm identifier, as a number (`-7`) or a name this library knows (`ES256`).
    @Sendable static func coseAlgorithm(_ text: String) throws -> COSEAlgorithmIdentifier {
        if let value = Int(text) { return COSEAlgorithmIdentifier(rawValue: value) }
        guard let known = COSEAlgorithmIdentifier.supported.first(where: { $0.name.lowercased() == text.lowercased() })
        else {
            throw OptionValueError(
                "'\(text)' is not a COSE algorithm: give its number (-7 for ES256, -8 EdDSA, -257 RS256, …) or its name."
            )
        }
        return known
    }

    /// Unpadded base64url (as in WebAuthn's JSON), not empty.
    @Sendable static func base64URL(_ text: String) throws -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try Base64URL.decode(text)
        } catch {
            throw OptionValueError("not base64url: \(error.reason)")
        }
        guard !bytes.isEmpty else { throw OptionValueError("the value is empty.") }
        return bytes
    }

    /// A COSE_Key in base64url, as the relying party stored it at registration.
    @Sendable static func coseKey(_ text: String) throws -> COSEKey {
        let bytes = try base64URL(text)
        do {
            return try COSEKey(cborRepresentation: bytes)
        } catch {
            throw OptionValueError(
                "not a valid COSE public key (\(error.code.rawValue)): \(error.reason) Pass the credential public key stored at registration, as base64url COSE (the \"publicKey\" that `passkeys verify registration` prints)."
            )
        }
    }

    /// An ISO 8601 time, such as `2026-01-31T12:00:00Z`, `2026-01-31T12:00:00.5+01:00` or `2026-01-31` (midnight UTC).
    @Sendable static func time(_ text: String) throws -> Date {
        let styles: [Date.ISO8601FormatStyle] = [
            .iso8601,
            Date.ISO8601FormatStyle(includingFractionalSeconds: true),
            Date.ISO8601FormatStyle().year().month().day(),
        ]
        for style in styles {
            if let date = try? style.parse(text) { return date }
        }
        throw OptionValueError(
            "not an ISO 8601 time; write it as 2026-01-31T12:00:00Z (or with an offset such as +01:00, or a date alone)."
        )
    }

    /// The certificates of a trust anchor file: one or more PEM certificates, or a single DER certificate.
    @Sendable static func trustAnchors(_ path: String) throws -> [Certificate] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw OptionValueError("no such file.")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw OptionValueError("the file cannot be read.")
        }
        guard let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN") else {
            do {
                return [try Certificate(derEncoded: Array(data))]
            } catch {
                throw OptionValueError(
                    "the file holds neither PEM certificates (-----BEGIN CERTIFICATE-----) nor a DER certificate."
                )
            }
        }
        let blocks = pemBlocks(text, label: "CERTIFICATE")
        guard !blocks.isEmpty else {
            throw OptionValueError("the file holds no PEM block labelled CERTIFICATE.")
        }
        var certificates = [Certificate]()
        for (index, block) in blocks.enumerated() {
            do {
                certificates.append(try Certificate(pemEncoded: block))
            } catch {
                throw OptionValueError(
                    "certificate \(index + 1) of \(blocks.count) is not a valid X.509 certificate (\(error))."
                )
            }
        }
        return certificates
    }

    /// The PEM blocks of `text` with the given label, each from its BEGIN line to its END line.
    static func pemBlocks(_ text: String, label: String) -> [String] {
        let begin = "-----BEGIN \(label)-----"
        let end = "-----END \(label)-----"
        var blocks = [String]()
        var remainder = text[...]
        while let start = remainder.range(of: begin),
            let stop = remainder.range(of: end, range: start.upperBound..<remainder.endIndex)
        {
            blocks.append(String(remainder[start.lowerBound..<stop.upperBound]))
            remainder = remainder[stop.upperBound...]
        }
        return blocks
    }
}
