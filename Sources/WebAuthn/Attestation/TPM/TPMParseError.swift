/// Why a TPM marshaled structure (`pubArea`, `certInfo`) could not be decoded.
///
/// The parsers stay independent of an attestation statement; ``TPMAttestation`` turns this into
/// `ATTESTATION_INVALID` with the structure's name in front.
struct TPMParseError: Error, Sendable, Hashable, CustomStringConvertible {
    let reason: String

    init(_ reason: String) { self.reason = reason }

    var description: String { reason }
}
