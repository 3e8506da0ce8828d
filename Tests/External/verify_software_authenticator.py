"""Verifies swift-passkeys' SoftwareAuthenticator output with py_webauthn, an independent verifier.

The Swift test SoftwareAuthenticatorTests writes one JSON file per switch combination (attestation, counter,
backup flags, resident keys) into the folder named by PASSKEYS_INDEPENDENT_VERIFIER_DIR; this script verifies each
registration and its first sign-in with py_webauthn and prints "N passed, N failed".
"""
import json
import pathlib
import sys

from webauthn import verify_authentication_response, verify_registration_response
from webauthn.helpers import base64url_to_bytes


def main(folder: str) -> int:
    files = sorted(pathlib.Path(folder).glob("*.json"))
    if not files:
        print(f"no responses in {folder}: run the Swift tests with PASSKEYS_INDEPENDENT_VERIFIER_DIR set first")
        return 1
    passed = failed = 0
    for path in files:
        case = json.loads(path.read_text())
        try:
            expected_challenge = base64url_to_bytes(case["challenge"])
            registration = verify_registration_response(
                credential=case["registration"],
                expected_challenge=expected_challenge,
                expected_origin=case["origin"],
                expected_rp_id=case["rpId"],
                require_user_verification=case["requireUserVerification"],
            )
            authentication = verify_authentication_response(
                credential=case["authentication"],
                expected_challenge=expected_challenge,
                expected_origin=case["origin"],
                expected_rp_id=case["rpId"],
                credential_public_key=registration.credential_public_key,
                credential_current_sign_count=registration.sign_count,
                require_user_verification=case["requireUserVerification"],
            )
            print(f"ok   {path.stem}: fmt {registration.fmt}, sign count {authentication.new_sign_count}")
            passed += 1
        except Exception as error:  # report every case, then fail
            print(f"FAIL {path.stem}: {type(error).__name__}: {error}")
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
