public import X509

extension MetadataBLOB {
    /// What a BLOB says about one authenticator model.
    public enum Lookup: Sendable {
        /// The model's entry.
        case found(MetadataEntry)
        /// The BLOB does not list the model.
        case absent
        /// The BLOB lists the model, but no entry for it can be used: it is listed by more than one entry, or its
        /// entry is set aside (see ``MetadataBLOB/unusableEntries``). `reason` names the entries and the problem.
        case unusable(reason: String)

        /// The entry, when one was found.
        public var entry: MetadataEntry? {
            if case .found(let entry) = self { entry } else { nil }
        }
    }

    /// The FIDO2 model with this AAGUID.
    public func lookup(aaguid: AAGUID) -> Lookup {
        index.lookup(index.byAAGUID[aaguid])
    }

    /// The U2F model whose attestation certificates have this key identifier (40 hex digits, either case).
    public func lookup(attestationCertificateKeyIdentifier identifier: String) -> Lookup {
        index.lookup(index.byKeyIdentifier[identifier.lowercased()])
    }

    /// The U2F model that issued this attestation certificate, by its key identifier.
    public func lookup(attestationCertificate certificate: Certificate) -> Lookup {
        lookup(attestationCertificateKeyIdentifier: certificate.attestationCertificateKeyIdentifier)
    }

    /// A BLOB's entries sorted into usable and set aside, and the lookup tables of their models. A model (AAGUID or
    /// key identifier) listed by more than one entry is ambiguous: every entry that lists it is set aside, so that
    /// neither entry's roots or status is applied to the other's authenticators.
    struct Index: Sendable {
        enum Target: Sendable {
            case entry(Int)
            case unusable(String)
        }

        private(set) var entries: [MetadataEntry] = []
        private(set) var unusableEntries: [UnusableMetadataEntry] = []
        private(set) var byAAGUID: [AAGUID: Target] = [:]
        private(set) var byKeyIdentifier: [String: Target] = [:]

        init(_ decoded: [MetadataBLOBPayload.DecodedEntry]) {
            var aaguidListers = [AAGUID: [Int]]()
            var keyIdentifierListers = [String: [Int]]()
            for item in decoded {
                if let aaguid = item.aaguid { aaguidListers[aaguid, default: []].append(item.index) }
                for identifier in item.keyIdentifiers {
                    keyIdentifierListers[identifier, default: []].append(item.index)
                }
            }
            for item in decoded {
                var problems = [String]()
                if case .failure(let problem) = item.content { problems.append(problem.reason) }
                if let aaguid = item.aaguid, let listers = aaguidListers[aaguid], listers.count > 1 {
                    problems.append(
                        "its AAGUID \(aaguid) is also listed by \(Self.name(listers, excluding: item.index))"
                    )
                }
                let shared = item.keyIdentifiers.filter { keyIdentifierListers[$0, default: []].count > 1 }
                if let first = shared.first {
                    let others = Self.name(keyIdentifierListers[first, default: []], excluding: item.index)
                    let more = shared.count > 1 ? " (and \(shared.count - 1) more of its key identifiers)" : ""
                    problems.append(
                        "its attestation certificate key identifier \(first)\(more) is also listed by \(others)"
                    )
                }
                if case .success(let entry) = item.content, problems.isEmpty {
                    if let aaguid = item.aaguid { byAAGUID[aaguid] = .entry(entries.count) }
                    for identifier in item.keyIdentifiers { byKeyIdentifier[identifier] = .entry(entries.count) }
                    entries.append(entry)
                    continue
                }
                let reason = problems.joined(separator: "; ")
                unusableEntries.append(
                    UnusableMetadataEntry(
                        index: item.index,
                        aaguid: item.aaguid,
                        attestationCertificateKeyIdentifiers: item.keyIdentifiers,
                        reason: reason
                    )
                )
                func unusable(_ listers: [Int]) -> Target {
                    .unusable(
                        listers.count > 1
                            ? "it is listed by more than one entry (\(Self.name(listers)))"
                            : "its entry, entries[\(item.index)], is set aside: \(reason)"
                    )
                }
                if let aaguid = item.aaguid { byAAGUID[aaguid] = unusable(aaguidListers[aaguid, default: []]) }
                for identifier in item.keyIdentifiers {
                    byKeyIdentifier[identifier] = unusable(keyIdentifierListers[identifier, default: []])
                }
            }
        }

        func lookup(_ target: Target?) -> Lookup {
            switch target {
            case .entry(let position): .found(entries[position])
            case .unusable(let reason): .unusable(reason: reason)
            case nil: .absent
            }
        }

        /// Entries by their position in the payload (but `excluded`), at most five named: a model listed by
        /// thousands of entries costs no more to describe than one listed twice.
        private static func name(_ indices: [Int], excluding excluded: Int? = nil) -> String {
            let named = indices.lazy.filter { $0 != excluded }.prefix(5).map { "entries[\($0)]" }
            let count = indices.count - (excluded == nil ? 0 : 1)
            return named.joined(separator: ", ") + (count > 5 ? " and \(count - 5) more" : "")
        }
    }
}
