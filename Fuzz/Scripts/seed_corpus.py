#!/usr/bin/env python3
"""Writes seed inputs for the fuzz targets from the conformance corpus (cases/*.json).

Usage: seed_corpus.py CASES_DIR CORPUS_DIR
Each case's base64url attestationObject, the authData inside it, its authenticatorData and credential
public key become binary seeds; the responses become seeds for the JSON targets (header line + JSON).
"""
import base64
import glob
import hashlib
import json
import os
import sys


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def auth_data_in(attestation_object):
    """The authData byte string of an attestation object, found by its key (enough for seeds)."""
    at = attestation_object.find(b"hauthData")
    if at < 0:
        return None
    at += len(b"hauthData")
    head = attestation_object[at]
    if head >> 5 != 2:
        return None
    extra = head & 0x1F
    if extra < 24:
        length, start = extra, at + 1
    elif extra in (24, 25, 26):
        width = 1 << (extra - 24)
        length, start = int.from_bytes(attestation_object[at + 1:at + 1 + width], "big"), at + 1 + width
    else:
        return None
    return attestation_object[start:start + length]


def write(folder, data):
    os.makedirs(folder, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def main():
    cases, corpus = sys.argv[1], sys.argv[2]
    count = 0
    for path in sorted(glob.glob(os.path.join(cases, "*.json"))):
        try:
            case = json.load(open(path))
            response = case["response"]
            inner = response.get("response", {})
            expected = case.get("expected", {})
        except (ValueError, KeyError, AttributeError):
            continue
        rp_id = expected.get("rpId")
        rp_id = rp_id[0] if isinstance(rp_id, list) and rp_id else rp_id
        rp_id = rp_id if isinstance(rp_id, str) else ""
        verify_at = expected.get("verifyAt")
        verify_at = str(int(verify_at)) if isinstance(verify_at, (int, float)) else ""
        key = expected.get("credentialPublicKey") or ""
        try:
            if "attestationObject" in inner:
                attestation_object = b64url(inner["attestationObject"])
                write(os.path.join(corpus, "FuzzAttestationObject"), attestation_object)
                write(os.path.join(corpus, "FuzzCBOR"), attestation_object)
                auth_data = auth_data_in(attestation_object)
                if auth_data:
                    write(os.path.join(corpus, "FuzzAuthenticatorData"), auth_data)
            if "authenticatorData" in inner:
                write(os.path.join(corpus, "FuzzAuthenticatorData"), b64url(inner["authenticatorData"]))
            if key:
                write(os.path.join(corpus, "FuzzCBOR"), b64url(key))
                write(os.path.join(corpus, "FuzzAuthenticatorData"), b64url(key))
        except (ValueError, TypeError):
            pass
        header = f"{rp_id}\t{verify_at}\t{key if isinstance(key, str) else ''}\n".encode()
        body = json.dumps(response, separators=(",", ":")).encode()
        write(os.path.join(corpus, "FuzzJSONFastPath"), body)
        if isinstance(inner.get("clientDataJSON"), str):
            try:
                write(os.path.join(corpus, "FuzzJSONFastPath"), b64url(inner["clientDataJSON"]))
            except ValueError:
                pass
        if case.get("ceremony") == "registration":
            write(os.path.join(corpus, "FuzzRegistrationJSON"), header + body)
        elif case.get("ceremony") == "authentication" and key:
            write(os.path.join(corpus, "FuzzAuthenticationJSON"), header + body)
        count += 1
    print(f"seeded from {count} conformance cases into {corpus}")


if __name__ == "__main__":
    main()
